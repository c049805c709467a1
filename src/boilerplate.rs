//! Per-site boilerplate lines (Li & Jiang), the pure part.
//!
//! In: extracted article text and the site's line counts. Out: which lines are
//! boilerplate. A line is normalised (see [`normalize_line`]) and hashed with
//! MD5; per site, RC = articles processed and LC = articles containing the
//! line. A line is kept while LC ≤ int(1 + RC/L) and dropped otherwise.
//! The counts live in the store (`line_hashes`, `site_stats`); see
//! `store::lines` for the transactional learning step.

/// MD5 of a normalised line.
pub type LineHash = [u8; 16];

/// Normalise a line for hashing: trim, collapse whitespace, Unicode NFC.
pub fn normalize_line(line: &str) -> String {
    let _ = line;
    todo!("normalize")
}

/// MD5 of an already-normalised line.
pub fn line_hash(normalized: &str) -> LineHash {
    let _ = normalized;
    todo!("hash")
}

/// The Li & Jiang rule with window L.
#[derive(Debug, Clone, Copy)]
pub struct LineRule {
    pub window: u64,
}

impl LineRule {
    /// True when a line seen in `lc` of `rc` articles is boilerplate.
    pub fn is_boilerplate(&self, lc: u64, rc: u64) -> bool {
        lc > 1 + rc / self.window
    }
}
