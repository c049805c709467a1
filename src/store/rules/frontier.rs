//! What both stores' frontiers reckon the same way: a URL's host key and
//! the clock their times are in.
//!
//! In: a normalised URL; nothing. Out: its authority; now in Unix ms.

use std::time::{SystemTime, UNIX_EPOCH};

/// The authority of a normalised URL (`host` or `host:port`): the text
/// between `://` and the next `/`, `?` or `#`. Matches `crate::urls::host_key`
/// for normalised URLs (no default port, no user info) and the backfill of
/// migration 0004.
pub fn url_host(url: &str) -> &str {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    &rest[..end]
}

/// Now, in milliseconds since the Unix epoch.
pub(crate) fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}
