//! The transactional half of boilerplate learning: read and update a site's
//! line counts (`line_hashes`) and RC (`site_stats`) inside the transaction
//! that stores the article, so a crash never double-counts.

use crate::boilerplate::LineRule;

/// Tunables of the line filter, from `[boilerplate]` (and the site's switch).
#[derive(Debug, Clone, Copy)]
pub struct LineSettings {
    pub rule: LineRule,
    pub prune_ratio: f64,
    pub prune_every: u64,
    /// False: store text as extracted, learn nothing.
    pub enabled: bool,
}

/// Text after boilerplate removal.
#[derive(Debug, Clone, PartialEq)]
pub struct Cleaned {
    pub text: String,
    /// Lines removed as boilerplate.
    pub dropped: usize,
}

/// Learn from one article's extracted text (each distinct line counted once,
/// RC += 1, periodic pruning) and return it with boilerplate lines removed.
/// Runs inside the caller's transaction.
pub fn learn_and_clean(
    tx: &rusqlite::Transaction<'_>,
    site_id: i64,
    raw_text: &str,
    settings: &LineSettings,
) -> rusqlite::Result<Cleaned> {
    let _ = (tx, site_id, raw_text, settings);
    todo!()
}
