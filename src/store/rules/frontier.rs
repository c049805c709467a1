//! What both stores' frontiers reckon the same way: a URL's host key, the
//! clock their times are in, the order a claim takes its hosts' URLs in,
//! and the state a finished URL moves to.
//!
//! In: a normalised URL; nothing; each host's due URLs; a fetch's or a
//! skip's [`NextState`]. Out: its authority; now in Unix ms; the claim's
//! order; the URL's state and next due time.

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

/// A claim's URLs in order, at most `limit`, from each host's due URLs
/// (best first) given with the host's best URL as (priority, id): rounds
/// over the hosts, each round visiting them in the order of their best URL
/// (highest priority, then oldest), so that one host's backlog can neither
/// fill a claim nor push the other hosts deeper.
pub(crate) fn round_robin<T>(mut hosts: Vec<(i64, i64, Vec<T>)>, limit: usize) -> Vec<T> {
    hosts.sort_unstable_by_key(|&(priority, id, _)| (std::cmp::Reverse(priority), id));
    let mut queues: Vec<_> = hosts.into_iter().map(|(_, _, v)| v.into_iter()).collect();
    let mut order = Vec::new();
    loop {
        let before = order.len();
        for queue in queues.iter_mut() {
            if order.len() == limit {
                return order;
            }
            order.extend(queue.next());
        }
        if order.len() == before {
            return order;
        }
    }
}
