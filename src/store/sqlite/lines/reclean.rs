//! The re-clean on SQLite: the article primitives ([`Sqlite`]) over a
//! transaction, which the re-clean's own statements run on too; the rules
//! and those statements are `rules::reclean`.
//!
//! In: a transaction, a site id and its [`LineSettings`]. Out: articles'
//! `text` (and `word_count`) rewritten where the cleaned text changes — the
//! FTS triggers follow — and how many were read and rewritten
//! (`Recleaned`).

use rusqlite::Transaction;

use crate::boilerplate::LineSettings;
use crate::store::rules::reclean::{self, Recleaned, Which};
use crate::store::sqlite::articles::Sqlite;
use crate::store::{Store, StoreError};

/// Re-clean every stored article of the site with the current counts;
/// returns how many changed (see `rules::reclean::reclean_all`).
pub(crate) fn reclean_site(
    tx: &Transaction<'_>,
    site_id: i64,
    settings: &LineSettings,
) -> Result<usize, StoreError> {
    Ok(reclean::reclean_all(&mut Sqlite(tx), site_id, settings)?.changed)
}

impl Store {
    /// One site's re-clean (see `rules::reclean`), in a transaction of its
    /// own.
    pub(crate) fn reclean_site(
        &mut self,
        site_id: i64,
        settings: &LineSettings,
        which: Which,
    ) -> Result<Recleaned, StoreError> {
        let tx = self.conn.transaction()?;
        let done = reclean::reclean_site(&mut Sqlite(&tx), site_id, settings, which)?;
        tx.commit()?;
        Ok(done)
    }
}
