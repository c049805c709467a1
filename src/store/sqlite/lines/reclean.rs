//! The re-clean's SQL on SQLite ([`RecleanSql`] for [`Sqlite`]) and its
//! entry points in a transaction: the rules are `rules::reclean`.
//!
//! In: a transaction, a site id and its [`LineSettings`]. Out: articles'
//! `text` (and `word_count`) rewritten where the cleaned text changes — the
//! FTS triggers follow — and how many were read and rewritten
//! ([`Recleaned`]).

use rusqlite::{params, OptionalExtension, Transaction};

use crate::boilerplate::LineSettings;
pub use crate::store::rules::reclean::Recleaned;
use crate::store::rules::reclean::{self, RecleanSql, StoredText};
use crate::store::sqlite::articles::Sqlite;
use crate::store::StoreError;

/// Re-clean every stored article of the site with the current counts;
/// returns how many changed (see `rules::reclean::reclean_all`).
pub fn reclean_site(
    tx: &Transaction<'_>,
    site_id: i64,
    settings: &LineSettings,
) -> Result<usize, StoreError> {
    Ok(reclean::reclean_all(&mut Sqlite(tx), site_id, settings)?.changed)
}

impl RecleanSql for Sqlite<'_> {
    fn cleaned_with(&mut self, site_id: i64) -> Result<Option<String>, StoreError> {
        Ok(self
            .0
            .prepare_cached("SELECT cleaned_with FROM site_stats WHERE site_id = ?1")?
            .query_row([site_id], |r| r.get::<_, Option<String>>(0))
            .optional()?
            .flatten())
    }

    fn articles_after(
        &mut self,
        site_id: i64,
        after_id: i64,
        limit: usize,
    ) -> Result<Vec<StoredText>, StoreError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        Ok(self
            .0
            .prepare_cached(
                "SELECT id, text, raw_text FROM articles
                 WHERE site_id = ?1 AND id > ?2 ORDER BY id LIMIT ?3",
            )?
            .query_map(params![site_id, after_id, limit], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })?
            .collect::<rusqlite::Result<_>>()?)
    }

    fn articles_with_changed_lines(&mut self, site_id: i64) -> Result<Vec<i64>, StoreError> {
        let changes: Vec<(Vec<u8>, i64)> = self
            .0
            .prepare_cached("SELECT md5, before_id FROM line_changes WHERE site_id = ?1")?
            .query_map([site_id], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<rusqlite::Result<_>>()?;
        let mut ids = std::collections::BTreeSet::new();
        for sql in [
            "SELECT article_id FROM article_lines
             WHERE site_id = ?1 AND md5 = ?2 AND article_id <= ?3",
            "SELECT article_id FROM article_shared_lines
             WHERE site_id = ?1 AND md5 = ?2 AND article_id <= ?3",
        ] {
            let mut having = self.0.prepare_cached(sql)?;
            for (md5, before_id) in &changes {
                for id in having.query_map(params![site_id, md5, before_id], |r| r.get(0))? {
                    ids.insert(id?);
                }
            }
        }
        Ok(ids.into_iter().collect())
    }

    fn articles_by_id(&mut self, site_id: i64, ids: &[i64]) -> Result<Vec<StoredText>, StoreError> {
        let mut read = self
            .0
            .prepare_cached("SELECT text, raw_text FROM articles WHERE id = ?1 AND site_id = ?2")?;
        let mut out = Vec::with_capacity(ids.len());
        for &id in ids {
            let row = read
                .query_row(params![id, site_id], |r| Ok((id, r.get(0)?, r.get(1)?)))
                .optional()?;
            out.extend(row);
        }
        Ok(out)
    }

    fn set_text(&mut self, id: i64, text: &str, word_count: i64) -> Result<(), StoreError> {
        self.0
            .prepare_cached("UPDATE articles SET text = ?2, word_count = ?3 WHERE id = ?1")?
            .execute(params![id, text, word_count])?;
        Ok(())
    }

    fn finish_reclean(&mut self, site_id: i64, key: &str) -> Result<(), StoreError> {
        self.0
            .prepare_cached("DELETE FROM line_changes WHERE site_id = ?1")?
            .execute([site_id])?;
        self.0
            .prepare_cached("UPDATE site_stats SET cleaned_with = ?2 WHERE site_id = ?1")?
            .execute(params![site_id, key])?;
        Ok(())
    }
}
