//! Reading single articles and pages of them back, as `show` and `serve`
//! do: one article by id or URL, the newest of a selection, articles per
//! day, a site's most recurring lines. One text for both stores.
//!
//! In: an article reference, a [`Selection`] and a page, a site. Out: the
//! same types in the same order on either store (names compared byte-wise
//! as SQLite compares them).

use super::selection::{conditions, published, published_day, utc, Args};
use super::site_id;
use crate::store::rows::{day_count, search_hit, stored_article, ARTICLE_COLUMNS, RECENT_COLUMNS};
use crate::store::rules::search::{article_id, one_line};
use crate::store::sql::{int, Sql};
use crate::store::{
    AnyStore, ArticleRef, DayCount, SearchHit, Selection, StoreError, StoredArticle,
};

/// One article by id, or by any URL that led to it (aliases included; the
/// URL is also tried in normalised form, then as a canonical URL).
pub(crate) fn article(
    sql: &mut dyn Sql,
    r: ArticleRef,
) -> Result<Option<StoredArticle>, StoreError> {
    let at = |url: &str| {
        sql.first(
            "SELECT article_id FROM article_urls WHERE url = ?1
             UNION ALL SELECT id FROM articles WHERE url = ?1
             UNION ALL SELECT id FROM articles WHERE canonical_url = ?1
             LIMIT 1",
            &[url.into()],
            |r| r.int(0),
        )
    };
    let Some(id) = article_id(r, at)? else {
        return Ok(None);
    };
    let query = format!(
        "SELECT {ARTICLE_COLUMNS} FROM articles a JOIN sites s ON s.id = a.site_id
         WHERE a.id = ?1"
    );
    sql.first(&query, &[id.into()], |r| stored_article(r))
}

impl AnyStore {
    /// One article by id, or by any URL that led to it.
    pub fn article(&mut self, r: ArticleRef) -> Result<Option<StoredArticle>, StoreError> {
        article(self.sql(), r)
    }

    /// The selected articles, newest publication first (undated last), as
    /// hits whose snippet is the text's beginning and whose rank is 0.
    pub fn recent(
        &mut self,
        sel: &Selection,
        limit: usize,
        offset: usize,
    ) -> Result<Vec<SearchHit>, StoreError> {
        let sql = self.sql();
        utc(sql)?;
        let mut args = Args::default();
        let (limit, offset) = (args.int(limit), args.int(offset));
        let cond = conditions(sql, sel, &mut args)?;
        let at = published(sql.dialect());
        let query = format!(
            "SELECT {RECENT_COLUMNS} FROM articles a JOIN sites s ON s.id = a.site_id
             WHERE true{cond}
             ORDER BY {at} IS NULL, {at} DESC, a.id DESC
             LIMIT {limit} OFFSET {offset}"
        );
        sql.rows(&query, &args.values(), |r| search_hit(r, |s| one_line(&s)))
    }

    /// Dated articles per site and publication day (UTC), oldest day first;
    /// the last `max_days` days that have articles.
    pub fn articles_per_day(&mut self, max_days: usize) -> Result<Vec<DayCount>, StoreError> {
        let sql = self.sql();
        utc(sql)?;
        let day = published_day(sql.dialect());
        let by_name = sql.dialect().bytewise();
        let query = format!(
            "WITH dated AS (SELECT a.site_id, {day} AS day FROM articles a),
             days AS (SELECT DISTINCT day FROM dated WHERE day IS NOT NULL
                      ORDER BY day DESC LIMIT ?1)
             SELECT s.name, d.day, count(*) FROM dated d JOIN sites s ON s.id = d.site_id
             WHERE d.day IN (SELECT day FROM days)
             GROUP BY s.name, d.day ORDER BY d.day, s.name{by_name}"
        );
        sql.rows(&query, &[int(max_days)], |r| day_count(r))
    }

    /// A site's `n` most recurring lines with their counts (LC), most
    /// first; lines seen in one article only do not recur and are left
    /// out, and an unknown site has none.
    pub fn top_lines(&mut self, site: &str, n: usize) -> Result<Vec<(String, u64)>, StoreError> {
        let sql = self.sql();
        let Some(id) = site_id(sql, site)? else {
            return Ok(Vec::new());
        };
        sql.rows(
            "SELECT sample, count FROM line_hashes WHERE site_id = ?1 AND count > 1
             ORDER BY count DESC, first_seen ASC LIMIT ?2",
            &[id.into(), int(n)],
            |r| Ok((r.text(0)?, r.count(1)?)),
        )
    }
}
