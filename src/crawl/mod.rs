//! Crawl orchestration: frontier → politeness → fetch → extract → boilerplate
//! → store, with discovery feeding the frontier.
//!
//! In: a validated [`Config`], an open store ([`CrawlStore`]), [`CrawlOptions`] and a
//! shutdown future. Out: a [`CrawlSummary`] (pages, articles, duplicates,
//! errors by kind), or a [`CrawlError`] for the few things that stop a crawl
//! (unknown site, HTTP client, store failure).
//!
//! A URL's way, file by file: `scheduler` (claims, per-host queues,
//! workers, end of pass, shutdown) → `worker` (one URL: `robots`,
//! `politeness`, [`fetch`] with the `addr` guard) → `pool` (the threads
//! that process fetched pages) → `page` (the crawl's side of a document:
//! feeds and sitemaps, and the links an HTML page gives the frontier) →
//! [`path`] (the one page path, shared with `import`: decode, extract,
//! [`judge`], then [`path::record`]: the writer's operations) →
//! [`writer`] (the single store writer, batched transactions, behind the
//! [`CrawlStore`] seam). Beside them: `budget` (memory bounds), [`kinds`]
//! (what errors and skips are counted as), `summary` and `progress`; the
//! frontier's pure rules in `frontier`, link/feed/sitemap parsing in
//! `discover`, learned URL shapes in [`shapes`]. Public: what the CLI,
//! `import`, tests and benches use (`fetch` for `extract URL` and remote
//! archives, `path`, `pool` and `writer` for `import`, `kinds` for the
//! summary's keys).

mod addr;
mod budget;
pub mod check;
pub(crate) mod discover;
pub mod entry_points;
pub mod fetch;
mod frontier;
pub mod judge;
pub mod kinds;
mod page;
pub mod path;
mod politeness;
pub mod pool;
mod progress;
pub mod retry;
mod robots;
mod scheduler;
mod seen;
pub mod shapes;
mod summary;
mod worker;
pub mod writer;

#[cfg(test)]
mod test_server;

use std::collections::HashMap;
use std::future::Future;
use std::sync::Arc;
use std::time::Instant;

use crate::config::{Config, SiteSettings};
use crate::extract::tree::rule::SiteRule;
use crate::extract::{Algorithm, ExtractOptions};
use crate::store::{NewUrl, StoreError, UrlKind, WriteOp};

pub use budget::cpu_slots;
use path::record::{Learned, LiveRules};
pub use summary::{Counters, CrawlSummary};
use worker::Ctx;
use writer::{CrawlStore, Writer, WriterError};

/// How to run a crawl.
#[derive(Debug, Clone, Default)]
pub struct CrawlOptions {
    /// Keep revisiting feeds and index pages until stopped (`--continuous`).
    pub continuous: bool,
    /// Sites to crawl by name; empty = all configured sites.
    pub sites: Vec<String>,
    /// Show an indicatif progress line (on a terminal); otherwise log a plain
    /// status line periodically.
    pub progress: bool,
    /// Stop after this many pages (`--max-pages`); `None`: the config's
    /// `[crawler] max_pages`. An option of the run, not an edit of the config.
    pub max_pages: Option<u64>,
    /// Queue the failed URLs of the crawled sites again first
    /// (`--retry-failed`), with a fresh count of attempts.
    pub retry_failed: bool,
}

