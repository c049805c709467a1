//! Crawl throughput on the simulated news web (a plain `harness = false` main).
//!
//! In: a [`SimWeb`] per case (sites × articles, fixed seed; small pages, or
//! the large-page web of [`Behaviour::large_pages`]: 60–400 KB and 300+ links
//! a page) and its generated `crawler.toml`, with the politeness limits
//! raised so the rate limiter is not what is measured. Out, printed per
//! case: pages fetched, articles stored (and the share of the web's
//! articles), wall time, pages/s, articles/s, CPU seconds of the crawler and
//! of the simulated web, peak RSS of the case and the database size on disk;
//! CPU ms per page of the crawl beside that of extraction alone on the same
//! article pages (charset decoding + extraction on one thread, as
//! `extract --jsonl --jobs 1`), with their ratio, and database bytes per
//! article; then the boilerplate-learning share as the ratio of the enabled
//! run to the disabled run.
//!
//! The simulated web runs in this process on its own tokio runtime
//! (threads named `simweb`) so its CPU time can be told apart from the
//! crawler's (runtime threads named `crawl`, plus any other thread; the
//! measuring is in `crawl/measure.rs`). Each run is a
//! fresh process of this binary (`--case SITES,ARTICLES,on|off,small|large`),
//! so its VmHWM is that run's peak RSS; it includes the simulated web's
//! generated content, whose share (VmRSS before the crawl starts) is printed
//! too. Extraction alone runs after the peak is read.
//!
//! Each web (3 sites × 300 articles and 5 × 1000 at concurrency 16; the
//! large-page web 4 × 300 at concurrency 64) is crawled
//! `CRAWL_BENCH_REPS` times (default 3) with boilerplate learning off and on
//! alternating; medians and the on/off ratios follow each web.
//!
//! Run: `cargo bench --bench crawl [-- FILTER]` (FILTER keeps the runs whose
//! label contains it, e.g. `3x300`, `large` or `bp-on`).
//! `cargo bench --bench crawl -- --zstd-levels` measures instead what each
//! zstd level costs and saves on the webs' kept pages (`crawl/kept_levels.rs`).
//!
//! Then the bare-config case (`crawl/bare.rs`, filter `bare`): the bare
//! simulated web crawled with patterns and with names and start pages only;
//! what judging every page costs in crawler CPU per page.
//!
//! Last, real pages (`crawl/real.rs`, filter `real`): the corpus's saved
//! news pages served as 36 sites and crawled by the `newshound` binary,
//! against `extract DIR --jsonl --jobs 2` and `--jobs 1` of the same files.
//!
//! The references: every case holds the crawl's CPU per page against
//! `newshound extract DIR --jsonl --jobs 2` of the same article pages as
//! files (both cores busy, as in the crawl: the goal's reference) and
//! `--jobs 1` (one thread of an idle process), each a child process
//! measured by `wait4`.

use std::path::Path;
use std::time::{Duration, Instant};

use newshound::config::Config;
use newshound::crawl::{self, CrawlOptions, CrawlSummary};
use newshound::simweb::{Behaviour, SimWeb, SimWebSpec};
use newshound::store::AnyStore;
use newshound::store::Store;

// Not `benches/measure.rs`: cargo would take that for a bench of its own.
#[path = "crawl/measure.rs"]
mod measure;

#[path = "crawl/child.rs"]
mod child;

#[path = "crawl/kept_levels.rs"]
mod kept_levels;

#[path = "crawl/bare.rs"]
mod bare;

#[path = "crawl/real.rs"]
mod real;

use measure::{cpu_seconds, db_size, extract_only, extract_refs, status_kb};

const SEED: u64 = 2026;

/// One measured crawl.
#[derive(Debug, Clone, Copy)]
struct Case {
    sites: usize,
    articles: usize,
    boilerplate: bool,
    /// The large-page web ([`Behaviour::large_pages`]) at concurrency 64.
    large: bool,
}

impl Case {
    fn label(&self) -> String {
        let bp = if self.boilerplate { "bp-on" } else { "bp-off" };
        format!("{} {bp}", self.web_label())
    }

    /// `3x300` or `4x300-large`.
    fn web_label(&self) -> String {
        let large = if self.large { "-large" } else { "" };
        format!("{}x{}{large}", self.sites, self.articles)
    }

