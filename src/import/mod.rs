//! `import`: web archives (WARC files, Common Crawl's CC-NEWS) into the
//! corpus, through the same page path and store writer as a crawl.
//!
//! In: a validated [`Config`] (its sites), the store twice — one
//! connection for the writer, one for the list of files that import
//! processes share — [`ImportOptions`] (what to read, which pages to
//! keep), and a shutdown future. Out: an [`ImportSummary`], or an
//! [`ImportError`] for the few things that stop an import (an unknown
//! site, a paths list that cannot be read, the store failing).
//!
//! A record's way, file by file: `sources` (the files: local files,
//! directories, a paths list) → the file loop here (each file claimed in
//! the store, under a lease; files other processes hold are waited for,
//! and taken over when their lease runs out) → `file` (one file, from
//! where it stopped: `open` it there, locally or over HTTP through the
//! crawl's fetcher, read its records on a thread of their own with
//! `records` (which are pages: type, status, HTML, site — `sites`), and
//! process the pages on the crawl's pool with `page`: the crawl's page
//! path ([`crate::crawl::path`]), then the date and language filters and
//! [`crate::crawl::path::record`]) → the crawl's store writer, in file
//! order, with the file's progress in the same write. At the end the
//! sites' stored articles are cleaned again with what their line tables
//! learned, as after a crawl. `progress` shows it running, `summary`
//! counts it.

mod file;
mod open;
mod page;
mod progress;
mod records;
mod sites;
pub mod sources;
mod summary;

use std::future::Future;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub use page::Filters;
pub use summary::ImportSummary;

use crate::config::Config;
use crate::crawl::fetch::{FetchError, Fetcher};
use crate::crawl::path::record::{Learned, LiveRules};
use crate::crawl::pool::ProcessPool;
use crate::crawl::shapes::LiveShapes;
use crate::crawl::writer::{CrawlStore, Flush, Writer, WriterError};
use crate::crawl::Counters;
use crate::extract::tree::rule::SiteRule;
use crate::extract::{Algorithm, ExtractOptions};
use crate::store::{AnyStore, ImportFile, StoreError};
use page::PageWork;
use progress::Progress;
use sites::Sites;
use sources::{Base, Source};
use summary::{FileEnd, Tallies};

/// What to import, and which pages to keep.
#[derive(Debug, Clone, Default)]
pub struct ImportOptions {
    /// WARC files and directories of them.
    pub files: Vec<PathBuf>,
    /// A paths list: a local file or an http(s) URL.
    pub paths: Option<String>,
    /// Where the relative lines of the paths list lead: a URL or a
    /// directory.
    pub base: Option<String>,
    /// Only these configured sites (all when empty).
    pub sites: Vec<String>,
    /// Every host no configured site owns is a site of its own.
    pub any_site: bool,
    pub filters: Filters,
    /// Show a progress bar (on a terminal); else log a status line now
    /// and then.
    pub progress: bool,
    /// The store is used by this process alone (a locked SQLite file): the
    /// files an earlier, killed import held are given back at the start.
    pub sole_user: bool,
}