/// What stops a crawl. Everything else is counted in the summary.
#[derive(Debug, thiserror::Error)]
pub enum CrawlError {
    #[error("unknown site {name:?} (configured: {known})")]
    UnknownSite { name: String, known: String },
    #[error("cannot start the HTTP client: {0}")]
    Client(#[source] fetch::FetchError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("the store writer stopped unexpectedly")]
    WriterGone,
    #[error("cannot start the page processing threads: {0}")]
    Threads(#[source] std::io::Error),
    /// `[extract] model` cannot be read.
    #[error(transparent)]
    Model(#[from] crate::extract::model::ModelError),
}

impl From<WriterError> for CrawlError {
    fn from(e: WriterError) -> Self {
        match e {
            WriterError::Store(e) => CrawlError::Store(e),
            WriterError::Gone => CrawlError::WriterGone,
        }
    }
}

/// Crawl the configured (or selected) sites into `store`: an
/// [`AnyStore`](crate::store::AnyStore) (a SQLite file, or a PostgreSQL
/// database that other crawler processes may share: claims hold leases,
/// hosts' turns are taken in the database), or any other [`CrawlStore`].
///
/// The store first takes the configuration's frontier settings (the cap on
/// URLs per site, a shared store's lease). Seeds (start pages, feeds,
/// sitemaps) are added to the frontier, URLs left
/// in flight by an interrupted run are queued again, then due URLs are
/// fetched until the pass is over (or, with `continuous`, until `shutdown`
/// completes). On shutdown no new URL is started; pages in flight finish and
/// are written. Last, the stored articles of the crawled sites are cleaned
/// again with what their line tables learned (the first pages of a site were
/// cleaned before its template was known), and the summary is returned.
pub async fn run<S: CrawlStore>(
    config: &Config,
    mut store: S,
    opts: CrawlOptions,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<CrawlSummary, CrawlError> {
    store.configure(config);
    let started = Instant::now();
    let selected = select_sites(config, &opts.sites)?;
    let extract = extract_options(config)?;
    let fetcher = fetch::Fetcher::new(&config.fetch, &config.crawler.user_agent)
        .map_err(CrawlError::Client)?;
    // Budgets count pages over the life of the database; `tree` extracts by
    // each site's learned rule, stored too. Read on the blocking pool: the
    // store's calls block (PostgreSQL's client refuses to run on a runtime
    // thread at all).
    let want_rules = config.extract.algorithm == Algorithm::Tree;
    let mut names: Vec<String> = selected.keys().cloned().collect();
    names.sort();
    let plan = retry::requeue(config, opts.retry_failed, worker::now_ms());
    let store_names = names.clone();
    let (mut store, requeued) = tokio::task::spawn_blocking(move || {
        let requeued = store.requeue(&store_names, &plan);
        (store, requeued)
    })
    .await
    .map_err(|_| CrawlError::WriterGone)?;
    let (requeued, lifted) = requeued?;
    if requeued > 0 {
        tracing::info!("{requeued} failed or refused URLs were queued again");
    }
    let store_names = names.clone();
    let (store, loaded) = tokio::task::spawn_blocking(move || {
        let pages = store.pages_by_site();
        let rules = match pages {
            Ok(_) if want_rules => store.site_rules(),
            _ => Ok(Vec::new()),
        };
        let shapes = match rules {
            Ok(_) => store.url_shapes(),
            Err(_) => Ok(Vec::new()),
        };
        // Pages held back for want of evidence by earlier runs.
        let reasons = judge::JudgeReason::revisable_strs();
        let held = match shapes {
            Ok(_) => store.judged_for(&store_names, &reasons, shapes::HELD_PER_SITE),
            Err(_) => Ok(Vec::new()),
        };
        let loaded =
            pages.and_then(|p| rules.and_then(|r| shapes.and_then(|s| held.map(|h| (p, r, s, h)))));
        (store, loaded)
    })
    .await
    .map_err(|_| CrawlError::WriterGone)?;
    let (site_pages, rules, url_shapes, held) = loaded?;
    let site_rules: HashMap<String, SiteRule> = rules
        .into_iter()
        .filter_map(|(site, json)| SiteRule::from_json(&json).map(|r| (site, r)))
        .collect();
    // A shared store's hosts' turns, over a connection of the crawl's own.
    let host_turns = match store.host_turns() {
        Some(at) => Some(at.connect().await?),
        None => None,
    };
    let counters = Arc::new(Counters::default());
    let (writer, writer_task) = Writer::spawn(store, counters.clone());
    let resumed = writer.reset_in_flight().await?;
    if resumed > 0 {
        tracing::info!("resuming: {resumed} URLs left in flight were queued again");
    }
    let seeds = seed_urls(
        selected.values().map(Arc::as_ref),
        config.crawler.trailing_slash,
    );
    Counters::add(&counters.urls_discovered, seeds.len() as u64);
    let live_shapes = shapes::LiveShapes::from_rows(url_shapes);
    let mut start = vec![WriteOp::AddUrls(seeds)];
    start.extend(hold(&live_shapes, held));
    writer.write(start).await?;

    let cfg = Arc::new(config.clone());
    let ctx = Arc::new(Ctx {
        fetcher,
        politeness: politeness::Politeness::for_config(&cfg),
        host_turns,
        robots: robots::RobotsCache::new(&cfg.crawler.user_agent),
        writer: writer.clone(),
        fetch_slots: Arc::new(tokio::sync::Semaphore::new(cfg.crawler.concurrency.max(1))),
        counters: counters.clone(),
        extract,
        body_budget: budget::BodyBudget::new(
            cfg.fetch.max_bytes_in_flight,
            cfg.fetch.max_body_bytes,
        ),
        large_pages: Arc::new(tokio::sync::Semaphore::new(1)),
        pages: pool::ProcessPool::new(budget::cpu_slots(), "crawl-page")
            .map_err(CrawlError::Threads)?,
        learned: Learned {
            shapes: live_shapes,
            rules: LiveRules::new(site_rules),
        },
        link_memo: Arc::new(page::LinkMemo::default().with_committed(writer.committed())),
        explore: Arc::new(shapes::ExploreBudget::new(cfg.crawler.explore_per_site)),
        probes: worker::Probes::default(),
        promoted: shapes::Promoted::default(),
        cfg,
    });
    let (stop_tx, mut stop_rx) = tokio::sync::watch::channel(false);
    let stopper = tokio::spawn(async move {
        shutdown.await;
        let _ = stop_tx.send(true);
    });
    let scheduler = scheduler::Scheduler::new(
        ctx,
        opts.continuous,
        opts.progress,
        opts.max_pages.unwrap_or(config.crawler.max_pages),
        selected,
        site_pages,
        stop_rx.clone(),
    );
    let outcome = scheduler.run(&mut stop_rx).await;
    stopper.abort();
    // URLs claimed but never started go back to the queue.
    let reset = match outcome {
        Ok(()) => writer.reset_in_flight().await.map(|_| ()),
        Err(e) => Err(e),
    };
    drop(writer);
    let closed = writer_task.await.map_err(|_| CrawlError::WriterGone)?;
    // The writer's own error says why (e.g. the disk is full); the
    // scheduler only saw the writer go away.
    let mut store = closed?;
    reset?;
    let (config, sites) = (config.clone(), opts.sites.clone());
    let (recleaned, outlook) = tokio::task::spawn_blocking(move || {
        let recleaned = store.reclean(&config, &sites)?;
        let outlook = store.outlook(&names, worker::now_ms())?;
        Ok::<_, StoreError>((recleaned, outlook))
    })
    .await
    .map_err(|_| CrawlError::WriterGone)??;
    let mut summary = counters.summary(started.elapsed());
    summary.articles_recleaned = recleaned as u64;
    summary.requeued = requeued as u64;
    summary.waits_lifted = lifted as u64;
    summary.outlook = outlook;
    Ok(summary)
}

/// How the crawl extracts pages (`[extract]`), its model loaded.
fn extract_options(config: &Config) -> Result<ExtractOptions, CrawlError> {
    // A model only serves nb and tree; it must be of the configured kind.
    let model = match &config.extract.model {
        Some(path) if config.extract.algorithm.is_learned() => Some(Arc::new(
            crate::extract::model::BlockModel::load_for(path, config.extract.algorithm)?,
        )),
        _ => None,
    };
    Ok(ExtractOptions {
        algorithm: config.extract.algorithm,
        timezone: config.extract.timezone,
        model,
        comments: config.extract.comments,
        ..ExtractOptions::default()
    })
}

/// Hold the pages earlier runs judged not articles for want of evidence
/// (site, URL) until their shape is learned; those whose shape is an
/// article shape already are judged again now.
fn hold(live: &shapes::LiveShapes, held: Vec<(String, String)>) -> Option<WriteOp> {
    let mut by_site: HashMap<String, Vec<String>> = HashMap::new();
    for (site, url) in held {
        by_site.entry(site).or_default().push(url);
    }
    let now: Vec<NewUrl> = (by_site.into_iter())
        .flat_map(|(site, urls)| {
            let now = live.hold(&site, urls);
            now.into_iter().map(move |u| worker::as_article(u, &site))
        })
        .collect();
    (!now.is_empty()).then(|| worker::rejudge(now))
}

fn select_sites(
    config: &Config,
    names: &[String],
) -> Result<HashMap<String, Arc<SiteSettings>>, CrawlError> {
    if names.is_empty() {
        return Ok(config
            .sites
            .iter()
            .map(|s| (s.name.clone(), Arc::new(s.clone())))
            .collect());
    }
    let mut selected = HashMap::new();
    for name in names {
        let site = config.site(name).ok_or_else(|| CrawlError::UnknownSite {
            name: name.clone(),
            known: config.site_list(),
        })?;
        selected.insert(name.clone(), Arc::new(site.clone()));
    }
    Ok(selected)
}

/// Start pages, feeds and sitemaps of the sites, at depth 0; a start page
/// whose URL matches the site's `article_patterns` is queued as an article.
fn seed_urls<'a>(
    sites: impl Iterator<Item = &'a SiteSettings>,
    trailing: crate::urls::TrailingSlash,
) -> Vec<NewUrl> {
    let mut urls = Vec::new();
    for site in sites {
        let lists = [
            (UrlKind::Seed, &site.start_urls),
            (UrlKind::Feed, &site.feeds),
            (UrlKind::Sitemap, &site.sitemaps),
        ];
        for (kind, list) in lists {
            for url in list {
                let url =
                    frontier::normalize_for(site, url, trailing).unwrap_or_else(|| url.clone());
                // A start URL that is an article page by the site's patterns
                // is fetched and stored as an article (once, not revisited).
                let kind = if kind == UrlKind::Seed && site.is_article(&url) {
                    UrlKind::Article
                } else {
                    kind
                };
                urls.push(NewUrl {
                    url: url.into(),
                    site: site.name.clone(),
                    kind,
                    depth: 0,
                    priority: frontier::priority(kind, 0),
                });
            }
        }
    }
    urls
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::path::Path;

    use super::*;
    use crate::store::{QueuedUrl, WriteOutcome};

    /// A store whose disk is full.
    struct Full;

    impl CrawlStore for Full {
        fn reset_in_flight(&mut self) -> Result<usize, StoreError> {
            Ok(0)
        }
        fn claim_due(
            &mut self,
            _: i64,
            _: usize,
            _: &crate::store::ClaimFilter,
        ) -> Result<Vec<QueuedUrl>, StoreError> {
            Ok(Vec::new())
        }
        fn next_due_at(&mut self, _: Option<&[String]>) -> Result<Option<i64>, StoreError> {
            Ok(None)
        }
        fn write_batch(&mut self, _: Vec<WriteOp>) -> Result<Vec<WriteOutcome>, StoreError> {
            Err(StoreError::Sqlite(rusqlite::Error::SqliteFailure(
                rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_FULL),
                None,
            )))
        }
        fn pages_by_site(&mut self) -> Result<HashMap<String, u64>, StoreError> {
            Ok(HashMap::new())
        }
    }

    #[tokio::test]
    async fn a_store_that_cannot_write_stops_the_crawl_with_its_error() {
        let text = "[fetch]\nallow_private_addresses = true\n[[sites]]\nname = \"s\"\nstart = [\"http://127.0.0.1:9/\"]\n";
        let cfg = Config::parse(text, Path::new("t.toml"), Path::new(".")).unwrap();
        let err = run(&cfg, Full, CrawlOptions::default(), std::future::pending())
            .await
            .unwrap_err();
        assert!(matches!(err, CrawlError::Store(_)), "{err}");
        assert!(err.to_string().contains("full"), "{err}");
    }

    /// An empty frontier of which other processes hold URLs `held` more
    /// times, then none.
    struct HeldElsewhere {
        held: usize,
        asked: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    }

    impl CrawlStore for HeldElsewhere {
        fn reset_in_flight(&mut self) -> Result<usize, StoreError> {
            Ok(0)
        }
        fn claim_due(
            &mut self,
            _: i64,
            _: usize,
            _: &crate::store::ClaimFilter,
        ) -> Result<Vec<QueuedUrl>, StoreError> {
            Ok(Vec::new())
        }
        fn next_due_at(&mut self, _: Option<&[String]>) -> Result<Option<i64>, StoreError> {
            Ok(None)
        }
        fn held_elsewhere(
            &mut self,
            _: Option<&[String]>,
        ) -> Result<Option<std::time::Duration>, StoreError> {
            let asked = self.asked.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            Ok((asked < self.held).then_some(std::time::Duration::from_secs(30)))
        }
        fn write_batch(&mut self, ops: Vec<WriteOp>) -> Result<Vec<WriteOutcome>, StoreError> {
            Ok(ops.iter().map(|_| WriteOutcome::UrlsAdded(0)).collect())
        }
        fn pages_by_site(&mut self) -> Result<HashMap<String, u64>, StoreError> {
            Ok(HashMap::new())
        }
    }

    #[tokio::test]
    async fn regression_a_process_ended_its_pass_while_others_held_urls() {
        let text = "[[sites]]\nname = \"s\"\nstart = [\"http://127.0.0.1:9/\"]\n";
        let cfg = Config::parse(text, Path::new("t.toml"), Path::new(".")).unwrap();
        let asked = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let store = HeldElsewhere {
            held: 2,
            asked: asked.clone(),
        };
        run(&cfg, store, CrawlOptions::default(), std::future::pending())
            .await
            .unwrap();
        // Waited while the others held URLs (twice), ended once they held
        // none.
        assert_eq!(asked.load(std::sync::atomic::Ordering::SeqCst), 3);
    }

    #[tokio::test]
    async fn an_unknown_site_is_refused_before_anything_runs() {
        let text = "[[sites]]\nname = \"s\"\nstart = [\"http://127.0.0.1:9/\"]\n";
        let cfg = Config::parse(text, Path::new("t.toml"), Path::new(".")).unwrap();
        let opts = CrawlOptions {
            sites: vec!["x".into()],
            ..CrawlOptions::default()
        };
        let err = run(&cfg, Full, opts, std::future::pending())
            .await
            .unwrap_err();
        assert_eq!(err.to_string(), "unknown site \"x\" (configured: s)");
    }
}
