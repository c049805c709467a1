//! Which store a command reads, opened: `--db` (a path or a `postgres://`
//! URL), else `[store] url`, else `[crawler] database` in; a
//! [`CorpusRead`] (SQLite or PostgreSQL) out.

use std::path::Path;

use anyhow::{bail, Result};

use newshound::store::pg::PgStore;
use newshound::store::{CorpusRead, Store, StoreTarget};

use super::Globals;

impl Globals {
    /// Open the corpus for the read commands (`search`, `show`, `export`,
    /// `stats`): an existing SQLite file read-only (they work on a file
    /// this user may not write), or the PostgreSQL database.
    pub(super) fn open_reader(&self) -> Result<Box<dyn CorpusRead>> {
        let config = self.config()?;
        Ok(match self.store_target(&config) {
            StoreTarget::Sqlite(path) => {
                require_existing(&path)?;
                Box::new(Store::open_read_only(&path)?)
            }
            StoreTarget::Postgres(url) => Box::new(PgStore::open(&url)?),
        })
    }
}

/// An existing SQLite file: a missing one is an error here rather than a
/// silently created empty database.
pub(super) fn require_existing(path: &Path) -> Result<()> {
    if path.is_dir() {
        bail!("{}: is a directory, not a database", path.display());
    }
    if !path.exists() {
        bail!(
            "{}: no such database (run `newshound crawl` first, or pass --db PATH)",
            path.display()
        );
    }
    Ok(())
}
