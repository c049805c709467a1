//! Boilerplate learning on PostgreSQL: a site's line counts (`line_hashes`,
//! LC) and RC (`site_stats`) read and updated inside the transaction that
//! stores the article, by any number of processes at once.
//!
//! In: a transaction holding the site's learning lock ([`super::lock_site`]),
//! a site id, an article's lines split by [`split_lines`] and the site's
//! [`LineSettings`]. Out: the text with boilerplate lines removed
//! ([`Cleaned`]), the counts raised by one article, and the records the
//! re-clean reads (`line_changes`, `article_shared_lines`), the same rows
//! the SQLite store's `store::lines` writes.
//!
//! Why the result equals one process seeing the same articles: every count
//! is raised in SQL (`count = line_hashes.count + 1`, `articles_processed =
//! articles_processed + 1`), never written back from what a process read;
//! and the transactions storing articles of one site take that site's lock
//! first, so they run one after another and each sees the counts the ones
//! before it committed (READ COMMITTED: each statement reads what is
//! committed when it starts). The line rows are still touched in md5 order,
//! so two transactions that reach them without the lock cannot deadlock.

use std::collections::HashMap;

use super::sql::Tx;
use postgres::types::Type;

use crate::boilerplate::{
    assemble, distinct_lines, judge, split_lines, LineHash, LineRule, LineSettings, Piece,
    SiteCounts, TextLine,
};
use crate::store::lines::SAMPLE_CHARS;

/// Text after boilerplate removal (`text`, `dropped` lines).
pub(super) type Cleaned = crate::boilerplate::Filtered;

fn to_u64(v: i64) -> u64 {
    u64::try_from(v).unwrap_or(0)
}

fn to_i64(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

/// The first [`SAMPLE_CHARS`] characters of a line (as on SQLite).
fn sample(line: &str) -> &str {
    match line.char_indices().nth(SAMPLE_CHARS) {
        Some((at, _)) => &line[..at],
        None => line,
    }
}

/// The distinct lines of a text in md5 order: the order every statement
/// touches line rows in.
pub(super) fn sorted_lines<'p, 'a>(pieces: &'p [Piece<'a>]) -> Vec<&'p TextLine<'a>> {
    let mut lines = distinct_lines(pieces);
    lines.sort_unstable_by_key(|l| l.hash);
    lines
}

fn hash_of(md5: &[u8]) -> Option<LineHash> {
    LineHash::try_from(md5).ok()
}

