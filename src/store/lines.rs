//! The transactional half of boilerplate learning: read and update a site's
//! line counts (`line_hashes`) and RC (`site_stats`) inside the transaction
//! that stores the article, so a crash never double-counts.
//!
//! In: a connection or transaction, a site id, extracted text and the site's
//! [`LineSettings`] (defined in `boilerplate`). Out: the text with boilerplate lines removed
//! ([`Cleaned`]) or, for another rendering of the same text, the hashes of
//! those lines ([`boilerplate_hashes`]); updated counts, and for `stats` the top lines and table size.
//! Hashes are stored as 16-byte BLOBs; every statement is prepared once per
//! connection (`prepare_cached`). Learning also records which lines changed
//! status ([`status`]) so that the re-clean ([`reclean`]) reads only the
//! articles it can change.

use std::collections::{HashMap, HashSet};

use rusqlite::{params, Connection, OptionalExtension, Transaction};

use crate::boilerplate::{
    assemble, distinct_lines, judge, split_lines, LineHash, LineRule, LineSettings, Piece,
    SiteCounts,
};

/// Text after boilerplate removal (`text`, `dropped` lines).
pub type Cleaned = crate::boilerplate::Filtered;

/// The stored sample of a line is cut to this many characters: it is only
/// for `stats`, and long recurring paragraphs would otherwise bloat the
/// table. Lines seen once have none.
pub const SAMPLE_CHARS: usize = 200;

fn to_u64(v: i64) -> u64 {
    u64::try_from(v).unwrap_or(0)
}

fn to_i64(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

/// The first [`SAMPLE_CHARS`] characters of a line.
fn sample(line: &str) -> &str {
    match line.char_indices().nth(SAMPLE_CHARS) {
        Some((at, _)) => &line[..at],
        None => line,
    }
}

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
) -> rusqlite::Result<Cleaned> {
    if !settings.enabled {
        return Ok(unchanged(raw_text));
    }
    let pieces = split_lines(raw_text, &settings.variant);
    learn_and_clean_pieces(tx, site_id, &pieces, settings)
}

/// [`learn_and_clean`] of a text already split ([`split_lines`] with the
/// settings' variant), so a caller that needed the lines first hashes them
/// once. Also records the lines whose status the counts moved
/// (`line_changes`, see [`status`]).
pub fn learn_and_clean_pieces(
    tx: &Transaction<'_>,
    site_id: i64,
    pieces: &[Piece<'_>],
    settings: &LineSettings,
) -> rusqlite::Result<Cleaned> {
    let rule = &settings.rule;
    // A site's first learned article starts its line index (cleaned_with
    // set); a site that already had articles stored without learning does
    // not, so its next re-clean walks them all.
    let (rc, last_prune_rc): (i64, i64) = tx
        .prepare_cached(
            "INSERT INTO site_stats (site_id, articles_processed, cleaned_with)
             VALUES (?1, 1, CASE WHEN EXISTS (SELECT 1 FROM articles WHERE site_id = ?1)
                                 THEN NULL ELSE ?2 END)
             ON CONFLICT (site_id) DO UPDATE SET articles_processed = articles_processed + 1
             RETURNING articles_processed, last_prune_rc",
        )?
        .query_row(params![site_id, settings.judgement_key()], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })?;
    let rc_u = to_u64(rc);
    let mut changed = Vec::new();
    status::threshold_step(tx, site_id, rule, rc_u, &mut changed)?;

    let mut counts = SiteCounts {
        rc: rc_u,
        lc: HashMap::new(),
    };
    {
        // The sample is written when a line recurs (LC 2), not when it is
        // first seen: most lines are body text seen once and pruned, and
        // without their text the table's rows are a fifth as long, so each
        // batch's upserts dirty (and write to the WAL) fewer pages.
        let mut upsert = tx.prepare_cached(
            "INSERT INTO line_hashes (site_id, md5, count, first_seen, last_seen, sample)
             VALUES (?1, ?2, 1, ?3, ?3, '')
             ON CONFLICT (site_id, md5) DO UPDATE SET count = count + 1, last_seen = ?3,
                 sample = CASE WHEN sample = '' THEN ?4 ELSE sample END
             RETURNING count",
        )?;
        for line in distinct_lines(pieces) {
            let lc: i64 = upsert.query_row(
                params![site_id, &line.hash[..], rc, sample(&line.normalized)],
                |r| r.get(0),
            )?;
            let lc = to_u64(lc);
            if status::crossed(rule, lc, rc_u) {
                changed.push(line.hash);
            }
            counts.lc.insert(line.hash, lc);
        }
    }
    let drop = judge(pieces, rule, &settings.variant, &counts);
    let cleaned = assemble(pieces, &drop);

    if to_u64(rc - last_prune_rc) >= settings.prune_every.max(1) {
        prune(tx, site_id, rc, settings, &mut changed)?;
    }
    status::record(tx, site_id, &changed)?;
    Ok(cleaned)
}

