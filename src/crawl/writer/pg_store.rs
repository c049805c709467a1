//! The crawl's store seam on PostgreSQL: [`CrawlStore`] for a
//! [`PgStore`] ([`SharedStore`]), the shared frontier of many crawler
//! processes.
//!
//! In: the writer's calls. Out: the same calls on the PostgreSQL store
//! (claims with leases, this process's claims put back, other processes'
//! leases reported so a process waits for them, the hosts' shared turns).
//!
//! Why a wrapper: the `postgres` client blocks on a runtime of its own,
//! in its calls and when it is dropped (it says goodbye to the server),
//! and panics when that happens on a thread of the crawl's runtime. The
//! crawl calls the store only from blocking tasks, but the store is
//! dropped wherever an error ends the crawl; [`SharedStore`] drops its
//! client on a thread of its own then.

use std::collections::HashMap;
use std::time::Duration;

use super::CrawlStore;
use crate::config::Config;
use crate::store::pg::{PgStore, TurnsAt};
use crate::store::{
    ClaimFilter, Outlook, QueuedUrl, ShapeCounts, StoreError, WriteOp, WriteOutcome,
};

/// A [`PgStore`] for the crawl: dropped off the async runtime.
pub struct SharedStore(Option<PgStore>);

impl SharedStore {
    pub fn new(store: PgStore) -> SharedStore {
        SharedStore(Some(store))
    }

    fn get(&mut self) -> &mut PgStore {
        self.0
            .as_mut()
            .expect("the store is taken only when dropped")
    }
}

impl Drop for SharedStore {
    fn drop(&mut self) {
        let Some(store) = self.0.take() else { return };
        if tokio::runtime::Handle::try_current().is_ok() {
            // Joined: the goodbye to the server takes a round trip, and the
            // process may exit right after.
            let _ = std::thread::spawn(move || drop(store)).join();
        }
    }
}

impl CrawlStore for SharedStore {
    fn configure(&mut self, config: &Config) {
        let store = self.get();
        store.set_max_urls_per_site(config.crawler.max_urls_per_site);
        store.set_lease(Duration::from_secs(config.store.lease_seconds));
    }
    fn reset_in_flight(&mut self) -> Result<usize, StoreError> {
        PgStore::reset_in_flight(self.get())
    }
    fn claim_due(
        &mut self,
        now_ms: i64,
        limit: usize,
        filter: &ClaimFilter,
    ) -> Result<Vec<QueuedUrl>, StoreError> {
        PgStore::claim_due_for(self.get(), now_ms, limit, filter)
    }
    fn next_due_at(&mut self, sites: Option<&[String]>) -> Result<Option<i64>, StoreError> {
        PgStore::next_due_at_for(self.get(), sites)
    }
    fn held_elsewhere(&mut self, sites: Option<&[String]>) -> Result<Option<Duration>, StoreError> {
        PgStore::held_elsewhere(self.get(), sites)
    }
    fn host_turns(&self) -> Option<TurnsAt> {
        self.0.as_ref().map(PgStore::host_turns)
    }
    fn write_batch(&mut self, ops: Vec<WriteOp>) -> Result<Vec<WriteOutcome>, StoreError> {
        PgStore::write_batch(self.get(), ops)
    }
    fn pages_by_site(&mut self) -> Result<HashMap<String, u64>, StoreError> {
        PgStore::pages_by_site(self.get())
    }
    fn reclean(&mut self, config: &Config, sites: &[String]) -> Result<usize, StoreError> {
        let settings = |name: &str| config.line_settings(Some(name));
        if sites.is_empty() {
            return PgStore::reclean_changed(self.get(), None, settings);
        }
        let mut changed = 0;
        for site in sites {
            changed += PgStore::reclean_changed(self.get(), Some(site), settings)?;
        }
        Ok(changed)
    }
    fn site_rules(&mut self) -> Result<Vec<(String, String)>, StoreError> {
        PgStore::site_rules(self.get())
    }
    fn url_shapes(&mut self) -> Result<Vec<(String, ShapeCounts)>, StoreError> {
        PgStore::url_shapes(self.get())
    }
    fn requeue_refused(
        &mut self,
        sites: &[String],
        refusals: &[(String, String)],
    ) -> Result<usize, StoreError> {
        PgStore::requeue_refused(self.get(), sites, refusals)
    }
    fn requeue_failed(&mut self, sites: &[String]) -> Result<usize, StoreError> {
        PgStore::requeue_failed(self.get(), sites)
    }
    fn outlook(&mut self, sites: &[String], now_ms: i64) -> Result<Outlook, StoreError> {
        PgStore::outlook(self.get(), sites, now_ms)
    }
}
