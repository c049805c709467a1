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

use rusqlite::types::ValueRef;
use rusqlite::Connection;

use crate::store::rules::search::in_cjk_index;

/// The highest article id (0 when there is none): rows inserted later get
/// higher ids (`INTEGER PRIMARY KEY` without reuse of the maximum).
pub(super) fn last_article_id(conn: &Connection) -> rusqlite::Result<i64> {
    conn.prepare_cached("SELECT coalesce(max(id), 0) FROM articles")?
        .query_row([], |r| r.get(0))
}

/// Index the articles with an id above `after_id`; returns the new highest
/// id, to pass next time.
pub(in crate::store) fn index_after(conn: &Connection, after_id: i64) -> rusqlite::Result<i64> {
    let last = last_article_id(conn)?;
    if last <= after_id {
        return Ok(after_id);
    }
    conn.prepare_cached(
        "INSERT INTO articles_fts(rowid, title, text)
         SELECT id, title, text FROM articles WHERE id > ?1",
    )?
    .execute([after_id])?;
    // The trigram index takes the rows that migration 0003's GLOB selects,
    // judged here: SQLite's GLOB walked every character of every article
    // (`patternCompare`, 1.6 % of the crawl's CPU on small pages), a byte
    // scan for the three-byte lead bytes of those blocks is far cheaper.
    let mut cjk = Vec::new();
    {
        let mut new_rows =
            conn.prepare_cached("SELECT id, title, text FROM articles WHERE id > ?1")?;
        let mut rows = new_rows.query([after_id])?;
        while let Some(row) = rows.next()? {
            if has_cjk(text_bytes(row.get_ref(1)?)) || has_cjk(text_bytes(row.get_ref(2)?)) {
                cjk.push(row.get::<_, i64>(0)?);
            }
        }
    }
    // One statement for all of them: a statement per article opened a
    // savepoint each, and FTS5 writes a segment at every savepoint.
    if !cjk.is_empty() {
        let ids: Vec<String> = cjk.iter().map(i64::to_string).collect();
        conn.prepare_cached(
            "INSERT INTO articles_fts_cjk(rowid, title, text)
             SELECT id, title, text FROM articles
             WHERE id IN (SELECT value FROM json_each(?1))",
        )?
        .execute([format!("[{}]", ids.join(","))])?;
    }
    Ok(last)
}

/// A column's text (or blob) as bytes; a number, never CJK, or NULL as none.
fn text_bytes(v: ValueRef<'_>) -> &[u8] {
    v.as_bytes().unwrap_or_default()
}

/// Whether UTF-8 text holds a character of `GLOB '*[㐀-䶿一-鿿ぁ-ヿ]*'`
/// (migration 0003): CJK extension A U+3400–U+4DBF, the unified block
/// U+4E00–U+9FFF, kana U+3041–U+30FF. All are three-byte sequences with a
/// lead byte 0xE3–0xE9, which no other character's encoding contains.
pub(super) fn has_cjk(utf8: &[u8]) -> bool {
    let mut rest = utf8;
    while let Some(at) = rest.iter().position(|b| (0xE3..=0xE9).contains(b)) {
        let [lead, b1, b2, ..] = rest[at..] else {
            return false;
        };
        let c = (u32::from(lead & 0x0F) << 12) | (u32::from(b1 & 0x3F) << 6) | u32::from(b2 & 0x3F);
        if char::from_u32(c).is_some_and(in_cjk_index) {
            return true;
        }
        rest = &rest[at + 1..];
    }
    false
}

#[cfg(test)]
mod tests {
    use super::has_cjk;
    use rusqlite::Connection;

    #[test]
    fn the_cjk_check_agrees_with_the_migrations_glob_on_every_character() {
        let conn = Connection::open_in_memory().unwrap();
        let mut glob = conn
            .prepare("SELECT ?1 GLOB '*[㐀-䶿一-鿿ぁ-ヿ]*'")
            .unwrap();
        let mut cjk = 0;
        for c in (0..0x11_0000).filter_map(char::from_u32).filter(|c| {
            (*c as u32) < 0x1_0000 || (*c as u32).is_multiple_of(97) || (*c as u32) == 0x2_0000
        }) {
            // Each character alone, and inside Latin text as articles have it.
            for text in [c.to_string(), format!("ab {c} cd")] {
                let want: bool = glob.query_row([&text], |r| r.get(0)).unwrap();
                assert_eq!(has_cjk(text.as_bytes()), want, "U+{:04X}", c as u32);
                cjk += usize::from(want);
            }
        }
        // Ext. A, the unified block and kana, twice each.
        assert_eq!(
            cjk,
            2 * ((0x4DBF - 0x3400 + 1) + (0x9FFF - 0x4E00 + 1) + (0x30FF - 0x3041 + 1))
        );
    }
}
