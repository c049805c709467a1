//! The end-of-crawl re-clean on PostgreSQL: the pg twin of
//! `store::lines::reclean` (the reasoning is there).
//!
//! In: a site (or every site) and its [`LineSettings`]. Out: articles'
//! `text` and `word_count` rewritten where cleaning with the current counts
//! changes them, and how many ([`Recleaned`]). Only the articles having a
//! line whose status changed after they were cleaned (`line_changes` × the
//! line index) are read; a site whose index is incomplete or was built
//! under other settings (`site_stats.cleaned_with`) gets the full walk.
//! One transaction per site, holding the site's learning lock, so a crawl
//! still storing the site's articles waits rather than races it.

use std::collections::BTreeSet;

use super::sql::Tx;
use postgres::types::Type;

use super::lines::{clean_pieces_at, forget_cleaned_with, index_shared, site_rc, sorted_lines};
use super::lock_site;
use crate::boilerplate::{split_lines, LineSettings};
use crate::store::lines::Recleaned;
use crate::store::pg::PgStore;
use crate::store::StoreError;
use crate::words::word_count;

/// Articles re-cleaned per query, so a big site never sits in memory at once.
const RECLEAN_CHUNK: i64 = 256;

impl PgStore {
    /// The end-of-crawl re-clean of one site (or every site): the articles
    /// having a line whose status changed after they were cleaned; returns
    /// how many changed.
    pub fn reclean_changed(
        &mut self,
        site: Option<&str>,
        settings_for: impl Fn(&str) -> LineSettings,
    ) -> Result<usize, StoreError> {
        Ok(self.reclean_changed_counted(site, settings_for)?.changed)
    }

    /// [`PgStore::reclean_changed`], with how many articles were read.
    pub fn reclean_changed_counted(
        &mut self,
        site: Option<&str>,
        settings_for: impl Fn(&str) -> LineSettings,
    ) -> Result<Recleaned, StoreError> {
        let mut done = Recleaned::default();
        for (id, name) in self.sites_named(site)? {
            let mut tx = self.client.transaction()?;
            let mut w = Tx::prepared(&mut tx, &mut self.article_sql);
            lock_site(&mut w, id)?;
            let site_done = reclean_changed(&mut w, id, &settings_for(&name))?;
            tx.commit()?;
            done.examined += site_done.examined;
            done.changed += site_done.changed;
        }
        Ok(done)
    }

    /// Re-clean every stored article of one site (or every site) with the
    /// current counts (the `reclean` command); returns how many changed.
    /// A site with learning off is left as it is, as on SQLite.
    pub fn reclean(
        &mut self,
        site: Option<&str>,
        settings_for: impl Fn(&str) -> LineSettings,
    ) -> Result<usize, StoreError> {
        let mut changed = 0;
        for (id, name) in self.sites_named(site)? {
            let settings = settings_for(&name);
            if !settings.enabled {
                continue;
            }
            let mut tx = self.client.transaction()?;
            let mut w = Tx::prepared(&mut tx, &mut self.article_sql);
            lock_site(&mut w, id)?;
            changed += reclean_all(&mut w, id, &settings)?.changed;
            tx.commit()?;
        }
        Ok(changed)
    }

    /// (id, name) of the named site, or of every site, in id order.
    fn sites_named(&mut self, site: Option<&str>) -> Result<Vec<(i64, String)>, StoreError> {
        Ok(self
            .client()
            .query_typed(
                "SELECT id, name FROM sites WHERE $1::TEXT IS NULL OR name = $1 ORDER BY id",
                &[(&site, Type::TEXT)],
            )?
            .iter()
            .map(|r| (r.get(0), r.get(1)))
            .collect())
    }
}

