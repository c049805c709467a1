//! Showing a running crawl.
//!
//! In: the run's [`Counters`] and the scheduler's queue sizes, as often as
//! the scheduler likes. Out: an indicatif spinner line on a terminal, or a
//! plain status line through `tracing` every [`LOG_EVERY`] otherwise (the
//! periodic status line of `crawl --continuous`).

use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

use super::summary::Counters;

/// Interval of plain status lines.
pub const LOG_EVERY: Duration = Duration::from_secs(10);
/// Interval of progress-line redraws on a terminal.
const DRAW_EVERY: Duration = Duration::from_millis(100);

pub struct Progress {
    bar: Option<ProgressBar>,
    started: Instant,
    /// Last redraw or status line.
    last_log: Instant,
}

impl Progress {
    pub fn new(bar: bool) -> Progress {
        let bar = bar.then(|| {
            let pb = ProgressBar::new_spinner();
            if let Ok(style) = ProgressStyle::with_template("{spinner} [{elapsed_precise}] {msg}") {
                pb.set_style(style);
            }
            pb.enable_steady_tick(Duration::from_millis(200));
            pb
        });
        let now = Instant::now();
        // A bar draws at the first turn; plain log lines start after the
        // first interval (a line of zeros at start-up tells nothing).
        let last_log = match bar {
            Some(_) => now.checked_sub(LOG_EVERY).unwrap_or(now),
            None => now,
        };
        Progress {
            bar,
            started: now,
            last_log,
        }
    }

    /// Called on every scheduler turn; redraws at most every 100 ms.
    pub fn update(&mut self, c: &Counters, running: usize, queued: usize) {
        let every = if self.bar.is_some() {
            DRAW_EVERY
        } else {
            LOG_EVERY
        };
        if self.last_log.elapsed() < every {
            return;
        }
        self.last_log = Instant::now();
        let line = status_line(c, running, queued);
        match &self.bar {
            Some(bar) => bar.set_message(line),
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

pub fn status_line(c: &Counters, running: usize, queued: usize) -> String {
    format!(
        "fetched {} · articles {} · duplicates {} · errors {} · in flight {running} · claimed {queued}",
        Counters::get(&c.pages_fetched),
        Counters::get(&c.articles_stored),
        Counters::get(&c.duplicates),
        c.error_total(),
    )
}
