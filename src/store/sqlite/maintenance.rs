//! Boilerplate maintenance over the whole store: replaying a sequence of texts through learning (what
//! `eval --sequence` measures, on an in-memory store) with the re-clean at
//! its end (the re-clean of stored articles is `rules::reclean`). In: site
//! names, texts and settings; out: lines and cleaned texts.

use super::articles::Sqlite;
use super::lines::{self, Cleaned};
use super::portable::writes::site_id_created;
use super::rules::reclean;
use super::{Store, StoreError};
use crate::boilerplate::LineSettings;

/// One text of a [`Store::replay_site`] sequence.
#[derive(Debug, Clone, PartialEq)]
pub struct Replayed {
    /// Cleaned with the counts learned up to and including this text.
    pub learned: Cleaned,
    /// Cleaned again once the whole sequence is learned (warm-up repair).
    pub recleaned: String,
}

impl Store {
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
        reclean::reclean_all(&mut Sqlite(&tx), site_id, settings)?;
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
