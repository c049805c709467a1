//! The scheduler: claims due URLs from the frontier and hands them to
//! workers, host by host, until the pass is over or the crawl is stopped.
//!
//! In: the run's shared context ([`Ctx`]), the selected sites, the options
//! and a stop signal. Out: the run's counters filled; the frontier left
//! consistent (URLs claimed but not fetched are put back at the end).
//!
//! Claimed URLs wait in per-host queues; a worker is started when the host
//! grants a permit (its own concurrency cap, not paused, not parked),
//! round-robin over hosts. Workers wait for their host's rate limit before
//! taking one of the `concurrency` global fetch slots, so a slow host never
//! idles a slot. Claims are per-host fair in the store: only the selected
//! sites whose page budget is not exhausted are read, each host gives at
//! most [`Scheduler::per_host_target`] URLs, and hosts already holding that
//! many are skipped — so one host's backlog never makes the scheduler dig
//! through it to reach the others. If every queued host is busy while slots
//! are free, the claim target doubles (still per-host capped). A host paused
//! or parked for longer than [`SHORT_BLOCK`] gets its queued URLs
//! rescheduled to the end of the block instead of holding them in memory
//! (and is skipped by the following claims while blocked).
//!
//! One-pass mode ends when nothing is in flight, nothing claimed is waiting
//! and nothing is due now — except that retries scheduled by this run within
//! [`ONE_PASS_PATIENCE`] are waited for (a transient 503 should not cost the
//! page until the next run), and that on a shared frontier a process waits
//! while others hold URLs (their pages may add URLs; a dead process's
//! URLs come back when its lease ends). Continuous mode sleeps until the next due URL
//! (feeds and index pages revisited every `revisit_secs`) and runs until
//! stopped. Stopping (the shutdown future, or `max_pages` reached) means:
//! claim nothing more, let the pages in flight finish, then return.

use std::cmp::{Ordering, Reverse};
use std::collections::{BinaryHeap, HashMap, VecDeque};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;
use tokio::task::JoinSet;
use tokio::time::Instant;
use url::Url;

use super::kinds::{CapKind, ErrorKind, SkipKind};
use super::progress::Progress;
use super::worker::{self, now_ms, Ctx, Done, Job};
use super::writer::WriterError;
use crate::config::SiteSettings;
use crate::store::{ClaimFilter, NextState, QueuedUrl};
use crate::urls::host_key;

mod claim_need;
use claim_need::Holding;

/// Retries due within this long are waited for in one-pass mode.
pub const ONE_PASS_PATIENCE: Duration = Duration::from_secs(30);
/// Hosts blocked longer than this have their queued URLs rescheduled.
pub const SHORT_BLOCK: Duration = Duration::from_secs(2);
/// Workers alive at once (most of them waiting for a rate limit), as a
/// multiple of `concurrency`.
const WORKERS_PER_SLOT: usize = 4;
/// How often an idle scheduler looks at the frontier again.
const IDLE_POLL: Duration = Duration::from_millis(250);
/// How often a process with nothing to do looks again while other
/// processes of a shared frontier hold URLs.
const HELD_ELSEWHERE_POLL: Duration = Duration::from_secs(1);
/// Longest sleep of an idle continuous crawl (so status lines keep coming).
const MAX_IDLE_SLEEP: Duration = Duration::from_secs(5);

/// A claim sent to the writer, not answered yet.
type Claiming = std::pin::Pin<
    Box<dyn std::future::Future<Output = Result<Vec<QueuedUrl>, WriterError>> + Send>,
>;

/// A claimed URL waiting for its host. A host's queue is ordered by the
/// frontier priority of the URL's kind and depth, then by claim order, so a
/// feed claimed later still goes before a backlog of articles claimed earlier.
struct Waiting {
    priority: i32,
    seq: Reverse<u64>,
    q: QueuedUrl,
    url: Url,
    site: Arc<SiteSettings>,
}

impl Waiting {
    fn key(&self) -> (i32, Reverse<u64>) {
        (self.priority, self.seq)
    }
}

impl PartialEq for Waiting {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}

impl Eq for Waiting {}

