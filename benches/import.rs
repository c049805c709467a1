//! Import throughput and memory on real pages (a plain `harness = false`
//! main).
//!
//! In: the corpus's saved news pages (`tests/corpus`, every set), written
//! once as a WARC file (gzip per record, as Common Crawl writes them) of 36
//! sites — each page a `response` with the `request` and `metadata`
//! records a crawler writes around it, a 404 and an image every fifth page,
//! and a page of a host no site owns every third — and once as files.
//! Out, per round: `newshound import` of the WARC into a new SQLite
//! database, against `newshound extract DIR --jsonl --jobs 2` of the same
//! pages as files (both cores busy in both), each a child process measured
//! by `wait4` (CPU user + system, peak RSS): CPU ms per HTML page of the
//! sites, their ratio (the goal: at most 1.6, the store's work — search
//! index, learning, rows, kept pages — at most 0.6 of extraction's), pages
//! per CPU-second and that against news-please's CC-NEWS path (3.1 pages
//! per CPU-second measured outside this repo; the goal: 150 times that);
//! medians over the rounds.
//!
//! Then the memory case: a 1 GB archive (the pages twice under other URLs,
//! and images to fill it: some on the sites' hosts, read and left out,
//! most on other hosts, skipped unread) imported once; its peak RSS (the
//! goal: at most 200 MB).
//!
//! Run: `cargo bench --bench import [-- real|big]` (`real` or `big` runs
//! only that case); `IMPORT_BENCH_REPS` rounds (default 3).
//! `NEWSHOUND_BIN` measures another build of the binary.
//! `IMPORT_BENCH_DIR=DIR` writes the archive, the pages and the config
//! there and leaves them, for profiling one side alone.

use std::io::Write;
use std::path::{Path, PathBuf};

use newshound::export::warc::{write_record, Record};
use newshound::simweb::real::RealPage;

#[path = "crawl/child.rs"]
mod child;
/// The import tests' record builders (`response`, `other`), so that the
/// bench's archive is written as theirs is; the rest of that module is
/// theirs alone.
#[allow(dead_code)]
#[path = "../tests/crawl/warc_files.rs"]
mod warc_files;

use child::{extract_dir_jsonl, newshound_exe, run_on_new_db, summary_number, ChildUsage};
use warc_files::{other, response};

/// Every set of the corpus.
const SETS: [&str; 6] = [
    "page-signal-dev",
    "readability-dev",
    "trafilatura-dev",
    "cleanportaleval",
    "cleaneval-dev",
    "zh-dev",
];
/// Sites the pages are shared among (as the crawl bench's real-pages web).
const SITES: usize = 36;
/// news-please's pages per CPU-second on CC-NEWS (`NewsPlease.from_warc`
/// on every HTML record, images off: 1,392 real news pages, measured
/// outside this repo).
const NEWS_PLEASE_PAGES_PER_CPU_S: f64 = 3.1;
/// The memory case's archive size.
const BIG_BYTES: u64 = 1 << 30;

fn corpus() -> Result<PathBuf, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    newshound::corpus_archive::unpacked(&root.join("tests/corpus"), &root.join("target/corpus"))
        .map_err(|e| format!("corpus: {e}"))
}

fn site_host(site: usize) -> String {
    format!("site{site:02}.example")
}

/// Incompressible bytes (xorshift), for images.
fn noise_bytes(len: usize, seed: &mut u64) -> Vec<u8> {
    let mut out = Vec::with_capacity(len + 8);
    while out.len() < len {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        out.extend_from_slice(&seed.to_le_bytes());
    }
    out.truncate(len);
    out
}

