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
use crate::store::rules::reclean;
use crate::store::sqlite::articles::Sqlite;
use crate::store::StoreError;

/// Re-clean every stored article of the site with the current counts;
/// returns how many changed (see `rules::reclean::reclean_all`).
pub(crate) fn reclean_site(
    tx: &Transaction<'_>,
    site_id: i64,
    settings: &LineSettings,
) -> Result<usize, StoreError> {
    Ok(reclean::reclean_all(&mut Sqlite(tx), site_id, settings)?.changed)
}
