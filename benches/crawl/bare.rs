//! The bare-config case: the bare simulated web (sites known by their
//! address alone, `simweb::bare`) crawled once with hand-written patterns
//! and once with names and start pages only, whose pages are all extracted
//! and judged. Out, per run: pages fetched, articles stored, wall time and
//! the crawler's CPU per page; then the medians and the bare/pattern ratio
//! of CPU per page (what judging costs) and of CPU per stored article.
//!
//! Each run is a child process of this binary (`--bare-case
//! patterns|bare`), like the other cases, so runs do not share warm caches.

use std::path::Path;
use std::time::Instant;

use newshound::config::Config;
use newshound::crawl::{self, CrawlOptions};
use newshound::simweb::bare::{BareSpec, BareWeb};
use newshound::store::{AnyStore, Store};

use super::measure::cpu_seconds;
use super::{median, runtime, set_key, SEED};

/// The web the bare-site figures are measured on: 36 sites, here with 30
/// articles each.
const SITES: usize = 36;
const ARTICLES: usize = 30;
const PREFIX: &str = "#bare";

fn label(patterns: bool) -> &'static str {
    if patterns {
        "patterns"
    } else {
        "bare"
    }
}

/// Child: one crawl of the bare web; prints its line and a `#bare` record
/// (pages, articles, wall s, crawler CPU s).
pub fn child(patterns: bool) -> Result<(), String> {
    let web_rt = runtime("simweb")?;
    let crawl_rt = runtime("crawl")?;
    let spec = BareSpec {
        sites: SITES,
        articles_per_site: ARTICLES,
        seed: SEED,
        ..BareSpec::default()
    };
    let web = web_rt
        .block_on(BareWeb::start(spec))
        .map_err(|e| format!("bare web: {e}"))?;
    let mut toml = web.config_toml(patterns);
    for (section, key, value) in [
        ("[crawler]", "concurrency", "16"),
        ("[politeness]", "rate_per_host", "10000.0"),
    ] {
        toml = set_key(&toml, section, key, value)?;
    }
    let dir = tempfile::tempdir().map_err(|e| format!("tempdir: {e}"))?;
    let cfg = Config::parse(&toml, Path::new("bare.toml"), dir.path())
        .map_err(|e| format!("config: {e}"))?;
    let store = Store::open(&dir.path().join("bare.db")).map_err(|e| format!("store: {e}"))?;
    let (cpu0, web0) = cpu_seconds("simweb");
    let t0 = Instant::now();
    let summary = crawl_rt
        .block_on(crawl::run(
            &cfg,
            AnyStore::from(store),
            CrawlOptions::default(),
            std::future::pending(),
        ))
        .map_err(|e| format!("crawl: {e}"))?;
    let wall = t0.elapsed().as_secs_f64();
    let (cpu1, web1) = cpu_seconds("simweb");
    let cpu = (cpu1 - cpu0) - (web1 - web0);
    web_rt.block_on(web.shutdown());
    let pages = summary.pages_fetched;
    println!(
        "{SITES}x{ARTICLES}-bare-web {:<8} pages {pages:>5} (not articles {:>5})  articles {:>5}/{}  \
         wall {wall:>6.2} s  cpu crawl {cpu:>6.2} s ({:.2} ms/page)  errors {}",
        label(patterns),
        summary.pages_not_articles,
        summary.articles_stored,
        SITES * ARTICLES,
        1000.0 * cpu / pages.max(1) as f64,
        summary.error_total(),
    );
    println!("{PREFIX} {pages} {} {wall} {cpu}", summary.articles_stored);
    Ok(())
}

/// (pages, articles, wall s, cpu s) of one child run.
fn spawn(patterns: bool) -> Result<(f64, f64, f64, f64), String> {
    let exe = std::env::current_exe().map_err(|e| format!("current_exe: {e}"))?;
    let out = std::process::Command::new(exe)
        .args(["--bare-case", label(patterns)])
        .output()
        .map_err(|e| format!("spawning the {} case: {e}", label(patterns)))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let mut record = None;
    for line in stdout.lines() {
        match line.strip_prefix(PREFIX) {
            Some(rest) => {
                let f: Vec<f64> = rest
                    .split_whitespace()
                    .filter_map(|v| v.parse().ok())
                    .collect();
                if let [p, a, w, c] = f[..] {
                    record = Some((p, a, w, c));
                }
            }
            None => println!("{line}"),
        }
    }
    if !out.status.success() {
        return Err(format!(
            "the {} case failed ({}): {}",
            label(patterns),
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    record.ok_or_else(|| format!("the {} case printed no record", label(patterns)))
}

/// `reps` runs of each, alternating; prints the medians and the ratios.
pub fn compare(reps: usize) -> Result<(), String> {
    let (mut with, mut without) = (Vec::new(), Vec::new());
    for _ in 0..reps {
        with.push(spawn(true)?);
        without.push(spawn(false)?);
    }
    let per_page = |runs: &[(f64, f64, f64, f64)]| {
        median(runs.iter().map(|r| 1000.0 * r.3 / r.0.max(1.0)).collect())
    };
    let per_article = |runs: &[(f64, f64, f64, f64)]| {
        median(runs.iter().map(|r| 1000.0 * r.3 / r.1.max(1.0)).collect())
    };
    let (pp, pb) = (per_page(&with), per_page(&without));
    let (ap, ab) = (per_article(&with), per_article(&without));
    println!(
        "  median {SITES}x{ARTICLES}-bare-web: CPU per page patterns {pp:.2} ms, bare {pb:.2} ms \
         = {:.2}x (judging costs {:+.0} %); CPU per stored article patterns {ap:.2} ms, bare {ab:.2} ms \
         = {:.2}x",
        pb / pp.max(1e-9),
        100.0 * (pb / pp.max(1e-9) - 1.0),
        ab / ap.max(1e-9),
    );
    Ok(())
}
