//! The transactional half of boilerplate learning: a site's line counts
//! (LC, `line_hashes`) and RC (`site_stats`) read and raised inside the
//! transaction that stores the article, so a crash never double-counts;
//! periodic pruning; and the lines whose status changed, which the re-clean
//! reads to touch only the articles it can change.
//!
//! In: a backend's [`ArticleSql`], a site id, a text's lines (split by
//! [`split_lines`]) and the site's [`LineSettings`]. Out: the text with
//! boilerplate lines removed ([`Cleaned`]) or, for another rendering of
//! the same text, the hashes of those lines ([`boilerplate_hashes`]).
//!
//! Why the counts equal those of one process seeing the same articles,
//! even with many processes on one database: every count is raised in SQL
//! (LC + 1, RC + 1), never written back from what was read, and a shared
//! backend serialises one site's learning with a lock
//! ([`ArticleSql::article_site`]).
//!
//! A line's status ([`LineRule::status`]) changes in three ways, each
//! recorded where it happens:
//! 1. RC crosses a multiple of L and t = int(1 + RC/L) grows: lines with
//!    t_old < LC ≤ t_new, or 2·t_old < LC ≤ 2·t_new, step down (one query
//!    every L articles of a site);
//! 2. an article raises a line's LC past t or 2t ([`crossed`], arithmetic);
//! 3. pruning deletes a line whose LC was above t (only when
//!    `prune_ratio` ≥ 1/L).

use std::collections::HashSet;

use super::{to_i64, to_u64, ArticleSql};
use crate::boilerplate::{
    assemble, distinct_lines, judge, split_lines, LineHash, LineRule, LineSettings, Piece,
    SiteCounts, TextLine,
};
use crate::store::StoreError;

/// Text after boilerplate removal (`text`, `dropped` lines).
pub type Cleaned = crate::boilerplate::Filtered;

/// The stored sample of a line is cut to this many characters: it is only
/// for `stats`, and long recurring paragraphs would otherwise bloat the
/// table. Lines seen once have none.
pub const SAMPLE_CHARS: usize = 200;

/// The first [`SAMPLE_CHARS`] characters of a line.
pub(crate) fn sample(line: &str) -> &str {
    match line.char_indices().nth(SAMPLE_CHARS) {
        Some((at, _)) => &line[..at],
        None => line,
    }
}

/// The distinct lines of a text in md5 order: the order every statement
/// touches line rows in.
pub(crate) fn sorted_lines<'p, 'a>(pieces: &'p [Piece<'a>]) -> Vec<&'p TextLine<'a>> {
    let mut lines = distinct_lines(pieces);
    lines.sort_unstable_by_key(|l| l.hash);
    lines
}

