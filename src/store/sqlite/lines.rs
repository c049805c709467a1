//! Boilerplate learning on SQLite for callers outside the write batch
//! (tools and benches): the rules of `rules::learning` over this store's
//! connection, and the line table's size (benches).
//!
//! In: a connection or transaction, a site id, extracted text and the
//! site's [`LineSettings`]. Out: the text with boilerplate lines removed
//! ([`Cleaned`]); updated counts.

use rusqlite::{params, Connection, Transaction};

use super::articles::Sqlite;
use super::rules::{learning, to_u64};
use super::StoreError;
use crate::boilerplate::{split_lines, LineSettings};

pub use super::rules::learning::{Cleaned, SAMPLE_CHARS};

/// Learn from one article's extracted text (each distinct line counted once,
/// RC += 1, periodic pruning) and return it with boilerplate lines removed,
/// judged with the counts including this article. Runs inside the caller's
/// transaction. When `settings.enabled` is false the text comes back
/// unchanged and nothing is learned.
pub fn learn_and_clean(
    tx: &Transaction<'_>,
    site_id: i64,
    raw_text: &str,
    settings: &LineSettings,
) -> Result<Cleaned, StoreError> {
    if !settings.enabled {
        return Ok(learning::unchanged(raw_text));
    }
    let pieces = split_lines(raw_text, &settings.variant);
    learning::learn_and_clean(&mut Sqlite(tx), site_id, &pieces, settings)
}

/// RC of a site: articles processed by the line filter (0 if none yet).
#[cfg(test)]
pub fn site_rc(conn: &Connection, site_id: i64) -> Result<u64, StoreError> {
    use super::rules::ArticleSql;
    Sqlite(conn).site_rc(site_id)
}

/// Clean a text with the site's counts as they are, learning nothing.
#[cfg(test)]
pub fn clean_with_current_counts(
    conn: &Connection,
    site_id: i64,
    raw_text: &str,
    settings: &LineSettings,
) -> Result<Cleaned, StoreError> {
    learning::clean_with_current_counts(&mut Sqlite(conn), site_id, raw_text, settings)
}

/// The site's most frequent lines: (sample, LC), most frequent first. A
/// line seen in one article only has an empty sample (it is written when
/// the line recurs).
#[cfg(test)]
pub fn top_lines(
    conn: &Connection,
    site_id: i64,
    n: usize,
) -> rusqlite::Result<Vec<(String, u64)>> {
    conn.prepare_cached(
        "SELECT sample, count FROM line_hashes WHERE site_id = ?1
         ORDER BY count DESC, first_seen ASC LIMIT ?2",
    )?
    .query_map(
        params![site_id, i64::try_from(n).unwrap_or(i64::MAX)],
        |r| Ok((r.get::<_, String>(0)?, to_u64(r.get(1)?))),
    )?
    .collect()
}

/// Rows in the line table for the site.
pub fn table_size(conn: &Connection, site_id: i64) -> rusqlite::Result<u64> {
    let n: i64 = conn
        .prepare_cached("SELECT count(*) FROM line_hashes WHERE site_id = ?1")?
        .query_row(params![site_id], |r| r.get(0))?;
    Ok(to_u64(n))
}

/// Lines of the site currently judged boilerplate by the plain rule.
#[cfg(test)]
pub fn boilerplate_lines(
    conn: &Connection,
    site_id: i64,
    rule: &crate::boilerplate::LineRule,
) -> Result<u64, StoreError> {
    let rc = site_rc(conn, site_id)?;
    let n: i64 = conn
        .prepare_cached("SELECT count(*) FROM line_hashes WHERE site_id = ?1 AND count > ?2")?
        .query_row(
            params![site_id, super::rules::to_i64(rule.threshold(rc))],
            |r| r.get(0),
        )?;
    Ok(to_u64(n))
}

#[cfg(test)]
mod tests;
