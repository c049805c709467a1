//! The processing pool: threads of the crawl's own, one per core, that do a
//! fetched page's CPU work (decoding, discovery, extraction, compressing the
//! kept page).
//!
//! In: jobs — closures given a thread's [`PageTools`] — from the async
//! workers, at most one per thread at a time. Out: each job's result, awaited
//! by the worker that sent it, or [`Panicked`] when the job panicked.
//!
//! Why not `spawn_blocking` per page: a pool thread keeps its tools between
//! pages (the zstd context of [`KeptCompressor`]), which a blocking task
//! cannot, and the page's slot, its hand-over and its thread are one thing
//! here. Why bounded to the cores: unbounded, a crawl at concurrency 64 ran
//! 64 parses at once on 2 cores — each slower (caches), all their trees in
//! memory together, the runtime's own threads (fetching, the writer) starved
//! until fetches timed out. Pages waiting for a thread hold only their body,
//! counted in `[fetch] max_bytes_in_flight`.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

use tokio::sync::{oneshot, Semaphore};

use crate::store::KeptCompressor;

/// What a pool thread keeps from one page to the next.
pub struct PageTools {
    /// `None` only if zstd could not allocate a context; pages are then
    /// stored without their kept HTML.
    pub kept: Option<KeptCompressor>,
}

impl PageTools {
    fn new() -> PageTools {
        PageTools {
            kept: KeptCompressor::new().ok(),
        }
    }
}

/// A job panicked (a bug in a pure stage): counted, and the crawl goes on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Panicked;

type Job = Box<dyn FnOnce(&mut PageTools) + Send>;

/// The pool. Dropping it (with the crawl's context) closes the queue; the
/// threads finish the jobs queued and end.
pub struct ProcessPool {
    queue: mpsc::Sender<Job>,
    /// One permit per thread: a job is queued only with one in hand, so the
    /// queue never holds more jobs than there are threads.
    slots: Arc<Semaphore>,
}

impl ProcessPool {
    /// A pool of `threads` threads (at least one), named `name`.
    pub fn new(threads: usize, name: &str) -> std::io::Result<ProcessPool> {
        let threads = threads.max(1);
        let (queue, jobs) = mpsc::channel::<Job>();
        let jobs = Arc::new(Mutex::new(jobs));
        for _ in 0..threads {
            let jobs = jobs.clone();
            std::thread::Builder::new()
                .name(name.to_string())
                .spawn(move || serve(&jobs))?;
        }
        Ok(ProcessPool {
            queue,
            slots: Arc::new(Semaphore::new(threads)),
        })
    }

    /// Run `job` on a pool thread once one is free, and wait for its result.
    pub async fn run<T, F>(&self, job: F) -> Result<T, Panicked>
    where
        T: Send + 'static,
        F: FnOnce(&mut PageTools) -> T + Send + 'static,
    {
        // The semaphore is never closed while the pool lives.
        let slot = self
            .slots
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| Panicked)?;
        let (tx, rx) = oneshot::channel();
        let job: Job = Box::new(move |tools| {
            let out = job(tools);
            // The thread is free once the result is out: the next job may
            // be queued before the waiting worker has woken up.
            drop(slot);
            // The worker may have stopped waiting (a stopped crawl).
            let _ = tx.send(out);
        });
        // Sending fails only if every thread is gone, which a job cannot
        // cause (panics are caught): treated as a panicked job.
        self.queue.send(job).map_err(|_| Panicked)?;
        // A panic drops the job's slot and its sender unsent.
        rx.await.map_err(|_| Panicked)
    }
}

/// A pool thread: take jobs until the queue is closed and empty.
fn serve(jobs: &Mutex<mpsc::Receiver<Job>>) {
    let mut tools = PageTools::new();
    loop {
        // One thread waits on the queue, the others on the lock; the lock is
        // never held while a job runs.
        let next = match jobs.lock() {
            Ok(queue) => queue.recv(),
            Err(_) => return,
        };
        let Ok(job) = next else {
            return;
        };
        if catch_unwind(AssertUnwindSafe(|| job(&mut tools))).is_err() {
            // A panic may have left the tools half-way through a page.
            tools = PageTools::new();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn jobs_run_on_the_pool_threads_and_hand_back_their_results() {
        let pool = ProcessPool::new(2, "test-pool").expect("pool");
        let name = pool
            .run(|_| std::thread::current().name().map(str::to_string))
            .await;
        assert_eq!(name, Ok(Some("test-pool".to_string())));
        let sums = futures_join(&pool, 8).await;
        assert_eq!(sums, (0..8u64).map(|i| i * i).collect::<Vec<_>>());
    }

    async fn futures_join(pool: &ProcessPool, n: u64) -> Vec<u64> {
        let mut out = Vec::new();
        let runs: Vec<_> = (0..n).map(|i| pool.run(move |_| i * i)).collect();
        for r in runs {
            out.push(r.await.expect("no panic"));
        }
        out
    }

    #[tokio::test]
    async fn a_panicking_job_is_reported_and_the_pool_goes_on() {
        let pool = ProcessPool::new(1, "test-pool").expect("pool");
        let panicked = pool
            .run(|_| -> u32 { panic!("a bug in a page stage") })
            .await;
        assert_eq!(panicked, Err(Panicked));
        // The one thread survived, with working tools.
        let kept = pool
            .run(|tools| {
                tools.kept.as_mut().map(|k| {
                    k.keep("http://x/", 200, Default::default(), 0, b"<p>hi</p>")
                        .map(|h| h.body_bytes)
                })
            })
            .await;
        assert!(matches!(kept, Ok(Some(Ok(9)))), "{kept:?}");
    }

    #[tokio::test]
    async fn no_more_jobs_run_at_once_than_there_are_threads() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let pool = Arc::new(ProcessPool::new(2, "test-pool").expect("pool"));
        let running = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let mut tasks = Vec::new();
        for _ in 0..12 {
            let (job_pool, running, most) = (pool.clone(), running.clone(), most.clone());
            tasks.push(tokio::spawn(async move {
                job_pool
                    .run(move |_| {
                        let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                        most.fetch_max(now, Ordering::SeqCst);
                        std::thread::sleep(std::time::Duration::from_millis(2));
                        running.fetch_sub(1, Ordering::SeqCst);
                    })
                    .await
            }));
        }
        for t in tasks {
            t.await.expect("task").expect("no panic");
        }
        let most = most.load(Ordering::SeqCst);
        assert!(
            (1..=2).contains(&most),
            "{most} jobs ran at once on 2 threads"
        );
        assert_eq!(pool.slots.available_permits(), 2);
    }
}
