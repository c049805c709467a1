//! Run counters and the end-of-run summary.
//!
//! In: events counted by the workers and the store writer while a crawl runs
//! ([`Counters`], shared by the run's tasks through an `Arc`), and what
//! waits or failed in the frontier at the end ([`Outlook`]). Out: a
//! [`CrawlSummary`] with a multi-line human `Display`: totals, each site's
//! report ([`site_report`]), what waits and until when, what failed.

mod site_report;

use std::collections::BTreeMap;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use serde::Serialize;

use super::kinds::{CapKind, ErrorKind, SkipKind};
use crate::store::{Outlook, OutlookRow};
pub use site_report::{SiteReport, SiteTallies};

fn bump(map: &Mutex<BTreeMap<String, u64>>, kind: &str) {
    let mut map = map.lock().unwrap_or_else(|p| p.into_inner());
    *map.entry(kind.to_string()).or_default() += 1;
}

/// Live counts of one run.
#[derive(Debug, Default)]
pub struct Counters {
    pub pages_fetched: AtomicU64,
    pub pages_completed: AtomicU64,
    pub not_modified: AtomicU64,
    pub articles_stored: AtomicU64,
    pub duplicates: AtomicU64,
    pub near_duplicates: AtomicU64,
    pub articles_updated: AtomicU64,
    pub lines_dropped: AtomicU64,
    pub urls_discovered: AtomicU64,
    pub pages_not_articles: AtomicU64,
    /// Per-site counts.
    pub sites: SiteTallies,
    errors: Mutex<BTreeMap<String, u64>>,
    skipped: Mutex<BTreeMap<String, u64>>,
    caps: Mutex<BTreeMap<String, u64>>,
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

    /// A bound of the configuration reached (something left out).
    pub fn capped(&self, kind: CapKind) {
        self.capped_by(kind, 1);
    }

    /// [`Counters::capped`], `n` times (none: nothing counted).
    pub fn capped_by(&self, kind: CapKind, n: u64) {
        if n > 0 {
            let mut caps = self.caps.lock().unwrap_or_else(|p| p.into_inner());
            *caps.entry(kind.setting().to_string()).or_default() += n;
        }
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
            pages_completed: Self::get(&self.pages_completed),
            not_modified: Self::get(&self.not_modified),
            articles_stored: Self::get(&self.articles_stored),
            duplicates: Self::get(&self.duplicates),
            near_duplicates: Self::get(&self.near_duplicates),
            articles_updated: Self::get(&self.articles_updated),
            lines_dropped: Self::get(&self.lines_dropped),
            articles_recleaned: 0,
            urls_discovered: Self::get(&self.urls_discovered),
            pages_not_articles: Self::get(&self.pages_not_articles),
            errors: self.errors(),
            skipped: self.skipped(),
            caps: self.caps.lock().unwrap_or_else(|p| p.into_inner()).clone(),
            sites: self.sites.reports(),
            requeued: 0,
            outlook: Outlook::default(),
            elapsed,
        }
    }
}

/// What one crawl run did.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct CrawlSummary {
    /// Pages, feeds and sitemaps fetched successfully (including 304s).
    pub pages_fetched: u64,
    /// Pages fetched and handled to the end (processed, their writes sent)
    /// without a panic: a run with none of these and some errors failed.
    pub pages_completed: u64,
    /// Of those, conditional GETs answered 304 Not Modified.
    pub not_modified: u64,
    pub articles_stored: u64,
    /// Articles whose body was already stored (recorded against the first).
    pub duplicates: u64,
    /// Articles that were mostly a stored article's body (a republished copy
    /// with small edits): recorded as versions of it, not learned from.
    pub near_duplicates: u64,
    /// Stored articles whose body had changed when refetched
    /// (`refetch_articles_after_secs`).
    pub articles_updated: u64,
    /// Boilerplate lines removed from stored articles.
    pub lines_dropped: u64,
    /// Stored articles whose text changed when cleaned again at the end.
    pub articles_recleaned: u64,
    /// New URLs handed to the frontier (before its dedup).
    pub urls_discovered: u64,
    /// HTML pages judged not to be articles (by the page judgement, or by
    /// the site's patterns): section fronts, tags, about pages…
    pub pages_not_articles: u64,
    /// Failures by kind (`timeout`, `http_5xx`, `too_large`...).
    pub errors: BTreeMap<String, u64>,
    /// URLs not fetched on purpose, by reason (`robots_disallowed`,
    /// `robots_unavailable`, `site_budget`, `article_budget`, `host_parked`).
    pub skipped: BTreeMap<String, u64>,
    /// Bounds of the configuration the run reached, by setting
    /// (`store.max_text_bytes`), with how often.
    pub caps: BTreeMap<String, u64>,
    /// What the run did for each site it fetched pages of.
    pub sites: BTreeMap<String, SiteReport>,
    /// Failed or refused URLs queued again at the start: refused under
    /// other settings, or all failed ones with `--retry-failed`.
    pub requeued: u64,
    /// What of the crawled sites waits, and what failed, in the frontier.
    pub outlook: Outlook,
    pub elapsed: Duration,
}

