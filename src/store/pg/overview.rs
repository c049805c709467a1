//! What `serve` shows besides search on PostgreSQL, as the SQLite store's
//! `store::overview` and `store::kept` give it: browsing the newest
//! articles, articles per day and per language, the kept pages' sizes, one
//! kept page.
//!
//! In: a selection, a page, an article id. Out: the same types and orders
//! either store gives (names and days compared byte-wise, `COLLATE "C"`, as
//! SQLite compares them; NULL languages first, as SQLite sorts NULL).

use super::super::{
    DayCount, KeptSizes, LanguageCount, SearchHit, Selection, StoreError, StoredHtml,
};
use super::read::{SelectionSql, PUBLISHED};
use super::PgStore;
use crate::store::rows::{
    day_count, kept_sizes, language_count, recent_hit, stored_html, KEPT_COLUMNS, RECENT_COLUMNS,
};

impl PgStore {
    /// Whether the database knows a site of this name.
    pub fn site_known(&mut self, name: &str) -> Result<bool, StoreError> {
        Ok(self
            .client()
            .query_opt("SELECT 1 FROM sites WHERE name = $1", &[&name])?
            .is_some())
    }

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

    /// Articles per language, most first.
    pub fn languages(&mut self) -> Result<Vec<LanguageCount>, StoreError> {
        let rows = self.client().query(
            "SELECT language, count(*) FROM articles GROUP BY language
             ORDER BY 2 DESC, language COLLATE \"C\" NULLS FIRST",
            &[],
        )?;
        rows.iter().map(language_count).collect()
    }

    /// How much the kept pages take.
    pub fn kept_sizes(&mut self) -> Result<KeptSizes, StoreError> {
        let r = self.client().query_one(
            "SELECT count(*), coalesce(sum(body_bytes), 0)::bigint,
                    coalesce(sum(length(body_zstd)), 0)::bigint
             FROM article_html",
            &[],
        )?;
        kept_sizes(&r)
    }

    /// The kept page of one article (`None`: not kept, or no such article).
    pub fn kept_html(&mut self, article_id: i64) -> Result<Option<StoredHtml>, StoreError> {
        let sql = format!(
            "SELECT {KEPT_COLUMNS} FROM article_html k JOIN articles a ON a.id = k.article_id
             JOIN sites s ON s.id = a.site_id
             WHERE k.article_id = $1"
        );
        self.client()
            .query_opt(&sql, &[&article_id])?
            .map(|r| stored_html(&r))
            .transpose()
    }
}
