//! What `serve` shows besides search on PostgreSQL, as the SQLite store's
//! `store::overview` and `store::kept` give it: browsing the newest
//! articles, articles per day and per language, the kept pages' sizes, one
//! kept page.
//!
//! In: a selection, a page, an article id. Out: the same types and orders
//! either store gives (names and days compared byte-wise, `COLLATE "C"`, as
//! SQLite compares them; NULL languages first, as SQLite sorts NULL).

use super::super::{DayCount, SearchHit, Selection, StoreError};
use super::read::{SelectionSql, PUBLISHED};
use super::PgStore;
use crate::store::rows::{day_count, recent_hit, RECENT_COLUMNS};

impl PgStore {
    /// The selected articles, newest publication first (undated last), as
    /// hits whose snippet is the text's beginning and whose rank is 0.
    pub fn recent(
        &mut self,
        sel: &Selection,
        limit: usize,
        offset: usize,
    ) -> Result<Vec<SearchHit>, StoreError> {
        self.client().batch_execute("SET TIME ZONE 'UTC'")?;
        let mut cond = SelectionSql::new(self.client(), sel, 3)?;
        let sql = format!(
            "SELECT {RECENT_COLUMNS} FROM articles a JOIN sites s ON s.id = a.site_id
             WHERE true {}
             ORDER BY {PUBLISHED} IS NULL, {PUBLISHED} DESC, a.id DESC
             LIMIT $1 OFFSET $2",
            cond.sql
        );
        cond.params
            .insert(0, Box::new(i64::try_from(offset).unwrap_or(i64::MAX)));
        cond.params
            .insert(0, Box::new(i64::try_from(limit).unwrap_or(i64::MAX)));
        let rows = self.client().query(&sql, &cond.refs())?;
        rows.iter().map(recent_hit).collect()
    }

    /// Articles per site and day (UTC) over the latest `max_days` days that
    /// have dated articles, oldest first.
    pub fn articles_per_day(&mut self, max_days: usize) -> Result<Vec<DayCount>, StoreError> {
        self.client().batch_execute("SET TIME ZONE 'UTC'")?;
        let max_days = i64::try_from(max_days).unwrap_or(i64::MAX);
        let day = format!("to_char({PUBLISHED}, 'YYYY-MM-DD')");
        let sql = format!(
            "WITH dated AS (SELECT a.site_id, {day} AS day FROM articles a),
             days AS (SELECT DISTINCT day FROM dated WHERE day IS NOT NULL
                      ORDER BY day DESC LIMIT $1)
             SELECT s.name, d.day, count(*) FROM dated d JOIN sites s ON s.id = d.site_id
             WHERE d.day IN (SELECT day FROM days)
             GROUP BY s.name, d.day ORDER BY d.day, s.name COLLATE \"C\""
        );
        let rows = self.client().query(&sql, &[&max_days])?;
        rows.iter().map(day_count).collect()
    }
}