/// What stops an import. Everything else is counted in the summary.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("unknown site {name:?} (configured: {known})")]
    UnknownSite { name: String, known: String },
    #[error(
        "the config names no site: add some (`newshound sites add URL`), or pass --any-site to \
         take every host as a site of its own"
    )]
    NoSites,
    #[error("{file}: {reason}")]
    Source { file: String, reason: String },
    #[error("{file}: {reason}")]
    Paths { file: String, reason: String },
    #[error("nothing to import: give WARC files, directories of them, or --paths LIST")]
    NoFiles,
    #[error("cannot start the HTTP client: {0}")]
    Client(#[source] FetchError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("the store writer stopped unexpectedly")]
    WriterGone,
    #[error("cannot start the page processing threads: {0}")]
    Threads(#[source] std::io::Error),
    #[error(transparent)]
    Model(#[from] crate::extract::model::ModelError),
}

impl From<WriterError> for ImportError {
    fn from(e: WriterError) -> Self {
        match e {
            WriterError::Store(e) => ImportError::Store(e),
            WriterError::Gone => ImportError::WriterGone,
        }
    }
}

/// A paths list read whole is at most this large.
const MAX_PATHS_BYTES: u64 = 64 * 1024 * 1024;
/// How often a process waiting for files that others hold looks again.
const WAIT_FOR_OTHERS: Duration = Duration::from_secs(2);
/// The import's commits: large, as nothing waits for them (a crawl's
/// claims do) and a stopped import reads the records of the batch in
/// flight again; each commit costs a flush of the search index's terms.
/// At most `[store] import_commit_ms` apart.
fn flush(cfg: &Config) -> Flush {
    Flush {
        items: 4096,
        every: Duration::from_millis(cfg.store.import_commit_ms),
    }
}

/// Everything the files of one import share.
struct Ctx {
    cfg: Arc<Config>,
    sites: Arc<Sites>,
    fetcher: Fetcher,
    writer: Writer,
    /// The shared list of files, on a connection of its own.
    files: Arc<Mutex<AnyStore>>,
    pool: ProcessPool,
    work: Arc<PageWork>,
    tallies: Arc<Tallies>,
    /// The writer's article outcomes.
    counters: Arc<Counters>,
    /// This process's name in the file leases.
    by: String,
    lease: Duration,
    stop: Arc<AtomicBool>,
    progress: Progress,
}

fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

fn ms(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

/// Run `f` on the file list's connection, off the runtime's threads.
async fn on_files<T: Send + 'static>(
    files: &Arc<Mutex<AnyStore>>,
    f: impl FnOnce(&mut AnyStore) -> Result<T, StoreError> + Send + 'static,
) -> Result<T, ImportError> {
    let files = files.clone();
    tokio::task::spawn_blocking(move || {
        let mut store = files.lock().unwrap_or_else(|p| p.into_inner());
        f(&mut store)
    })
    .await
    .map_err(|_| ImportError::WriterGone)?
    .map_err(ImportError::Store)
}

/// The files of `opts`: local ones first, then the paths list's.
async fn files_of(
    opts: &ImportOptions,
    fetcher: &Fetcher,
    cfg: &Config,
) -> Result<Vec<Source>, ImportError> {
    let mut found = sources::local_files(&opts.files)?;
    if let Some(list) = &opts.paths {
        let base = opts.base.as_deref().map(Base::parse).transpose()?;
        let source = if list.contains("://") {
            let url = url::Url::parse(list).map_err(|e| ImportError::Paths {
                file: list.clone(),
                reason: e.to_string(),
            })?;
            Source::Remote(url)
        } else {
            Source::Local(PathBuf::from(list))
        };
        let bytes = open::read_small(&source, fetcher, &cfg.fetch, MAX_PATHS_BYTES)
            .await
            .map_err(|e| ImportError::Paths {
                file: list.clone(),
                reason: e.to_string(),
            })?;
        found.extend(sources::parse_paths(&bytes, list, base.as_ref())?);
    }
    let found = sources::dedup(found);
    if found.is_empty() {
        return Err(ImportError::NoFiles);
    }
    Ok(found)
}

/// Import the archives of `opts` into `store` (see the module doc).
/// `files` is a second connection to the same corpus, for the list of
/// files import processes share.
pub async fn run(
    config: &Config,
    store: AnyStore,
    files: AnyStore,
    opts: ImportOptions,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<ImportSummary, ImportError> {
    let started = Instant::now();
    let cfg = Arc::new(config.clone());
    let sites = Arc::new(Sites::new(cfg.clone(), &opts.sites, opts.any_site)?);
    let fetcher =
        Fetcher::for_archives(&cfg.fetch, &cfg.crawler.user_agent).map_err(ImportError::Client)?;
    let sources = files_of(&opts, &fetcher, &cfg).await?;
    // A model only serves nb and tree; it must be of the configured kind.
    let model = match &cfg.extract.model {
        Some(path) if cfg.extract.algorithm.is_learned() => Some(Arc::new(
            crate::extract::model::BlockModel::load_for(path, cfg.extract.algorithm)?,
        )),
        _ => None,
    };
    let files = Arc::new(Mutex::new(files));
    let keys: Vec<String> = sources.iter().map(Source::key).collect();
    let sole_user = opts.sole_user;
    let want_rules = cfg.extract.algorithm == Algorithm::Tree;
    let (rows, shapes, rules) = on_files(&files, move |s| {
        if sole_user {
            s.release_import_leases()?;
        }
        let rows = s.register_import_files(&keys, now_ms())?;
        let rules = if want_rules {
            s.site_rules()?
        } else {
            Vec::new()
        };
        Ok((rows, s.url_shapes()?, rules))
    })
    .await?;
    let rules = rules
        .into_iter()
        .filter_map(|(site, json)| SiteRule::from_json(&json).map(|r| (site, r)))
        .collect();
    let counters = Arc::new(Counters::default());
    let (writer, writer_task) = Writer::spawn_with(store, counters.clone(), flush(&cfg));
    let stop = Arc::new(AtomicBool::new(false));
    let stopper = {
        let stop = stop.clone();
        tokio::spawn(async move {
            shutdown.await;
            stop.store(true, Ordering::Relaxed);
        })
    };
    let ctx = Ctx {
        work: Arc::new(PageWork {
            extract: ExtractOptions {
                algorithm: cfg.extract.algorithm,
                timezone: cfg.extract.timezone,
                model,
                comments: cfg.extract.comments,
                ..ExtractOptions::default()
            },
            learned: Arc::new(Learned {
                shapes: LiveShapes::from_rows(shapes),
                rules: LiveRules::new(rules),
            }),
            trailing_slash: cfg.crawler.trailing_slash,
            keep_html: cfg.store.keep_html,
            max_text_bytes: cfg.store.max_text_bytes,
            filters: opts.filters.clone(),
        }),
        pool: ProcessPool::new(crate::crawl::cpu_slots(), "import-page")
            .map_err(ImportError::Threads)?,
        sites,
        fetcher,
        writer,
        files,
        tallies: Arc::new(Tallies::default()),
        counters: counters.clone(),
        by: crate::store::process_name(),
        lease: Duration::from_secs(cfg.store.lease_seconds),
        stop,
        progress: Progress::new(opts.progress, sources.len()),
        cfg: cfg.clone(),
    };
    let outcome = read_all(&ctx, &sources, rows).await;
    stopper.abort();
    ctx.progress.finish();
    let Ctx {
        writer, tallies, ..
    } = ctx;
    drop(writer);
    let closed = writer_task.await.map_err(|_| ImportError::WriterGone)?;
    // The writer's own error says why (e.g. the disk is full).
    let mut store = closed?;
    outcome?;
    let names: Vec<String> = counters.sites.reports().into_keys().collect();
    let recleaned =
        tokio::task::spawn_blocking(move || CrawlStore::reclean(&mut store, &cfg, &names))
            .await
            .map_err(|_| ImportError::WriterGone)??;
    let mut summary = tallies.summary(&counters, sources.len() as u64, started.elapsed());
    summary.articles_recleaned = recleaned as u64;
    Ok(summary)
}

/// Every file of the list: each one this process can claim, read; then
/// those other processes hold, waited for (and taken over when their
/// holder's lease runs out) until none is left.
async fn read_all(ctx: &Ctx, sources: &[Source], rows: Vec<ImportFile>) -> Result<(), ImportError> {
    let mut waiting = Vec::new();
    for (source, row) in sources.iter().zip(rows) {
        if ctx.stop.load(Ordering::Relaxed) {
            return Ok(());
        }
        if !take(ctx, source, row.clone()).await? {
            waiting.push((source, row));
        }
    }
    while !waiting.is_empty() && !ctx.stop.load(Ordering::Relaxed) {
        tokio::time::sleep(WAIT_FOR_OTHERS).await;
        let mut still = Vec::new();
        for (source, row) in waiting {
            let id = row.id;
            let now = on_files(&ctx.files, move |s| s.import_file(id)).await?;
            if matches!(now.state.as_str(), "done" | "failed") {
                ctx.tallies.file(&source.key(), FileEnd::Elsewhere);
            } else if !take(ctx, source, now.clone()).await? {
                still.push((source, now));
            }
        }
        waiting = still;
    }
    Ok(())
}

/// Read `source` if it is to be read and this process can claim it;
/// `false` when another process holds it.
async fn take(ctx: &Ctx, source: &Source, row: ImportFile) -> Result<bool, ImportError> {
    let key = source.key();
    match row.state.as_str() {
        "done" => {
            ctx.tallies.file(&key, FileEnd::AlreadyDone);
            return Ok(true);
        }
        "failed" => {
            let why = row.error.unwrap_or_else(|| "failed before".into());
            ctx.tallies.file(&key, FileEnd::Failed(why));
            return Ok(true);
        }
        _ => {}
    }
    let (id, by) = (row.id, ctx.by.clone());
    let until = now_ms() + ms(ctx.lease);
    let claimed = on_files(&ctx.files, move |s| {
        s.claim_import_file(id, &by, now_ms(), until)
    })
    .await?;
    let Some(claimed) = claimed else {
        return Ok(false);
    };
    let end = file::read_file(ctx, &claimed, source).await;
    match &end {
        FileEnd::Retry(why) | FileEnd::Failed(why) => tracing::warn!("{key}: {why}"),
        _ => {}
    }
    ctx.tallies.file(&key, end);
    Ok(true)
}