impl PartialOrd for Waiting {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Waiting {
    fn cmp(&self, other: &Self) -> Ordering {
        self.key().cmp(&other.key())
    }
}

pub struct Scheduler {
    ctx: Arc<Ctx>,
    continuous: bool,
    /// Selected sites by name.
    selected: HashMap<String, Arc<SiteSettings>>,
    /// Selected sites whose page budget is not exhausted: the only ones
    /// claimed from (and waited for).
    claimable: Vec<String>,
    queues: HashMap<String, BinaryHeap<Waiting>>,
    /// Claim order, for FIFO among equal priorities.
    seq: u64,
    rotation: VecDeque<String>,
    queued: usize,
    running: JoinSet<Done>,
    /// Stop after this many pages (0 = no limit).
    max_pages: u64,
    /// Pages dispatched this run (for `max_pages`).
    dispatched: u64,
    /// Pages per site, database lifetime (for `max_pages_per_site`).
    site_pages: HashMap<String, u64>,
    /// Latest retry time (unix ms) this run promised to wait for.
    retry_horizon: Option<i64>,
    claim_after: Instant,
    /// A host's queue emptied since the last claim (see `claim_need`).
    host_ran_dry: bool,
    progress: Progress,
    stop: watch::Receiver<bool>,
}

impl Scheduler {
    pub fn new(
        ctx: Arc<Ctx>,
        continuous: bool,
        progress: bool,
        max_pages: u64,
        selected: HashMap<String, Arc<SiteSettings>>,
        site_pages: HashMap<String, u64>,
        stop: watch::Receiver<bool>,
    ) -> Scheduler {
        let budget = ctx.cfg.crawler.max_pages_per_site;
        let mut claimable: Vec<String> = selected
            .keys()
            .filter(|name| budget == 0 || site_pages.get(*name).copied().unwrap_or(0) < budget)
            .cloned()
            .collect();
        claimable.sort();
        Scheduler {
            ctx,
            continuous,
            max_pages,
            selected,
            claimable,
            queues: HashMap::new(),
            rotation: VecDeque::new(),
            seq: 0,
            queued: 0,
            running: JoinSet::new(),
            dispatched: 0,
            site_pages,
            retry_horizon: None,
            claim_after: Instant::now(),
            host_ran_dry: false,
            progress: Progress::new(progress),
            stop,
        }
    }

    fn concurrency(&self) -> usize {
        self.ctx.cfg.crawler.concurrency.max(1)
    }

    fn max_workers(&self) -> usize {
        self.concurrency() * WORKERS_PER_SLOT
    }

    /// Claimed URLs kept waiting: enough to find work for every free worker
    /// among several hosts.
    fn queue_target(&self) -> usize {
        (self.concurrency() * 4).max(32)
    }

    /// Claimed URLs of one host kept waiting: a few rounds of its own
    /// concurrency, so its next URL is at hand when a fetch finishes.
    fn per_host_target(&self) -> usize {
        (self.ctx.cfg.politeness.per_host_concurrency * 4).max(4)
    }

    /// What the next claim may take: the claimable sites, a few URLs per
    /// host, none of the hosts already holding enough or blocked for long.
    fn claim_filter(&self) -> ClaimFilter {
        let per_host = self.per_host_target();
        let skip_hosts = self
            .queues
            .iter()
            .filter(|(host, q)| q.len() >= per_host || self.blocked_long(host))
            .map(|(host, _)| host.clone())
            .collect();
        ClaimFilter {
            sites: Some(self.claimable.clone()),
            per_host,
            skip_hosts,
        }
    }

    fn blocked_long(&self, host: &str) -> bool {
        self.ctx
            .politeness
            .blocked_until(host)
            .is_some_and(|until| {
                until.saturating_duration_since(std::time::Instant::now()) > SHORT_BLOCK
            })
    }

    fn page_limit_reached(&self) -> bool {
        self.max_pages > 0 && self.dispatched >= self.max_pages
    }