fn unchanged(raw_text: &str) -> Cleaned {
    Cleaned {
        text: raw_text.to_string(),
        dropped: 0,
    }
}

/// Delete the site's records with LC ≤ RC × ratio, and remember when.
fn prune(
    tx: &Transaction<'_>,
    site_id: i64,
    rc: i64,
    settings: &LineSettings,
    changed: &mut Vec<crate::boilerplate::LineHash>,
) -> rusqlite::Result<usize> {
    // LC is an integer, so LC ≤ RC·ratio ⟺ LC ≤ floor(RC·ratio).
    let limit = (rc as f64 * settings.prune_ratio).floor() as i64;
    status::pruned_above(tx, site_id, &settings.rule, to_u64(rc), limit, changed)?;
    let deleted = tx
        .prepare_cached("DELETE FROM line_hashes WHERE site_id = ?1 AND count <= ?2")?
        .execute(params![site_id, limit])?;
    tx.prepare_cached("UPDATE site_stats SET last_prune_rc = ?2 WHERE site_id = ?1")?
        .execute(params![site_id, rc])?;
    Ok(deleted)
}

/// RC of a site: articles processed by the line filter (0 if none yet).
pub fn site_rc(conn: &Connection, site_id: i64) -> rusqlite::Result<u64> {
    let rc: Option<i64> = conn
        .prepare_cached("SELECT articles_processed FROM site_stats WHERE site_id = ?1")?
        .query_row(params![site_id], |r| r.get(0))
        .optional()?;
    Ok(rc.map(to_u64).unwrap_or(0))
}

