//! The read-only connections of `serve`, and the cap on queries run at once.
//!
//! In: the database ([`StoreTarget`]) and blocking work to run on one of its
//! connections. Out: the work's result, or 503 when every query slot stayed
//! taken for [`QUERY_WAIT`].
//!
//! Each query runs on tokio's blocking pool with its own connection (a
//! connection is not `Sync`). Without a cap, every request beyond the idle
//! connections opened another connection on another thread: 500 parallel
//! searches took 503 threads and 2.57 GB. Now at most [`MAX_QUERIES`]
//! queries (and [`MAX_EXPORTS`] exports, capped by their own semaphore) hold
//! a connection at once; the others wait for a slot, asynchronously, then
//! get 503. Connections are kept for reuse, so the pool never holds more
//! than those two caps together.
//!
//! Searches take one slot fewer than there are: [`Pool::search`] also
//! holds a search lane, of which there are `MAX_QUERIES - 1`, so however
//! many searches run, one slot stays for the other calls (`/api/stats`, an
//! article). And each query has a time budget (`[serve]
//! query_budget_secs`): past it the store stops it and the request gets
//! 503, so no query holds a slot for minutes. Exports have no budget: they
//! stream the whole corpus, a slow client slowing them down.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::Semaphore;

use super::limits::{MAX_EXPORTS, MAX_QUERIES, QUERY_WAIT};
use super::ApiError;
use crate::store::{self, Access, AnyStore, StoreError, StoreTarget};

/// One connection of the pool, to either store.
pub(super) type Connection = AnyStore;

/// Read-only connections, reused between requests, and the query slots.
pub struct Pool {
    target: StoreTarget,
    idle: Mutex<Vec<Connection>>,
    /// Connections kept idle at most (all that may be in use at once).
    keep: usize,
    queries: Arc<Semaphore>,
    /// Held by searches besides a query slot: one fewer than the slots.
    searches: Arc<Semaphore>,
    slots: usize,
    wait: Duration,
    /// How long one request's queries may run (`None`: unbounded).
    budget: Option<Duration>,
}

impl Pool {
    /// Check that the SQLite database opens read-only, and keep that
    /// connection.
    pub fn open(path: &std::path::Path) -> Result<Pool, StoreError> {
        Pool::open_target(&StoreTarget::from(path))
    }

    /// [`Pool::open`] for either store.
    pub fn open_target(target: &StoreTarget) -> Result<Pool, StoreError> {
        Pool::with_limits(target, MAX_QUERIES, QUERY_WAIT)
    }

    fn with_limits(target: &StoreTarget, slots: usize, wait: Duration) -> Result<Pool, StoreError> {
        let first = connect(target)?;
        Ok(Pool {
            target: target.clone(),
            idle: Mutex::new(vec![first]),
            keep: slots + MAX_EXPORTS,
            queries: Arc::new(Semaphore::new(slots)),
            searches: Arc::new(Semaphore::new(slots.saturating_sub(1).max(1))),
            slots,
            wait,
            budget: None,
        })
    }

    /// Bound each request's queries to `budget` (`[serve]
    /// query_budget_secs`; `None`: unbounded).
    pub fn set_query_budget(&mut self, budget: Option<Duration>) {
        self.budget = budget;
    }

