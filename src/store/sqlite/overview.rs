//! The corpus at a glance, for `serve`: articles per day per site, the
//! languages stored, the newest articles of a selection (browsing without a
//! search word), and whether a site is known. In: a [`Selection`]. Out: rows.

use rusqlite::ToSql;
use serde::Serialize;

use super::rows::{day_count, recent_hit, RECENT_COLUMNS};
use super::search::{SelectionArgs, SELECTION_SQL};
use super::{SearchHit, Selection, Store, StoreError};

/// Articles of one site published on one day (UTC).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DayCount {
    pub site: String,
    /// `YYYY-MM-DD`.
    pub day: String,
    pub articles: u64,
}

/// Articles stored in one language.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LanguageCount {
    /// ISO 639-3 code as stored (`eng`, `cmn`), `null` when undetected.
    pub language: Option<String>,
    pub articles: u64,
}

impl Store {
    /// Dated articles per site and publication day (UTC), oldest day first;
    /// the last `max_days` days that have articles.
    pub fn articles_per_day(&self, max_days: usize) -> Result<Vec<DayCount>, StoreError> {
        let max_days = i64::try_from(max_days).unwrap_or(i64::MAX);
        let mut stmt = self.conn.prepare_cached(
            "WITH days AS (
                SELECT DISTINCT date(published_at) AS day FROM articles
                WHERE date(published_at) IS NOT NULL ORDER BY day DESC LIMIT ?1)
             SELECT s.name, date(a.published_at) AS day, count(*)
             FROM articles a JOIN sites s ON s.id = a.site_id
             WHERE date(a.published_at) IN (SELECT day FROM days)
             GROUP BY s.name, day ORDER BY day, s.name",
        )?;
        let rows = stmt.query_map([max_days], |r| day_count(r))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The selected articles, newest publication first (undated last), as
    /// hits whose snippet is the text's beginning and whose rank is 0.
    pub fn recent(
        &self,
        sel: &Selection,
        limit: usize,
        offset: usize,
    ) -> Result<Vec<SearchHit>, StoreError> {
        let args = SelectionArgs::new(self, sel)?;
        let sql = format!(
            "SELECT {RECENT_COLUMNS} FROM articles a JOIN sites s ON s.id = a.site_id
             WHERE 1 {SELECTION_SQL}
             ORDER BY julianday(a.published_at) IS NULL, julianday(a.published_at) DESC, a.id DESC
             LIMIT :limit OFFSET :offset"
        );
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let offset = i64::try_from(offset).unwrap_or(i64::MAX);
        let mut params: Vec<(&str, &dyn ToSql)> = vec![(":limit", &limit), (":offset", &offset)];
        params.extend(args.params());
        let mut stmt = self.conn.prepare_cached(&sql)?;
        let rows = stmt.query_map(params.as_slice(), |r| recent_hit(r))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }
}
