//! The shared frontier on PostgreSQL: claims with leases, the pass's next
//! due time, and this process's claims put back.
//!
//! In: claim requests ([`ClaimFilter`]) from any number of crawler
//! processes on one database. Out: [`QueuedUrl`]s that no other process
//! holds, marked `fetching` with `leased_by` = this process and
//! `lease_until` = the server's clock + the lease.
//!
//! A claim reads the due URLs in one statement (queued and due, or
//! `fetching` under a lease that ended: their process died), picks them in
//! the order SQLite's `claim_due_for` does (per host: priority, then age,
//! at most `per_host`; hosts round-robin by their best URL), then locks
//! them with `FOR UPDATE SKIP LOCKED` in that order until it has `limit`:
//! a URL another process is claiming at the same moment is skipped, never
//! shared. Lease times are on the database server's clock, so machines
//! with different clocks agree on when a lease ended; a URL in flight
//! without a lease (copied from a SQLite crawl that was stopped) is
//! claimable at once. A live process
//! renews its leases while it works ([`PgStore::renew_leases`]), so only a
//! dead (or hung) process's URLs go back to the others.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use postgres::Transaction;

use super::articles::Tx;
use super::PgStore;
use crate::store::portable::writes;
use crate::store::rules::frontier::{
    next_queued_at, round_robin, selected_sites, DroppedUrls, SiteUrlCounts, UrlCaps,
};
use crate::store::{ClaimFilter, QueuedUrl, StoreError, UrlKind};

/// The server's clock in unix milliseconds, in SQL.
macro_rules! server_now_ms {
    () => {
        "(extract(epoch FROM clock_timestamp()) * 1000)::BIGINT"
    };
}
pub(super) use server_now_ms;

/// Due URLs of the selected sites, at most `$4` per host, best first per
/// host: queued and due by the caller's clock (`$3`, the clock that set
/// `next_fetch_at`), or in flight under a lease that ended.
const CANDIDATES_SQL: &str = concat!(
    "SELECT host, priority, id FROM (
         SELECT host, priority, id,
                row_number() OVER (PARTITION BY host ORDER BY priority DESC, id) AS rn
         FROM (
             SELECT host, priority, id FROM urls
             WHERE state = 'queued' AND next_fetch_at <= $3
               AND site_id = ANY($1) AND host <> ALL($2)
             UNION ALL
             SELECT host, priority, id FROM urls
             WHERE state = 'fetching'
               AND (lease_until < ",
    server_now_ms!(),
    " OR lease_until IS NULL)
               AND site_id = ANY($1) AND host <> ALL($2)
         ) due
     ) ranked
     WHERE rn <= $4
     ORDER BY host, rn"
);