impl CrawlSummary {
    pub fn error_total(&self) -> u64 {
        self.errors.values().sum()
    }

    /// Why the run failed as a whole — no page got through while some
    /// failed (every fetch refused, or every fetched page failed on the way)
    /// — or `None`. The reason names what to do when it can: a crawl blocked
    /// by the private-address guard names `allow_private_addresses`.
    pub fn all_failed(&self) -> Option<String> {
        if self.pages_completed > 0 || self.error_total() == 0 {
            return None;
        }
        let kinds: Vec<String> = self
            .errors
            .iter()
            .map(|(kind, n)| format!("{kind} {n}"))
            .collect();
        let kinds = kinds.join(", ");
        let what = if self.pages_fetched == 0 {
            "no page could be fetched"
        } else {
            "every page failed"
        };
        // Kinds that mean a server answered: it is reachable, and refused.
        let answered = [
            ErrorKind::Http429,
            ErrorKind::Http5xx,
            ErrorKind::Http4xx,
            ErrorKind::HttpOther,
        ];
        let only = |kinds: &[ErrorKind]| {
            self.errors
                .keys()
                .all(|k| kinds.iter().any(|kind| kind.as_str() == k))
        };
        let hint = if self.errors.contains_key(ErrorKind::BlockedAddress.as_str()) {
            "the sites are on loopback or private addresses, which are refused unless \
             `allow_private_addresses = true` is set under [fetch]"
        } else if only(&answered) {
            "the servers answered, with errors: 429 is too many requests, 5xx a server \
             failing or refusing; try again later, or more slowly"
        } else if only(&[ErrorKind::RobotsFetch]) {
            "robots.txt could not be fetched, so no page was; the warnings above say why \
             (a 429 or 5xx answer, a timeout or a refused connection); offline, \
             `newshound demo` crawls a simulated news web on 127.0.0.1"
        } else if self.pages_fetched == 0 {
            "is the network reachable? Without one, `newshound demo` crawls a simulated \
             news web on 127.0.0.1"
        } else {
            "see the errors by kind above"
        };
        Some(format!("{what} ({kinds}; {hint})"))
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
        writeln!(f, "  not articles:     {}", self.pages_not_articles)?;
        writeln!(f, "  duplicates:       {}", self.duplicates)?;
        if self.near_duplicates > 0 {
            writeln!(
                f,
                "  near-duplicates:  {} (stored as versions)",
                self.near_duplicates
            )?;
        }
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
        if !self.caps.is_empty() {
            writeln!(f, "  caps reached:")?;
            for (setting, n) in &self.caps {
                let counted = CapKind::ALL
                    .iter()
                    .find(|k| k.setting() == setting)
                    .map_or("times", |k| k.counted());
                writeln!(f, "    {setting:<30} {n} {counted}")?;
            }
        }
        if self.requeued > 0 {
            writeln!(
                f,
                "  queued again:     {} failed or refused URLs",
                self.requeued
            )?;
        }
        if self.errors.is_empty() {
            write!(f, "  errors:           none")?;
        } else {
            write!(f, "  errors:           {}", self.error_total())?;
            for (kind, n) in &self.errors {
                write!(f, "\n    {kind:<22} {n}")?;
            }
        }
        self.fmt_sites(f)?;
        self.fmt_outlook(f)
    }
}