    /// Run blocking work on a connection (on tokio's blocking pool), once a
    /// query slot is free, within the query budget; 503 when no slot frees
    /// up in time, or the budget is spent.
    pub async fn run<T: Send + 'static>(
        self: &Arc<Self>,
        f: impl FnOnce(&mut AnyStore) -> Result<T, ApiError> + Send + 'static,
    ) -> Result<T, ApiError> {
        self.run_in(None, f).await
    }

    /// [`Pool::run`] for a search: it also takes a search lane, so that
    /// searches never hold every query slot.
    pub async fn search<T: Send + 'static>(
        self: &Arc<Self>,
        f: impl FnOnce(&mut AnyStore) -> Result<T, ApiError> + Send + 'static,
    ) -> Result<T, ApiError> {
        self.run_in(Some(&self.searches), f).await
    }

    async fn run_in<T: Send + 'static>(
        self: &Arc<Self>,
        lane: Option<&Arc<Semaphore>>,
        f: impl FnOnce(&mut AnyStore) -> Result<T, ApiError> + Send + 'static,
    ) -> Result<T, ApiError> {
        let deadline = tokio::time::Instant::now() + self.wait;
        let busy = || {
            ApiError::busy(format!(
                "busy: {} queries running for {:.0} s; try again shortly",
                self.slots,
                self.wait.as_secs_f64()
            ))
        };
        let lane = match lane {
            Some(lane) => {
                match tokio::time::timeout_at(deadline, lane.clone().acquire_owned()).await {
                    Ok(Ok(permit)) => Some(permit),
                    _ => return Err(busy()),
                }
            }
            None => None,
        };
        let slot =
            match tokio::time::timeout_at(deadline, self.queries.clone().acquire_owned()).await {
                Ok(Ok(slot)) => slot,
                _ => return Err(busy()),
            };
        let pool = self.clone();
        let out = tokio::task::spawn_blocking(move || {
            let out = pool.with(pool.budget, f);
            drop((slot, lane));
            pool.shrink_when_quiet();
            out
        })
        .await;
        out.map_err(|_| ApiError {
            status: axum::http::StatusCode::INTERNAL_SERVER_ERROR,
            message: "request handler failed".into(),
        })?
    }

    /// Run `f` on a connection of the pool, on this (blocking) thread,
    /// within `budget` from now; the caller holds a query or export slot.
    pub(super) fn with<T>(
        &self,
        budget: Option<Duration>,
        f: impl FnOnce(&mut AnyStore) -> Result<T, ApiError>,
    ) -> Result<T, ApiError> {
        let taken = self.lock().pop();
        let mut store = match taken {
            Some(s) => s,
            None => connect(&self.target)?,
        };
        store.set_query_budget(budget)?;
        let out = f(&mut store);
        let mut idle = self.lock();
        if idle.len() < self.keep {
            idle.push(store);
        }
        out
    }

    /// When no query holds a slot any more (a burst is over), close the idle
    /// connections but one: each keeps a page cache of its own, and the
    /// memory a burst took goes back.
    fn shrink_when_quiet(&self) {
        if self.queries.available_permits() < self.slots {
            return;
        }
        let extra: Vec<Connection> = {
            let mut idle = self.lock();
            let keep = idle.len().min(1);
            idle.drain(keep..).collect()
        };
        drop(extra);
    }

    /// The idle connections, taken out (to be closed off the async workers).
    pub(super) fn take_idle(&self) -> Vec<Connection> {
        std::mem::take(&mut *self.lock())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Connection>> {
        // A panic while holding the lock leaves a valid Vec behind.
        self.idle.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// A new read-only connection.
fn connect(target: &StoreTarget) -> Result<Connection, StoreError> {
    store::open(target, Access::Read)
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    fn sqlite() -> (tempfile::TempDir, StoreTarget) {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("pool.db");
        let target = StoreTarget::from(db.as_path());
        drop(store::open(&target, Access::Create).unwrap());
        (dir, target)
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn regression_parallel_queries_each_opened_a_connection_and_a_thread() {
        let (_dir, target) = sqlite();
        let pool = Arc::new(Pool::with_limits(&target, 3, Duration::from_secs(600)).unwrap());
        let running = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let queries = (0..40).map(|_| {
            let (pool, running, most) = (pool.clone(), running.clone(), most.clone());
            tokio::spawn(async move {
                pool.run(move |store| {
                    let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                    most.fetch_max(now, Ordering::SeqCst);
                    std::thread::sleep(Duration::from_millis(5));
                    running.fetch_sub(1, Ordering::SeqCst);
                    Ok(store.article(crate::store::ArticleRef::Id(1)).is_ok())
                })
                .await
            })
        });
        for q in futures_util::future::join_all(queries).await {
            assert!(q.unwrap().unwrap());
        }
        assert!(most.load(Ordering::SeqCst) <= 3, "{most:?}");
        assert!(pool.lock().len() <= 3 + MAX_EXPORTS);
    }

    #[tokio::test]
    async fn a_query_that_finds_no_free_slot_in_time_gets_503() {
        let (_dir, target) = sqlite();
        let pool = Arc::new(Pool::with_limits(&target, 1, Duration::from_millis(20)).unwrap());
        let held = pool.queries.acquire().await.unwrap();
        let err = pool.run(|_| Ok(())).await.unwrap_err();
        assert_eq!(err.status, axum::http::StatusCode::SERVICE_UNAVAILABLE);
        assert!(err.message.contains("busy"), "{}", err.message);
        drop(held);
        pool.run(|_| Ok(())).await.unwrap();
    }
}
