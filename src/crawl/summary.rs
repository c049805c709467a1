//! Run counters and the end-of-run summary.
//!
//! In: events counted by the workers and the store writer while a crawl runs
//! ([`Counters`], shared by the run's tasks through an `Arc`). Out: a
//! [`CrawlSummary`] with a multi-line human `Display`.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use serde::Serialize;

use super::kinds::{ErrorKind, SkipKind};

fn bump(map: &Mutex<BTreeMap<String, u64>>, kind: &str) {
    let mut map = map.lock().unwrap_or_else(|p| p.into_inner());
    *map.entry(kind.to_string()).or_default() += 1;
}

/// Live counts of one run.
#[derive(Debug, Default)]
pub struct Counters {
    pub pages_fetched: AtomicU64,
    pub not_modified: AtomicU64,
    pub articles_stored: AtomicU64,
    pub duplicates: AtomicU64,
    pub articles_updated: AtomicU64,
    pub lines_dropped: AtomicU64,
    pub urls_discovered: AtomicU64,
    errors: Mutex<BTreeMap<String, u64>>,
    skipped: Mutex<BTreeMap<String, u64>>,
}

impl Counters {
    pub fn add(counter: &AtomicU64, n: u64) {
        counter.fetch_add(n, Ordering::Relaxed);
    }

    pub fn get(counter: &AtomicU64) -> u64 {
        counter.load(Ordering::Relaxed)
    }

    /// A failure (fetch, parse, store) of one URL.
    pub fn error(&self, kind: ErrorKind) {
        bump(&self.errors, kind.as_str());
    }

    /// A URL not fetched on purpose (robots.txt, budget, parked host).
    pub fn skip(&self, kind: SkipKind) {
        bump(&self.skipped, kind.as_str());
    }

    pub fn errors(&self) -> BTreeMap<String, u64> {
        self.errors
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    pub fn skipped(&self) -> BTreeMap<String, u64> {
        self.skipped
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    pub fn error_total(&self) -> u64 {
        self.errors
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .values()
            .sum()
    }

    pub fn summary(&self, elapsed: Duration) -> CrawlSummary {
        CrawlSummary {
            pages_fetched: Self::get(&self.pages_fetched),
            not_modified: Self::get(&self.not_modified),
            articles_stored: Self::get(&self.articles_stored),
            duplicates: Self::get(&self.duplicates),
            articles_updated: Self::get(&self.articles_updated),
            lines_dropped: Self::get(&self.lines_dropped),
            articles_recleaned: 0,
            urls_discovered: Self::get(&self.urls_discovered),
            errors: self.errors(),
            skipped: self.skipped(),
            elapsed,
        }
    }
}

/// What one crawl run did.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct CrawlSummary {
    /// Pages, feeds and sitemaps fetched successfully (including 304s).
    pub pages_fetched: u64,
    /// Of those, conditional GETs answered 304 Not Modified.
    pub not_modified: u64,
    pub articles_stored: u64,
    /// Articles whose body was already stored (recorded against the first).
    pub duplicates: u64,
    /// Stored articles whose body had changed when refetched
    /// (`refetch_articles_after_secs`).
    pub articles_updated: u64,
    /// Boilerplate lines removed from stored articles.
    pub lines_dropped: u64,
    /// Stored articles whose text changed when cleaned again at the end.
    pub articles_recleaned: u64,
    /// New URLs handed to the frontier (before its dedup).
    pub urls_discovered: u64,
    /// Failures by kind (`timeout`, `http_5xx`, `too_large`...).
    pub errors: BTreeMap<String, u64>,
    /// URLs not fetched on purpose, by reason (`robots_disallowed`,
    /// `robots_unavailable`, `site_budget`, `host_parked`).
    pub skipped: BTreeMap<String, u64>,
    pub elapsed: Duration,
}

impl CrawlSummary {
    pub fn error_total(&self) -> u64 {
        self.errors.values().sum()
    }
}

impl fmt::Display for CrawlSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secs = self.elapsed.as_secs_f64();
        let rate = if secs > 0.0 {
            self.pages_fetched as f64 / secs
        } else {
            0.0
        };
        writeln!(f, "crawl finished in {secs:.1} s")?;
        writeln!(
            f,
            "  pages fetched:    {} ({rate:.1}/s, {} not modified)",
            self.pages_fetched, self.not_modified
        )?;
        writeln!(f, "  articles stored:  {}", self.articles_stored)?;
        writeln!(f, "  duplicates:       {}", self.duplicates)?;
        if self.articles_updated > 0 {
            writeln!(f, "  articles updated: {}", self.articles_updated)?;
        }
        writeln!(f, "  boilerplate lines dropped: {}", self.lines_dropped)?;
        writeln!(f, "  articles re-cleaned: {}", self.articles_recleaned)?;
        writeln!(f, "  URLs discovered:  {}", self.urls_discovered)?;
        if !self.skipped.is_empty() {
            let total: u64 = self.skipped.values().sum();
            writeln!(f, "  skipped:          {total}")?;
            for (kind, n) in &self.skipped {
                writeln!(f, "    {kind:<22} {n}")?;
            }
        }
        if self.errors.is_empty() {
            write!(f, "  errors:           none")
        } else {
            write!(f, "  errors:           {}", self.error_total())?;
            for (kind, n) in &self.errors {
                write!(f, "\n    {kind:<22} {n}")?;
            }
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_lists_errors_by_kind() {
        let c = Counters::default();
        Counters::add(&c.pages_fetched, 10);
        Counters::add(&c.articles_stored, 7);
        c.error(ErrorKind::Timeout);
        c.error(ErrorKind::Timeout);
        c.error(ErrorKind::Http5xx);
        c.skip(SkipKind::RobotsDisallowed);
        let s = c.summary(Duration::from_secs(2));
        assert_eq!(s.skipped["robots_disallowed"], 1);
        assert_eq!(s.error_total(), 3);
        assert_eq!(s.errors["timeout"], 2);
        let text = s.to_string();
        assert!(text.contains("pages fetched:    10 (5.0/s"), "{text}");
        assert!(text.contains("articles stored:  7"), "{text}");
        assert!(text.contains("timeout"), "{text}");
        assert!(text.contains("skipped:          1"), "{text}");
        assert!(
            text.lines().any(|l| l.trim() == "http_5xx               1"),
            "{text}"
        );
    }
}
