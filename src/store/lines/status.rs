//! Which lines changed status, and which articles have a line: what the
//! end-of-crawl re-clean needs to touch only the articles it can change
//! (migration 0010).
//!
//! In: a site's counts as learning moves them (RC up by one, the LC of the
//! article's lines up by one, pruned lines gone) and the lines of stored
//! articles. Out: rows of `line_changes` (a line whose status —
//! [`LineRule::status`] — changed, with the highest article id that existed
//! then) and of `article_shared_lines` (with `article_lines`, every line of
//! every article by hash).
//!
//! A status changes in three ways, each recorded where it happens:
//! 1. RC crosses a multiple of L and t = int(1 + RC/L) grows: lines with
//!    t_old < LC ≤ t_new, or 2·t_old < LC ≤ 2·t_new, step down
//!    ([`threshold_step`], one query every L articles of a site);
//! 2. an article raises a line's LC past t or 2t ([`crossed`], arithmetic);
//! 3. pruning deletes a line whose LC was above t (only when
//!    `prune_ratio` ≥ 1/L; [`pruned_above`]).

use rusqlite::{params, Transaction};

use crate::boilerplate::{LineHash, LineRule};

/// Lines of the site whose status changes when RC goes from `rc - 1` to
/// `rc` (the counts before the current article's lines are counted).
pub(super) fn threshold_step(
    tx: &Transaction<'_>,
    site_id: i64,
    rule: &LineRule,
    rc: u64,
    out: &mut Vec<LineHash>,
) -> rusqlite::Result<()> {
    let (old, new) = (rule.threshold(rc.saturating_sub(1)), rule.threshold(rc));
    if old == new {
        return Ok(());
    }
    let mut stmt = tx.prepare_cached(
        "SELECT md5 FROM line_hashes WHERE site_id = ?1
         AND ((count > ?2 AND count <= ?3) OR (count > 2 * ?2 AND count <= 2 * ?3))",
    )?;
    let rows = stmt.query_map(params![site_id, to_i64(old), to_i64(new)], |r| {
        r.get::<_, Vec<u8>>(0)
    })?;
    for md5 in rows {
        if let Ok(hash) = LineHash::try_from(md5?.as_slice()) {
            out.push(hash);
        }
    }
    Ok(())
}

/// True when raising a line's LC by one (to `lc`) at RC `rc` changes its
/// status.
pub(super) fn crossed(rule: &LineRule, lc: u64, rc: u64) -> bool {
    rule.status(lc.saturating_sub(1), rc) != rule.status(lc, rc)
}

/// Lines about to be pruned (LC ≤ `limit`) whose status is not "kept":
/// pruning sets their LC to 0. None unless `limit` exceeds t.
pub(super) fn pruned_above(
    tx: &Transaction<'_>,
    site_id: i64,
    rule: &LineRule,
    rc: u64,
    limit: i64,
    out: &mut Vec<LineHash>,
) -> rusqlite::Result<()> {
    let t = to_i64(rule.threshold(rc));
    if limit <= t {
        return Ok(());
    }
    let mut stmt = tx.prepare_cached(
        "SELECT md5 FROM line_hashes WHERE site_id = ?1 AND count > ?2 AND count <= ?3",
    )?;
    let rows = stmt.query_map(params![site_id, t, limit], |r| r.get::<_, Vec<u8>>(0))?;
    for md5 in rows {
        if let Ok(hash) = LineHash::try_from(md5?.as_slice()) {
            out.push(hash);
        }
    }
    Ok(())
}

/// Record that these lines of the site changed status now: every article
/// stored so far that has one of them may need cleaning again.
pub(super) fn record(
    tx: &Transaction<'_>,
    site_id: i64,
    hashes: &[LineHash],
) -> rusqlite::Result<()> {
    if hashes.is_empty() {
        return Ok(());
    }
    let before_id: i64 = tx
        .prepare_cached("SELECT coalesce(max(id), 0) FROM articles")?
        .query_row([], |r| r.get(0))?;
    let mut upsert = tx.prepare_cached(
        "INSERT INTO line_changes (site_id, md5, before_id) VALUES (?1, ?2, ?3)
         ON CONFLICT (site_id, md5) DO UPDATE SET before_id = max(before_id, excluded.before_id)",
    )?;
    for hash in hashes {
        upsert.execute(params![site_id, &hash[..], before_id])?;
    }
    Ok(())
}

/// Index lines of a stored article that `article_lines` does not hold (or
/// may not: after a refetch or a re-extraction, all of them). Repeats are
/// ignored.
pub(in crate::store) fn index_shared<'h>(
    tx: &Transaction<'_>,
    site_id: i64,
    article_id: i64,
    hashes: impl IntoIterator<Item = &'h LineHash>,
) -> rusqlite::Result<()> {
    let mut insert = tx.prepare_cached(
        "INSERT OR IGNORE INTO article_shared_lines (site_id, md5, article_id) VALUES (?1, ?2, ?3)",
    )?;
    for hash in hashes {
        insert.execute(params![site_id, &hash[..], article_id])?;
    }
    Ok(())
}

/// The site's articles were written without learning (its line switch off):
/// their lines are not indexed, so its next re-clean must walk them all.
pub(in crate::store) fn forget_cleaned_with(
    tx: &Transaction<'_>,
    site_id: i64,
) -> rusqlite::Result<()> {
    tx.prepare_cached(
        "UPDATE site_stats SET cleaned_with = NULL WHERE site_id = ?1 AND cleaned_with IS NOT NULL",
    )?
    .execute([site_id])?;
    Ok(())
}

fn to_i64(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}
