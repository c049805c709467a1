//! What the crawl bench measures of its own process, apart from the crawl:
//! CPU time (whole process, named threads, the calling thread), RSS fields,
//! the database's size on disk, and extraction alone over the same pages
//! (child processes are measured by `child.rs`, shared with the import
//! bench).
//!
//! In: `/proc/self` and `/proc/thread-self`, a database directory, a running
//! [`SimWeb`] and the crawl's [`Config`]. Out: seconds, kB, bytes, and
//! (pages, CPU seconds) of extraction alone.

use std::path::Path;

use newshound::config::Config;
use newshound::extract::{ExtractOptions, Extractor, Page};
use newshound::simweb::SimWeb;

pub use super::child::{extract_dir_jsonl, newshound_exe, ChildUsage};

/// A `/proc/self/status` field in kB (`VmHWM`, `VmRSS`).
pub fn status_kb(field: &str) -> Option<u64> {
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
pub fn cpu_seconds(prefix: &str) -> (f64, f64) {
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

/// CPU seconds of the calling thread (utime + stime).
pub fn thread_cpu() -> f64 {
    std::fs::read_to_string("/proc/thread-self/stat")
        .ok()
        .and_then(|s| stat_cpu(&s))
        .map_or(0.0, |(_, c)| c)
}

/// Article pages extracted alone, at most (an even sample of the web's).
const EXTRACT_SAMPLE: usize = 600;
/// Pages rendered before a timed extraction batch (rendering is not timed;
/// batches keep the thread CPU clock's 10 ms ticks small against the batch).
const EXTRACT_BATCH: usize = 100;

/// An even sample of at most [`EXTRACT_SAMPLE`] of the web's article pages.
fn sample_urls(web: &SimWeb) -> Vec<&url::Url> {
    let urls: Vec<&url::Url> = web
        .sites()
        .iter()
        .flat_map(|s| s.article_urls.iter())
        .collect();
    let stride = urls.len().div_ceil(EXTRACT_SAMPLE).max(1);
    urls.into_iter().step_by(stride).collect()
}

/// The sample of [`extract_only`] written as files into `dir` and
/// extracted by the binary, `extract DIR --jsonl --jobs 2` and `--jobs 1`:
/// (pages, usage with 2 jobs, usage with 1).
pub fn extract_refs(web: &SimWeb, dir: &Path) -> Result<(u64, ChildUsage, ChildUsage), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut pages = 0;
    for (i, url) in sample_urls(web).into_iter().enumerate() {
        if let Some(html) = web.page_html(url) {
            std::fs::write(dir.join(format!("{i:04}.html")), html).map_err(|e| e.to_string())?;
            pages += 1;
        }
    }
    let exe = newshound_exe();
    let jobs2 = extract_dir_jsonl(&exe, dir, 2)?;
    let jobs1 = extract_dir_jsonl(&exe, dir, 1)?;
    Ok((pages, jobs2, jobs1))
}

/// Extraction alone on this thread, as `extract --jsonl --jobs 1` does it
/// (charset decoding + extraction with metadata), over an even sample of
/// the web's article pages with the crawl's extraction options: (pages, CPU s).
pub fn extract_only(web: &SimWeb, cfg: &Config) -> (u64, f64) {
    let sample = sample_urls(web);
    let extractor = Extractor::new(ExtractOptions {
        algorithm: cfg.extract.algorithm,
        timezone: cfg.extract.timezone,
        comments: cfg.extract.comments,
        ..ExtractOptions::default()
    });
    let (mut pages, mut cpu, mut words) = (0u64, 0.0, 0usize);
    for chunk in sample.chunks(EXTRACT_BATCH) {
        let batch: Vec<(&url::Url, String)> = chunk
            .iter()
            .filter_map(|u| Some((*u, web.page_html(u)?)))
            .collect();
        let t0 = thread_cpu();
        for (url, html) in &batch {
            let page =
                Page::from_bytes(html.as_bytes(), Some("text/html; charset=utf-8")).url(*url);
            let a = extractor.extract(page).article;
            words += a.text.len();
        }
        cpu += thread_cpu() - t0;
        pages += batch.len() as u64;
    }
    // Keeps the extraction from being optimised away.
    std::hint::black_box(words);
    (pages, cpu)
}

/// Bytes of the database and its WAL/SHM files.
pub fn db_size(dir: &Path) -> u64 {
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