/// Write the pages of `round` as records, with their noise; returns the
/// HTML pages of the sites written.
fn write_round(
    out: &mut impl Write,
    pages: &[RealPage],
    round: usize,
    seed: &mut u64,
) -> Result<usize, String> {
    let per_site = pages.len().div_ceil(SITES);
    let mut write = |r: &Record| write_record(out, r).map_err(|e| e.to_string());
    for (i, page) in pages.iter().enumerate() {
        let host = site_host(i / per_site);
        let url = format!("https://{host}/story/{round}-{i}.html");
        write(&other(
            "request",
            &url,
            &format!("GET /story/{i}.html HTTP/1.1\r\nHost: {host}\r\n\r\n"),
        ))?;
        write(&response(&url, "text/html", &page.bytes, 200))?;
        write(&other("metadata", &url, "fetchTimeMs: 120\r\n"))?;
        if i % 5 == 0 {
            let missing = format!("https://{host}/gone/{round}-{i}.html");
            write(&response(
                &missing,
                "text/html",
                b"<html>not found</html>",
                404,
            ))?;
            let image = format!("https://{host}/img/{round}-{i}.jpg");
            write(&response(
                &image,
                "image/jpeg",
                &noise_bytes(20_000, seed),
                200,
            ))?;
        }
        if i % 3 == 0 {
            let elsewhere = format!("https://elsewhere{}.example/a/{round}-{i}.html", i % 7);
            write(&response(&elsewhere, "text/html", &page.bytes, 200))?;
        }
    }
    Ok(pages.len())
}

/// The crawl bench's real-pages sites: anchored article patterns.
fn config_toml() -> String {
    let mut t = String::from("[boilerplate]\nenabled = true\n");
    for site in 0..SITES {
        let host = site_host(site);
        let h = host.replace('.', "\\.");
        t.push_str(&format!(
            "\n[[sites]]\nname = \"site{site:02}\"\nstart = [\"https://{host}/\"]\n\
             article_patterns = ['^https://{h}/story/[0-9-]+\\.html$']\n"
        ));
    }
    t
}

