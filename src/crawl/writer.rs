//! The single store writer of a crawl.
//!
//! In: [`Command`]s from the scheduler and the workers over one bounded
//! channel — writes (new URLs, fetch records, articles) and frontier requests
//! (claim due URLs, next due time, reset in-flight URLs). Out: batched
//! transactions on the store, replies to the frontier requests, and the
//! article outcomes counted in [`Counters`].
//!
//! Why one task and one connection for everything, claims included: SQLite
//! has one writer at a time, and claiming is a write (it marks URLs in
//! flight). Sending claims through the same queue also orders them after the
//! writes that were sent before them, so a claim always sees the URLs the
//! finished pages discovered — no second connection, no lock contention.
//!
//! Writes are buffered and committed in one transaction every
//! [`FLUSH_ITEMS`] items or [`FLUSH_EVERY`] after the first buffered write
//! (an import's writer: its own [`Flush`]),
//! before every frontier request, and when the channel closes. A crash loses
//! at most the buffered batch; those URLs are still in flight in the
//! database and `reset_in_flight` on the next start queues them again.
//!
//! New URLs that the frontier certainly has (remembered by fingerprint once
//! committed, see `SeenUrls`) are dropped before the batch goes to the
//! store: most links of a page lead to pages already known. The set is
//! shared ([`Writer::committed`]) so page processing leaves most of them out
//! before they are built and sent at all.
//!
//! While it runs, the store checkpoints its WAL on a thread of its own
//! ([`CrawlStore::upkeep_in_background`]); the last commit is followed by
//! a full checkpoint.
//!
//! The store's calls are blocking (rusqlite), so they run on tokio's blocking
//! pool: the store moves into `spawn_blocking` and back.

use std::time::Duration;

use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

use super::kinds::{CapKind, ErrorKind};
use super::seen::{CommittedUrls, SeenUrls};
use super::summary::Counters;
use crate::store::{ClaimFilter, DroppedUrls, QueuedUrl, StoreError, WriteOp, WriteOutcome};

/// Items (records, articles, [`URLS_PER_ITEM`] new URLs) buffered before a
/// commit.
pub const FLUSH_ITEMS: usize = 256;
/// New URLs that count as one item: a large page's few hundred links are
/// cheap to insert next to its article, and counting each would commit
/// (and flush the search index) after every page.
pub const URLS_PER_ITEM: usize = 64;
/// URLs the writer remembers as already in the frontier, per generation
/// (see `SeenUrls`; 2 × 128 Ki fingerprints ≈ 9 MB at most).
pub const SEEN_URLS: usize = 128 * 1024;
/// Longest time a write waits for its commit.
pub const FLUSH_EVERY: Duration = Duration::from_millis(200);
/// Commands queued before senders wait (back-pressure on workers).
pub const CHANNEL: usize = 1024;

/// When buffered writes are committed: at `items` items, or `every` after
/// the first one. Each commit flushes the search index's new terms, so
/// fewer, larger commits index for less; a crawl keeps them small (its
/// claims must see the pages just written), an import need not.
#[derive(Debug, Clone, Copy)]
pub struct Flush {
    pub items: usize,
    pub every: Duration,
}

impl Flush {
    /// The crawl's: [`FLUSH_ITEMS`], [`FLUSH_EVERY`].
    pub const CRAWL: Flush = Flush {
        items: FLUSH_ITEMS,
        every: FLUSH_EVERY,
    };
}

/// Why the writer stopped.
#[derive(Debug, thiserror::Error)]
pub enum WriterError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("the store writer stopped unexpectedly")]
    Gone,
}

type Reply<T> = oneshot::Sender<Result<T, StoreError>>;

pub enum Command {
    /// Ops that belong together (one page): committed in the same transaction.
    Write(Vec<WriteOp>),
    Claim {
        now_ms: i64,
        limit: usize,
        filter: ClaimFilter,
        reply: Reply<Vec<QueuedUrl>>,
    },
    NextDue {
        sites: Option<Vec<String>>,
        reply: Reply<Option<i64>>,
    },
    HeldElsewhere {
        sites: Option<Vec<String>>,
        reply: Reply<Option<Duration>>,
    },
    ResetInFlight {
        reply: Reply<usize>,
    },
}

