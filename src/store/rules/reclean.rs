//! Re-cleaning stored articles with the counts learned since they were
//! cleaned (warm-up repair: a site's first pages are cleaned before its
//! template is known).
//!
//! In: a backend's [`ArticleSql`] inside one transaction per site, a site
//! id and its [`LineSettings`]. Out: articles' `text` (and `word_count`)
//! rewritten where the cleaned text changes, and how many were read and
//! rewritten ([`Recleaned`]).
//!
//! Two ways: [`reclean_all`] reads every article of the site (the
//! `reclean` command, and the repair when the site's articles are not all
//! indexed or were cleaned under other settings); [`reclean_changed`], the
//! end of a crawl, reads only the articles having a line whose status
//! changed after they were cleaned (`line_changes` × the line index, see
//! [`super::learning`]), which leave the same text as the full walk would.

use super::learning::{clean_pieces_at, sorted_lines};
use super::{to_i64, ArticleSql};
use crate::boilerplate::{split_lines, LineHash, LineSettings};
use crate::store::sql::{int, Row, Sql, Value};
use crate::store::StoreError;
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
pub(crate) const RECLEAN_CHUNK: usize = 256;

/// A stored article's texts: (id, text, raw text).
pub(crate) type StoredText = (i64, String, String);

/// The sites of this name (`None`: every site), as (id, name) in id order.
pub(crate) fn sites(
    sql: &mut dyn Sql,
    site: Option<&str>,
) -> Result<Vec<(i64, String)>, StoreError> {
    sql.rows(
        "SELECT id, name FROM sites WHERE CAST(?1 AS TEXT) IS NULL OR name = ?1 ORDER BY id",
        &[site.into()],
        |r| Ok((r.int(0)?, r.text(1)?)),
    )
}

/// The settings the site's articles were last all cleaned with.
fn cleaned_with(sql: &mut dyn Sql, site_id: i64) -> Result<Option<String>, StoreError> {
    let sql_text = "SELECT cleaned_with FROM site_stats WHERE site_id = ?1";
    Ok(sql
        .first(sql_text, &[site_id.into()], |r| r.opt_text(0))?
        .flatten())
}

fn stored_text(r: &Row<'_>) -> Result<StoredText, StoreError> {
    Ok((r.int(0)?, r.text(1)?, r.text(2)?))
}

/// The site's articles with an id above `after_id`, at most `limit`, in id
/// order.
fn articles_after(
    sql: &mut dyn Sql,
    site_id: i64,
    after_id: i64,
    limit: usize,
) -> Result<Vec<StoredText>, StoreError> {
    sql.rows(
        "SELECT id, text, raw_text FROM articles
         WHERE site_id = ?1 AND id > ?2 ORDER BY id LIMIT ?3",
        &[site_id.into(), after_id.into(), int(limit)],
        stored_text,
    )
}

/// Ids of the site's articles having a line that changed status after they
/// were stored (`line_changes` × `article_lines` and
/// `article_shared_lines`), in id order.
fn articles_with_changed_lines(sql: &mut dyn Sql, site_id: i64) -> Result<Vec<i64>, StoreError> {
    sql.rows(
        "SELECT l.article_id FROM line_changes c
         JOIN article_lines l ON l.site_id = c.site_id AND l.md5 = c.md5
         WHERE c.site_id = ?1 AND l.article_id <= c.before_id
         UNION
         SELECT l.article_id FROM line_changes c
         JOIN article_shared_lines l ON l.site_id = c.site_id AND l.md5 = c.md5
         WHERE c.site_id = ?1 AND l.article_id <= c.before_id
         ORDER BY 1",
        &[site_id.into()],
        |r| r.int(0),
    )
}

/// The site's articles of these ids (at most [`RECLEAN_CHUNK`]), in id
/// order.
fn articles_by_id(
    sql: &mut dyn Sql,
    site_id: i64,
    ids: &[i64],
) -> Result<Vec<StoredText>, StoreError> {
    let marks: Vec<String> = (2..ids.len() + 2).map(|n| format!("?{n}")).collect();
    let query = format!(
        "SELECT id, text, raw_text FROM articles
         WHERE site_id = ?1 AND id IN ({}) ORDER BY id",
        marks.join(", ")
    );
    let mut params = vec![site_id.into()];
    params.extend(ids.iter().map(|&id| Value::from(id)));
    sql.rows(&query, &params, stored_text)
}

/// Rewrite an article's cleaned text.
fn set_text(sql: &mut dyn Sql, id: i64, text: &str, word_count: i64) -> Result<(), StoreError> {
    let update = "UPDATE articles SET text = ?2, word_count = ?3 WHERE id = ?1";
    sql.execute(update, &[id.into(), text.into(), word_count.into()])
        .map(drop)
}

/// Every article of the site is clean under `key`: forget the pending
/// changes and record the key.
fn finish_reclean(sql: &mut dyn Sql, site_id: i64, key: &str) -> Result<(), StoreError> {
    sql.execute(
        "DELETE FROM line_changes WHERE site_id = ?1",
        &[site_id.into()],
    )?;
    sql.execute(
        "UPDATE site_stats SET cleaned_with = ?2 WHERE site_id = ?1",
        &[site_id.into(), key.into()],
    )
    .map(drop)
}

