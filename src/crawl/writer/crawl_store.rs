//! The store operations a crawl (and an import) needs, as one trait: the
//! writer task calls them, either store implements them, and a test can
//! bring a store of its own.

use std::time::Duration;

use crate::config::Config;
use crate::store::{
    ClaimFilter, DroppedUrls, Outlook, QueuedUrl, Requeue, ShapeCounts, StoreError, WriteOp,
    WriteOutcome,
};

/// Judged pages: (site, URL).
pub(super) type Judged = Result<Vec<(String, String)>, StoreError>;

/// The store operations a crawl needs. [`AnyStore`](crate::store::AnyStore) (either store) is the
/// real one; the trait keeps the crawl testable on stores of its own.
pub trait CrawlStore: Send + 'static {
    /// Take the configuration's frontier settings before the crawl starts
    /// (the cap on URLs per site; a shared store's claim lease). Stores
    /// without such settings have nothing to take.
    fn configure(&mut self, config: &Config) {
        let _ = config;
    }
    fn reset_in_flight(&mut self) -> Result<usize, StoreError>;
    fn claim_due(
        &mut self,
        now_ms: i64,
        limit: usize,
        filter: &ClaimFilter,
    ) -> Result<Vec<QueuedUrl>, StoreError>;
    /// The next due time over `sites` (`None` = all).
    fn next_due_at(&mut self, sites: Option<&[String]>) -> Result<Option<i64>, StoreError>;
    /// How long until the first lease ends of the URLs of `sites` that
    /// other processes hold (a shared frontier); `None` when they hold
    /// none. Stores of one process have none.
    fn held_elsewhere(&mut self, sites: Option<&[String]>) -> Result<Option<Duration>, StoreError> {
        let _ = sites;
        Ok(None)
    }
    /// Where a shared store keeps the hosts' turns for every process
    /// (global politeness); `None` for a store of one process.
    fn host_turns(&self) -> Option<crate::store::TurnsAt> {
        None
    }
    fn write_batch(&mut self, ops: Vec<WriteOp>) -> Result<Vec<WriteOutcome>, StoreError>;
    /// The new URLs the store dropped under its caps since asked last.
    fn take_dropped_urls(&mut self) -> DroppedUrls {
        DroppedUrls::default()
    }
    /// Pages fetched so far per site (database lifetime, for budgets).
    fn pages_by_site(&mut self) -> Result<std::collections::HashMap<String, u64>, StoreError>;
    /// The crawl's closing step: clean the stored articles of `sites` (all
    /// sites when empty) again with what their line tables have learned;
    /// returns how many changed. Stores without line tables have nothing to
    /// do.
    fn reclean(&mut self, config: &Config, sites: &[String]) -> Result<usize, StoreError> {
        let _ = (config, sites);
        Ok(0)
    }
    /// The stored `tree` site rules: (site, rule JSON). Stores without a
    /// rule table have none.
    fn site_rules(&mut self) -> Result<Vec<(String, String)>, StoreError> {
        Ok(Vec::new())
    }
    /// Every site's learned URL shape counts: (site, counts). Stores
    /// without a shape table have none.
    fn url_shapes(&mut self) -> Result<Vec<(String, ShapeCounts)>, StoreError> {
        Ok(Vec::new())
    }
    /// The pages of `sites` whose last judgement gave one of `reasons`:
    /// (site, URL), at most `limit` per site.
    fn judged_for(&mut self, sites: &[String], reasons: &[&str], limit: usize) -> Judged {
        let _ = (sites, reasons, limit);
        Ok(Vec::new())
    }
    /// Queue again what `plan` says of `sites`' failed, refused and
    /// waiting URLs; (queued again, waits lifted).
    fn requeue(&mut self, sites: &[String], plan: &Requeue) -> Result<(usize, usize), StoreError> {
        let _ = (sites, plan);
        Ok((0, 0))
    }
    /// What of `sites` waits or failed in the frontier.
    fn outlook(&mut self, sites: &[String], now_ms: i64) -> Result<Outlook, StoreError> {
        let _ = (sites, now_ms);
        Ok(Outlook::default())
    }
    /// From now on, keep the store's upkeep (WAL checkpoints) off the
    /// writer's path where the store can.
    fn upkeep_in_background(&mut self) -> Result<(), StoreError> {
        Ok(())
    }
    /// Do the upkeep left and go back to doing it in line (the crawl's
    /// writes are over).
    fn upkeep_in_foreground(&mut self) -> Result<(), StoreError> {
        Ok(())
    }
}
