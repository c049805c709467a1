//! The SQLite store ([`Store`]): SQL and row mapping, one file per concern.
//!
//! In: a database path (or memory). Out: the store, opened in WAL mode and
//! migrated (numbered files in `migrations/`; every one not recorded in the
//! `schema_migrations` ledger is applied, in number order), and its
//! operations. One writer at a time; readers open their own.
//!
//! `open` (connection settings, integrity check), `budget` (a time budget
//! for the queries that follow), `migrate` (which
//! migrations to apply, and applying them), `frontier` (add, claim,
//! counts, budgets), `articles` (batched writes; the SQL primitives of
//! `store::rules` in `articles/primitives.rs`), `search_index` (the
//! batch's new articles into the FTS5 indexes), `checkpoint` (WAL
//! checkpoints on a thread of their own while crawling), `search` (FTS5
//! and CJK search), `overview` (figures), `maintenance` (replaying texts),
//! `lines` (learning's entry points for tools, the line table's size),
//! `kept` (kept pages), `site_rules` (the types of a site's rule), `sql`
//! (the shared statements' connection), and `trouble` (SQLite's file-level
//! failures as sentences a user can act on).

// The files moved here from `store` and name its types as they did there.
use super::*;

pub(super) mod articles;
mod budget;
pub(super) mod checkpoint;
pub(super) mod frontier;
pub(super) mod kept;
pub mod lines;
pub(super) mod maintenance;
pub(super) mod migrate;
pub(super) mod open;
pub(super) mod overview;
pub(super) mod search;
pub(super) mod search_index;
pub(super) mod site_rules;
mod sql;
#[cfg(test)]
mod tests;
pub(super) mod trouble;

/// The SQLite store. One writer at a time; readers open their own.
pub struct Store {
    pub(in crate::store) conn: rusqlite::Connection,
    path: PathBuf,
    /// URLs a site may know, and have queued, at most.
    url_caps: frontier::UrlCaps,
    /// URLs each site knows, for that cap.
    url_counts: frontier::SiteUrlCounts,
    /// Opened with [`Store::open_read_only`]: never write, not even on drop.
    read_only: bool,
    /// The WAL checkpointing thread, when [`Store::checkpoint_in_background`]
    /// is on.
    checkpoints: Option<checkpoint::BackgroundCheckpoints>,
}

impl Store {
    pub fn path(&self) -> &Path {
        &self.path
    }
}
