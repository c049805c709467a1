//! The rows both stores read as they read them: the columns to select
//! where they are the same, and one mapping from the row to the public type
//! (a stored article, a kept page, a browsed article, the figures `stats`
//! and `serve` show, a re-extraction's cursor).
//!
//! In: a row, through [`Columns`] (each backend reads its own row type's
//! values; counts are kept as signed integers). Out: the public type, the
//! same on either store.

use super::rules::details::{list_of, opt_flag};
use super::rules::to_u64;
use super::{
    kept_body, method_of_name, DayCount, KeptHeaders, KeptSizes, LanguageCount, ReextractCursor,
    SearchHit, ShapeCounts, SiteRuleStats, StoredArticle, StoredHtml,
};
use crate::extract::Article;

/// The columns [`stored_article`] reads, `a` the article, `s` its site.
pub(crate) const ARTICLE_COLUMNS: &str = "a.id, a.url, s.name, a.fetched_at, a.word_count, \
    a.title, a.author, a.published_at, a.modified_at, a.language, a.canonical_url, a.site_name, \
    a.text, a.method, a.authors, a.description, a.section, a.tags, a.image, a.paywalled";

/// The columns [`stored_html`] reads, `k` the kept page, `s` its site (the
/// status widened: PostgreSQL keeps it in an `integer`).
pub(crate) const KEPT_COLUMNS: &str = "k.article_id, s.name, k.url, CAST(k.status AS BIGINT), \
    k.content_type, k.last_modified, k.etag, k.date, k.fetched_at, k.body_bytes, k.body_zstd";

/// A browsed article as a [`search_hit`] row, `a` the article, `s` its
/// site: its snippet is its text's first 200 characters, its rank 0.
pub(crate) const RECENT_COLUMNS: &str =
    "a.id, a.url, s.name, a.title, substr(a.text, 1, 200), CAST(0 AS DOUBLE PRECISION)";

/// One cell of a row read whole, whatever its column's type (what `copy`
/// moves; a statement that knows its columns reads them through
/// [`Columns`]'s typed getters instead).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Cell {
    Null,
    Int(i64),
    Float(f64),
    Text(String),
    Bytes(Vec<u8>),
    Bool(bool),
}

/// The values of one row, by column index, as a backend reads them.
pub(crate) trait Columns {
    type Error;
    fn int(&self, i: usize) -> Result<i64, Self::Error>;
    fn float(&self, i: usize) -> Result<f64, Self::Error>;
    fn text(&self, i: usize) -> Result<String, Self::Error>;
    fn opt_text(&self, i: usize) -> Result<Option<String>, Self::Error>;
    fn bytes(&self, i: usize) -> Result<Vec<u8>, Self::Error>;
    /// A yes/no column (PostgreSQL's `boolean`, SQLite's 0 or 1).
    fn flag(&self, i: usize) -> Result<bool, Self::Error>;
    /// Column `i` as whatever its type is (NULL included).
    fn cell(&self, i: usize) -> Result<Cell, Self::Error>;
    /// Column `i` holds a value that does not decode (a damaged kept page).
    fn undecodable(&self, i: usize, e: std::io::Error) -> Self::Error;
    /// A count (a negative one, which no store writes, reads as 0).
    fn count(&self, i: usize) -> Result<u64, Self::Error> {
        Ok(to_u64(self.int(i)?))
    }
}

/// A row of [`ARTICLE_COLUMNS`].
pub(crate) fn stored_article<R: Columns + ?Sized>(r: &R) -> Result<StoredArticle, R::Error> {
    let method = method_of_name(r.opt_text(13)?.as_deref());
    // A row written without the list (by a process of an older build on a
    // shared database) has its names in `author` alone.
    let mut authors = list_of(r.opt_text(14)?.as_deref());
    if authors.is_empty() {
        authors.extend(r.opt_text(6)?);
    }
    Ok(StoredArticle {
        id: r.int(0)?,
        url: r.text(1)?,
        site: r.text(2)?,
        fetched_at: r.int(3)?,
        word_count: u64::try_from(r.int(4)?).unwrap_or(0),
        article: Article {
            title: r.opt_text(5)?,
            authors,
            description: r.opt_text(15)?,
            section: r.opt_text(16)?,
            tags: list_of(r.opt_text(17)?.as_deref()),
            image: r.opt_text(18)?,
            paywalled: opt_flag(r.cell(19)?),
            published_at: r.opt_text(7)?,
            modified_at: r.opt_text(8)?,
            language: r.opt_text(9)?,
            canonical_url: r.opt_text(10)?,
            site_name: r.opt_text(11)?,
            text: r.text(12)?,
            method: method.unwrap_or_default(),
            ..Article::default()
        },
        method,
    })
}

