//! Re-cleaning stored articles with the counts learned since they were
//! cleaned (warm-up repair: a site's first pages are cleaned before its
//! template is known).
//!
//! In: a transaction, a site id and its [`LineSettings`]. Out: articles'
//! `text` (and `word_count`) rewritten where the cleaned text changes — the
//! FTS triggers follow — and how many were read and rewritten
//! ([`Recleaned`]).
//!
//! Two ways: [`reclean_site`] reads every article of the site (the
//! `reclean` command, and the repair when the site's articles are not all
//! indexed or were cleaned under other settings); [`reclean_changed`], the
//! end of a crawl, reads only the articles having a line whose status
//! changed after they were cleaned (`line_changes` × the line index, see
//! [`super::status`]), which leave the same text as the full walk would.

use std::collections::BTreeSet;

use rusqlite::{params, OptionalExtension, Transaction};

use super::{clean_pieces_at, distinct_lines, site_rc, status, to_i64};
use crate::boilerplate::{split_lines, LineSettings};
use crate::words::word_count;

/// What a re-clean did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Recleaned {
    /// Articles read and judged again.
    pub examined: usize,
    /// Articles whose text changed (rewritten).
    pub changed: usize,
}

/// Articles re-cleaned per query, so a big site never sits in memory at once.
const RECLEAN_CHUNK: i64 = 256;

/// Re-clean every stored article of the site from `articles.raw_text` with
/// the current counts; returns how many changed. A text that would become
/// empty is left as it is. With `settings.enabled` false the stored text
/// goes back to the raw text. When the site's line index is incomplete or was
/// built under other settings (`site_stats.cleaned_with`), every article's
/// lines are indexed on the way, so the next re-clean can be incremental.
pub fn reclean_site(
    tx: &Transaction<'_>,
    site_id: i64,
    settings: &LineSettings,
) -> rusqlite::Result<usize> {
    Ok(reclean_all(tx, site_id, settings)?.changed)
}

fn reclean_all(
    tx: &Transaction<'_>,
    site_id: i64,
    settings: &LineSettings,
) -> rusqlite::Result<Recleaned> {
    let key = settings.judgement_key();
    let index = settings.enabled && cleaned_with(tx, site_id)?.as_deref() != Some(key.as_str());
    let rc = site_rc(tx, site_id)?;
    let mut done = Recleaned::default();
    let mut after_id = i64::MIN;
    loop {
        let chunk: Vec<(i64, String, String)> = tx
            .prepare_cached(
                "SELECT id, text, raw_text FROM articles
                 WHERE site_id = ?1 AND id > ?2 ORDER BY id LIMIT ?3",
            )?
            .query_map(params![site_id, after_id, RECLEAN_CHUNK], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })?
            .collect::<rusqlite::Result<_>>()?;
        let Some(last) = chunk.last() else { break };
        after_id = last.0;
        for (id, text, raw_text) in &chunk {
            if index {
                let pieces = split_lines(raw_text, &settings.variant);
                let hashes = distinct_lines(&pieces).into_iter().map(|l| &l.hash);
                status::index_shared(tx, site_id, *id, hashes)?;
            }
            done.changed +=
                usize::from(reclean_one(tx, site_id, rc, *id, text, raw_text, settings)?);
            done.examined += 1;
        }
    }
    if settings.enabled {
        finish(tx, site_id, &key)?;
    } else {
        status::forget_cleaned_with(tx, site_id)?;
    }
    Ok(done)
}

/// Re-clean the site's articles that have a line whose status changed
/// after they were cleaned; the same result as [`reclean_site`] for
/// articles stored with learning on under the current settings. A site
/// whose line index is incomplete (stored before migration 0010, or with
/// learning off for a while) or whose settings changed gets the full walk.
pub fn reclean_changed(
    tx: &Transaction<'_>,
    site_id: i64,
    settings: &LineSettings,
) -> rusqlite::Result<Recleaned> {
    if !settings.enabled {
        return Ok(Recleaned::default());
    }
    let key = settings.judgement_key();
    if cleaned_with(tx, site_id)?.as_deref() != Some(key.as_str()) {
        return reclean_all(tx, site_id, settings);
    }
    let changes: Vec<(Vec<u8>, i64)> = tx
        .prepare_cached("SELECT md5, before_id FROM line_changes WHERE site_id = ?1")?
        .query_map([site_id], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    let mut ids = BTreeSet::new();
    for table in ["article_lines", "article_shared_lines"] {
        let mut having = tx.prepare_cached(&format!(
            "SELECT article_id FROM {table} WHERE site_id = ?1 AND md5 = ?2 AND article_id <= ?3"
        ))?;
        for (md5, before_id) in &changes {
            for id in having.query_map(params![site_id, md5, before_id], |r| r.get::<_, i64>(0))? {
                ids.insert(id?);
            }
        }
    }
    let rc = site_rc(tx, site_id)?;
    let mut done = Recleaned::default();
    let mut read =
        tx.prepare_cached("SELECT text, raw_text FROM articles WHERE id = ?1 AND site_id = ?2")?;
    for id in ids {
        let Some((text, raw_text)) = read
            .query_row(params![id, site_id], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
            })
            .optional()?
        else {
            continue;
        };
        done.changed += usize::from(reclean_one(
            tx, site_id, rc, id, &text, &raw_text, settings,
        )?);
        done.examined += 1;
    }
    finish(tx, site_id, &key)?;
    Ok(done)
}

/// Clean one article again; true when its text changed and was rewritten.
fn reclean_one(
    tx: &Transaction<'_>,
    site_id: i64,
    rc: u64,
    id: i64,
    text: &str,
    raw_text: &str,
    settings: &LineSettings,
) -> rusqlite::Result<bool> {
    let cleaned = if settings.enabled {
        let pieces = split_lines(raw_text, &settings.variant);
        clean_pieces_at(tx, site_id, rc, &pieces, settings)?.text
    } else {
        raw_text.to_string()
    };
    // An article is never emptied: the store refuses empty articles when
    // writing, and an all-template page is better kept as it was than
    // turned into a blank search hit.
    if cleaned == text || cleaned.trim().is_empty() {
        return Ok(false);
    }
    let words = to_i64(word_count(&cleaned) as u64);
    tx.prepare_cached("UPDATE articles SET text = ?2, word_count = ?3 WHERE id = ?1")?
        .execute(params![id, cleaned, words])?;
    Ok(true)
}

/// The settings the site's articles were last all cleaned with.
fn cleaned_with(tx: &Transaction<'_>, site_id: i64) -> rusqlite::Result<Option<String>> {
    Ok(tx
        .prepare_cached("SELECT cleaned_with FROM site_stats WHERE site_id = ?1")?
        .query_row([site_id], |r| r.get::<_, Option<String>>(0))
        .optional()?
        .flatten())
}

/// Every article of the site is clean under `key`: no change is pending.
fn finish(tx: &Transaction<'_>, site_id: i64, key: &str) -> rusqlite::Result<()> {
    tx.prepare_cached("DELETE FROM line_changes WHERE site_id = ?1")?
        .execute([site_id])?;
    tx.prepare_cached("UPDATE site_stats SET cleaned_with = ?2 WHERE site_id = ?1")?
        .execute(params![site_id, key])?;
    Ok(())
}
