//! The crawl's store seam on PostgreSQL: [`CrawlStore`] for [`PgStore`],
//! the shared frontier of many crawler processes (issue 15).
//!
//! In: the writer's calls. Out: the same calls on the PostgreSQL store
//! (claims with leases, this process's claims put back, other processes'
//! leases reported so a process waits for them, the hosts' shared turns).

use std::collections::HashMap;
use std::time::Duration;

use super::CrawlStore;
use crate::config::Config;
use crate::store::pg::{PgStore, TurnsAt};
use crate::store::{ClaimFilter, QueuedUrl, StoreError, WriteOp, WriteOutcome};

impl CrawlStore for PgStore {
    fn reset_in_flight(&mut self) -> Result<usize, StoreError> {
        PgStore::reset_in_flight(self)
    }
    fn claim_due(
        &mut self,
        now_ms: i64,
        limit: usize,
        filter: &ClaimFilter,
    ) -> Result<Vec<QueuedUrl>, StoreError> {
        PgStore::claim_due_for(self, now_ms, limit, filter)
    }
    fn next_due_at(&mut self, sites: Option<&[String]>) -> Result<Option<i64>, StoreError> {
        PgStore::next_due_at_for(self, sites)
    }
    fn held_elsewhere(&mut self, sites: Option<&[String]>) -> Result<Option<Duration>, StoreError> {
        PgStore::held_elsewhere(self, sites)
    }
    fn host_turns(&self) -> Option<TurnsAt> {
        Some(PgStore::host_turns(self))
    }
    fn write_batch(&mut self, ops: Vec<WriteOp>) -> Result<Vec<WriteOutcome>, StoreError> {
        PgStore::write_batch(self, ops)
    }
    fn pages_by_site(&mut self) -> Result<HashMap<String, u64>, StoreError> {
        PgStore::pages_by_site(self)
    }
    fn reclean(&mut self, config: &Config, sites: &[String]) -> Result<usize, StoreError> {
        let settings = |name: &str| config.line_settings(Some(name));
        if sites.is_empty() {
            return PgStore::reclean_changed(self, None, settings);
        }
        let mut changed = 0;
        for site in sites {
            changed += PgStore::reclean_changed(self, Some(site), settings)?;
        }
        Ok(changed)
    }
    fn site_rules(&mut self) -> Result<Vec<(String, String)>, StoreError> {
        PgStore::site_rules(self)
    }
}
