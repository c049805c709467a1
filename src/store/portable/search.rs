//! The search without a full-text index, written once for both stores:
//! queries a word index cannot serve (short Chinese or Japanese terms on
//! SQLite, any Chinese or Japanese on PostgreSQL) match as substrings,
//! ranked by how often the first term occurs in the text.
//!
//! In: the parsed query, the selection's conditions and their [`Args`],
//! and the backend's own parts: how one term is matched (SQLite's `instr`
//! or `LIKE`, PostgreSQL's `ILIKE` over the trigram index's expression)
//! and the condition that keeps the scan to articles holding Han or kana.
//! Out: the hits, best first (then by id), at most `limit`.

use super::selection::{conditions, Args};
use crate::store::query::{Query, Term};
use crate::store::rows::search_hit;
use crate::store::rules::search::{in_cjk_index, SNIPPET_WINDOW};
use crate::store::sql::Sql;
use crate::store::{SearchHit, Selection, StoreError};

/// What a search starts with on either store: the query parsed (its
/// refusal comes first), the selection's conditions (an unknown site
/// next), and `None` for a limit of 0 (nothing to look for).
pub(crate) fn search_start(
    sql: &mut dyn Sql,
    query: &str,
    limit: usize,
    sel: &Selection,
) -> Result<Option<(Query, String, Args)>, StoreError> {
    let query = Query::parse(query)?;
    let mut args = Args::default();
    let cond = conditions(sql, sel, &mut args)?;
    Ok((limit > 0).then_some((query, cond, args)))
}

/// The parts of a substring search each backend writes in its dialect.
pub(crate) struct Substrings<'a> {
    /// The condition matching one term, its values added to the args.
    pub(crate) term: &'a dyn Fn(&Term, &mut Args) -> String,
    /// The ` AND …` keeping the scan to the articles of the backend's index
    /// of Chinese and Japanese text, for a query a clause of which needs
    /// one of its characters ([`in_cjk_index`]); `None` where that index
    /// narrows nothing.
    pub(crate) cjk_only: Option<&'a str>,
    /// The shown snippet from the text and the first term.
    pub(crate) snippet: &'a dyn Fn(&str, &str) -> String,
}

/// The articles matching every clause of `query` (any of its
/// alternatives) and none of its exclusions among those `cond` selects,
/// each hit's snippet made from the first [`SNIPPET_WINDOW`] characters of
/// its text.
pub(crate) fn substring_search(
    sql: &mut dyn Sql,
    query: &Query,
    limit: usize,
    (cond, mut args): (&str, Args),
    parts: &Substrings<'_>,
) -> Result<Vec<SearchHit>, StoreError> {
    let first = query.clauses[0][0].text.as_str();
    let f = args.text(first);
    let filter = query.expression(
        |t| (parts.term)(t, &mut args),
        [" OR ", " AND ", " AND NOT "],
    );
    // Only articles holding Han or kana can match a clause that needs them.
    let cjk = match parts.cjk_only {
        Some(only) if query.needs_char(in_cjk_index) => only,
        _ => "",
    };
    let limit = args.int(limit);
    let statement = format!(
        "SELECT a.id, a.url, s.name, a.title, substr(a.text, 1, {SNIPPET_WINDOW}),
                CAST((length(a.text) - length(replace(a.text, {f}, ''))) / length({f})
                     AS DOUBLE PRECISION) AS hits
         FROM articles a JOIN sites s ON s.id = a.site_id
         WHERE true{cond}{cjk} AND {filter}
         ORDER BY hits DESC, a.id LIMIT {limit}"
    );
    sql.rows(&statement, &args.values(), |r| {
        search_hit(r, |text| (parts.snippet)(&text, first))
    })
}