/// Learn from one article (each distinct line counted once, RC += 1,
/// periodic pruning) and return its text cleaned with the counts including
/// it; records the lines whose status the counts moved. The pg twin of
/// `store::lines::learn_and_clean_pieces`.
pub(super) fn learn_and_clean(
    tx: &mut Tx<'_, '_>,
    site_id: i64,
    pieces: &[Piece<'_>],
    settings: &LineSettings,
) -> Result<Cleaned, postgres::Error> {
    let rule = &settings.rule;
    // A site's first learned article starts its line index (cleaned_with
    // set); a site that already had articles stored without learning does
    // not, so its next re-clean walks them all.
    let row = tx.query_typed_one(
        "INSERT INTO site_stats (site_id, articles_processed, cleaned_with)
         VALUES ($1, 1, CASE WHEN EXISTS (SELECT 1 FROM articles WHERE site_id = $1)
                             THEN NULL ELSE $2 END)
         ON CONFLICT (site_id) DO UPDATE
             SET articles_processed = site_stats.articles_processed + 1
         RETURNING articles_processed, last_prune_rc",
        &[
            (&site_id, Type::INT8),
            (&settings.judgement_key(), Type::TEXT),
        ],
    )?;
    let (rc, last_prune_rc): (i64, i64) = (row.get(0), row.get(1));
    let rc_u = to_u64(rc);
    let mut changed = Vec::new();
    threshold_step(tx, site_id, rule, rc_u, &mut changed)?;

    // One statement for all the lines, inserted in md5 order. The sample
    // is written when a line recurs (LC 2), as on SQLite: most lines are
    // body text seen once and pruned.
    let lines = sorted_lines(pieces);
    let hashes: Vec<&[u8]> = lines.iter().map(|l| &l.hash[..]).collect();
    let samples: Vec<&str> = lines.iter().map(|l| sample(&l.normalized)).collect();
    let rows = tx.query_typed(
        "INSERT INTO line_hashes AS l (site_id, md5, count, first_seen, last_seen, sample)
         SELECT $1, u.md5, 1, $3, $3, '' FROM unnest($2::bytea[]) WITH ORDINALITY AS u(md5, n)
         ORDER BY u.n
         ON CONFLICT (site_id, md5) DO UPDATE SET count = l.count + 1, last_seen = $3,
             sample = CASE WHEN l.sample = ''
                           THEN ($4::text[])[array_position($2::bytea[], excluded.md5)]
                           ELSE l.sample END
         RETURNING l.md5, l.count",
        &[
            (&site_id, Type::INT8),
            (&hashes, Type::BYTEA_ARRAY),
            (&rc, Type::INT8),
            (&samples, Type::TEXT_ARRAY),
        ],
    )?;
    let mut counts = SiteCounts {
        rc: rc_u,
        lc: HashMap::with_capacity(rows.len()),
    };
    for row in rows {
        let Some(hash) = hash_of(row.get::<_, &[u8]>(0)) else {
            continue;
        };
        let lc = to_u64(row.get(1));
        if crossed(rule, lc, rc_u) {
            changed.push(hash);
        }
        counts.lc.insert(hash, lc);
    }
    let drop = judge(pieces, rule, &settings.variant, &counts);
    let cleaned = assemble(pieces, &drop);

    if to_u64(rc - last_prune_rc) >= settings.prune_every.max(1) {
        prune(tx, site_id, rc, settings, &mut changed)?;
    }
    record_changes(tx, site_id, changed)?;
    Ok(cleaned)
}

/// True when raising a line's LC by one (to `lc`) at RC `rc` changes its
/// status (as `store::lines::status::crossed`).
fn crossed(rule: &LineRule, lc: u64, rc: u64) -> bool {
    rule.status(lc.saturating_sub(1), rc) != rule.status(lc, rc)
}

/// Lines of the site whose status changes when RC goes from `rc - 1` to
/// `rc`: t = int(1 + RC/L) grew, so lines with t_old < LC ≤ t_new (or
/// 2·t_old < LC ≤ 2·t_new) step down.
fn threshold_step(
    tx: &mut Tx<'_, '_>,
    site_id: i64,
    rule: &LineRule,
    rc: u64,
    out: &mut Vec<LineHash>,
) -> Result<(), postgres::Error> {
    let (old, new) = (rule.threshold(rc.saturating_sub(1)), rule.threshold(rc));
    if old == new {
        return Ok(());
    }
    let rows = tx.query_typed(
        "SELECT md5 FROM line_hashes WHERE site_id = $1
         AND ((count > $2 AND count <= $3) OR (count > 2 * $2 AND count <= 2 * $3))",
        &[
            (&site_id, Type::INT8),
            (&to_i64(old), Type::INT8),
            (&to_i64(new), Type::INT8),
        ],
    )?;
    out.extend(rows.iter().filter_map(|r| hash_of(r.get::<_, &[u8]>(0))));
    Ok(())
}

/// Delete the site's records with LC ≤ RC × ratio (recording those whose
/// status was not "kept"), and remember when.
fn prune(
    tx: &mut Tx<'_, '_>,
    site_id: i64,
    rc: i64,
    settings: &LineSettings,
    changed: &mut Vec<LineHash>,
) -> Result<(), postgres::Error> {
    // LC is an integer, so LC ≤ RC·ratio ⟺ LC ≤ floor(RC·ratio).
    let limit = (rc as f64 * settings.prune_ratio).floor() as i64;
    let t = to_i64(settings.rule.threshold(to_u64(rc)));
    if limit > t {
        let rows = tx.query_typed(
            "SELECT md5 FROM line_hashes WHERE site_id = $1 AND count > $2 AND count <= $3",
            &[
                (&site_id, Type::INT8),
                (&t, Type::INT8),
                (&limit, Type::INT8),
            ],
        )?;
        changed.extend(rows.iter().filter_map(|r| hash_of(r.get::<_, &[u8]>(0))));
    }
    tx.execute_typed(
        "DELETE FROM line_hashes WHERE site_id = $1 AND count <= $2",
        &[(&site_id, Type::INT8), (&limit, Type::INT8)],
    )?;
    tx.execute_typed(
        "UPDATE site_stats SET last_prune_rc = $2 WHERE site_id = $1",
        &[(&site_id, Type::INT8), (&rc, Type::INT8)],
    )?;
    Ok(())
}

/// Record that these lines of the site changed status now: every article
/// stored so far that has one of them may need cleaning again.
fn record_changes(
    tx: &mut Tx<'_, '_>,
    site_id: i64,
    mut hashes: Vec<LineHash>,
) -> Result<(), postgres::Error> {
    if hashes.is_empty() {
        return Ok(());
    }
    // A line may be listed twice (the threshold moved and its LC crossed);
    // one upsert must not touch a row twice.
    hashes.sort_unstable();
    hashes.dedup();
    let md5s: Vec<&[u8]> = hashes.iter().map(|h| &h[..]).collect();
    tx.execute_typed(
        "INSERT INTO line_changes AS c (site_id, md5, before_id)
         SELECT $1, u.md5, (SELECT coalesce(max(id), 0) FROM articles)
         FROM unnest($2::bytea[]) AS u(md5) ORDER BY u.md5
         ON CONFLICT (site_id, md5) DO UPDATE
             SET before_id = greatest(c.before_id, excluded.before_id)",
        &[(&site_id, Type::INT8), (&md5s, Type::BYTEA_ARRAY)],
    )?;
    Ok(())
}

/// Index lines of a stored article that `article_lines` does not hold (or
/// may not: after a refetch, all of them). Repeats are ignored.
pub(super) fn index_shared<'h>(
    tx: &mut Tx<'_, '_>,
    site_id: i64,
    article_id: i64,
    hashes: impl IntoIterator<Item = &'h LineHash>,
) -> Result<(), postgres::Error> {
    let md5s: Vec<&[u8]> = hashes.into_iter().map(|h| &h[..]).collect();
    if md5s.is_empty() {
        return Ok(());
    }
    tx.execute_typed(
        "INSERT INTO article_shared_lines (site_id, md5, article_id)
         SELECT $1, u.md5, $3 FROM unnest($2::bytea[]) AS u(md5)
         ON CONFLICT DO NOTHING",
        &[
            (&site_id, Type::INT8),
            (&md5s, Type::BYTEA_ARRAY),
            (&article_id, Type::INT8),
        ],
    )?;
    Ok(())
}

