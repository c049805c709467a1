//! Boilerplate maintenance over the whole store: re-cleaning stored articles
//! with the lines learned since (warm-up repair; all of them, or at the end
//! of a crawl only those with a line whose status changed), and replaying
//! a sequence of texts through learning (what
//! `eval --sequence` measures, on an in-memory store). In: site names, texts
//! and settings; out: counts, lines and cleaned texts.

use super::articles::Sqlite;
use super::lines::{self, Cleaned, Recleaned};
use super::portable::writes::site_id_created;
use super::{Store, StoreError};
use crate::boilerplate::LineSettings;
use crate::store::rules::reclean::{each_site, reclean_site, Which};

/// One text of a [`Store::replay_site`] sequence.
#[derive(Debug, Clone, PartialEq)]
pub struct Replayed {
    /// Cleaned with the counts learned up to and including this text.
    pub learned: Cleaned,
    /// Cleaned again once the whole sequence is learned (warm-up repair).
    pub recleaned: String,
}

impl Store {
    /// Re-clean the stored articles of one site (or every site) from their
    /// pre-filter text with the current line counts; one transaction per
    /// site. Returns how many articles changed. An unknown site changes nothing.
    pub fn reclean(
        &mut self,
        site: Option<&str>,
        settings_for: impl Fn(&str) -> LineSettings,
    ) -> Result<usize, StoreError> {
        Ok(self.reclean_sites(site, settings_for, Which::All)?.changed)
    }

    /// The end-of-crawl re-clean: of one site (or every site), only the
    /// articles having a line whose status changed after they were cleaned
    /// (a site whose line index is incomplete gets the full walk of
    /// [`Store::reclean`]); one transaction per site. Leaves the same texts
    /// as [`Store::reclean`].
    pub fn reclean_changed(
        &mut self,
        site: Option<&str>,
        settings_for: impl Fn(&str) -> LineSettings,
    ) -> Result<Recleaned, StoreError> {
        self.reclean_sites(site, settings_for, Which::Changed)
    }

    /// The named site (or every site) re-cleaned, one transaction a site.
    fn reclean_sites(
        &mut self,
        site: Option<&str>,
        settings_for: impl Fn(&str) -> LineSettings,
        which: Which,
    ) -> Result<Recleaned, StoreError> {
        let sites: Vec<(i64, String)> = self
            .conn
            .prepare("SELECT id, name FROM sites WHERE ?1 IS NULL OR name = ?1 ORDER BY id")?
            .query_map([site], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<Result<_, _>>()?;
        each_site(sites, which, settings_for, |id, settings| {
            let tx = self.conn.transaction()?;
            let done = reclean_site(&mut Sqlite(&tx), id, settings, which)?;
            tx.commit()?;
            Ok(done)
        })
    }

    /// Feed one site's texts in order through learning, each stored as the
    /// crawler stores an article (in the same transaction as its counts),
    /// then re-clean them all with the final counts. One transaction.
    pub fn replay_site(
        &mut self,
        site: &str,
        texts: &[&str],
        settings: &LineSettings,
    ) -> Result<Vec<Replayed>, StoreError> {
        let tx = self.conn.transaction()?;
        let site_id = site_id_created(&mut &*tx, site)?;
        let indexed = super::search_index::last_article_id(&tx)?;
        let mut learned = Vec::with_capacity(texts.len());
        for (n, text) in texts.iter().enumerate() {
            let cleaned = lines::learn_and_clean(&tx, site_id, text, settings)?;
            tx.execute(
                "INSERT INTO articles (url, site_id, text, raw_text, content_hash, word_count, fetched_at)
                 VALUES (?1, ?2, ?3, ?4, ?1, 0, 0)",
                rusqlite::params![format!("seq:{site}/{n}"), site_id, cleaned.text, text],
            )?;
            learned.push(cleaned);
        }
        super::search_index::index_after(&tx, indexed)?;
        lines::reclean_site(&tx, site_id, settings)?;
        let recleaned: Vec<String> = {
            let mut stmt =
                tx.prepare("SELECT text FROM articles WHERE site_id = ?1 ORDER BY id")?;
            let rows = stmt.query_map([site_id], |r| r.get::<_, String>(0))?;
            rows.collect::<Result<_, _>>()?
        };
        tx.commit()?;
        Ok(learned
            .into_iter()
            .zip(recleaned)
            .map(|(learned, recleaned)| Replayed { learned, recleaned })
            .collect())
    }
}