/// The candidates still claimable, locked; those another process holds
/// or took meanwhile are left out.
const LOCK_SQL: &str = concat!(
    "SELECT id FROM urls
     WHERE id = ANY($1)
       AND ((state = 'queued' AND next_fetch_at <= $2)
            OR (state = 'fetching' AND (lease_until < ",
    server_now_ms!(),
    " OR lease_until IS NULL)))
     FOR UPDATE SKIP LOCKED"
);

const MARK_SQL: &str = concat!(
    "UPDATE urls u SET state = 'fetching', leased_by = $2, lease_until = ",
    server_now_ms!(),
    " + $3
     FROM sites s
     WHERE u.id = ANY($1) AND s.id = u.site_id
     RETURNING u.id, u.url, s.name, u.host, u.fetched_at IS NOT NULL, u.kind, u.depth,
               u.attempts, u.etag, u.last_modified"
);

const RENEW_SQL: &str = concat!(
    "UPDATE urls SET lease_until = ",
    server_now_ms!(),
    " + $2
     WHERE state = 'fetching' AND leased_by = $1"
);

/// Milliseconds of a duration, for SQL.
pub(super) fn millis(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

/// What the frontier remembers between calls on one connection.
#[derive(Debug, Default)]
pub(super) struct FrontierCache {
    /// Site ids by name (sites are never deleted; forgotten after a
    /// rolled-back batch, which may have created some).
    pub(super) sites: HashMap<String, i64>,
    /// URLs per site for `max_urls_per_site` (other processes add URLs
    /// too: re-read after [`COUNTS_FOR`]).
    pub(super) url_counts: SiteUrlCounts,
    /// The caps on URLs per site.
    pub(super) url_caps: UrlCaps,
    /// When this process's leases were last renewed.
    pub(super) renewed: Option<Instant>,
}

/// How long a process trusts its per-site URL counts (the cap is a trap
/// guard: several processes may overshoot it by what they add meanwhile).
pub(super) const COUNTS_FOR: Duration = Duration::from_secs(10);

impl FrontierCache {
    /// Forget what a rolled-back transaction may have left wrong.
    pub(super) fn forget(&mut self) {
        self.sites.clear();
        self.url_counts.forget();
    }
}

/// The ids of the named sites that exist (every site for `None`).
fn selected_site_ids(
    tx: &mut Transaction<'_>,
    names: Option<&[String]>,
) -> Result<Vec<i64>, StoreError> {
    let sites = selected_sites(tx, names)?;
    Ok(sites.into_iter().map(|(id, _)| id).collect())
}

/// The candidates (rows of [`CANDIDATES_SQL`]) in claim order
/// ([`round_robin`]).
fn claim_order(rows: &[postgres::Row]) -> Vec<i64> {
    // (best priority, its id, the host's ids in order) per host.
    let mut by_host: Vec<(i64, i64, Vec<i64>)> = Vec::new();
    let mut last_host: Option<&str> = None;
    for r in rows {
        let host: &str = r.get(0);
        let (priority, id): (i32, i64) = (r.get(1), r.get(2));
        match by_host.last_mut() {
            Some(entry) if last_host == Some(host) => entry.2.push(id),
            _ => by_host.push((i64::from(priority), id, vec![id])),
        }
        last_host = Some(host);
    }
    round_robin(by_host, usize::MAX)
}

impl PgStore {
    /// Cap the URLs a site may know (0 = no cap), as
    /// `Store::set_max_urls_per_site`.
    pub fn set_max_urls_per_site(&mut self, cap: u64) {
        self.frontier.url_caps.known = cap;
    }

    /// Cap the URLs a site may have queued (0 = no cap), as
    /// `Store::set_max_queued_per_site`.
    pub fn set_max_queued_per_site(&mut self, cap: u64) {
        self.frontier.url_caps.queued = cap;
    }

    /// The new URLs dropped under the caps since asked last.
    pub fn take_dropped_urls(&mut self) -> DroppedUrls {
        self.frontier.url_counts.take_dropped()
    }

    /// Claim up to `limit` due URLs that pass `filter` for this process
    /// (see the module doc): queued ones due at `now_ms`, and those whose
    /// lease ended.
    pub fn claim_due_for(
        &mut self,
        now_ms: i64,
        limit: usize,
        filter: &ClaimFilter,
    ) -> Result<Vec<QueuedUrl>, StoreError> {
        if limit == 0 {
            return Ok(Vec::new());
        }
        self.renew_leases_if_due()?;
        let per_host = filter.per_host_in(limit);
        let per_host = i64::try_from(per_host).unwrap_or(i64::MAX);
        let lease = millis(self.lease);
        let owner = self.owner.clone();
        // Prepared once per connection (a statement given as text costs a
        // round trip more, to prepare it, each time).
        let prepared = &mut self.article_sql;
        let mut tx = self.client.transaction()?;
        let sites = selected_site_ids(&mut tx, filter.sites.as_deref())?;
        if sites.is_empty() {
            return Ok(Vec::new());
        }
        let skip: Vec<&str> = filter.skip_hosts.iter().map(String::as_str).collect();
        let candidates = Tx::prepared(&mut tx, prepared).shared(CANDIDATES_SQL)?;
        let rows = tx.query(&candidates, &[&sites, &skip, &now_ms, &per_host])?;
        let lock = Tx::prepared(&mut tx, prepared).shared(LOCK_SQL)?;
        let order = claim_order(&rows);
        let mut locked: Vec<i64> = Vec::with_capacity(limit);
        let mut rest = order.as_slice();
        while locked.len() < limit && !rest.is_empty() {
            let take = (limit - locked.len()).min(rest.len());
            let (ids, after) = rest.split_at(take);
            rest = after;
            let got: std::collections::HashSet<i64> = tx
                .query(&lock, &[&ids, &now_ms])?
                .iter()
                .map(|r| r.get(0))
                .collect();
            locked.extend(ids.iter().filter(|id| got.contains(id)));
        }
        if locked.is_empty() {
            tx.commit()?;
            return Ok(Vec::new());
        }
        let mark = Tx::prepared(&mut tx, prepared).shared(MARK_SQL)?;
        let mut by_id: HashMap<i64, QueuedUrl> = tx
            .query(&mark, &[&locked, &owner, &lease])?
            .iter()
            .map(|r| {
                let q = QueuedUrl {
                    id: r.get(0),
                    url: r.get(1),
                    site: r.get(2),
                    host: r.get(3),
                    fetched_before: r.get(4),
                    kind: UrlKind::parse(r.get(5)),
                    depth: u32::try_from(r.get::<_, i32>(6)).unwrap_or(0),
                    attempts: u32::try_from(r.get::<_, i32>(7)).unwrap_or(0),
                    etag: r.get(8),
                    last_modified: r.get(9),
                };
                (q.id, q)
            })
            .collect();
        tx.commit()?;
        self.frontier.url_counts.claimed();
        Ok(locked.iter().filter_map(|id| by_id.remove(id)).collect())
    }

    /// Put this process's claims back in the queue (never another live
    /// process's: theirs end with their lease). Returns how many.
    pub fn reset_in_flight(&mut self) -> Result<usize, StoreError> {
        writes::put_back_in_flight(&mut *self.client, Some(&self.owner))
    }

    /// Extend the leases of every URL this process holds to a full lease
    /// from now (the server's clock). Returns how many.
    pub fn renew_leases(&mut self) -> Result<usize, StoreError> {
        let lease = millis(self.lease);
        let n = self.client.execute(RENEW_SQL, &[&self.owner, &lease])?;
        self.frontier.renewed = Some(Instant::now());
        Ok(usize::try_from(n).unwrap_or(usize::MAX))
    }

    /// [`PgStore::renew_leases`] once a third of the lease has passed since
    /// the last renewal: a claim waiting behind its host's rate keeps its
    /// lease while the process lives.
    pub(super) fn renew_leases_if_due(&mut self) -> Result<(), StoreError> {
        let due = self
            .frontier
            .renewed
            .is_none_or(|at| at.elapsed() >= self.lease / 3);
        if due {
            self.renew_leases()?;
        }
        Ok(())
    }

    /// When the next URL of `sites` (`None` = all) becomes claimable, on
    /// the callers' clock: the earliest due queued URL, or 0 (now) when a
    /// URL's lease has ended. `None` when nothing is queued. URLs that other
    /// processes hold are [`PgStore::held_elsewhere`].
    pub fn next_due_at_for(&mut self, sites: Option<&[String]>) -> Result<Option<i64>, StoreError> {
        let mut tx = self.client.transaction()?;
        let ids = selected_site_ids(&mut tx, sites)?;
        let lease_ended: bool = tx
            .query_one(
                concat!(
                    "SELECT EXISTS (SELECT 1 FROM urls
                                    WHERE state = 'fetching' AND site_id = ANY($1)
                                      AND (lease_until < ",
                    server_now_ms!(),
                    " OR lease_until IS NULL))"
                ),
                &[&ids],
            )?
            .get(0);
        let queued = next_queued_at(&mut tx, sites)?;
        tx.commit()?;
        Ok(if lease_ended { Some(0) } else { queued })
    }

    /// How long until the first lease ends among the URLs of `sites`
    /// (`None` = all) that other processes hold; `None` when they hold
    /// none. While they do, the crawl is not over: they may discover new
    /// URLs, or die and leave theirs to be claimed.
    pub fn held_elsewhere(
        &mut self,
        sites: Option<&[String]>,
    ) -> Result<Option<Duration>, StoreError> {
        let mut tx = self.client.transaction()?;
        let ids = selected_site_ids(&mut tx, sites)?;
        let row = tx.query_one(
            concat!(
                "SELECT min(lease_until) - ",
                server_now_ms!(),
                " FROM urls
                 WHERE state = 'fetching' AND site_id = ANY($1) AND leased_by <> $2"
            ),
            &[&ids, &self.owner],
        )?;
        tx.commit()?;
        let left: Option<i64> = row.get(0);
        Ok(left.map(|ms| Duration::from_millis(u64::try_from(ms).unwrap_or(0))))
    }
}

#[cfg(test)]
mod tests;
