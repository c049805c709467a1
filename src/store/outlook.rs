//! What of a crawl's sites waits or failed in the frontier, and what a
//! crawl queues again before it starts.
//!
//! In: nothing (types). Out: [`Outlook`], read by `AnyStore::outlook` for
//! the crawl's summary, and [`Requeue`], the plan `AnyStore::requeue` runs
//! (the crawl's retry rule fills it in).

use std::collections::BTreeMap;

use serde::Serialize;

/// URLs of the frontier that wait or failed, by site and reason
/// (`AnyStore::outlook`): what a crawl's summary reports beyond its run.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Outlook {
    /// Queued, not due yet, after a skip or a failure (`robots_unavailable`,
    /// a transient failure's later try...).
    pub waiting: Vec<OutlookRow>,
    /// Given up (`failed`): a permanent error, or retries used up.
    pub failed: Vec<OutlookRow>,
    /// Set aside on purpose (`skipped`): disallowed by robots.txt.
    pub refused: Vec<OutlookRow>,
    /// Articles stored per site (all runs).
    pub stored: BTreeMap<String, u64>,
    /// URLs per site queued and never fetched (left for a later crawl).
    pub queued: BTreeMap<String, u64>,
}

/// What a crawl queues again before it starts (`AnyStore::requeue`); the
/// crawl's retry rule decides it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Requeue {
    /// URLs refused for one of these reasons under another fingerprint
    /// of the settings than the one given (reason, fingerprint).
    pub refusals: Vec<(String, String)>,
    /// Every failed or refused URL too, and every wait lifted
    /// (`crawl --retry-failed`).
    pub failed: bool,
    /// Now (unix ms): without `failed`, the URLs waiting after a skip or a
    /// failure are made due on a site none of whose URLs is due now.
    pub now_ms: i64,
}

/// One site's URLs of one reason in an [`Outlook`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OutlookRow {
    pub site: String,
    /// The error or skip kind (`robots_unavailable`, `blocked_address`...).
    pub reason: String,
    pub urls: u64,
    /// Waiting URLs: when the first of them is due (unix ms).
    pub until: Option<i64>,
}