impl CrawlSummary {
    /// Hints for sites whose patterns matched nothing (see
    /// [`SiteReport::hint`]).
    pub fn hints(&self) -> Vec<String> {
        self.sites
            .iter()
            .filter_map(|(name, r)| r.hint(name))
            .collect()
    }

    fn fmt_sites(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.sites.is_empty() {
            return Ok(());
        }
        write!(f, "\n  by site:")?;
        for (name, r) in &self.sites {
            write!(
                f,
                "\n    {name}: {} articles stored, {} pages not articles",
                r.articles_stored, r.pages_not_articles
            )?;
            if r.patterns && r.unmatched_links > 0 {
                let more = if r.unmatched_links as usize >= site_report::UNMATCHED_TRACKED {
                    "at least "
                } else {
                    ""
                };
                write!(
                    f,
                    ", {more}{} links matched no pattern (e.g. {})",
                    r.unmatched_links,
                    r.unmatched_examples.join(", ")
                )?;
            }
            if !r.found_by_probing.is_empty() {
                write!(f, "; found by probing: {}", r.found_by_probing.join(", "))?;
            }
        }
        for hint in self.hints() {
            write!(f, "\n  hint: {hint}")?;
        }
        Ok(())
    }

    fn fmt_outlook(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let total = |rows: &[OutlookRow]| rows.iter().map(|r| r.urls).sum::<u64>();
        if !self.outlook.waiting.is_empty() {
            write!(f, "\n  waiting:          {}", total(&self.outlook.waiting))?;
            for r in &self.outlook.waiting {
                let until = r
                    .until
                    .and_then(crate::store::ms_to_rfc3339)
                    .map(|t| format!(" until {} UTC", t[..t.len().min(19)].replace('T', " ")))
                    .unwrap_or_default();
                write!(f, "\n    {:<22} {:<22} {}{until}", r.site, r.reason, r.urls)?;
            }
        }
        if !self.outlook.failed.is_empty() {
            write!(
                f,
                "\n  failed (all runs): {} (`newshound crawl --retry-failed` queues them again)",
                total(&self.outlook.failed)
            )?;
            for r in &self.outlook.failed {
                write!(f, "\n    {:<22} {:<22} {}", r.site, r.reason, r.urls)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regression_a_crawl_whose_every_fetched_page_panicked_counted_as_a_success() {
        // `revisit_secs = 1e300` once made every page panic after its fetch
        // was counted: pages fetched, nothing completed, exit 0.
        let c = Counters::default();
        Counters::add(&c.pages_fetched, 3);
        for _ in 0..3 {
            c.error(ErrorKind::WorkerPanic);
        }
        let why = c.summary(Duration::from_secs(1)).all_failed();
        assert_eq!(
            why.as_deref(),
            Some("every page failed (worker_panic 3; see the errors by kind above)")
        );
        Counters::add(&c.pages_completed, 1);
        assert_eq!(c.summary(Duration::from_secs(1)).all_failed(), None);
    }

    #[test]
    fn regression_a_crawl_blocked_by_the_address_guard_asked_whether_the_network_was_reachable() {
        let c = Counters::default();
        c.error(ErrorKind::BlockedAddress);
        let why = c
            .summary(Duration::from_secs(1))
            .all_failed()
            .unwrap_or_default();
        assert!(
            why.starts_with("no page could be fetched (blocked_address 1;"),
            "{why}"
        );
        assert!(why.contains("allow_private_addresses"), "{why}");
        assert!(!why.contains("network"), "{why}");
    }

    #[test]
    fn regression_a_crawl_answered_only_with_429_and_503_asked_whether_the_network_was_reachable() {
        let c = Counters::default();
        c.error(ErrorKind::Http429);
        c.error(ErrorKind::Http5xx);
        let why = c
            .summary(Duration::from_secs(1))
            .all_failed()
            .unwrap_or_default();
        assert!(why.contains("the servers answered"), "{why}");
        assert!(!why.contains("network"), "{why}");
        let c = Counters::default();
        c.error(ErrorKind::RobotsFetch);
        let why = c
            .summary(Duration::from_secs(1))
            .all_failed()
            .unwrap_or_default();
        assert!(why.contains("robots.txt could not be fetched"), "{why}");
        assert!(!why.contains("network reachable"), "{why}");
    }

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
