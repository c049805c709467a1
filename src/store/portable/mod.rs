//! The statements both stores run as one text (through [`Sql`]): what a
//! query means is written once here, and each backend keeps only what its
//! database does differently (opening, migrating, the crawl's batched
//! writes, streaming, search).
//!
//! In: a store's connection as [`Sql`] (or the [`AnyStore`] that holds
//! one). Out: the same rows, as the same types, on either store.

mod browse;
mod export;
pub(crate) mod imports;
mod search;
pub(crate) mod selection;
mod with_html;
pub(crate) mod writes;

#[cfg(test)]
pub(crate) use browse::article;
#[cfg(test)]
pub(crate) use export::export;
pub(crate) use search::{search_start, substring_search, Substrings};
pub(crate) use with_html::articles_with_html;
pub(crate) mod requeue;

use super::rows::KEPT_COLUMNS;
use super::rows::{
    kept_sizes, language_count, reextract_cursor, shape_counts, site_rule_stats, stored_html,
};
use super::sql::{int, Sql};
use super::{
    AnyStore, KeptSizes, LanguageCount, ReextractCursor, ShapeCounts, SiteRuleStats, StoreError,
    StoredHtml, STATS_SHAPES,
};

/// The id of the site of this name, if the corpus knows it.
pub(crate) fn site_id(sql: &mut dyn Sql, name: &str) -> Result<Option<i64>, StoreError> {
    sql.first(
        "SELECT id FROM sites WHERE name = ?1",
        &[name.into()],
        |r| r.int(0),
    )
}

/// A site's `tree` rule and its figures (the default when it has none).
pub(crate) fn rule_stats(sql: &mut dyn Sql, site_id: i64) -> Result<SiteRuleStats, StoreError> {
    let row = sql.first(
        "SELECT display, pages_by_rule, pages_by_tree, dropped FROM site_rules
         WHERE site_id = ?1",
        &[site_id.into()],
        |r| site_rule_stats(r),
    )?;
    Ok(row.unwrap_or_default())
}

/// A site's most judged shapes, at most [`STATS_SHAPES`].
pub(crate) fn top_shapes(sql: &mut dyn Sql, site_id: i64) -> Result<Vec<ShapeCounts>, StoreError> {
    sql.rows(
        "SELECT shape, articles, listings, others, stories FROM url_shapes WHERE site_id = ?1
         ORDER BY articles + listings + others + stories DESC, shape LIMIT ?2",
        &[site_id.into(), int(STATS_SHAPES)],
        |r| shape_counts(r, 0),
    )
}

/// The kept page of one article (`None`: not kept, or no such article).
pub(crate) fn kept_html(
    sql: &mut dyn Sql,
    article_id: i64,
) -> Result<Option<StoredHtml>, StoreError> {
    let query = format!(
        "SELECT {KEPT_COLUMNS} FROM article_html k
         JOIN articles a ON a.id = k.article_id JOIN sites s ON s.id = a.site_id
         WHERE k.article_id = ?1"
    );
    sql.first(&query, &[article_id.into()], |r| stored_html(r))
}

impl AnyStore {
    /// Whether the corpus knows a site of this name.
    pub fn site_known(&mut self, name: &str) -> Result<bool, StoreError> {
        Ok(site_id(self.sql(), name)?.is_some())
    }

    /// Articles per language, most first (undetected first among equals).
    pub fn languages(&mut self) -> Result<Vec<LanguageCount>, StoreError> {
        let sql = self.sql();
        let by_name = sql.dialect().bytewise();
        let query = format!(
            "SELECT language, count(*) FROM articles GROUP BY language
             ORDER BY 2 DESC, language{by_name} NULLS FIRST"
        );
        sql.rows(&query, &[], |r| language_count(r))
    }

    /// How much the kept pages take.
    pub fn kept_sizes(&mut self) -> Result<KeptSizes, StoreError> {
        self.sql().one(
            "SELECT count(*), CAST(coalesce(sum(body_bytes), 0) AS BIGINT),
                    CAST(coalesce(sum(length(body_zstd)), 0) AS BIGINT)
             FROM article_html",
            &[],
            |r| kept_sizes(r),
        )
    }

    /// The kept page of one article (`None`: not kept, or no such article).
    pub fn kept_html(&mut self, article_id: i64) -> Result<Option<StoredHtml>, StoreError> {
        kept_html(self.sql(), article_id)
    }

    /// Every site's shape counts: (site name, counts), by site.
    pub fn url_shapes(&mut self) -> Result<Vec<(String, ShapeCounts)>, StoreError> {
        let sql = self.sql();
        let by_name = sql.dialect().bytewise();
        let query = format!(
            "SELECT s.name, u.shape, u.articles, u.listings, u.others, u.stories
             FROM url_shapes u JOIN sites s ON s.id = u.site_id
             ORDER BY s.name{by_name}, u.shape{by_name}"
        );
        sql.rows(&query, &[], |r| Ok((r.text(0)?, shape_counts(r, 1)?)))
    }

    /// One [`SiteStats`](super::SiteStats) per site, in name order (see
    /// `rules::stats`).
    pub fn site_stats(&mut self, line_window: u64) -> Result<Vec<super::SiteStats>, StoreError> {
        super::rules::stats::site_stats(self.sql(), line_window)
    }

    /// Every stored `tree` site rule: (site name, rule JSON), by site name.
    pub fn site_rules(&mut self) -> Result<Vec<(String, String)>, StoreError> {
        let sql = self.sql();
        let by_name = sql.dialect().bytewise();
        let query = format!(
            "SELECT s.name, r.rule FROM site_rules r JOIN sites s ON s.id = r.site_id
             WHERE r.rule IS NOT NULL ORDER BY s.name{by_name}"
        );
        sql.rows(&query, &[], |r| Ok((r.text(0)?, r.text(1)?)))
    }

    /// One site's rule figures ([`StoreError::UnknownSite`] for a site the
    /// corpus does not know).
    pub fn site_rule_stats(&mut self, site: &str) -> Result<SiteRuleStats, StoreError> {
        let sql = self.sql();
        let id = site_id(sql, site)?.ok_or_else(|| StoreError::UnknownSite(site.to_string()))?;
        rule_stats(sql, id)
    }

    /// Where the interrupted re-extraction of selection `key` stands.
    pub fn reextract_cursor(&mut self, key: &str) -> Result<Option<ReextractCursor>, StoreError> {
        self.sql().first(
            "SELECT last_id, seen, changed FROM reextract_progress WHERE selection = ?1",
            &[key.into()],
            |r| reextract_cursor(r),
        )
    }

    /// Forget the cursor of `key` (the run finished).
    pub fn clear_reextract_cursor(&mut self, key: &str) -> Result<(), StoreError> {
        let sql = "DELETE FROM reextract_progress WHERE selection = ?1";
        self.sql().execute(sql, &[key.into()]).map(drop)
    }
}
