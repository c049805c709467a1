//! Crawl throughput on the simulated news web (a plain `harness = false` main).
//!
//! In: a [`SimWeb`] per case (sites × articles, fixed seed) and its generated
//! `crawler.toml`, with the politeness limits raised so the rate limiter is
//! not what is measured. Out, printed per case: pages fetched, articles
//! stored (and the share of the web's articles), wall time, pages/s,
//! articles/s, CPU seconds of the crawler and of the simulated web, peak RSS
//! of the case and the database size on disk; then the boilerplate-learning
//! share as the ratio of the enabled run to the disabled run.
//!
//! The simulated web runs in this process on its own tokio runtime (threads
//! named `simweb`) so its CPU time can be told apart from the crawler's
//! (runtime threads named `crawl`, plus any other thread). Each run is a
//! fresh process of this binary (`--case SITES,ARTICLES,on|off`), so its
//! VmHWM is that run's peak RSS; it includes the simulated web's generated
//! content, whose share (VmRSS before the crawl starts) is printed too.
//!
//! Each size (3 sites × 300 articles, 5 × 1000) is crawled
//! `CRAWL_BENCH_REPS` times (default 3) with boilerplate learning off and on
//! alternating; medians and the on/off ratios follow each size.
//!
//! Run: `cargo bench --bench crawl [-- FILTER]` (FILTER keeps the runs whose
//! label contains it, e.g. `3x300` or `bp-on`).

use std::path::Path;
use std::time::{Duration, Instant};

use newshound::config::Config;
use newshound::crawl::{self, CrawlOptions, CrawlSummary};
use newshound::simweb::{SimWeb, SimWebSpec};
use newshound::store::Store;

const SEED: u64 = 2026;

/// One measured crawl.
#[derive(Debug, Clone, Copy)]
struct Case {
    sites: usize,
    articles: usize,
    boilerplate: bool,
}

impl Case {
    fn label(&self) -> String {
        let bp = if self.boilerplate { "bp-on" } else { "bp-off" };
        format!("{}x{} {bp}", self.sites, self.articles)
    }

    /// The child's argument: `SITES,ARTICLES,on|off`.
    fn encode(&self) -> String {
        let bp = if self.boilerplate { "on" } else { "off" };
        format!("{},{},{bp}", self.sites, self.articles)
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
        Some(Case {
            sites,
            articles,
            boilerplate,
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
        }
    }

    fn line(&self) -> String {
        format!(
            "{} {} {} {} {} {} {}",
            Self::PREFIX,
            self.wall,
            self.crawl_cpu,
            self.pages,
            self.articles,
            self.db_bytes,
            self.peak_rss_kb
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
        })
    }

