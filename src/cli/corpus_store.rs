//! Which store a command works on, opened: `--db` (a path or a
//! `postgres://` URL), else `[store] url`, else `[crawler] database` in; an
//! [`AnyStore`] (SQLite or PostgreSQL) out.

use anyhow::Result;

use newshound::store::{self, Access, AnyStore};

use super::Globals;

impl Globals {
    /// Open the corpus for the read commands (`search`, `show`, `export`,
    /// `stats`): an existing SQLite file read-only (they work on a file
    /// this user may not write), or the PostgreSQL database.
    pub(super) fn open_reader(&self) -> Result<AnyStore> {
        self.open_store(Access::Read)
    }

    /// Open the corpus for `access`.
    pub(super) fn open_store(&self, access: Access) -> Result<AnyStore> {
        let config = self.config()?;
        Ok(store::open(&self.store_target(&config), access)?)
    }
}
