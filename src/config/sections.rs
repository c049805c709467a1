//! The `[crawler]`, `[politeness]`, `[fetch]` and `[serve]` sections: their raw form as
//! written in crawler.toml, the range every number must be in, and the
//! checked form the crawler runs on (`*_secs` become [`Duration`]s here, at
//! load time, so no later stage converts seconds or can panic on them).
//!
//! In: the raw sections. Out: [`CrawlerConfig`], [`PolitenessConfig`],
//! [`FetchConfig`], [`ServeConfig`], or `(field, message)` naming the first number out of its
//! range. The ranges are documented in docs/configuration.md.

use std::path::PathBuf;
use std::time::Duration;

use serde::Deserialize;

use crate::urls::TrailingSlash;

/// One day: the longest pause, delay or timeout a section may ask for.
const DAY_SECS: f64 = 86_400.0;
/// One year: the longest revisit or refetch interval.
const YEAR_SECS: f64 = 365.0 * DAY_SECS;
/// The lowest and highest request rates (per second) a host may be given.
const MIN_RATE: f64 = 0.001;
const MAX_RATE: f64 = 10_000.0;
/// Most pages fetched at once (over all hosts, or from one host).
const MAX_CONCURRENCY: usize = 1024;
/// Largest body read into memory.
const MAX_BODY_BYTES: u64 = 1 << 30;
/// Most body bytes held at once over all fetches (`max_bytes_in_flight`).
const MAX_BYTES_IN_FLIGHT: u64 = 64 << 30;
/// Most links taken from one page.
const MAX_LINKS_PER_PAGE: usize = 1_000_000;
/// Sitemaps one sitemap index may list (the protocol's limit).
pub const MAX_INDEX_ENTRIES: usize = 50_000;
/// Most entries read of one feed or sitemap.
const MAX_ENTRIES_PER_FEED: usize = 1_000_000;
/// Counts stored in SQLite's signed 64-bit integers.
const MAX_COUNT: u64 = i64::MAX as u64;

