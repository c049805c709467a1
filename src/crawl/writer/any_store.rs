//! The crawl's store seam on the real stores: [`CrawlStore`] for
//! [`AnyStore`], SQLite or PostgreSQL, each method the store's own.

use std::time::Duration;

use super::crawl_store::Judged;
use super::CrawlStore;
use crate::config::Config;
use crate::store::{
    AnyStore, ClaimFilter, DroppedUrls, Outlook, QueuedUrl, Requeue, ShapeCounts, StoreError,
    UrlCaps, WriteOp, WriteOutcome,
};

/// The real stores, SQLite and PostgreSQL (a shared frontier: claims hold
/// leases, the hosts' turns are every process's, other processes' leases
/// are waited for).
impl CrawlStore for AnyStore {
    fn configure(&mut self, config: &Config) {
        let lease = Duration::from_secs(config.store.lease_seconds);
        let caps = UrlCaps {
            known: config.crawler.max_urls_per_site,
            queued: config.crawler.max_queued_per_site,
        };
        AnyStore::configure_frontier(self, caps, lease);
    }
    fn reset_in_flight(&mut self) -> Result<usize, StoreError> {
        AnyStore::reset_in_flight(self)
    }
    fn claim_due(
        &mut self,
        now_ms: i64,
        limit: usize,
        filter: &ClaimFilter,
    ) -> Result<Vec<QueuedUrl>, StoreError> {
        AnyStore::claim_due_for(self, now_ms, limit, filter)
    }
    fn next_due_at(&mut self, sites: Option<&[String]>) -> Result<Option<i64>, StoreError> {
        AnyStore::next_due_at_for(self, sites)
    }
    fn held_elsewhere(&mut self, sites: Option<&[String]>) -> Result<Option<Duration>, StoreError> {
        AnyStore::held_elsewhere(self, sites)
    }
    fn host_turns(&self) -> Option<crate::store::TurnsAt> {
        AnyStore::host_turns(self)
    }
    fn write_batch(&mut self, ops: Vec<WriteOp>) -> Result<Vec<WriteOutcome>, StoreError> {
        AnyStore::write_batch(self, ops)
    }
    fn take_dropped_urls(&mut self) -> DroppedUrls {
        AnyStore::take_dropped_urls(self)
    }
    fn pages_by_site(&mut self) -> Result<std::collections::HashMap<String, u64>, StoreError> {
        AnyStore::pages_by_site(self)
    }
    fn reclean(&mut self, config: &Config, sites: &[String]) -> Result<usize, StoreError> {
        // Only the articles with a line whose status changed: the others
        // would be rewritten with the text they already have.
        let settings = |name: &str| config.line_settings(Some(name));
        if sites.is_empty() {
            return Ok(
                AnyStore::reclean(self, None, crate::store::Which::Changed, &settings)?.changed,
            );
        }
        let mut changed = 0;
        for site in sites {
            changed +=
                AnyStore::reclean(self, Some(site), crate::store::Which::Changed, &settings)?
                    .changed;
        }
        Ok(changed)
    }
    fn site_rules(&mut self) -> Result<Vec<(String, String)>, StoreError> {
        AnyStore::site_rules(self)
    }
    fn url_shapes(&mut self) -> Result<Vec<(String, ShapeCounts)>, StoreError> {
        AnyStore::url_shapes(self)
    }
    fn judged_for(&mut self, sites: &[String], reasons: &[&str], limit: usize) -> Judged {
        AnyStore::judged_for(self, sites, reasons, limit)
    }
    fn requeue(&mut self, sites: &[String], plan: &Requeue) -> Result<(usize, usize), StoreError> {
        AnyStore::requeue(self, sites, plan)
    }
    fn outlook(&mut self, sites: &[String], now_ms: i64) -> Result<Outlook, StoreError> {
        AnyStore::outlook(self, sites, now_ms)
    }
    fn upkeep_in_background(&mut self) -> Result<(), StoreError> {
        AnyStore::upkeep_in_background(self)
    }
    fn upkeep_in_foreground(&mut self) -> Result<(), StoreError> {
        AnyStore::upkeep_in_foreground(self)
    }
}
