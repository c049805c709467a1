//! What both stores' frontiers reckon the same way: a URL's host key, the
//! clock their times are in, the order a claim takes its hosts' URLs in,
//! the state a finished URL moves to, the sites a claim reads and the room
//! a site has left under the cap on its URLs.
//!
//! In: a normalised URL; nothing; each host's due URLs; a fetch's or a
//! skip's [`NextState`]; site names; a site and the cap. Out: its
//! authority; now in Unix ms; the claim's order; the URL's state and next
//! due time; the sites' ids; how many URLs it may still get.

use std::collections::HashMap;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crate::store::sql::Sql;
use crate::store::{NextState, StoreError};

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

/// How many URLs each site knows, for the cap of `[crawler]
/// max_urls_per_site` (a trap guard: an endless link or query space fills
/// one site's frontier at most this far), kept by the store as it adds
/// URLs so that the cap costs no `count(*)` per batch. A site's count is
/// read once, when first needed. The counts of a transaction that did not
/// commit are wrong: the store forgets them all then ([`SiteUrlCounts::forget`]).
/// On a store of one process only its own inserts change them; on one
/// that several share, the others add URLs too, so the counts are read
/// again after a while ([`SiteUrlCounts::expire`]) and the cap may be
/// overshot by what the others add meanwhile.
///
/// The URLs a site has queued (waiting to be fetched), for `[crawler]
/// max_queued_per_site`, are counted the same way, and read again after
/// every claim ([`SiteUrlCounts::claimed`]): a count that kept the claimed
/// URLs would hold the cap while the queue ran dry, and end the crawl of a
/// site with links still to follow. Revisits put fetched URLs back in the
/// queue without telling the counts, so they are also read again after
/// [`QUEUED_FOR`].
#[derive(Debug, Default)]
pub(crate) struct SiteUrlCounts {
    by_site: HashMap<i64, u64>,
    read_at: Option<Instant>,
    queued: HashMap<i64, u64>,
    queued_read_at: Option<Instant>,
    /// Which cap the last [`SiteUrlCounts::room`] was bound by.
    bound_by_queued: bool,
    dropped: DroppedUrls,
}

/// How long the queued counts are trusted: fetches shrink the queue.
const QUEUED_FOR: Duration = Duration::from_secs(5);

/// The caps on one site's frontier (0: no cap).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct UrlCaps {
    /// URLs a site may know (`[crawler] max_urls_per_site`).
    pub known: u64,
    /// URLs a site may have queued (`[crawler] max_queued_per_site`).
    pub queued: u64,
}

impl UrlCaps {
    /// No cap (canonical aliases, which are never fetched).
    pub const NONE: UrlCaps = UrlCaps {
        known: 0,
        queued: 0,
    };
}

/// New URLs a store dropped under its caps, by cap, since asked last.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DroppedUrls {
    /// Over `[crawler] max_urls_per_site`.
    pub over_known: u64,
    /// Over `[crawler] max_queued_per_site`.
    pub over_queued: u64,
}

impl SiteUrlCounts {
    /// Forget every count (after a rolled-back transaction).
    pub(crate) fn forget(&mut self) {
        self.by_site.clear();
        self.queued.clear();
    }

    /// Forget the counts once they are `trust_for` old.
    pub(crate) fn expire(&mut self, trust_for: Duration) {
        if self.read_at.is_none_or(|at| at.elapsed() >= trust_for) {
            self.by_site.clear();
            self.read_at = Some(Instant::now());
        }
    }

