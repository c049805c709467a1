//! Writing new articles into the search indexes, once per write batch.
//!
//! In: a transaction and the highest article id already indexed. Out: rows
//! of `articles_fts` (every article) and `articles_fts_cjk` (articles with
//! Han or kana text, the condition of the update and delete triggers of
//! migration 0003), for the articles inserted since.
//!
//! Why not a trigger per insert (as before migration 0010): a statement
//! that fires a trigger opens a statement savepoint, and FTS5 writes the
//! terms it holds for the transaction to a new index segment at every
//! savepoint. With the trigger, each stored article became a segment of its
//! own and FTS5 spent its time merging them; indexed together at the end of
//! the batch, the batch is one flush at commit.
//!
//! Every writer of `articles` rows calls [`index_after`] before anything
//! updates or deletes the new rows (the update and delete triggers remove
//! the old values from the indexes, which must be there).

use rusqlite::Connection;

/// The highest article id (0 when there is none): rows inserted later get
/// higher ids (`INTEGER PRIMARY KEY` without reuse of the maximum).
pub(super) fn last_article_id(conn: &Connection) -> rusqlite::Result<i64> {
    conn.prepare_cached("SELECT coalesce(max(id), 0) FROM articles")?
        .query_row([], |r| r.get(0))
}

/// Index the articles with an id above `after_id`; returns the new highest
/// id, to pass next time.
pub(super) fn index_after(conn: &Connection, after_id: i64) -> rusqlite::Result<i64> {
    let last = last_article_id(conn)?;
    if last <= after_id {
        return Ok(after_id);
    }
    conn.prepare_cached(
        "INSERT INTO articles_fts(rowid, title, text)
         SELECT id, title, text FROM articles WHERE id > ?1",
    )?
    .execute([after_id])?;
    conn.prepare_cached(
        "INSERT INTO articles_fts_cjk(rowid, title, text)
         SELECT id, title, text FROM articles
         WHERE id > ?1 AND (coalesce(title, '') || text) GLOB '*[㐀-䶿一-鿿ぁ-ヿ]*'",
    )?
    .execute([after_id])?;
    Ok(last)
}
