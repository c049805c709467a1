//! The store's decisions, written once for both backends: storing an
//! article ([`article`]: de-duplication by URL, canonical URL and content,
//! near-duplicates, learning, the refetch of a stored article's URL), the
//! share arithmetic of near-duplicates ([`near_dup`]), and boilerplate
//! learning, pruning and judging with a site's counts ([`learning`]).
//!
//! In: a backend's [`ArticleSql`], the SQL these rules need: the
//! statements both stores say alike written once there (over the store's
//! `Sql`), and the primitives that take a whole batch (an article's lines,
//! their owners, its inserts), so PostgreSQL sends one statement over
//! arrays (`unnest`) where SQLite runs a prepared statement in a loop.
//! Out: [`WriteOutcome`]s, cleaned texts and the rows the primitives write.
//!
//! A backend implements the primitives and decides nothing: which article
//! a page duplicates, when a line is boilerplate, when to prune and which
//! lines changed status are answered here.

pub(crate) mod article;
mod article_sql;
pub(crate) mod details;
pub(crate) mod frontier;
pub(crate) mod learning;
pub(crate) mod near_dup;
pub(crate) mod reclean;
pub(crate) mod reextract;
pub(crate) mod search;
pub(crate) mod shapes;
pub(crate) mod stats;

use std::collections::HashMap;

use crate::boilerplate::LineHash;
use crate::extract::Article;

pub(crate) use article_sql::ArticleSql;
pub(crate) use near_dup::Version;

/// An article row as written by an insert or an update.
pub(crate) struct ArticleRow<'a> {
    pub url_id: Option<i64>,
    pub url: &'a str,
    pub site_id: i64,
    /// The extraction's metadata (its text is the raw text, `raw`).
    pub article: &'a Article,
    /// The text after boilerplate removal.
    pub text: &'a str,
    pub raw: &'a str,
    pub content_hash: &'a str,
    pub word_count: i64,
    pub fetched_at: i64,
}

/// The article stored under a URL (`articles.url`).
pub(crate) struct AtUrl {
    pub id: i64,
    pub content_hash: String,
    pub site_id: i64,
}

/// A new article's lines for the near-duplicate and re-clean indexes.
#[derive(Default)]
pub(crate) struct NewLines {
    /// Lines no other article of the site had, with their length in
    /// characters (`article_lines`).
    pub distinctive: Vec<(LineHash, usize)>,
    /// The others (`article_shared_lines`).
    pub shared: Vec<LineHash>,
}

/// LC of a page's lines (lines the site never saw, or pruned, left out) and
/// the stored articles having its distinctive lines, as (line, article).
pub(crate) type PageCounts = (HashMap<LineHash, i64>, Vec<(LineHash, i64)>);

pub(crate) fn to_u64(v: i64) -> u64 {
    u64::try_from(v).unwrap_or(0)
}

pub(crate) fn to_i64(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}