    pub async fn run(mut self, stop: &mut watch::Receiver<bool>) -> Result<(), WriterError> {
        // The claim in flight, if any: awaited beside the workers, so the
        // queued URLs keep being dispatched while the writer commits its
        // buffer (learning included) before answering. A claim dropped by a
        // stop leaves its URLs in flight; the end-of-run reset queues them.
        let mut claiming: Option<Claiming> = None;
        loop {
            self.progress
                .update(&self.ctx.counters, self.running.len(), self.queued);
            if *stop.borrow() || self.page_limit_reached() {
                match self.running.join_next().await {
                    Some(done) => self.finished(done),
                    None => break,
                }
                continue;
            }
            let starved = self.dispatch().await?;
            // Claim when the queue needs it, not after every finished page:
            // each claim commits the writer's buffer first (`claim_need`).
            let holding = Holding {
                queued: self.queued,
                queue_target: self.queue_target(),
                starved,
                per_host_target: self.per_host_target(),
                shortest_host_queue: self.queues.values().map(BinaryHeap::len).min(),
                host_ran_dry: self.host_ran_dry,
            };
            if claiming.is_none() && holding.needs_claim() && Instant::now() >= self.claim_after {
                self.host_ran_dry = false;
                let limit = (holding.want() - self.queued).min(self.queue_target());
                let filter = self.claim_filter();
                let writer = self.ctx.writer.clone();
                claiming = Some(Box::pin(async move {
                    writer.claim(now_ms(), limit, filter).await
                }));
            }
            if self.running.is_empty() && self.queued == 0 && claiming.is_none() {
                let Some(sleep) = self.idle().await? else {
                    break;
                };
                tokio::select! {
                    _ = tokio::time::sleep(sleep) => {}
                    _ = stop.changed() => {}
                }
                self.claim_after = Instant::now();
                continue;
            }
            tokio::select! {
                claimed = async {
                    match claiming.as_mut() {
                        Some(claim) => claim.await,
                        None => std::future::pending().await,
                    }
                }, if claiming.is_some() => {
                    claiming = None;
                    let claimed = claimed?;
                    if claimed.is_empty() {
                        self.claim_after = Instant::now() + IDLE_POLL;
                    }
                    for q in claimed {
                        self.enqueue(q).await?;
                    }
                }
                Some(done) = self.running.join_next(), if !self.running.is_empty() => {
                    self.finished(done);
                    // The page's new URLs may be due now.
                    self.claim_after = Instant::now();
                }
                _ = stop.changed() => {}
                _ = tokio::time::sleep(IDLE_POLL) => {}
            }
        }
        self.progress.finish();
        Ok(())
    }

    /// Nothing running, nothing waiting: how long to sleep, or `None` when
    /// the pass is over.
    async fn idle(&mut self) -> Result<Option<Duration>, WriterError> {
        let next = self
            .ctx
            .writer
            .next_due(Some(self.claimable.clone()))
            .await?;
        let now = now_ms();
        let waiting_for_retry = match (next, self.retry_horizon) {
            (Some(t), Some(h)) => t <= h,
            _ => false,
        };
        // On a shared frontier, URLs other processes hold are not finished:
        // they may lead to new URLs, or come back when a lease ends (its
        // process died). Asked only when the pass would otherwise end.
        let mut held_elsewhere = None;
        if !self.continuous && !waiting_for_retry && next.is_none_or(|t| t > now) {
            held_elsewhere = self
                .ctx
                .writer
                .held_elsewhere(Some(self.claimable.clone()))
                .await?;
            if held_elsewhere.is_none() {
                return Ok(None);
            }
        }
        let cap = if self.continuous {
            MAX_IDLE_SLEEP
        } else {
            ONE_PASS_PATIENCE
        };
        let mut wait = match next {
            Some(t) => Duration::from_millis(u64::try_from(t - now).unwrap_or(0)),
            None => cap,
        };
        if let Some(lease_left) = held_elsewhere {
            wait = wait.min(lease_left.max(IDLE_POLL)).min(HELD_ELSEWHERE_POLL);
        }
        Ok(Some(wait.clamp(Duration::from_millis(10), cap)))
    }

    fn finished(&mut self, done: Result<Done, tokio::task::JoinError>) {
        match done {
            Ok(done) => {
                if let Some(at) = done.retry_at {
                    let patience = i64::try_from(ONE_PASS_PATIENCE.as_millis()).unwrap_or(0);
                    if at - now_ms() <= patience {
                        self.retry_horizon = Some(self.retry_horizon.map_or(at, |h| h.max(at)));
                    }
                }
            }
            // A panicking worker is a bug; its URL stays claimed and is
            // queued again by the next run's reset.
            Err(e) if e.is_panic() => self.ctx.counters.error(ErrorKind::WorkerPanic),
            Err(_) => {}
        }
    }

    async fn enqueue(&mut self, q: QueuedUrl) -> Result<(), WriterError> {
        let Some(site) = self.selected.get(&q.site).cloned() else {
            // Not claimed any more (claims are filtered by site); kept as
            // a guard: left claimed and put back by the end-of-run reset.
            return Ok(());
        };
        let Ok(url) = Url::parse(&q.url) else {
            self.ctx.counters.error(ErrorKind::BadUrl);
            let op = worker::skipped(&q, SkipKind::BadUrl, NextState::Failed);
            return self.ctx.writer.write(vec![op]).await;
        };
        let host = host_key(&url);
        let queue = self.queues.entry(host.clone()).or_default();
        if queue.is_empty() {
            self.rotation.push_back(host);
        }
        self.seq += 1;
        queue.push(Waiting {
            priority: super::frontier::priority(q.kind, q.depth),
            seq: Reverse(self.seq),
            q,
            url,
            site,
        });
        self.queued += 1;
        Ok(())
    }