    fn cpu_ms_per_page(&self) -> f64 {
        1000.0 * self.crawl_cpu / self.pages.max(1) as f64
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
fn bench_config(web: &SimWeb, boilerplate: bool) -> Result<String, String> {
    let mut t = web.config_toml();
    // Depth (6) and the per-site budget (2 × articles + 200) stay as
    // generated: the sitemap and feed put every article within reach.
    let edits: [(&str, &str, String); 4] = [
        ("[crawler]", "concurrency", "16".into()),
        ("[politeness]", "rate_per_host", "10000.0".into()),
        ("[politeness]", "per_host_concurrency", "8".into()),
        ("[boilerplate]", "enabled", boilerplate.to_string()),
    ];
    for (section, key, value) in &edits {
        t = set_key(&t, section, key, value)?;
    }
    Ok(t)
}

/// A `/proc/self/status` field in kB (`VmHWM`, `VmRSS`).
fn status_kb(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status
        .lines()
        .find(|l| l.split(':').next() == Some(field))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// utime + stime of a `stat` line, in seconds (USER_HZ = 100 on Linux).
fn stat_cpu(stat: &str) -> Option<(String, f64)> {
    let open = stat.find('(')?;
    let close = stat.rfind(')')?;
    let comm = stat.get(open + 1..close)?.to_string();
    let rest: Vec<&str> = stat.get(close + 1..)?.split_whitespace().collect();
    // After the comm: state is field 3, utime 14, stime 15 (1-based).
    let utime: f64 = rest.get(11)?.parse().ok()?;
    let stime: f64 = rest.get(12)?.parse().ok()?;
    Some((comm, (utime + stime) / 100.0))
}

/// (whole process CPU s, CPU s of live threads whose name starts with `prefix`).
fn cpu_seconds(prefix: &str) -> (f64, f64) {
    let total = std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|s| stat_cpu(&s))
        .map_or(0.0, |(_, c)| c);
    let mut named = 0.0;
    if let Ok(tasks) = std::fs::read_dir("/proc/self/task") {
        for task in tasks.flatten() {
            let stat = std::fs::read_to_string(task.path().join("stat")).unwrap_or_default();
            if let Some((comm, cpu)) = stat_cpu(&stat) {
                if comm.starts_with(prefix) {
                    named += cpu;
                }
            }
        }
    }
    (total, named)
}

/// Bytes of the database and its WAL/SHM files.
fn db_size(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .map(|rd| {
            rd.flatten()
                .filter(|e| e.file_name().to_string_lossy().starts_with("bench.db"))
                .filter_map(|e| e.metadata().ok())
                .map(|m| m.len())
                .sum()
        })
        .unwrap_or(0)
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
    let web = web_rt
        .block_on(SimWeb::start(spec))
        .map_err(|e| format!("simweb: {e}"))?;
    let expected_articles = web.sites().iter().map(|s| s.article_urls.len()).sum();
    let toml = bench_config(&web, case.boilerplate)?;
    let dir = tempfile::tempdir().map_err(|e| format!("tempdir: {e}"))?;
    let cfg = Config::parse(&toml, Path::new("bench.toml"), dir.path())
        .map_err(|e| format!("config: {e}"))?;
    let store = Store::open(&dir.path().join("bench.db")).map_err(|e| format!("store: {e}"))?;
    let opts = CrawlOptions::default();
    let web_rss_kb = status_kb("VmRSS");
    let (cpu0, web0) = cpu_seconds("simweb");
    let t0 = Instant::now();
    let summary = crawl_rt
        .block_on(crawl::run(&cfg, store, opts, std::future::pending()))
        .map_err(|e| format!("crawl: {e}"))?;
    let wall = t0.elapsed();
    let (cpu1, web1) = cpu_seconds("simweb");
    let peak_rss_kb = status_kb("VmHWM");
    let db_bytes = db_size(dir.path());
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
fn report(sites: usize, articles: usize, name: &str, runs: &[Record]) -> Option<(f64, f64)> {
    let first = runs.first()?;
    let wall = median(runs.iter().map(|r| r.wall).collect());
    let cpu = median(runs.iter().map(Record::cpu_ms_per_page).collect());
    let peak = median(runs.iter().map(|r| r.peak_rss_kb as f64).collect()) / 1024.0;
    let db = median(runs.iter().map(|r| r.db_bytes as f64).collect());
    println!(
        "  median {sites}x{articles} {name}: wall {wall:.2} s, {:.0} pages/s, {:.0} articles/s, \
         crawler CPU {cpu:.2} ms/page, peak RSS {peak:.1} MB, DB {:.1} MB",
        first.pages as f64 / wall.max(1e-9),
        first.articles as f64 / wall.max(1e-9),
        mb(db),
    );
    Some((wall, cpu))
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(i) = args.iter().position(|a| a == "--case") {
        let case = args
            .get(i + 1)
            .and_then(|c| Case::decode(c))
            .ok_or("--case wants SITES,ARTICLES,on|off")?;
        return child(case);
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
         concurrency 16; {reps} rounds, boilerplate off and on alternating, \
         one process per run"
    );
    for (sites, articles) in [(3, 300), (5, 1000)] {
        let mut off = Vec::new();
        let mut on = Vec::new();
        for _ in 0..reps {
            // Alternate so drifting machine load hits both settings alike.
            for boilerplate in [false, true] {
                let case = Case {
                    sites,
                    articles,
                    boilerplate,
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
        let medians_off = report(sites, articles, "bp-off", &off);
        let medians_on = report(sites, articles, "bp-on", &on);
        if let (Some((wall_off, cpu_off)), Some((wall_on, cpu_on))) = (medians_off, medians_on) {
            println!(
                "  {sites}x{articles} boilerplate on/off: wall {:.2}x, crawler CPU per page \
                 {:.2}x (learning ≈ {:.0}% of the crawler's CPU)",
                wall_on / wall_off.max(1e-9),
                cpu_on / cpu_off.max(1e-12),
                100.0 * (1.0 - cpu_off / cpu_on.max(1e-12)),
            );
        }
    }
    if let Ok(load) = std::fs::read_to_string("/proc/loadavg") {
        println!("load average at end: {}", load.trim());
    }
    Ok(())
}