pub(super) type Invalid = (&'static str, String);

#[derive(Debug, Clone)]
pub struct CrawlerConfig {
    /// Sent with every request; must name the project and a contact URL.
    pub user_agent: String,
    /// Pages fetched at once, over all hosts (1–1024).
    pub concurrency: usize,
    /// SQLite database file, relative to the working directory.
    pub database: PathBuf,
    /// Stop after this many pages fetched in one run (0 = no limit).
    pub max_pages: u64,
    /// Links further than this many hops from a seed are not followed (0–1000).
    pub max_depth: u32,
    /// Per-site page budget over the life of the database (0 = no limit).
    pub max_pages_per_site: u64,
    /// URLs a site's frontier may hold at most (0 = no limit): a trap guard.
    pub max_urls_per_site: u64,
    /// Time between two visits of a feed, sitemap, start or index page
    /// (`crawl --continuous` revisits them on this schedule).
    pub revisit: Duration,
    /// `keep` (default): `/a/` and `/a` are different URLs, as HTTP says;
    /// `strip`: a trailing slash is removed from every path but `/`.
    pub trailing_slash: TrailingSlash,
    /// Fetch each stored article once more this long after its first
    /// fetch, to catch corrections and updates (zero = never).
    pub refetch_articles_after: Duration,
    /// Links taken from one HTML page at most (the first ones, in document
    /// order): a memory bound against link farms (1–1000000).
    pub max_links_per_page: usize,
    /// A site without patterns: links whose URL shape is not learned yet
    /// queued per site and run at most (0 = none): the exploration budget
    /// beside article and index shapes.
    pub explore_per_site: u64,
    /// URLs one site may have queued at once (0 = no cap): links beyond
    /// it are dropped (a site of endless "articles" each linking 50 new
    /// ones queued 194,000 URLs in 90 s).
    pub max_queued_per_site: u64,
    /// Articles one site may store in one run (0 = no cap).
    pub max_articles_per_site: u64,
    /// Sitemaps one sitemap index may queue, the freshest first (by
    /// `lastmod`): each is fetched once a visit, so this bounds a site's
    /// sitemap fetches per visit (an index of 50,000 starved the articles).
    pub max_sitemaps_per_index: usize,
    /// Entries read of one feed or sitemap, the first ones (a larger one,
    /// or one cut at `max_body_bytes`, is read to there): a feed of
    /// 100,000 entries was dropped whole, one of 90,000 queued them all.
    pub max_entries_per_feed: usize,
}

#[derive(Debug, Clone)]
pub struct PolitenessConfig {
    /// Requests per second to one host (a site's `rate` overrides it).
    pub rate_per_host: f64,
    /// Pages fetched at once from one host.
    pub per_host_concurrency: usize,
    /// Obey robots.txt (disallow rules and Crawl-delay).
    pub respect_robots: bool,
    /// Longest Crawl-delay honoured; longer ones are capped.
    pub max_crawl_delay: Duration,
}

#[derive(Debug, Clone)]
pub struct FetchConfig {
    pub connect_timeout: Duration,
    /// Longest pause between two chunks of a body.
    pub read_timeout: Duration,
    /// Longest time for one whole request, body included.
    pub timeout: Duration,
    /// Pages larger than this are cut off and counted as `too_large`; a
    /// feed or sitemap is read up to here (its whole entries before it).
    pub max_body_bytes: u64,
    pub max_redirects: usize,
    /// Attempts after the first for timeouts, resets and 5xx.
    pub retries: u32,
    /// First retry delay; doubles on each attempt.
    pub backoff_base: Duration,
    /// Longest retry delay.
    pub backoff_max: Duration,
    /// Fetch private, loopback and link-local addresses. Off by default; the
    /// simulated web (demo, tests) turns it on.
    pub allow_private_addresses: bool,
    /// Body bytes held at once over all fetches and pages waiting for or in
    /// processing: a fetch reserves `max_body_bytes` before it is sent and
    /// keeps its body's size until processed (`max_body_bytes`–64 GiB).
    pub max_bytes_in_flight: u64,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub(super) struct RawCrawler {
    user_agent: String,
    concurrency: usize,
    database: PathBuf,
    max_pages: u64,
    max_depth: u32,
    max_pages_per_site: u64,
    max_urls_per_site: u64,
    revisit_secs: f64,
    trailing_slash: TrailingSlash,
    refetch_articles_after_secs: f64,
    max_links_per_page: usize,
    explore_per_site: u64,
    max_queued_per_site: u64,
    max_articles_per_site: u64,
    max_sitemaps_per_index: usize,
    max_entries_per_feed: usize,
}

impl Default for RawCrawler {
    fn default() -> Self {
        Self {
            user_agent: "newshound/0.1 (+https://github.com/newshound/newshound)".into(),
            concurrency: 16,
            database: PathBuf::from("newshound.db"),
            max_pages: 0,
            max_depth: 5,
            max_pages_per_site: 0,
            max_urls_per_site: 1_000_000,
            revisit_secs: 3600.0,
            trailing_slash: TrailingSlash::Keep,
            refetch_articles_after_secs: 0.0,
            max_links_per_page: 2_000,
            explore_per_site: 500,
            max_queued_per_site: 50_000,
            max_articles_per_site: 0,
            max_sitemaps_per_index: 500,
            max_entries_per_feed: 50_000,
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub(super) struct RawPoliteness {
    pub(super) rate_per_host: f64,
    per_host_concurrency: usize,
    respect_robots: bool,
    max_crawl_delay_secs: f64,
}

impl Default for RawPoliteness {
    fn default() -> Self {
        Self {
            rate_per_host: 1.0,
            per_host_concurrency: 2,
            respect_robots: true,
            max_crawl_delay_secs: 30.0,
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub(super) struct RawFetch {
    connect_timeout_secs: f64,
    read_timeout_secs: f64,
    timeout_secs: f64,
    max_body_bytes: u64,
    max_redirects: usize,
    retries: u32,
    backoff_base_secs: f64,
    backoff_max_secs: f64,
    allow_private_addresses: bool,
    max_bytes_in_flight: u64,
}

impl Default for RawFetch {
    fn default() -> Self {
        Self {
            connect_timeout_secs: 10.0,
            read_timeout_secs: 20.0,
            timeout_secs: 60.0,
            max_body_bytes: 10 * 1024 * 1024,
            max_redirects: 5,
            retries: 2,
            backoff_base_secs: 2.0,
            backoff_max_secs: 600.0,
            allow_private_addresses: false,
            max_bytes_in_flight: 128 * 1024 * 1024,
        }
    }
}

/// `[serve]`: how the HTTP API bounds its work.
#[derive(Debug, Clone)]
pub struct ServeConfig {
    /// How long one request's queries may run before they are stopped and
    /// the request gets 503 (a search of huge articles held a query slot
    /// for minutes).
    pub query_budget: Duration,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub(super) struct RawServe {
    query_budget_secs: f64,
}

impl Default for RawServe {
    fn default() -> Self {
        Self {
            query_budget_secs: 10.0,
        }
    }
}

impl RawServe {
    pub(super) fn check(self) -> Result<ServeConfig, Invalid> {
        Ok(ServeConfig {
            query_budget: positive_secs(
                "serve.query_budget_secs",
                self.query_budget_secs,
                DAY_SECS,
            )?,
        })
    }
}

impl Default for ServeConfig {
    fn default() -> Self {
        RawServe::default()
            .check()
            .expect("the documented defaults are in range")
    }
}

impl RawCrawler {
    pub(super) fn check(self) -> Result<CrawlerConfig, Invalid> {
        if self.user_agent.trim().is_empty() {
            return Err(("crawler.user_agent", "must not be empty".into()));
        }
        // Sent as a header: a line break or any other character a header
        // cannot hold failed the first request with "builder error".
        if let Some(c) = self
            .user_agent
            .chars()
            .find(|c| *c != '\t' && !(' '..='~').contains(c))
        {
            return Err((
                "crawler.user_agent",
                format!(
                    "must be one line of printable ASCII characters (it is sent as the \
                     User-Agent header); found {}",
                    c.escape_unicode()
                ),
            ));
        }
        if self.database.as_os_str().is_empty() {
            return Err(("crawler.database", "must not be empty".into()));
        }
        Ok(CrawlerConfig {
            concurrency: count("crawler.concurrency", self.concurrency, 1, MAX_CONCURRENCY)?,
            max_pages: at_most("crawler.max_pages", self.max_pages, MAX_COUNT)?,
            max_depth: at_most("crawler.max_depth", self.max_depth, 1000)?,
            max_pages_per_site: at_most(
                "crawler.max_pages_per_site",
                self.max_pages_per_site,
                MAX_COUNT,
            )?,
            max_urls_per_site: at_most(
                "crawler.max_urls_per_site",
                self.max_urls_per_site,
                MAX_COUNT,
            )?,
            revisit: positive_secs("crawler.revisit_secs", self.revisit_secs, YEAR_SECS)?,
            refetch_articles_after: secs(
                "crawler.refetch_articles_after_secs",
                self.refetch_articles_after_secs,
                YEAR_SECS,
            )?,
            max_links_per_page: count(
                "crawler.max_links_per_page",
                self.max_links_per_page,
                1,
                MAX_LINKS_PER_PAGE,
            )?,
            explore_per_site: at_most(
                "crawler.explore_per_site",
                self.explore_per_site,
                MAX_COUNT,
            )?,
            max_queued_per_site: at_most(
                "crawler.max_queued_per_site",
                self.max_queued_per_site,
                MAX_COUNT,
            )?,
            max_articles_per_site: at_most(
                "crawler.max_articles_per_site",
                self.max_articles_per_site,
                MAX_COUNT,
            )?,
            max_sitemaps_per_index: count(
                "crawler.max_sitemaps_per_index",
                self.max_sitemaps_per_index,
                1,
                MAX_INDEX_ENTRIES,
            )?,
            max_entries_per_feed: count(
                "crawler.max_entries_per_feed",
                self.max_entries_per_feed,
                1,
                MAX_ENTRIES_PER_FEED,
            )?,
            user_agent: self.user_agent,
            database: self.database,
            trailing_slash: self.trailing_slash,
        })
    }
}

impl RawPoliteness {
    pub(super) fn check(self) -> Result<PolitenessConfig, Invalid> {
        Ok(PolitenessConfig {
            rate_per_host: check_rate(self.rate_per_host)
                .map_err(|m| ("politeness.rate_per_host", m))?,
            per_host_concurrency: count(
                "politeness.per_host_concurrency",
                self.per_host_concurrency,
                1,
                MAX_CONCURRENCY,
            )?,
            respect_robots: self.respect_robots,
            max_crawl_delay: secs(
                "politeness.max_crawl_delay_secs",
                self.max_crawl_delay_secs,
                DAY_SECS,
            )?,
        })
    }
}

impl RawFetch {
    pub(super) fn check(self) -> Result<FetchConfig, Invalid> {
        Ok(FetchConfig {
            connect_timeout: positive_secs(
                "fetch.connect_timeout_secs",
                self.connect_timeout_secs,
                DAY_SECS,
            )?,
            read_timeout: positive_secs(
                "fetch.read_timeout_secs",
                self.read_timeout_secs,
                DAY_SECS,
            )?,
            timeout: positive_secs("fetch.timeout_secs", self.timeout_secs, DAY_SECS)?,
            max_body_bytes: count(
                "fetch.max_body_bytes",
                self.max_body_bytes,
                1,
                MAX_BODY_BYTES,
            )?,
            max_redirects: at_most("fetch.max_redirects", self.max_redirects, 100)?,
            retries: at_most("fetch.retries", self.retries, 100)?,
            backoff_base: secs("fetch.backoff_base_secs", self.backoff_base_secs, DAY_SECS)?,
            backoff_max: secs("fetch.backoff_max_secs", self.backoff_max_secs, DAY_SECS)?,
            allow_private_addresses: self.allow_private_addresses,
            max_bytes_in_flight: count(
                "fetch.max_bytes_in_flight",
                self.max_bytes_in_flight,
                self.max_body_bytes,
                MAX_BYTES_IN_FLIGHT,
            )?,
        })
    }
}

impl Default for CrawlerConfig {
    fn default() -> Self {
        RawCrawler::default()
            .check()
            .expect("the documented defaults are in range")
    }
}

impl Default for PolitenessConfig {
    fn default() -> Self {
        RawPoliteness::default()
            .check()
            .expect("the documented defaults are in range")
    }
}

impl Default for FetchConfig {
    fn default() -> Self {
        RawFetch::default()
            .check()
            .expect("the documented defaults are in range")
    }
}

/// An integer in `min..=max`.
fn count<T>(field: &'static str, v: T, min: T, max: T) -> Result<T, Invalid>
where
    T: PartialOrd + std::fmt::Display + Copy,
{
    if v < min {
        return Err((field, format!("must be at least {min} (got {v})")));
    }
    at_most(field, v, max)
}

fn at_most<T>(field: &'static str, v: T, max: T) -> Result<T, Invalid>
where
    T: PartialOrd + std::fmt::Display + Copy,
{
    if v > max {
        return Err((field, format!("must be at most {max} (got {v})")));
    }
    Ok(v)
}

/// Seconds in `(0, max]`, as a Duration.
fn positive_secs(field: &'static str, v: f64, max: f64) -> Result<Duration, Invalid> {
    if !(v.is_finite() && v > 0.0) {
        return Err((field, format!("must be > 0 (got {})", shown(v))));
    }
    secs(field, v, max)
}

/// Seconds in `[0, max]`, as a Duration.
fn secs(field: &'static str, v: f64, max: f64) -> Result<Duration, Invalid> {
    if !(v.is_finite() && v >= 0.0) {
        return Err((field, format!("must be >= 0 (got {})", shown(v))));
    }
    if v > max {
        return Err((
            field,
            format!("must be at most {max} seconds (got {})", shown(v)),
        ));
    }
    Ok(Duration::from_secs_f64(v))
}

/// Requests per second in `[MIN_RATE, MAX_RATE]` (`rate_per_host` and a
/// site's `rate`); the error is the message.
pub(super) fn check_rate(v: f64) -> Result<f64, String> {
    if !(v.is_finite() && v > 0.0) {
        return Err(format!("must be > 0 (got {})", shown(v)));
    }
    if v < MIN_RATE {
        return Err(format!("must be at least {MIN_RATE} (got {})", shown(v)));
    }
    if v > MAX_RATE {
        return Err(format!("must be at most {MAX_RATE} (got {})", shown(v)));
    }
    Ok(v)
}

/// A number as the user can recognise it: `1e300`, not 301 digits.
fn shown(v: f64) -> String {
    if v != 0.0 && v.is_finite() && !(1e-6..1e15).contains(&v.abs()) {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}