fn hashes(lines: &[&TextLine<'_>]) -> Vec<LineHash> {
    lines.iter().map(|l| l.hash).collect()
}

pub(crate) fn unchanged(raw_text: &str) -> Cleaned {
    Cleaned {
        text: raw_text.to_string(),
        dropped: 0,
    }
}

/// True when raising a line's LC by one (to `lc`) at RC `rc` changes its
/// status.
fn crossed(rule: &LineRule, lc: u64, rc: u64) -> bool {
    rule.status(lc.saturating_sub(1), rc) != rule.status(lc, rc)
}

/// Learn from one article (each distinct line counted once, RC += 1,
/// periodic pruning) and return its text cleaned with the counts
/// including it; records the lines whose status the counts moved.
pub(crate) fn learn_and_clean<S: ArticleSql + ?Sized>(
    sql: &mut S,
    site_id: i64,
    pieces: &[Piece<'_>],
    settings: &LineSettings,
) -> Result<Cleaned, StoreError> {
    let rule = &settings.rule;
    // A site's first learned article starts its line index (cleaned_with
    // set); a site that already had articles stored without learning does
    // not, so its next re-clean walks them all.
    let (rc, last_prune_rc) = sql.count_article(site_id, &settings.judgement_key())?;
    let rc_u = to_u64(rc);
    let mut changed = Vec::new();
    let (old, new) = (rule.threshold(rc_u.saturating_sub(1)), rule.threshold(rc_u));
    if old != new {
        let (old, new) = (to_i64(old), to_i64(new));
        let doubled = (old.saturating_mul(2), new.saturating_mul(2));
        changed.extend(sql.lines_counted_within(site_id, [(old, new), doubled])?);
    }

    // The sample is written when a line recurs (LC 2), not when it is
    // first seen: most lines are body text seen once and pruned, and
    // without their text the table's rows are a fifth as long.
    let lines = sorted_lines(pieces);
    let rows: Vec<(LineHash, &str)> = lines
        .iter()
        .map(|l| (l.hash, sample(&l.normalized)))
        .collect();
    let mut counts = SiteCounts {
        rc: rc_u,
        lc: Default::default(),
    };
    for (hash, lc) in sql.count_lines(site_id, &rows, rc)? {
        if crossed(rule, lc, rc_u) {
            changed.push(hash);
        }
        counts.lc.insert(hash, lc);
    }
    let drop = judge(pieces, rule, &settings.variant, &counts);
    let cleaned = assemble(pieces, &drop);

    if to_u64(rc - last_prune_rc) >= settings.prune_every.max(1) {
        prune(sql, site_id, rc, settings, &mut changed)?;
    }
    if !changed.is_empty() {
        // A line may be listed twice (the threshold moved and its LC
        // crossed); one upsert must not touch a row twice.
        changed.sort_unstable();
        changed.dedup();
        sql.record_changes(site_id, &changed)?;
    }
    Ok(cleaned)
}

/// Delete the site's records with LC ≤ RC × ratio (recording those whose
/// status was not "kept": pruning sets their LC to 0), and remember when.
fn prune<S: ArticleSql + ?Sized>(
    sql: &mut S,
    site_id: i64,
    rc: i64,
    settings: &LineSettings,
    changed: &mut Vec<LineHash>,
) -> Result<(), StoreError> {
    // LC is an integer, so LC ≤ RC·ratio ⟺ LC ≤ floor(RC·ratio).
    let limit = (rc as f64 * settings.prune_ratio).floor() as i64;
    let t = to_i64(settings.rule.threshold(to_u64(rc)));
    if limit > t {
        changed.extend(sql.lines_counted_within(site_id, [(t, limit), (t, limit)])?);
    }
    sql.prune_lines(site_id, limit, rc)
}

/// Which pieces of a text the site's counts at `rc` drop (nothing learned).
fn judged_at<S: ArticleSql + ?Sized>(
    sql: &mut S,
    site_id: i64,
    rc: u64,
    pieces: &[Piece<'_>],
    settings: &LineSettings,
) -> Result<Vec<bool>, StoreError> {
    let counts = SiteCounts {
        rc,
        lc: sql.line_counts(site_id, &hashes(&sorted_lines(pieces)))?,
    };
    Ok(judge(pieces, &settings.rule, &settings.variant, &counts))
}

/// Clean split text with the site's counts at RC `rc`, learning nothing.
pub(crate) fn clean_pieces_at<S: ArticleSql + ?Sized>(
    sql: &mut S,
    site_id: i64,
    rc: u64,
    pieces: &[Piece<'_>],
    settings: &LineSettings,
) -> Result<Cleaned, StoreError> {
    let drop = judged_at(sql, site_id, rc, pieces, settings)?;
    Ok(assemble(pieces, &drop))
}

/// Clean a text with the site's counts as they are, learning nothing.
#[cfg(test)]
pub(crate) fn clean_with_current_counts<S: ArticleSql + ?Sized>(
    sql: &mut S,
    site_id: i64,
    raw_text: &str,
    settings: &LineSettings,
) -> Result<Cleaned, StoreError> {
    if !settings.enabled {
        return Ok(unchanged(raw_text));
    }
    let rc = sql.site_rc(site_id)?;
    let pieces = split_lines(raw_text, &settings.variant);
    clean_pieces_at(sql, site_id, rc, &pieces, settings)
}

/// Clean a stored article's new text (after a refetch or a re-extraction
/// changed it) with the site's counts as they are, learning nothing. With
/// learning on, its lines are indexed for the re-clean; with it off, the
/// site is marked for a full re-clean (its articles' lines are not all
/// indexed any more).
pub(crate) fn clean_stored_with_current_counts<S: ArticleSql + ?Sized>(
    sql: &mut S,
    site_id: i64,
    article_id: i64,
    raw_text: &str,
    settings: &LineSettings,
) -> Result<Cleaned, StoreError> {
    if !settings.enabled {
        sql.forget_cleaned_with(site_id)?;
        return Ok(unchanged(raw_text));
    }
    let pieces = split_lines(raw_text, &settings.variant);
    sql.index_shared(site_id, article_id, &hashes(&sorted_lines(&pieces)))?;
    let rc = sql.site_rc(site_id)?;
    clean_pieces_at(sql, site_id, rc, &pieces, settings)
}

/// The hashes of the lines of `raw_text` that cleaning with the site's
/// counts as they are would drop: the same judgement, for a caller that removes the lines
/// from another rendering of the same text (the Markdown export). Empty
/// when `settings.enabled` is false; nothing learned.
pub(crate) fn boilerplate_hashes<S: ArticleSql + ?Sized>(
    sql: &mut S,
    site_id: i64,
    raw_text: &str,
    settings: &LineSettings,
) -> Result<HashSet<LineHash>, StoreError> {
    if !settings.enabled {
        return Ok(HashSet::new());
    }
    let rc = sql.site_rc(site_id)?;
    let pieces = split_lines(raw_text, &settings.variant);
    let drop = judged_at(sql, site_id, rc, &pieces, settings)?;
    Ok(pieces
        .iter()
        .zip(drop)
        .filter_map(|(piece, d)| match piece {
            Piece::Line(line) if d => Some(line.hash),
            _ => None,
        })
        .collect())
}
