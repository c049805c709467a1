//! Showing a running import: on a terminal, a bar of the current file's
//! bytes with the files done and the pages per second; elsewhere, a plain
//! status line every [`LOG_EVERY`].
//!
//! In: the file being read (its place in the list, its size, where reading
//! starts), then where reading is and the run's counts, as often as pages
//! come. Out: the bar redrawn at most every [`DRAW_EVERY`], or a log line.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

use super::sources::Source;
use super::summary::Tallies;
use crate::crawl::Counters;

/// Interval of plain status lines.
pub const LOG_EVERY: Duration = Duration::from_secs(10);
/// Interval of bar redraws.
const DRAW_EVERY: Duration = Duration::from_millis(100);

pub struct Progress {
    bar: Option<ProgressBar>,
    started: Instant,
    last: Mutex<Instant>,
    files: usize,
    /// The file being read (1-based).
    file: AtomicUsize,
}

impl Progress {
    pub fn new(show_bar: bool, files: usize) -> Progress {
        let bar = show_bar.then(|| {
            let bar = ProgressBar::new(0);
            let template = "{spinner} [{elapsed_precise}] {bar:30} {bytes}/{total_bytes} {msg}";
            if let Ok(style) = ProgressStyle::with_template(template) {
                bar.set_style(style);
            }
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        });
        let now = Instant::now();
        Progress {
            bar,
            started: now,
            last: Mutex::new(now),
            files,
            file: AtomicUsize::new(0),
        }
    }

    /// A file begins (its size when known; reading starts at `at`).
    pub fn start_file(&self, source: &Source, size: Option<u64>, at: u64) {
        let n = self.file.fetch_add(1, Ordering::Relaxed) + 1;
        match &self.bar {
            Some(bar) => {
                bar.set_length(size.unwrap_or(0));
                bar.set_position(at);
            }
            None => tracing::info!("file {n}/{}: {}", self.files, source.key()),
        }
    }

    /// Reading is at byte `at` of the current file.
    pub fn update(&self, at: u64, tallies: &Tallies, counters: &Counters) {
        let every = if self.bar.is_some() {
            DRAW_EVERY
        } else {
            LOG_EVERY
        };
        {
            let Ok(mut last) = self.last.lock() else {
                return;
            };
            if last.elapsed() < every {
                return;
            }
            *last = Instant::now();
        }
        let pages = Tallies::get(&tallies.pages);
        let rate = pages as f64 / self.started.elapsed().as_secs_f64().max(1e-3);
        let line = format!(
            "file {}/{} · records {} · pages {pages} ({rate:.0}/s) · articles {}",
            self.file.load(Ordering::Relaxed),
            self.files,
            Tallies::get(&tallies.records),
            Counters::get(&counters.articles_stored),
        );
        match &self.bar {
            Some(bar) => {
                bar.set_position(at);
                bar.set_message(line);
            }
            None => {
                let secs = self.started.elapsed().as_secs();
                tracing::info!("[{secs} s] {line}");
            }
        }
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