/// Cheap handle to the writer task.
#[derive(Clone)]
pub struct Writer {
    tx: mpsc::Sender<Command>,
    committed: CommittedUrls,
}

impl Writer {
    /// Start the writer task; it ends (returning the store) when every
    /// handle is dropped, after a last commit.
    pub fn spawn<S: CrawlStore>(
        store: S,
        counters: std::sync::Arc<Counters>,
    ) -> (Writer, tokio::task::JoinHandle<Result<S, WriterError>>) {
        Writer::spawn_with(store, counters, Flush::CRAWL)
    }

    /// [`Writer::spawn`], committing as `flush` says.
    pub fn spawn_with<S: CrawlStore>(
        store: S,
        counters: std::sync::Arc<Counters>,
        flush: Flush,
    ) -> (Writer, tokio::task::JoinHandle<Result<S, WriterError>>) {
        let (tx, rx) = mpsc::channel(CHANNEL);
        let committed = CommittedUrls::new(SEEN_URLS);
        let task = tokio::spawn(writer_loop(store, rx, counters, committed.clone(), flush));
        (Writer { tx, committed }, task)
    }

    /// The URLs this writer has committed to the frontier (bounded, see
    /// `SeenUrls`): a page may leave them out of what it sends.
    pub fn committed(&self) -> CommittedUrls {
        self.committed.clone()
    }

    /// Queue writes; `Err` only when the writer has stopped.
    pub async fn write(&self, ops: Vec<WriteOp>) -> Result<(), WriterError> {
        if ops.is_empty() {
            return Ok(());
        }
        self.tx
            .send(Command::Write(ops))
            .await
            .map_err(|_| WriterError::Gone)
    }

    async fn ask<T>(&self, make: impl FnOnce(Reply<T>) -> Command) -> Result<T, WriterError> {
        let (reply, rx) = oneshot::channel();
        self.tx
            .send(make(reply))
            .await
            .map_err(|_| WriterError::Gone)?;
        Ok(rx.await.map_err(|_| WriterError::Gone)??)
    }

    pub async fn claim(
        &self,
        now_ms: i64,
        limit: usize,
        filter: ClaimFilter,
    ) -> Result<Vec<QueuedUrl>, WriterError> {
        self.ask(|reply| Command::Claim {
            now_ms,
            limit,
            filter,
            reply,
        })
        .await
    }

    pub async fn next_due(&self, sites: Option<Vec<String>>) -> Result<Option<i64>, WriterError> {
        self.ask(|reply| Command::NextDue { sites, reply }).await
    }

    /// See [`CrawlStore::held_elsewhere`].
    pub async fn held_elsewhere(
        &self,
        sites: Option<Vec<String>>,
    ) -> Result<Option<Duration>, WriterError> {
        self.ask(|reply| Command::HeldElsewhere { sites, reply })
            .await
    }

    pub async fn reset_in_flight(&self) -> Result<usize, WriterError> {
        self.ask(|reply| Command::ResetInFlight { reply }).await
    }
}

/// Run `f` on the store in the blocking pool and get the store back.
async fn blocking<S: CrawlStore, T: Send + 'static>(
    mut store: S,
    f: impl FnOnce(&mut S) -> T + Send + 'static,
) -> Result<(S, T), WriterError> {
    tokio::task::spawn_blocking(move || {
        let out = f(&mut store);
        (store, out)
    })
    .await
    .map_err(|_| WriterError::Gone)
}

struct Pending {
    groups: Vec<Vec<WriteOp>>,
    items: usize,
    since: Option<Instant>,
    /// URLs committed to the frontier (this run, bounded).
    seen: CommittedUrls,
}