/// Which articles a re-clean of a store's sites reads
/// ([`AnyStore::reclean`](crate::store::AnyStore::reclean)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Which {
    /// Every article (the `reclean` command); a site with learning off is
    /// left as it is.
    All,
    /// Only the articles a line's status change can alter (the end of a
    /// crawl): the same texts as `All` leaves.
    Changed,
}

/// Re-clean `sites` (id, name) one after another, each by `in_site` (one
/// transaction a site, the backend's, running [`reclean_site`]), with the
/// settings `settings_for` gives each; the totals.
pub(crate) fn each_site<E>(
    sites: Vec<(i64, String)>,
    which: Which,
    settings_for: impl Fn(&str) -> LineSettings,
    mut in_site: impl FnMut(i64, &LineSettings) -> Result<Recleaned, E>,
) -> Result<Recleaned, E> {
    let mut done = Recleaned::default();
    for (id, name) in sites {
        let settings = settings_for(&name);
        if which == Which::All && !settings.enabled {
            continue;
        }
        let site_done = in_site(id, &settings)?;
        done.examined += site_done.examined;
        done.changed += site_done.changed;
    }
    Ok(done)
}

/// One site's re-clean, of the articles `which` says, holding the site's
/// learning lock.
pub(crate) fn reclean_site<S: ArticleSql + ?Sized>(
    sql: &mut S,
    site_id: i64,
    settings: &LineSettings,
    which: Which,
) -> Result<Recleaned, StoreError> {
    // A crawl storing the site's articles meanwhile waits rather than races.
    sql.lock_sites(&[site_id])?;
    match which {
        Which::All => reclean_all(sql, site_id, settings),
        Which::Changed => reclean_changed(sql, site_id, settings),
    }
}

/// Re-clean every stored article of the site from its raw text with the
/// current counts. A text that would become empty is left as it is. With
/// `settings.enabled` false the stored text goes back to the raw text.
/// When the site's line index is incomplete or was built under other
/// settings (`site_stats.cleaned_with`), every article's lines are indexed
/// on the way, so the next re-clean can be incremental.
pub(crate) fn reclean_all<S: ArticleSql + ?Sized>(
    sql: &mut S,
    site_id: i64,
    settings: &LineSettings,
) -> Result<Recleaned, StoreError> {
    let key = settings.judgement_key();
    let index =
        settings.enabled && cleaned_with(sql.sql(), site_id)?.as_deref() != Some(key.as_str());
    let rc = sql.site_rc(site_id)?;
    let mut done = Recleaned::default();
    let mut after_id = i64::MIN;
    loop {
        let chunk = articles_after(sql.sql(), site_id, after_id, RECLEAN_CHUNK)?;
        let Some(last) = chunk.last() else { break };
        after_id = last.0;
        for (id, text, raw_text) in &chunk {
            if index {
                let pieces = split_lines(raw_text, &settings.variant);
                let hashes: Vec<LineHash> = sorted_lines(&pieces).iter().map(|l| l.hash).collect();
                sql.index_shared(site_id, *id, &hashes)?;
            }
            done.changed += usize::from(reclean_one(
                sql, site_id, rc, *id, text, raw_text, settings,
            )?);
            done.examined += 1;
        }
    }
    if settings.enabled {
        finish_reclean(sql.sql(), site_id, &key)?;
    } else {
        sql.forget_cleaned_with(site_id)?;
    }
    Ok(done)
}

/// Re-clean the site's articles that have a line whose status changed
/// after they were cleaned; the same result as [`reclean_all`] for
/// articles stored with learning on under the current settings. A site
/// whose line index is incomplete (stored before migration 0010, or with
/// learning off for a while) or whose settings changed gets the full walk.
pub(crate) fn reclean_changed<S: ArticleSql + ?Sized>(
    sql: &mut S,
    site_id: i64,
    settings: &LineSettings,
) -> Result<Recleaned, StoreError> {
    if !settings.enabled {
        return Ok(Recleaned::default());
    }
    let key = settings.judgement_key();
    if cleaned_with(sql.sql(), site_id)?.as_deref() != Some(key.as_str()) {
        return reclean_all(sql, site_id, settings);
    }
    let ids = articles_with_changed_lines(sql.sql(), site_id)?;
    let rc = sql.site_rc(site_id)?;
    let mut done = Recleaned::default();
    for chunk in ids.chunks(RECLEAN_CHUNK) {
        for (id, text, raw_text) in articles_by_id(sql.sql(), site_id, chunk)? {
            done.changed += usize::from(reclean_one(
                sql, site_id, rc, id, &text, &raw_text, settings,
            )?);
            done.examined += 1;
        }
    }
    finish_reclean(sql.sql(), site_id, &key)?;
    Ok(done)
}

/// Clean one article again; true when its text changed and was rewritten.
fn reclean_one<S: ArticleSql + ?Sized>(
    sql: &mut S,
    site_id: i64,
    rc: u64,
    id: i64,
    text: &str,
    raw_text: &str,
    settings: &LineSettings,
) -> Result<bool, StoreError> {
    let cleaned = if settings.enabled {
        let pieces = split_lines(raw_text, &settings.variant);
        clean_pieces_at(sql, site_id, rc, &pieces, settings)?.text
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
    set_text(sql.sql(), id, &cleaned, words)?;
    Ok(true)
}