    /// How many more URLs the site may get under `caps`.
    pub(crate) fn room(
        &mut self,
        sql: &mut dyn Sql,
        site_id: i64,
        caps: UrlCaps,
    ) -> Result<usize, StoreError> {
        let mut room = u64::MAX;
        if caps.known > 0 {
            let count = "SELECT count(*) FROM urls WHERE site_id = ?1";
            let known = counted(&mut self.by_site, sql, count, site_id)?;
            room = caps.known.saturating_sub(known);
        }
        self.bound_by_queued = false;
        if caps.queued > 0 {
            if self
                .queued_read_at
                .is_none_or(|at| at.elapsed() >= QUEUED_FOR)
            {
                self.queued.clear();
                self.queued_read_at = Some(Instant::now());
            }
            let count = "SELECT count(*) FROM urls WHERE site_id = ?1 AND state = 'queued'";
            let queued = counted(&mut self.queued, sql, count, site_id)?;
            let queued_room = caps.queued.saturating_sub(queued);
            self.bound_by_queued = queued_room < room;
            room = room.min(queued_room);
        }
        Ok(usize::try_from(room).unwrap_or(usize::MAX))
    }

    /// URLs were claimed (taken out of the queue): the queued counts are
    /// read again when next needed (a count over the claim index, cheap).
    pub(crate) fn claimed(&mut self) {
        self.queued.clear();
    }

    /// `n` URLs added to a site: counted if the site's counts are known
    /// (an unknown one is read when needed, and then includes them).
    pub(crate) fn add(&mut self, site_id: i64, n: usize) {
        for counts in [&mut self.by_site, &mut self.queued] {
            if let Some(known) = counts.get_mut(&site_id) {
                *known += n as u64;
            }
        }
    }

    /// `n` new URLs left out by the cap the last [`SiteUrlCounts::room`]
    /// was bound by (at most: some may have been known already).
    pub(crate) fn dropped(&mut self, n: usize) {
        let counter = if self.bound_by_queued {
            &mut self.dropped.over_queued
        } else {
            &mut self.dropped.over_known
        };
        *counter += n as u64;
    }

    /// The URLs dropped since the last call.
    pub(crate) fn take_dropped(&mut self) -> DroppedUrls {
        std::mem::take(&mut self.dropped)
    }
}

/// A site's count from `counts`, read with `count` when missing.
fn counted(
    counts: &mut HashMap<i64, u64>,
    sql: &mut dyn Sql,
    count: &str,
    site_id: i64,
) -> Result<u64, StoreError> {
    if let Some(&n) = counts.get(&site_id) {
        return Ok(n);
    }
    let n = sql.one(count, &[site_id.into()], |r| r.count(0))?;
    counts.insert(site_id, n);
    Ok(n)
}

/// The sites a claim reads: `(id, name)` of the named ones that exist (all
/// sites for `None`), in id order.
pub(crate) fn selected_sites(
    sql: &mut dyn Sql,
    names: Option<&[String]>,
) -> Result<Vec<(i64, String)>, StoreError> {
    let all = "SELECT id, name FROM sites ORDER BY id";
    let all = sql.rows(all, &[], |r| Ok((r.int(0)?, r.text(1)?)))?;
    Ok(match names {
        None => all,
        Some(names) => all
            .into_iter()
            .filter(|(_, n)| names.iter().any(|s| s == n))
            .collect(),
    })
}

/// When the next queued URL of `sites` (`None` = all) is due, in Unix ms
/// (`None`: nothing is queued).
pub(crate) fn next_queued_at(
    sql: &mut dyn Sql,
    sites: Option<&[String]>,
) -> Result<Option<i64>, StoreError> {
    let mut query = "SELECT next_fetch_at FROM urls WHERE state = 'queued'".to_string();
    if let Some(names) = sites {
        let ids: Vec<String> = selected_sites(sql, Some(names))?
            .iter()
            .map(|(id, _)| id.to_string())
            .collect();
        if ids.is_empty() {
            return Ok(None);
        }
        // Site ids are integers from the database: safe to inline.
        query += &format!(" AND site_id IN ({})", ids.join(","));
    }
    query += " ORDER BY next_fetch_at LIMIT 1";
    sql.first(&query, &[], |r| r.int(0))
}