    /// The child's argument: `SITES,ARTICLES,on|off,small|large`.
    fn encode(&self) -> String {
        let bp = if self.boilerplate { "on" } else { "off" };
        let size = if self.large { "large" } else { "small" };
        format!("{},{},{bp},{size}", self.sites, self.articles)
    }

    fn decode(text: &str) -> Option<Case> {
        let mut parts = text.split(',');
        let sites = parts.next()?.parse().ok()?;
        let articles = parts.next()?.parse().ok()?;
        let boilerplate = match parts.next()? {
            "on" => true,
            "off" => false,
            _ => return None,
        };
        let large = match parts.next()? {
            "large" => true,
            "small" => false,
            _ => return None,
        };
        Some(Case {
            sites,
            articles,
            boilerplate,
            large,
        })
    }
}

/// What one case measured (in the child that ran it).
struct Outcome {
    summary: CrawlSummary,
    expected_articles: usize,
    wall: Duration,
    crawl_cpu: f64,
    web_cpu: f64,
    /// VmRSS once the web's content is generated, before the crawl.
    web_rss_kb: Option<u64>,
    /// VmHWM of the child process: the case's peak, web included.
    peak_rss_kb: Option<u64>,
    db_bytes: u64,
    /// Extraction alone over the web's article pages: (pages, CPU s).
    extract_only: (u64, f64),
    /// The same pages as files, `extract DIR --jsonl --jobs 2` and
    /// `--jobs 1` of the binary: CPU ms per page of each.
    jobs2_ms: f64,
    jobs1_ms: f64,
}

/// The figures the parent aggregates, passed back on a `#record` line.
#[derive(Debug, Clone, Copy)]
struct Record {
    wall: f64,
    crawl_cpu: f64,
    pages: u64,
    articles: u64,
    db_bytes: u64,
    peak_rss_kb: u64,
    extract_pages: u64,
    extract_cpu: f64,
    jobs2_ms: f64,
    jobs1_ms: f64,
}

impl Record {
    const PREFIX: &'static str = "#record";

    fn of(o: &Outcome) -> Record {
        Record {
            wall: o.wall.as_secs_f64(),
            crawl_cpu: o.crawl_cpu,
            pages: o.summary.pages_fetched,
            articles: o.summary.articles_stored,
            db_bytes: o.db_bytes,
            peak_rss_kb: o.peak_rss_kb.unwrap_or(0),
            extract_pages: o.extract_only.0,
            extract_cpu: o.extract_only.1,
            jobs2_ms: o.jobs2_ms,
            jobs1_ms: o.jobs1_ms,
        }
    }

    fn line(&self) -> String {
        format!(
            "{} {} {} {} {} {} {} {} {} {} {}",
            Self::PREFIX,
            self.wall,
            self.crawl_cpu,
            self.pages,
            self.articles,
            self.db_bytes,
            self.peak_rss_kb,
            self.extract_pages,
            self.extract_cpu,
            self.jobs2_ms,
            self.jobs1_ms
        )
    }

    fn parse(line: &str) -> Option<Record> {
        let mut f = line.strip_prefix(Self::PREFIX)?.split_whitespace();
        Some(Record {
            wall: f.next()?.parse().ok()?,
            crawl_cpu: f.next()?.parse().ok()?,
            pages: f.next()?.parse().ok()?,
            articles: f.next()?.parse().ok()?,
            db_bytes: f.next()?.parse().ok()?,
            peak_rss_kb: f.next()?.parse().ok()?,
            extract_pages: f.next()?.parse().ok()?,
            extract_cpu: f.next()?.parse().ok()?,
            jobs2_ms: f.next()?.parse().ok()?,
            jobs1_ms: f.next()?.parse().ok()?,
        })
    }

    fn cpu_ms_per_page(&self) -> f64 {
        1000.0 * self.crawl_cpu / self.pages.max(1) as f64
    }

    fn extract_ms_per_page(&self) -> f64 {
        1000.0 * self.extract_cpu / self.extract_pages.max(1) as f64
    }
}