fn import(dir: &Path, file: &Path, db: &Path) -> Result<(ChildUsage, String), String> {
    run_on_new_db(
        &newshound_exe(),
        &dir.join("import.toml"),
        db,
        &["import".as_ref(), file.as_os_str()],
        dir,
        "import.out",
    )
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

fn real(dir: &Path, pages: &[RealPage], reps: usize) -> Result<(), String> {
    let file = dir.join("real.warc.gz");
    let mut seed = 2026u64;
    let mut out = std::io::BufWriter::new(std::fs::File::create(&file).map_err(|e| e.to_string())?);
    let html = write_round(&mut out, pages, 0, &mut seed)?;
    out.flush().map_err(|e| e.to_string())?;
    drop(out);
    let files = dir.join("pages");
    std::fs::create_dir_all(&files).map_err(|e| e.to_string())?;
    for (i, p) in pages.iter().enumerate() {
        std::fs::write(files.join(format!("{i:04}.html")), &p.bytes).map_err(|e| e.to_string())?;
    }
    let size = std::fs::metadata(&file).map_or(0, |m| m.len());
    println!(
        "real pages: {html} HTML pages of {SITES} sites in a {:.1} MB WARC with noise records; \
         `newshound import` against `extract DIR --jsonl --jobs 2` of the same pages",
        size as f64 / 1e6
    );
    let (mut per_page, mut ratio, mut rate, mut peak) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for round in 0..reps {
        let (imp, summary) = import(dir, &file, &dir.join("real.db"))?;
        let reference = extract_dir_jsonl(&newshound_exe(), &files, 2)?;
        let pages_seen = summary_number(&summary, "HTML pages:")
            .unwrap_or(html as u64)
            .max(1) as f64;
        let stored = summary_number(&summary, "articles stored:").unwrap_or(0);
        let import_ms = 1000.0 * imp.cpu / pages_seen;
        let extract_ms = 1000.0 * reference.cpu / html as f64;
        println!(
            "  round {round}: import {:.2} s CPU ({import_ms:.2} ms/page, {stored} articles, \
             {:.0} MB peak, {:.1} s wall); extract --jobs 2 {:.2} s CPU ({extract_ms:.2} ms/page); \
             ratio {:.2}x",
            imp.cpu,
            imp.peak_rss_kb as f64 / 1024.0,
            imp.wall,
            reference.cpu,
            import_ms / extract_ms,
        );
        per_page.push(import_ms);
        ratio.push(import_ms / extract_ms);
        rate.push(pages_seen / imp.cpu);
        peak.push(imp.peak_rss_kb as f64 / 1024.0);
    }
    let pages_per_cpu_s = median(rate);
    println!(
        "  median: import {:.2} ms CPU per HTML page, {:.2}x `extract --jsonl --jobs 2` \
         (goal ≤ 1.6); {pages_per_cpu_s:.0} pages per CPU-second = {:.0}x news-please's \
         {NEWS_PLEASE_PAGES_PER_CPU_S} (goal ≥ 150x); peak RSS {:.0} MB",
        median(per_page),
        median(ratio),
        pages_per_cpu_s / NEWS_PLEASE_PAGES_PER_CPU_S,
        median(peak),
    );
    Ok(())
}

fn big(dir: &Path, pages: &[RealPage]) -> Result<(), String> {
    let file = dir.join("big.warc.gz");
    let mut seed = 7u64;
    let mut out = std::io::BufWriter::new(std::fs::File::create(&file).map_err(|e| e.to_string())?);
    let mut html = 0;
    for round in 1..=2 {
        html += write_round(&mut out, pages, round, &mut seed)?;
    }
    out.flush().map_err(|e| e.to_string())?;
    // Images to fill it up to 1 GB: one in ten on a site's host (read,
    // then left out), the others on hosts of no site (skipped unread).
    let mut written = out.get_ref().metadata().map_or(0, |m| m.len());
    let mut n = 0;
    while written < BIG_BYTES {
        let host = if n % 10 == 0 {
            site_host(n % SITES)
        } else {
            format!("cdn{}.example", n % 13)
        };
        let url = format!("https://{host}/img/{n}.jpg");
        let record = response(&url, "image/jpeg", &noise_bytes(1 << 20, &mut seed), 200);
        write_record(&mut out, &record).map_err(|e| e.to_string())?;
        written += (1 << 20) + 600;
        n += 1;
    }
    out.flush().map_err(|e| e.to_string())?;
    drop(out);
    let size = std::fs::metadata(&file).map_or(0, |m| m.len());
    let (usage, summary) = import(dir, &file, &dir.join("big.db"))?;
    let _ = std::fs::remove_file(&file);
    println!(
        "1 GB archive ({:.2} GB: {html} HTML pages of the sites, {n} images of 1 MB): import \
         {:.1} s wall, {:.1} s CPU, peak RSS {:.0} MB (goal ≤ 200 MB); {} records read",
        size as f64 / 1e9,
        usage.wall,
        usage.cpu,
        usage.peak_rss_kb as f64 / 1024.0,
        summary_number(&summary, "records read:").unwrap_or(0),
    );
    // What the import says of the file: read to its end, or why not.
    for line in summary.lines().filter(|l| {
        ["import:", "files to retry", "files failed", "errors:"]
            .iter()
            .any(|p| l.starts_with(p))
    }) {
        println!("  {line}");
    }
    Ok(())
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // `cargo bench` passes `--bench`; anything else names a case.
    let filter: Option<&String> = args.iter().find(|a| !a.starts_with("--"));
    let reps: usize = std::env::var("IMPORT_BENCH_REPS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(3)
        .max(1);
    if let Ok(load) = std::fs::read_to_string("/proc/loadavg") {
        println!("load average at start: {}", load.trim());
    }
    let pages = RealPage::load(&corpus()?, &SETS).map_err(|e| format!("corpus: {e}"))?;
    let temp = tempfile::tempdir().map_err(|e| format!("tempdir: {e}"))?;
    let dir = match std::env::var_os("IMPORT_BENCH_DIR") {
        Some(kept) => PathBuf::from(kept),
        None => temp.path().to_path_buf(),
    };
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    std::fs::write(dir.join("import.toml"), config_toml()).map_err(|e| e.to_string())?;
    if filter.is_none_or(|f| f == "real") {
        real(&dir, &pages, reps)?;
    }
    if filter.is_none_or(|f| f == "big") {
        big(&dir, &pages)?;
    }
    Ok(())
}
