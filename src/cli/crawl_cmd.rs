//! `crawl`, `demo`, `reclean` and `extract URL`: the commands that run the
//! async crawler or its fetcher.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, OnceLock};

use anyhow::{bail, Context, Result};

use newshound::config::{Config, FetchConfig};
use newshound::crawl::{self, CrawlOptions};
use newshound::simweb::{SimWeb, SimWebSpec};
use newshound::store::{self, Access, AnyStore, Selection, StoreTarget, Which};

use super::out::Out;
use super::store_cmds::require_site_in;
use super::{check_db_path_for_writing, status, Globals};

pub(super) fn runtime() -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")
}

/// Which signal stopped a crawl (`Ctrl-C` or `SIGTERM`), once one did.
pub(super) type StoppedBy = Arc<OnceLock<&'static str>>;

/// Resolves at the first Ctrl-C (SIGINT) or SIGTERM, naming it. Never
/// resolves where signals cannot be watched (the crawl then ends by itself).
async fn stop_signal() -> &'static str {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            let ctrl_c = async { tokio::signal::ctrl_c().await.is_ok() };
            tokio::select! {
                watched = ctrl_c => if watched { return "Ctrl-C" },
                _ = term.recv() => return "SIGTERM",
            }
            // Ctrl-C cannot be watched here: only SIGTERM stops the crawl.
            term.recv().await;
            return "SIGTERM";
        }
    }
    if tokio::signal::ctrl_c().await.is_err() {
        std::future::pending::<()>().await;
    }
    "Ctrl-C"
}

/// First Ctrl-C or SIGTERM (how systemd and Docker stop a service): resolve
/// (the crawl stops taking work and flushes) and record the signal in
/// `stopped`, so the caller can say the run was cut short. A second signal
/// of either kind: exit at once.
pub(super) async fn stop_on_signal(stopped: StoppedBy) {
    let by = stop_signal().await;
    let _ = stopped.set(by);
    status(format!(
        "newshound: {by}: stopping after in-flight pages (Ctrl-C again to quit at once)"
    ));
    tokio::spawn(async {
        stop_signal().await;
        std::process::exit(130);
    });
}

/// The options of `crawl`.
pub struct CrawlArgs {
    pub sites: Vec<String>,
    pub continuous: bool,
    pub max_pages: Option<u64>,
    pub retry_failed: bool,
}

pub fn crawl(globals: &Globals, out: &mut Out, args: CrawlArgs) -> Result<ExitCode> {
    let CrawlArgs {
        sites,
        continuous,
        max_pages,
        retry_failed,
    } = args;
    let config = globals.config_with_sites()?;
    if let Some(name) = sites.iter().find(|n| config.site(n).is_none()) {
        return Err(super::unknown_site(&config, name));
    }
    let opts = CrawlOptions {
        continuous,
        sites: sites.clone(),
        progress: std::io::stderr().is_terminal(),
        max_pages,
        retry_failed,
    };
    let stopped = StoppedBy::default();
    let target = globals.store_target(&config);
    let _lock = lock_target_for_writing(&target)?;
    let store = store::open(&target, Access::Create)?;
    let summary = runtime()?.block_on(crawl::run(
        &config,
        store,
        opts,
        stop_on_signal(stopped.clone()),
    ))?;
    writeln!(out, "{summary}")?;
    out.flush()?;
    if let Some(by) = stopped.get() {
        status(format!(
            "newshound: crawl stopped by {by}; the next crawl resumes where it stopped"
        ));
    }
    // Every page failed, or nothing was fetched while URLs wait: both said.
    let why: Vec<String> = [summary.all_failed(), summary.stalled()]
        .into_iter()
        .flatten()
        .collect();
    if !why.is_empty() {
        bail!("crawl: {}", why.join("; "));
    }
    Ok(ExitCode::SUCCESS)
}