/// A row of [`KEPT_COLUMNS`], its body decompressed.
pub(crate) fn stored_html<R: Columns + ?Sized>(r: &R) -> Result<StoredHtml, R::Error> {
    let body_bytes = u64::try_from(r.int(9)?).unwrap_or(0);
    let body = kept_body(&r.bytes(10)?, body_bytes).map_err(|e| r.undecodable(10, e))?;
    Ok(StoredHtml {
        article_id: r.int(0)?,
        site: r.text(1)?,
        url: r.text(2)?,
        status: u16::try_from(r.int(3)?).unwrap_or(0),
        headers: KeptHeaders {
            content_type: r.opt_text(4)?,
            last_modified: r.opt_text(5)?,
            etag: r.opt_text(6)?,
            date: r.opt_text(7)?,
        },
        fetched_at: r.int(8)?,
        body,
    })
}

/// A search hit's row: id, URL, site, title, the text (or its snippet)
/// that `snippet` makes the shown snippet of, and the rank.
pub(crate) fn search_hit<R: Columns + ?Sized>(
    r: &R,
    snippet: impl FnOnce(String) -> String,
) -> Result<SearchHit, R::Error> {
    Ok(SearchHit {
        id: r.int(0)?,
        url: r.text(1)?,
        site: r.text(2)?,
        title: r.opt_text(3)?,
        snippet: snippet(r.text(4)?),
        rank: r.float(5)?,
    })
}

/// A URL shape's row from column `from` on: the shape, then its articles,
/// listings, others and stories (kept as signed integers).
pub(crate) fn shape_counts<R: Columns + ?Sized>(
    r: &R,
    from: usize,
) -> Result<ShapeCounts, R::Error> {
    Ok(ShapeCounts {
        shape: r.text(from)?,
        articles: r.count(from + 1)?,
        listings: r.count(from + 2)?,
        others: r.count(from + 3)?,
        stories: r.count(from + 4)?,
    })
}

/// A row of (site, day, articles).
pub(crate) fn day_count<R: Columns + ?Sized>(r: &R) -> Result<DayCount, R::Error> {
    Ok(DayCount {
        site: r.text(0)?,
        day: r.text(1)?,
        articles: r.count(2)?,
    })
}

/// A row of (language, articles).
pub(crate) fn language_count<R: Columns + ?Sized>(r: &R) -> Result<LanguageCount, R::Error> {
    Ok(LanguageCount {
        language: r.opt_text(0)?,
        articles: r.count(1)?,
    })
}

/// A row of (pages, their bytes, their compressed bytes).
pub(crate) fn kept_sizes<R: Columns + ?Sized>(r: &R) -> Result<KeptSizes, R::Error> {
    Ok(KeptSizes {
        pages: r.count(0)?,
        body_bytes: r.count(1)?,
        compressed_bytes: r.count(2)?,
    })
}

/// A row of `site_rules`' (display, pages_by_rule, pages_by_tree, dropped).
pub(crate) fn site_rule_stats<R: Columns + ?Sized>(r: &R) -> Result<SiteRuleStats, R::Error> {
    Ok(SiteRuleStats {
        rule: r.opt_text(0)?,
        pages_by_rule: r.count(1)?,
        pages_by_tree: r.count(2)?,
        dropped: r.count(3)?,
    })
}

/// A row of `reextract_progress`' (last_id, seen, changed).
pub(crate) fn reextract_cursor<R: Columns + ?Sized>(r: &R) -> Result<ReextractCursor, R::Error> {
    Ok(ReextractCursor {
        last_id: r.int(0)?,
        seen: r.count(1)?,
        changed: r.count(2)?,
    })
}