/// The site's articles were written without learning (its line switch off):
/// their lines are not indexed, so its next re-clean must walk them all.
pub(super) fn forget_cleaned_with(
    tx: &mut Tx<'_, '_>,
    site_id: i64,
) -> Result<(), postgres::Error> {
    tx.execute_typed(
        "UPDATE site_stats SET cleaned_with = NULL WHERE site_id = $1 AND cleaned_with IS NOT NULL",
        &[(&site_id, Type::INT8)],
    )?;
    Ok(())
}

/// RC of a site: articles processed by the line filter (0 if none yet).
pub(super) fn site_rc(tx: &mut Tx<'_, '_>, site_id: i64) -> Result<u64, postgres::Error> {
    let row = tx.query_typed_opt(
        "SELECT articles_processed FROM site_stats WHERE site_id = $1",
        &[(&site_id, Type::INT8)],
    )?;
    Ok(row.map_or(0, |r| to_u64(r.get(0))))
}

/// LC of each distinct line of a text (lines never seen, or pruned, are
/// left out: LC 0).
pub(super) fn line_counts(
    tx: &mut Tx<'_, '_>,
    site_id: i64,
    pieces: &[Piece<'_>],
) -> Result<HashMap<LineHash, u64>, postgres::Error> {
    let lines = sorted_lines(pieces);
    let md5s: Vec<&[u8]> = lines.iter().map(|l| &l.hash[..]).collect();
    let rows = tx.query_typed(
        "SELECT md5, count FROM line_hashes WHERE site_id = $1 AND md5 = ANY($2::bytea[])",
        &[(&site_id, Type::INT8), (&md5s, Type::BYTEA_ARRAY)],
    )?;
    Ok(rows
        .iter()
        .filter_map(|r| Some((hash_of(r.get::<_, &[u8]>(0))?, to_u64(r.get(1)))))
        .collect())
}

/// Clean split text with the site's counts at RC `rc`, learning nothing.
pub(super) fn clean_pieces_at(
    tx: &mut Tx<'_, '_>,
    site_id: i64,
    rc: u64,
    pieces: &[Piece<'_>],
    settings: &LineSettings,
) -> Result<Cleaned, postgres::Error> {
    let counts = SiteCounts {
        rc,
        lc: line_counts(tx, site_id, pieces)?,
    };
    let drop = judge(pieces, &settings.rule, &settings.variant, &counts);
    Ok(assemble(pieces, &drop))
}

/// Clean a refetched article's new text with the site's counts as they
/// are, learning nothing; its lines are indexed for the re-clean (with
/// learning off, the site is marked for a full re-clean instead).
pub(super) fn clean_stored_with_current_counts(
    tx: &mut Tx<'_, '_>,
    site_id: i64,
    article_id: i64,
    raw_text: &str,
    settings: &LineSettings,
) -> Result<Cleaned, postgres::Error> {
    if !settings.enabled {
        forget_cleaned_with(tx, site_id)?;
        return Ok(Cleaned {
            text: raw_text.to_string(),
            dropped: 0,
        });
    }
    let pieces = split_lines(raw_text, &settings.variant);
    let lines = sorted_lines(&pieces);
    index_shared(tx, site_id, article_id, lines.iter().map(|l| &l.hash))?;
    let rc = site_rc(tx, site_id)?;
    clean_pieces_at(tx, site_id, rc, &pieces, settings)
}