/// The group without the new URLs the frontier certainly has already.
fn without_seen(mut group: Vec<WriteOp>, seen: &mut SeenUrls) -> Vec<WriteOp> {
    for op in &mut group {
        if let WriteOp::AddUrls(urls) = op {
            urls.retain(|u| !seen.contains(&u.url));
        }
    }
    group.retain(|op| !matches!(op, WriteOp::AddUrls(urls) if urls.is_empty()));
    group
}

/// Remember the new URLs of a committed group.
fn remember(group: &[WriteOp], seen: &mut SeenUrls) {
    for op in group {
        if let WriteOp::AddUrls(urls) = op {
            for u in urls {
                seen.insert(&u.url);
            }
        }
    }
}

fn items(op: &WriteOp) -> usize {
    match op {
        WriteOp::AddUrls(urls) => urls.len().div_ceil(URLS_PER_ITEM).max(1),
        WriteOp::Known(urls) => urls.len().max(1),
        _ => 1,
    }
}

async fn writer_loop<S: CrawlStore>(
    mut store: S,
    mut rx: mpsc::Receiver<Command>,
    counters: std::sync::Arc<Counters>,
    seen: CommittedUrls,
    flush_at: Flush,
) -> Result<S, WriterError> {
    let mut pending = Pending {
        groups: Vec::new(),
        items: 0,
        since: None,
        seen,
    };
    // A store that cannot checkpoint in the background checkpoints in line,
    // as before: slower, not wrong.
    let (s, upkeep) = blocking(store, |s| s.upkeep_in_background()).await?;
    store = s;
    if let Err(e) = upkeep {
        tracing::warn!("WAL checkpoints stay on the writer: {e}");
    }
    loop {
        let cmd = match pending.since {
            Some(since) => {
                tokio::select! {
                    cmd = rx.recv() => cmd,
                    _ = tokio::time::sleep_until(since + flush_at.every) => {
                        store = flush(store, &mut pending, &counters).await?;
                        continue;
                    }
                }
            }
            None => rx.recv().await,
        };
        let Some(cmd) = cmd else {
            let store = flush(store, &mut pending, &counters).await?;
            let (store, upkeep) = blocking(store, |s| s.upkeep_in_foreground()).await?;
            if let Err(e) = upkeep {
                // Everything is committed; the WAL is only left longer.
                tracing::warn!("closing WAL checkpoint failed: {e}");
            }
            return Ok(store);
        };
        match cmd {
            Command::Write(ops) => {
                pending.items += ops.iter().map(items).sum::<usize>();
                pending.groups.push(ops);
                pending.since.get_or_insert_with(Instant::now);
                if pending.items >= flush_at.items {
                    store = flush(store, &mut pending, &counters).await?;
                }
            }
            Command::Claim {
                now_ms,
                limit,
                filter,
                reply,
            } => {
                store = flush(store, &mut pending, &counters).await?;
                let (s, out) =
                    blocking(store, move |s| s.claim_due(now_ms, limit, &filter)).await?;
                store = s;
                let _ = reply.send(out);
            }
            Command::NextDue { sites, reply } => {
                store = flush(store, &mut pending, &counters).await?;
                let (s, out) = blocking(store, move |s| s.next_due_at(sites.as_deref())).await?;
                store = s;
                let _ = reply.send(out);
            }
            Command::HeldElsewhere { sites, reply } => {
                store = flush(store, &mut pending, &counters).await?;
                let (s, out) = blocking(store, move |s| s.held_elsewhere(sites.as_deref())).await?;
                store = s;
                let _ = reply.send(out);
            }
            Command::ResetInFlight { reply } => {
                store = flush(store, &mut pending, &counters).await?;
                let (s, out) = blocking(store, |s| s.reset_in_flight()).await?;
                store = s;
                let _ = reply.send(out);
            }
        }
    }
}

