//! Run counters and the end-of-run summary.
//!
//! In: events counted by the workers and the store writer while a crawl runs
//! ([`Counters`], shared by the run's tasks through an `Arc`), and what
//! waits or failed in the frontier at the end ([`Outlook`]). Out: a
//! [`CrawlSummary`] with a multi-line human `Display`: totals, each site's
//! report ([`site_report`]), what waits and until when, what failed.

mod site_report;
mod text;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use serde::Serialize;

use super::kinds::{CapKind, ErrorKind, SkipKind};
use crate::store::Outlook;
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
    /// Links of fetched pages not followed: other sites, traps.
    pub links_outside: AtomicU64,
    pub pages_not_articles: AtomicU64,
    /// Judged pages queued again to be judged on new evidence.
    pub pages_rejudged: AtomicU64,
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
            links_outside: Self::get(&self.links_outside),
            pages_not_articles: Self::get(&self.pages_not_articles),
            pages_rejudged: Self::get(&self.pages_rejudged),
            errors: self.errors(),
            skipped: self.skipped(),
            caps: self.caps.lock().unwrap_or_else(|p| p.into_inner()).clone(),
            sites: self.sites.reports(),
            requeued: 0,
            waits_lifted: 0,
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
    /// Links to the sites' own pages handed to the frontier, counted each
    /// time found (the frontier keeps each URL once).
    pub urls_discovered: u64,
    /// Links of fetched pages not followed: on other sites, or traps.
    pub links_outside: u64,
    /// HTML pages judged not to be articles (by the page judgement, or by
    /// the site's patterns): section fronts, tags, about pages…
    pub pages_not_articles: u64,
    /// Pages judged not articles for want of evidence, queued again when
    /// it came (a feed listed them, their shape was learned).
    pub pages_rejudged: u64,
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
    /// Waiting URLs made due at the start (`--retry-failed`, or a site
    /// with nothing else due).
    pub waits_lifted: u64,
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

impl CrawlSummary {
    /// Hints: for sites whose patterns matched nothing (see
    /// `SiteReport::hint`), and for sites known by their address that
    /// stored (nearly) nothing (see `SiteReport::stored_nothing`).
    pub fn hints(&self) -> Vec<String> {
        (self.sites.iter())
            .filter_map(|(name, r)| {
                let stored = self.outlook.stored.get(name).copied();
                r.hint(name)
                    .or_else(|| r.stored_nothing(name, stored.unwrap_or(r.articles_stored)))
            })
            .collect()
    }

    /// Why a run that fetched nothing while URLs of its sites wait failed
    /// (`None` when something was fetched, or nothing waits): the waits it
    /// could not lift, by reason, and until when.
    pub fn stalled(&self) -> Option<String> {
        if self.pages_fetched > 0 || self.outlook.waiting.is_empty() {
            return None;
        }
        let waits: Vec<String> = (self.outlook.waiting.iter())
            .map(|r| {
                let until = r.until.map(text::utc).unwrap_or_default();
                format!("{} {} of {} until {until}", r.urls, r.reason, r.site)
            })
            .collect();
        Some(format!(
            "nothing was fetched: every URL due waits ({}); `newshound crawl --retry-failed` \
             tries them now",
            waits.join("; ")
        ))
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
    fn regression_urls_discovered_115_with_16_stored_read_as_a_fault() {
        let c = Counters::default();
        Counters::add(&c.urls_discovered, 115);
        Counters::add(&c.articles_stored, 16);
        Counters::add(&c.pages_not_articles, 52);
        Counters::add(&c.links_outside, 42);
        let mut s = c.summary(Duration::from_secs(1));
        s.outlook.queued.insert("a".into(), 7);
        let text = s.to_string();
        assert!(
            text.contains(
                "URLs discovered:  115 links to the sites' pages, counted each time found: \
                 16 stored as articles, 52 pages not articles, 7 URLs queued for later"
            ),
            "{text}"
        );
        assert!(
            text.contains("not followed:     42 links outside the sites (other hosts, traps)"),
            "{text}"
        );
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