/// The site's current counts for the lines of one text.
fn current_counts(
    conn: &Connection,
    site_id: i64,
    rc: u64,
    pieces: &[Piece<'_>],
) -> rusqlite::Result<SiteCounts> {
    let mut lookup =
        conn.prepare_cached("SELECT count FROM line_hashes WHERE site_id = ?1 AND md5 = ?2")?;
    let mut counts = SiteCounts {
        rc,
        lc: HashMap::new(),
    };
    for line in distinct_lines(pieces) {
        let lc: Option<i64> = lookup
            .query_row(params![site_id, &line.hash[..]], |r| r.get(0))
            .optional()?;
        if let Some(lc) = lc {
            counts.lc.insert(line.hash, to_u64(lc));
        }
    }
    Ok(counts)
}

/// Which pieces of a text the site's counts at `rc` drop (nothing learned):
/// the one judgement behind [`clean_pieces_at`] and [`boilerplate_hashes`].
fn judged_at(
    conn: &Connection,
    site_id: i64,
    rc: u64,
    pieces: &[Piece<'_>],
    settings: &LineSettings,
) -> rusqlite::Result<Vec<bool>> {
    let counts = current_counts(conn, site_id, rc, pieces)?;
    Ok(judge(pieces, &settings.rule, &settings.variant, &counts))
}

/// Clean split text with the site's counts at RC `rc`, learning nothing.
fn clean_pieces_at(
    conn: &Connection,
    site_id: i64,
    rc: u64,
    pieces: &[Piece<'_>],
    settings: &LineSettings,
) -> rusqlite::Result<Cleaned> {
    let drop = judged_at(conn, site_id, rc, pieces, settings)?;
    Ok(assemble(pieces, &drop))
}

/// Clean a text with the site's counts as they are, learning nothing.
/// With learning on, the article's lines are indexed for the re-clean
/// (`article_id`: the stored article the text now is, after a refetch or a
/// re-extraction changed it); with it off, the site is marked for a full
/// re-clean (its articles' lines are not all indexed any more).
pub fn clean_stored_with_current_counts(
    tx: &Transaction<'_>,
    site_id: i64,
    article_id: i64,
    raw_text: &str,
    settings: &LineSettings,
) -> rusqlite::Result<Cleaned> {
    if !settings.enabled {
        status::forget_cleaned_with(tx, site_id)?;
        return Ok(unchanged(raw_text));
    }
    let pieces = split_lines(raw_text, &settings.variant);
    status::index_shared(
        tx,
        site_id,
        article_id,
        distinct_lines(&pieces).iter().map(|l| &l.hash),
    )?;
    let rc = site_rc(tx, site_id)?;
    clean_pieces_at(tx, site_id, rc, &pieces, settings)
}

/// The hashes of the lines of `raw_text` that [`clean_with_current_counts`]
/// would drop: the same judgement, for a caller that removes the lines
/// from another rendering of the same text (the Markdown export). Empty
/// when `settings.enabled` is false; nothing learned.
pub fn boilerplate_hashes(
    conn: &Connection,
    site_id: i64,
    raw_text: &str,
    settings: &LineSettings,
) -> rusqlite::Result<HashSet<LineHash>> {
    if !settings.enabled {
        return Ok(HashSet::new());
    }
    let rc = site_rc(conn, site_id)?;
    let pieces = split_lines(raw_text, &settings.variant);
    let drop = judged_at(conn, site_id, rc, &pieces, settings)?;
    Ok(pieces
        .iter()
        .zip(drop)
        .filter_map(|(piece, d)| match piece {
            Piece::Line(line) if d => Some(line.hash),
            _ => None,
        })
        .collect())
}

/// Clean a text with the site's counts as they are, learning nothing.
pub fn clean_with_current_counts(
    conn: &Connection,
    site_id: i64,
    raw_text: &str,
    settings: &LineSettings,
) -> rusqlite::Result<Cleaned> {
    if !settings.enabled {
        return Ok(unchanged(raw_text));
    }
    let rc = site_rc(conn, site_id)?;
    let pieces = split_lines(raw_text, &settings.variant);
    clean_pieces_at(conn, site_id, rc, &pieces, settings)
}

/// The site's most frequent lines: (sample, LC), most frequent first. A
/// line seen in one article only has an empty sample (see the upsert in
/// [`learn_and_clean_pieces`]).
pub fn top_lines(
    conn: &Connection,
    site_id: i64,
    n: usize,
) -> rusqlite::Result<Vec<(String, u64)>> {
    conn.prepare_cached(
        "SELECT sample, count FROM line_hashes WHERE site_id = ?1
         ORDER BY count DESC, first_seen ASC LIMIT ?2",
    )?
    .query_map(params![site_id, to_i64(n as u64)], |r| {
        Ok((r.get::<_, String>(0)?, to_u64(r.get(1)?)))
    })?
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
pub fn boilerplate_lines(
    conn: &Connection,
    site_id: i64,
    rule: &LineRule,
) -> rusqlite::Result<u64> {
    let rc = site_rc(conn, site_id)?;
    let n: i64 = conn
        .prepare_cached("SELECT count(*) FROM line_hashes WHERE site_id = ?1 AND count > ?2")?
        .query_row(params![site_id, to_i64(rule.threshold(rc))], |r| r.get(0))?;
    Ok(to_u64(n))
}

mod reclean;
pub use reclean::{reclean_changed, reclean_site, Recleaned};
mod status;
pub(super) use status::{forget_cleaned_with, index_shared};

#[cfg(test)]
mod tests;
