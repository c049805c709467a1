//! What both stores' frontiers reckon the same way: a URL's host key, the
//! clock their times are in, and the state a finished URL moves to.
//!
//! In: a normalised URL; nothing; a fetch's or a skip's [`NextState`].
//! Out: its authority; now in Unix ms; the URL's state and next due time.

use std::time::{SystemTime, UNIX_EPOCH};

use crate::store::NextState;

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

/// The frontier state a fetched or skipped URL moves to, and when it is
/// due again (`None`: its due time stays); `given_up` names the state of
/// a URL that is not to be fetched again (`failed` after a fetch,
/// `skipped` after a skip).
pub(crate) fn state_after(next: &NextState, given_up: &'static str) -> (&'static str, Option<i64>) {
    match next {
        NextState::Done => ("done", None),
        NextState::At(t) => ("queued", Some(*t)),
        NextState::Failed => (given_up, None),
    }
}
