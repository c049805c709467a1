//! The SQLite store: SQL and row mapping, one file per concern.

// The files moved here from `store` and name its types as they did there.
use super::*;

pub(super) mod articles;
pub(super) mod checkpoint;
pub(super) mod frontier;
pub(super) mod kept;
pub mod lines;
pub(super) mod maintenance;
pub(super) mod migrate;
pub(super) mod open;
pub(super) mod overview;
pub(super) mod reextract;
pub(super) mod rendering;
pub(super) mod requeue;
pub(super) mod search;
pub(super) mod search_index;
pub(super) mod site_rules;
pub(super) mod stats;
#[cfg(test)]
mod tests;
pub(super) mod trouble;
pub(super) mod url_shapes;

/// The SQLite store. One writer at a time; readers open their own.
pub struct Store {
    pub(in crate::store) conn: rusqlite::Connection,
    path: PathBuf,
    /// URLs a site may know at most (0 = no cap).
    max_urls_per_site: u64,
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