/// One crawl (or import) per database: a second one would put the first
/// one's in-flight URLs (or files) back in the queue and fetch them twice. The lock is an OS file lock
/// on `<db>.lock`, so a killed crawl never leaves it stale; the holder
/// removes the file when it ends, so none stays beside the database.
pub(super) struct CrawlLock {
    file: std::fs::File,
    path: PathBuf,
}

impl Drop for CrawlLock {
    fn drop(&mut self) {
        // Unlinked while still locked: a process that opened the old file
        // meanwhile sees it is no longer `path` and tries again.
        let _ = std::fs::remove_file(&self.path);
        let _ = self.file.unlock();
    }
}

/// The lock a crawl or an import holds on a SQLite file, after checking
/// the file can be written. Any number of processes share a PostgreSQL
/// database (its frontier, its list of archive files): nothing is locked.
pub(super) fn lock_target_for_writing(target: &StoreTarget) -> Result<Option<CrawlLock>> {
    match target.sqlite_file() {
        Some(db) => {
            check_db_path_for_writing(db)?;
            Ok(Some(lock_for_crawl(db)?))
        }
        None => Ok(None),
    }
}

fn lock_for_crawl(db: &Path) -> Result<CrawlLock> {
    let mut name = db.as_os_str().to_owned();
    name.push(".lock");
    let path = PathBuf::from(name);
    loop {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .with_context(|| format!("{}: cannot create lock file", path.display()))?;
        match file.try_lock() {
            Ok(()) if same_file(&file, &path) => return Ok(CrawlLock { file, path }),
            // The holder removed the file between our open and our lock.
            Ok(()) => continue,
            Err(std::fs::TryLockError::WouldBlock) => bail!(
                "{}: another crawl or import is using this database (wait for it, or stop it with \
                 Ctrl-C)",
                db.display()
            ),
            Err(std::fs::TryLockError::Error(e)) => {
                return Err(e).with_context(|| format!("{}: cannot lock", path.display()))
            }
        }
    }
}

/// `file` is still the file at `path` (not one unlinked since it was opened).
fn same_file(file: &std::fs::File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), std::fs::metadata(path)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

pub fn reclean(globals: &Globals, out: &mut Out, site: Option<String>) -> Result<ExitCode> {
    let config = globals.config()?;
    let settings_for = |name: &str| config.line_settings(Some(name));
    let mut store = globals.open_store(Access::Write)?;
    if let Some(site) = &site {
        require_site_in(&mut store, site)?;
    }
    let changed = store
        .reclean(site.as_deref(), Which::All, &settings_for)?
        .changed;
    writeln!(out, "re-cleaned {changed} articles")?;
    Ok(ExitCode::SUCCESS)
}

/// `extract URL`: the page fetched with the crawler's fetcher and its
/// address guard. A typed URL may still redirect anywhere (an untrusted
/// link pasted from a page), so private addresses are refused on every hop
/// unless `allow_private` (or the config) says otherwise.
pub fn fetch_url(
    globals: &Globals,
    url: &str,
    allow_private: bool,
) -> Result<crawl::fetch::Fetched> {
    let config = globals.config()?;
    let fetch = FetchConfig {
        allow_private_addresses: config.fetch.allow_private_addresses || allow_private,
        ..config.fetch.clone()
    };
    let url = url::Url::parse(url).with_context(|| format!("{url}: invalid URL"))?;
    let fetcher = crawl::fetch::Fetcher::new(&fetch, &config.crawler.user_agent)?;
    runtime()?
        .block_on(fetcher.fetch(
            &url,
            &crawl::fetch::Validators::default(),
            crawl::fetch::Expect::Html,
        ))
        .map_err(|e| match e {
            crawl::fetch::FetchError::BlockedAddress(_) => {
                anyhow::anyhow!("{url}: {e} (pass --allow-private to fetch it anyway)")
            }
            other => anyhow::Error::new(other).context(url.to_string()),
        })
}