/// Set `key = value` on the (single) line of `section` that assigns `key`.
/// Errors name the key when the generated config no longer has it, so a
/// change in `SimWeb::config_toml` cannot silently leave the old limit.
fn set_key(toml: &str, section: &str, key: &str, value: &str) -> Result<String, String> {
    let mut out = String::with_capacity(toml.len() + 16);
    let mut current = "";
    let mut done = false;
    for line in toml.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with('[') {
            current = trimmed;
        }
        let assigns = trimmed
            .split_once('=')
            .is_some_and(|(k, _)| k.trim() == key);
        if current == section && assigns && !done {
            out.push_str(&format!("{key} = {value}\n"));
            done = true;
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
    if done {
        Ok(out)
    } else {
        Err(format!("{section} {key} not found in the simweb config"))
    }
}

/// The simweb config with the bench's limits: per-host rate far above what
/// loopback can serve, more connections per host and overall, and the
/// boilerplate step on or off.
fn bench_config(web: &SimWeb, case: &Case) -> Result<String, String> {
    let mut t = web.config_toml();
    let boilerplate = case.boilerplate;
    // The large-page web is crawled as real news sites with large pages were
    // measured: at concurrency 64 (fewer sites, so more connections per host).
    let (concurrency, per_host) = if case.large { (64, 16) } else { (16, 8) };
    // Depth (6) and the per-site budget (2 × articles + 200) stay as
    // generated: the sitemap and feed put every article within reach.
    let edits: [(&str, &str, String); 4] = [
        ("[crawler]", "concurrency", concurrency.to_string()),
        ("[politeness]", "rate_per_host", "10000.0".into()),
        ("[politeness]", "per_host_concurrency", per_host.to_string()),
        ("[boilerplate]", "enabled", boilerplate.to_string()),
    ];
    for (section, key, value) in &edits {
        t = set_key(&t, section, key, value)?;
    }
    Ok(t)
}

fn run_case(
    web_rt: &tokio::runtime::Runtime,
    crawl_rt: &tokio::runtime::Runtime,
    case: &Case,
) -> Result<Outcome, String> {
    let spec = SimWebSpec {
        sites: case.sites,
        articles_per_site: case.articles,
        seed: SEED,
        faults: false,
    };
    let behaviour = Behaviour {
        large_pages: case.large,
        ..Behaviour::default()
    };
    let web = web_rt
        .block_on(SimWeb::start_with(spec, behaviour))
        .map_err(|e| format!("simweb: {e}"))?;
    let expected_articles = web.sites().iter().map(|s| s.article_urls.len()).sum();
    let toml = bench_config(&web, case)?;
    let dir = tempfile::tempdir().map_err(|e| format!("tempdir: {e}"))?;
    let cfg = Config::parse(&toml, Path::new("bench.toml"), dir.path())
        .map_err(|e| format!("config: {e}"))?;
    let store = Store::open(&dir.path().join("bench.db")).map_err(|e| format!("store: {e}"))?;
    let opts = CrawlOptions::default();
    let web_rss_kb = status_kb("VmRSS");
    let (cpu0, web0) = cpu_seconds("simweb");
    let t0 = Instant::now();
    let summary = crawl_rt
        .block_on(crawl::run(
            &cfg,
            AnyStore::from(store),
            opts,
            std::future::pending(),
        ))
        .map_err(|e| format!("crawl: {e}"))?;
    let wall = t0.elapsed();
    let (cpu1, web1) = cpu_seconds("simweb");
    let peak_rss_kb = status_kb("VmHWM");
    let db_bytes = db_size(dir.path());
    // After the peak is read: the sample pages are not the crawl's memory.
    let extract_only = extract_only(&web, &cfg);
    let (ref_pages, jobs2, jobs1) = extract_refs(&web, &dir.path().join("pages"))?;
    let ms = |cpu: f64| 1000.0 * cpu / ref_pages.max(1) as f64;
    web_rt.block_on(web.shutdown());
    Ok(Outcome {
        summary,
        expected_articles,
        wall,
        crawl_cpu: (cpu1 - cpu0) - (web1 - web0),
        web_cpu: web1 - web0,
        web_rss_kb,
        peak_rss_kb,
        db_bytes,
        extract_only,
        jobs2_ms: ms(jobs2.cpu),
        jobs1_ms: ms(jobs1.cpu),
    })
}

fn mb(bytes: f64) -> f64 {
    bytes / (1024.0 * 1024.0)
}

fn print_outcome(case: &Case, o: &Outcome) {
    let s = &o.summary;
    let secs = o.wall.as_secs_f64().max(1e-9);
    let kb =
        |v: Option<u64>| v.map_or("n/a".to_string(), |kb| format!("{:.1}", kb as f64 / 1024.0));
    let (peak, web_rss) = (kb(o.peak_rss_kb), kb(o.web_rss_kb));
    println!(
        "{:<14} pages {:>5}  articles {:>5}/{:<5}  wall {:>6.2} s  {:>7.1} pages/s  {:>7.1} articles/s  \
         cpu crawl {:>6.2} s ({:.2} ms/page) web {:>5.2} s  peak RSS {peak} MB (web alone {web_rss} MB)  DB {:.1} MB  \
         errors {}  lines dropped {}",
        case.label(),
        s.pages_fetched,
        s.articles_stored,
        o.expected_articles,
        secs,
        s.pages_fetched as f64 / secs,
        s.articles_stored as f64 / secs,
        o.crawl_cpu,
        1000.0 * o.crawl_cpu / (s.pages_fetched.max(1) as f64),
        o.web_cpu,
        mb(o.db_bytes as f64),
        s.error_total(),
        s.lines_dropped,
    );
    let (ext_pages, ext_cpu) = o.extract_only;
    let crawl_ms = 1000.0 * o.crawl_cpu / (s.pages_fetched.max(1) as f64);
    let ext_ms = 1000.0 * ext_cpu / (ext_pages.max(1) as f64);
    println!(
        "    CPU per page: crawl {crawl_ms:.2} ms vs `extract DIR --jsonl --jobs 2` {:.2} ms = {:.2}x \
         (the goal's reference), `--jobs 1` {:.2} ms = {:.2}x, extraction alone in this process \
         {ext_ms:.2} ms ({ext_pages} article pages, one thread) = {:.2}x;  DB {:.1} KB per article",
        o.jobs2_ms,
        crawl_ms / o.jobs2_ms.max(1e-9),
        o.jobs1_ms,
        crawl_ms / o.jobs1_ms.max(1e-9),
        crawl_ms / ext_ms.max(1e-9),
        o.db_bytes as f64 / 1024.0 / (s.articles_stored.max(1) as f64),
    );
    if !s.errors.is_empty() {
        println!("    errors {:?}", s.errors);
    }
    if !s.skipped.is_empty() {
        println!("    skipped {:?}", s.skipped);
    }
}

fn runtime(name: &str) -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name(name)
        .enable_all()
        .build()
        .map_err(|e| format!("tokio runtime: {e}"))
}