/// Commit everything buffered in one transaction. If the batch fails, each
/// page's group is retried alone so one bad write cannot sink the others; the
/// writer gives up only when no group can be written (the store is gone).
async fn flush<S: CrawlStore>(
    store: S,
    pending: &mut Pending,
    counters: &Counters,
) -> Result<S, WriterError> {
    pending.since = None;
    pending.items = 0;
    let seen = &pending.seen;
    let taken = std::mem::take(&mut pending.groups);
    let groups: Vec<Vec<WriteOp>> = seen.with(|s| {
        taken
            .into_iter()
            .map(|g| without_seen(g, s))
            .filter(|g| !g.is_empty())
            .collect()
    });
    if groups.is_empty() {
        return Ok(store);
    }
    let batch: Vec<WriteOp> = groups.iter().flatten().cloned().collect();
    let sites = article_sites(&batch);
    let (mut store, result) = blocking(store, move |s| s.write_batch(batch)).await?;
    tally_dropped(store.take_dropped_urls(), counters);
    let first_error = match result {
        Ok(outcomes) => {
            tally(&sites, &outcomes, counters);
            seen.with(|s| {
                for g in &groups {
                    remember(g, s);
                }
            });
            return Ok(store);
        }
        Err(e) => e,
    };
    tracing::warn!("batch write failed, retrying page by page: {first_error}");
    let total = groups.len();
    let mut failed = 0;
    let mut last_error = first_error;
    for group in groups {
        let urls: Vec<WriteOp> = group
            .iter()
            .filter(|op| matches!(op, WriteOp::AddUrls(_)))
            .cloned()
            .collect();
        let sites = article_sites(&group);
        let (s, result) = blocking(store, move |s| s.write_batch(group)).await?;
        store = s;
        tally_dropped(store.take_dropped_urls(), counters);
        match result {
            Ok(outcomes) => {
                tally(&sites, &outcomes, counters);
                seen.with(|s| remember(&urls, s));
            }
            Err(e) => {
                failed += 1;
                counters.error(ErrorKind::StoreWrite);
                tracing::warn!("write failed: {e}");
                last_error = e;
            }
        }
    }
    if failed == total {
        return Err(WriterError::Store(last_error));
    }
    Ok(store)
}

/// The site of each op that stores an article (`None` for the others), in
/// the order of the batch's outcomes.
fn article_sites(ops: &[WriteOp]) -> Vec<Option<String>> {
    ops.iter()
        .map(|op| match op {
            WriteOp::Article(a) | WriteOp::Refetched(a) => Some(a.site.clone()),
            _ => None,
        })
        .collect()
}

/// New URLs left out under the frontier's caps, counted by cap.
fn tally_dropped(dropped: DroppedUrls, counters: &Counters) {
    counters.capped_by(CapKind::UrlsPerSite, dropped.over_known);
    counters.capped_by(CapKind::QueuedPerSite, dropped.over_queued);
}

fn tally(sites: &[Option<String>], outcomes: &[WriteOutcome], counters: &Counters) {
    for (i, outcome) in outcomes.iter().enumerate() {
        match outcome {
            WriteOutcome::ArticleStored { lines_dropped, .. } => {
                Counters::add(&counters.articles_stored, 1);
                if let Some(Some(site)) = sites.get(i) {
                    counters.sites.article_stored(site);
                }
                Counters::add(&counters.lines_dropped, *lines_dropped as u64);
            }
            WriteOutcome::ArticleDuplicate { .. } => Counters::add(&counters.duplicates, 1),
            WriteOutcome::ArticleNearDuplicate { .. } => {
                Counters::add(&counters.near_duplicates, 1)
            }
            WriteOutcome::ArticleUpdated { .. } => Counters::add(&counters.articles_updated, 1),
            WriteOutcome::ArticleUnchanged { .. } => {}
            WriteOutcome::ArticleEmpty => counters.error(ErrorKind::EmptyArticle),
            WriteOutcome::UrlsAdded(_)
            | WriteOutcome::FetchRecorded
            | WriteOutcome::RuleRecorded
            | WriteOutcome::ShapesRecorded
            | WriteOutcome::UrlsPromoted(_)
            | WriteOutcome::ImportProgressed => {}
            WriteOutcome::UrlsRejudged(n) => Counters::add(&counters.pages_rejudged, *n as u64),
        }
    }
}

mod any_store;
mod crawl_store;
pub use crawl_store::CrawlStore;
#[cfg(test)]
mod tests;