pub fn demo(globals: &Globals, out: &mut Out, articles: usize) -> Result<ExitCode> {
    let rt = runtime()?;
    let tmp = tempfile::tempdir().context("cannot create a temporary directory")?;
    let db = globals
        .db
        .clone()
        .unwrap_or_else(|| tmp.path().join("demo.db"));
    // A URL read as a path blamed a missing directory `postgres:`.
    let target = StoreTarget::parse(&db.to_string_lossy());
    let Some(file) = target.sqlite_file() else {
        bail!(
            "{target}: demo keeps its corpus in a SQLite file; pass a path to --db \
             (`newshound copy` moves it to PostgreSQL afterwards)"
        );
    };
    check_db_path_for_writing(file)?;
    // Two demos (or a demo and a crawl) on one file would interleave their
    // frontiers and store duplicates.
    let _lock = lock_for_crawl(file)?;
    // Before the web starts: a bad --db is reported first and alone.
    let store = store::open(&target, Access::Create)?;
    let stopped = StoppedBy::default();
    rt.block_on(async {
        let web = SimWeb::start(SimWebSpec {
            articles_per_site: articles,
            ..SimWebSpec::default()
        })
        .await
        .context("cannot start the simulated news web on 127.0.0.1")?;
        writeln!(out, "simulated news web:")?;
        for site in web.sites() {
            writeln!(
                out,
                "  {:<14} {}  ({} articles)",
                site.name,
                site.base_url,
                site.article_urls.len()
            )?;
        }
        out.flush()?;
        let config = Config::parse(&web.config_toml(), Path::new("<simweb>"), Path::new("."))
            .context("simulated web config")?;
        let opts = CrawlOptions {
            continuous: false,
            sites: Vec::new(),
            progress: std::io::stderr().is_terminal(),
            max_pages: None,
            retry_failed: false,
        };
        let summary = crawl::run(&config, store, opts, stop_on_signal(stopped.clone())).await?;
        web.shutdown().await;
        writeln!(out, "\n{summary}")?;
        anyhow::Ok(())
    })?;
    if let Some(by) = stopped.get() {
        out.flush()?;
        status(format!(
            "newshound: demo crawl stopped by {by}; showing what was stored"
        ));
    }
    let mut store = store::open(&target, Access::Write)?;
    let query = demo_query(&mut store)?;
    writeln!(out, "\nsearch {query:?}:")?;
    let hits = store.search_in(&query, 3, &Selection::default())?;
    if hits.is_empty() {
        out.flush()?;
        bail!("demo search for {query:?} found nothing: the crawl stored no articles");
    }
    for hit in hits {
        writeln!(
            out,
            "  {:>4}  [{}] {}",
            hit.id,
            hit.site,
            hit.title.unwrap_or_default()
        )?;
        writeln!(out, "        {}", super::one_line_text(&hit.snippet))?;
    }
    if globals.db.is_some() {
        writeln!(
            out,
            "\ndatabase: {} (try `newshound --db {} stats`)",
            db.display(),
            db.display()
        )?;
    } else {
        writeln!(
            out,
            "\nThis database was temporary and is now removed. To keep one, run \
             `newshound demo --db demo.db`, then `newshound --db demo.db search WORD`, \
             `show ID`, `serve` or `export`."
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// A word that certainly occurs in the stored corpus: the longest word of the
/// first stored article's title.
fn demo_query(store: &mut AnyStore) -> Result<String> {
    let mut word = String::from("news");
    store.export(&Selection::default(), &mut |a| {
        if let Some(title) = &a.article.title {
            if let Some(w) = title
                .split(|c: char| !c.is_alphanumeric())
                .max_by_key(|w| w.chars().count())
            {
                if w.chars().count() > 3 && word == "news" {
                    word = w.to_lowercase();
                }
            }
        }
        Ok(())
    })?;
    Ok(word)
}