/// Re-clean the site's articles having a line whose status changed after
/// they were cleaned (or all of them, see the module doc).
fn reclean_changed(
    tx: &mut Tx<'_, '_>,
    site_id: i64,
    settings: &LineSettings,
) -> Result<Recleaned, postgres::Error> {
    if !settings.enabled {
        return Ok(Recleaned::default());
    }
    let key = settings.judgement_key();
    if cleaned_with(tx, site_id)?.as_deref() != Some(key.as_str()) {
        return reclean_all(tx, site_id, settings);
    }
    let ids: BTreeSet<i64> = tx
        .query_typed(
            "SELECT l.article_id FROM line_changes c
             JOIN article_lines l ON l.site_id = c.site_id AND l.md5 = c.md5
             WHERE c.site_id = $1 AND l.article_id <= c.before_id
             UNION
             SELECT l.article_id FROM line_changes c
             JOIN article_shared_lines l ON l.site_id = c.site_id AND l.md5 = c.md5
             WHERE c.site_id = $1 AND l.article_id <= c.before_id",
            &[(&site_id, Type::INT8)],
        )?
        .iter()
        .map(|r| r.get(0))
        .collect();
    let rc = site_rc(tx, site_id)?;
    let mut done = Recleaned::default();
    let ids: Vec<i64> = ids.into_iter().collect();
    for chunk in ids.chunks(RECLEAN_CHUNK as usize) {
        let rows = tx.query_typed(
            "SELECT id, text, raw_text FROM articles
             WHERE id = ANY($1) AND site_id = $2 ORDER BY id",
            &[(&chunk, Type::INT8_ARRAY), (&site_id, Type::INT8)],
        )?;
        for row in &rows {
            let (id, text, raw_text): (i64, &str, &str) = (row.get(0), row.get(1), row.get(2));
            done.changed +=
                usize::from(reclean_one(tx, site_id, rc, id, text, raw_text, settings)?);
            done.examined += 1;
        }
    }
    finish(tx, site_id, &key)?;
    Ok(done)
}

/// Re-clean every article of the site, indexing its lines on the way when
/// the index is incomplete or was built under other settings.
fn reclean_all(
    tx: &mut Tx<'_, '_>,
    site_id: i64,
    settings: &LineSettings,
) -> Result<Recleaned, postgres::Error> {
    let key = settings.judgement_key();
    let index = settings.enabled && cleaned_with(tx, site_id)?.as_deref() != Some(key.as_str());
    let rc = site_rc(tx, site_id)?;
    let mut done = Recleaned::default();
    let mut after_id = i64::MIN;
    loop {
        let rows = tx.query_typed(
            "SELECT id, text, raw_text FROM articles
             WHERE site_id = $1 AND id > $2 ORDER BY id LIMIT $3",
            &[
                (&site_id, Type::INT8),
                (&after_id, Type::INT8),
                (&RECLEAN_CHUNK, Type::INT8),
            ],
        )?;
        let Some(last) = rows.last() else { break };
        after_id = last.get(0);
        for row in &rows {
            let (id, text, raw_text): (i64, &str, &str) = (row.get(0), row.get(1), row.get(2));
            if index {
                let pieces = split_lines(raw_text, &settings.variant);
                let lines = sorted_lines(&pieces);
                index_shared(tx, site_id, id, lines.iter().map(|l| &l.hash))?;
            }
            done.changed +=
                usize::from(reclean_one(tx, site_id, rc, id, text, raw_text, settings)?);
            done.examined += 1;
        }
    }
    if settings.enabled {
        finish(tx, site_id, &key)?;
    } else {
        forget_cleaned_with(tx, site_id)?;
    }
    Ok(done)
}

/// Clean one article again; true when its text changed and was rewritten.
/// An article is never emptied (as on SQLite).
fn reclean_one(
    tx: &mut Tx<'_, '_>,
    site_id: i64,
    rc: u64,
    id: i64,
    text: &str,
    raw_text: &str,
    settings: &LineSettings,
) -> Result<bool, postgres::Error> {
    let cleaned = if settings.enabled {
        let pieces = split_lines(raw_text, &settings.variant);
        clean_pieces_at(tx, site_id, rc, &pieces, settings)?.text
    } else {
        raw_text.to_string()
    };
    if cleaned == text || cleaned.trim().is_empty() {
        return Ok(false);
    }
    let words = i64::try_from(word_count(&cleaned)).unwrap_or(i64::MAX);
    tx.execute_typed(
        "UPDATE articles SET text = $2, word_count = $3 WHERE id = $1",
        &[
            (&id, Type::INT8),
            (&cleaned, Type::TEXT),
            (&words, Type::INT8),
        ],
    )?;
    Ok(true)
}

/// The settings the site's articles were last all cleaned with.
fn cleaned_with(tx: &mut Tx<'_, '_>, site_id: i64) -> Result<Option<String>, postgres::Error> {
    Ok(tx
        .query_typed_opt(
            "SELECT cleaned_with FROM site_stats WHERE site_id = $1",
            &[(&site_id, Type::INT8)],
        )?
        .and_then(|r| r.get(0)))
}

/// Every article of the site is clean under `key`: no change is pending.
fn finish(tx: &mut Tx<'_, '_>, site_id: i64, key: &str) -> Result<(), postgres::Error> {
    tx.execute_typed(
        "DELETE FROM line_changes WHERE site_id = $1",
        &[(&site_id, Type::INT8)],
    )?;
    tx.execute_typed(
        "UPDATE site_stats SET cleaned_with = $2 WHERE site_id = $1",
        &[(&site_id, Type::INT8), (&key, Type::TEXT)],
    )?;
    Ok(())
}