    /// Start workers while there is room, one host at a time, round-robin.
    /// Returns whether fetch slots are free that no queued host can use.
    async fn dispatch(&mut self) -> Result<bool, WriterError> {
        let mut idle_hosts = 0;
        while idle_hosts < self.rotation.len()
            && self.running.len() < self.max_workers()
            && !self.page_limit_reached()
        {
            let Some(host) = self.rotation.pop_front() else {
                break;
            };
            if self.reschedule_if_blocked(&host).await? {
                idle_hosts = 0;
                continue;
            }
            let Some(permit) = self.ctx.politeness.try_permit(&host) else {
                self.rotation.push_back(host);
                idle_hosts += 1;
                continue;
            };
            let Some(w) = self.queues.get_mut(&host).and_then(BinaryHeap::pop) else {
                self.queues.remove(&host);
                continue;
            };
            self.queued -= 1;
            if self.queues.get(&host).is_some_and(|q| !q.is_empty()) {
                self.rotation.push_back(host.clone());
            } else {
                self.queues.remove(&host);
                self.host_ran_dry = true;
            }
            idle_hosts = 0;
            if let Some(kind) = self.over_budget(&w.site) {
                // Claimed before the budget ran out. Left due, but the site
                // is no longer claimed from, so it waits (unattempted) for a
                // run with a larger budget instead of coming back every
                // revisit interval.
                self.stop_claiming(&w.site.name, kind);
                self.ctx.counters.skip(kind);
                let op = worker::skipped(&w.q, kind, NextState::At(now_ms()));
                self.ctx.writer.write(vec![op]).await?;
                continue;
            }
            self.dispatched += 1;
            *self.site_pages.entry(w.site.name.clone()).or_default() += 1;
            if let Some(kind) = self.over_budget(&w.site) {
                self.stop_claiming(&w.site.name, kind);
            }
            let job = Job {
                q: w.q,
                url: w.url,
                host,
                site: w.site,
                permit,
            };
            self.running
                .spawn(worker::work(self.ctx.clone(), job, self.stop.clone()));
        }
        let slots_free = self.ctx.fetch_slots.available_permits() > 0;
        let hosts_busy = self.running.len() < self.max_workers() && !self.page_limit_reached();
        Ok(slots_free && hosts_busy)
    }

    /// Which budget of the site is spent, if one is: its pages over the
    /// database's life (`max_pages_per_site`), its articles in this run
    /// (`max_articles_per_site`; counted as stored, so the pages in flight
    /// may add a few more).
    fn over_budget(&self, site: &SiteSettings) -> Option<SkipKind> {
        let crawler = &self.ctx.cfg.crawler;
        let pages = self.site_pages.get(&site.name).copied().unwrap_or(0);
        if crawler.max_pages_per_site > 0 && pages >= crawler.max_pages_per_site {
            return Some(SkipKind::SiteBudget);
        }
        let cap = crawler.max_articles_per_site;
        (cap > 0 && self.ctx.counters.sites.articles_stored(&site.name) >= cap)
            .then_some(SkipKind::ArticleBudget)
    }

    /// No more claims from `site` in this run; a spent article budget is
    /// said in the summary, once a site.
    fn stop_claiming(&mut self, site: &str, why: SkipKind) {
        let before = self.claimable.len();
        self.claimable.retain(|name| name != site);
        if why == SkipKind::ArticleBudget && self.claimable.len() < before {
            self.ctx.counters.capped(CapKind::ArticlesPerSite);
        }
    }

    /// A host paused or parked for long: reschedule its waiting URLs to the
    /// end of the block. Returns whether it did.
    async fn reschedule_if_blocked(&mut self, host: &str) -> Result<bool, WriterError> {
        let Some(until) = self.ctx.politeness.blocked_until(host) else {
            return Ok(false);
        };
        let left = until.saturating_duration_since(std::time::Instant::now());
        if left <= SHORT_BLOCK {
            return Ok(false);
        }
        let at = now_ms() + i64::try_from(left.as_millis()).unwrap_or(i64::MAX);
        let waiting = self.queues.remove(host).unwrap_or_default();
        self.queued -= waiting.len();
        let ops: Vec<_> = waiting
            .iter()
            .map(|w| {
                self.ctx.counters.skip(SkipKind::HostParked);
                worker::skipped(&w.q, SkipKind::HostParked, NextState::At(at))
            })
            .collect();
        self.ctx.writer.write(ops).await?;
        Ok(true)
    }
}