/// The median of the values (upper middle for an even count).
fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

/// Child: run one case, print its line and its `#record` line.
fn child(case: Case) -> Result<(), String> {
    let web_rt = runtime("simweb")?;
    let crawl_rt = runtime("crawl")?;
    let outcome = run_case(&web_rt, &crawl_rt, &case)?;
    print_outcome(&case, &outcome);
    println!("{}", Record::of(&outcome).line());
    Ok(())
}

/// Parent: run `case` in a fresh process of this binary (so its peak RSS
/// is its own), echo its output, return its record.
fn spawn(case: Case) -> Result<Record, String> {
    let exe = std::env::current_exe().map_err(|e| format!("current_exe: {e}"))?;
    let out = std::process::Command::new(exe)
        .arg("--case")
        .arg(case.encode())
        .output()
        .map_err(|e| format!("spawning {}: {e}", case.label()))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let mut record = None;
    for line in stdout.lines() {
        match Record::parse(line) {
            Some(r) => record = Some(r),
            None => println!("{line}"),
        }
    }
    if !out.status.success() {
        return Err(format!(
            "{} failed ({}): {}",
            case.label(),
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    record.ok_or_else(|| format!("{}: no #record line", case.label()))
}

/// Medians of one setting's runs, printed; (wall s, crawler CPU ms/page).
fn report(web: &str, name: &str, runs: &[Record]) -> Option<(f64, f64)> {
    let first = runs.first()?;
    let wall = median(runs.iter().map(|r| r.wall).collect());
    let cpu = median(runs.iter().map(Record::cpu_ms_per_page).collect());
    let ext = median(runs.iter().map(Record::extract_ms_per_page).collect());
    let ratio = median(
        runs.iter()
            .map(|r| r.cpu_ms_per_page() / r.extract_ms_per_page().max(1e-9))
            .collect(),
    );
    let ratio_of = |reference: fn(&Record) -> f64| {
        median(
            runs.iter()
                .map(|r| r.cpu_ms_per_page() / reference(r).max(1e-9))
                .collect(),
        )
    };
    let (ratio2, ratio1) = (ratio_of(|r| r.jobs2_ms), ratio_of(|r| r.jobs1_ms));
    let peak = median(runs.iter().map(|r| r.peak_rss_kb as f64).collect()) / 1024.0;
    let db = median(runs.iter().map(|r| r.db_bytes as f64).collect());
    let per_article = median(
        runs.iter()
            .map(|r| r.db_bytes as f64 / r.articles.max(1) as f64)
            .collect(),
    );
    println!(
        "  median {web} {name}: wall {wall:.2} s, {:.0} pages/s, {:.0} articles/s, \
         CPU per page crawl {cpu:.2} ms | ratio to `extract --jsonl --jobs 2` (the goal's \
         reference) {ratio2:.2}x, to `--jobs 1` {ratio1:.2}x, to extraction alone in-process \
         ({ext:.2} ms) {ratio:.2}x, peak RSS {peak:.1} MB, DB {:.1} MB ({:.1} KB/article)",
        first.pages as f64 / wall.max(1e-9),
        first.articles as f64 / wall.max(1e-9),
        mb(db),
        per_article / 1024.0,
    );
    Some((wall, cpu))
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(i) = args.iter().position(|a| a == "--case") {
        let case = args
            .get(i + 1)
            .and_then(|c| Case::decode(c))
            .ok_or("--case wants SITES,ARTICLES,on|off,small|large")?;
        return child(case);
    }
    if let Some(i) = args.iter().position(|a| a == "--bare-case") {
        return bare::child(args.get(i + 1).map(String::as_str) == Some("patterns"));
    }
    if args.iter().any(|a| a == "--zstd-levels") {
        return kept_levels::run(&runtime("simweb")?);
    }
    // `cargo bench` passes `--bench`; anything else is a label filter.
    let filter: Option<&String> = args.iter().find(|a| !a.starts_with("--"));
    let reps: usize = std::env::var("CRAWL_BENCH_REPS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(3)
        .max(1);
    if let Ok(load) = std::fs::read_to_string("/proc/loadavg") {
        println!("load average at start: {}", load.trim());
    }
    println!(
        "crawl bench: seed {SEED}; rate_per_host 10000, per_host_concurrency 8, \
         concurrency 16 (large pages: 16 and 64); {reps} rounds, boilerplate off and on alternating, \
         one process per run"
    );
    for (sites, articles, large) in [(3, 300, false), (5, 1000, false), (4, 300, true)] {
        let mut off = Vec::new();
        let mut on = Vec::new();
        let web = Case {
            sites,
            articles,
            boilerplate: false,
            large,
        }
        .web_label();
        for _ in 0..reps {
            // Alternate so drifting machine load hits both settings alike.
            for boilerplate in [false, true] {
                let case = Case {
                    sites,
                    articles,
                    boilerplate,
                    large,
                };
                if filter.is_some_and(|f| !case.label().contains(f.as_str())) {
                    continue;
                }
                let record = spawn(case)?;
                if boilerplate {
                    on.push(record);
                } else {
                    off.push(record);
                }
            }
        }
        let medians_off = report(&web, "bp-off", &off);
        let medians_on = report(&web, "bp-on", &on);
        if let (Some((wall_off, cpu_off)), Some((wall_on, cpu_on))) = (medians_off, medians_on) {
            println!(
                "  {web} boilerplate on/off: wall {:.2}x, crawler CPU per page \
                 {:.2}x (learning ≈ {:.0}% of the crawler's CPU)",
                wall_on / wall_off.max(1e-9),
                cpu_on / cpu_off.max(1e-12),
                100.0 * (1.0 - cpu_off / cpu_on.max(1e-12)),
            );
        }
    }
    // The bare-config case beside the pattern case (filter: `bare`).
    if filter.is_none_or(|f| "bare-web".contains(f.as_str())) {
        bare::compare(reps)?;
    }
    // Real pages: the corpus served as 36 sites, crawled by the binary
    // (filter: `real`).
    if filter.is_none_or(|f| "real-pages".contains(f.as_str())) {
        real::compare(reps)?;
    }
    if let Ok(load) = std::fs::read_to_string("/proc/loadavg") {
        println!("load average at end: {}", load.trim());
    }
    Ok(())
}
