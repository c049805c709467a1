//! The real-pages case: the corpus's saved news pages (`tests/corpus`, every
//! set) served as 36 sites by [`RealWeb`] in this process, crawled by the
//! `newshound crawl` binary (concurrency 64, politeness lifted, learning
//! on), against `newshound extract DIR --jsonl --jobs 2` and `--jobs 1` of
//! the same pages written as files, in the same run, interleaved.
//!
//! Every figure is a child process's own (`wait4`: CPU user + system, peak
//! RSS), so the web's CPU and memory are not in them. CPU per article page
//! divides all of the crawl's CPU (index pages, robots.txt, storing,
//! learning, the closing re-clean) by the article pages it fetched; the
//! goal's ratio is that against `--jobs 2` (both cores busy, as in the
//! crawl), `--jobs 1` is printed beside it.

use std::path::{Path, PathBuf};

use newshound::simweb::real::{RealPage, RealSpec, RealWeb};

use super::child::{run_on_new_db, summary_number};
use super::measure::{extract_dir_jsonl, newshound_exe as exe, ChildUsage};
use super::{median, runtime};

/// Every set of the corpus.
const SETS: [&str; 6] = [
    "page-signal-dev",
    "readability-dev",
    "trafilatura-dev",
    "cleanportaleval",
    "cleaneval-dev",
    "zh-dev",
];
const CONCURRENCY: usize = 64;

/// The corpus unpacked under `target/corpus`, as the tests and `eval` do.
fn corpus() -> Result<PathBuf, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    newshound::corpus_archive::unpacked(&root.join("tests/corpus"), &root.join("target/corpus"))
        .map_err(|e| format!("corpus: {e}"))
}

/// One crawl's figures.
struct Crawl {
    usage: ChildUsage,
    pages: u64,
    articles: u64,
}

fn crawl_once(web: &RealWeb, dir: &Path) -> Result<Crawl, String> {
    let config = dir.join("real.toml");
    std::fs::write(&config, web.config_toml(CONCURRENCY, true)).map_err(|e| e.to_string())?;
    let (usage, summary) = run_on_new_db(
        &exe(),
        &config,
        &dir.join("real.db"),
        &["crawl".as_ref()],
        dir,
        "crawl.out",
    )?;
    let number = |label| {
        summary_number(&summary, label).ok_or_else(|| format!("no {label:?} in: {summary}"))
    };
    Ok(Crawl {
        usage,
        pages: number("pages fetched:")?,
        articles: number("articles stored:")?,
    })
}

/// Crawl the real-pages web `reps` times, each followed by the two
/// extraction references; print every run and the medians.
pub fn compare(reps: usize) -> Result<(), String> {
    let pages = RealPage::load(&corpus()?, &SETS).map_err(|e| format!("corpus: {e}"))?;
    let dir = tempfile::tempdir().map_err(|e| format!("tempdir: {e}"))?;
    let files = dir.path().join("pages");
    std::fs::create_dir(&files).map_err(|e| e.to_string())?;
    for (i, p) in pages.iter().enumerate() {
        std::fs::write(files.join(format!("{i:04}.html")), &p.bytes).map_err(|e| e.to_string())?;
    }
    let bytes: usize = pages.iter().map(|p| p.bytes.len()).sum();
    let n = pages.len() as f64;
    let web_rt = runtime("simweb")?;
    let web = web_rt
        .block_on(RealWeb::start(pages, &RealSpec::default()))
        .map_err(|e| format!("real web: {e}"))?;
    let index_pages: usize = web.sites().iter().map(|s| s.index_urls.len()).sum();
    println!(
        "real-pages web: {} corpus pages ({:.0} KB mean) as {} sites, {index_pages} index pages; \
         `newshound crawl` at concurrency {CONCURRENCY}, learning on, against \
         `extract DIR --jsonl --jobs 2|1` of the same files",
        n as usize,
        bytes as f64 / n / 1024.0,
        web.sites().len(),
    );
    let (mut per_page, mut ratio2, mut ratio1, mut rate, mut peak) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let (mut ref2, mut ref1) = (Vec::new(), Vec::new());
    for _ in 0..reps {
        let c = crawl_once(&web, dir.path())?;
        let jobs2 = extract_dir_jsonl(&exe(), &files, 2)?;
        let jobs1 = extract_dir_jsonl(&exe(), &files, 1)?;
        let article_pages = c.pages.saturating_sub(index_pages as u64).max(1) as f64;
        let crawl_ms = 1000.0 * c.usage.cpu / article_pages;
        let (ms2, ms1) = (1000.0 * jobs2.cpu / n, 1000.0 * jobs1.cpu / n);
        println!(
            "real-pages bp-on  pages {:>5}  articles {:>5}  wall {:>6.2} s  {:>6.1} article pages/s  \
             cpu {:.2} s = {crawl_ms:.2} ms per article page ({:.2} per page)  peak RSS {:.1} MB  |  \
             extract --jobs 2: {ms2:.2} ms/page, {:.0} pages/s, {:.1} MB  --jobs 1: {ms1:.2} ms/page, \
             {:.0} pages/s  |  crawl/jobs2 {:.2}x  crawl/jobs1 {:.2}x",
            c.pages,
            c.articles,
            c.usage.wall,
            article_pages / c.usage.wall,
            c.usage.cpu,
            1000.0 * c.usage.cpu / c.pages.max(1) as f64,
            c.usage.peak_rss_kb as f64 / 1024.0,
            n / jobs2.wall,
            jobs2.peak_rss_kb as f64 / 1024.0,
            n / jobs1.wall,
            crawl_ms / ms2,
            crawl_ms / ms1,
        );
        per_page.push(crawl_ms);
        ratio2.push(crawl_ms / ms2);
        ratio1.push(crawl_ms / ms1);
        rate.push(article_pages / c.usage.wall);
        peak.push(c.usage.peak_rss_kb as f64 / 1024.0);
        ref2.push(ms2);
        ref1.push(ms1);
    }
    println!(
        "  median real-pages bp-on: {:.0} article pages/s, CPU per article page crawl {:.2} ms | \
         extract --jsonl --jobs 2 {:.2} ms | --jobs 1 {:.2} ms; ratio to --jobs 2 (the goal's \
         reference, goal <= 1.25x) {:.2}x, to --jobs 1 {:.2}x; peak RSS {:.1} MB",
        median(rate),
        median(per_page),
        median(ref2),
        median(ref1),
        median(ratio2),
        median(ratio1),
        median(peak),
    );
    web_rt.block_on(web.shutdown());
    Ok(())
}
