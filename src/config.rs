//! `crawler.toml` → [`Config`].
//!
//! In: the bytes of a TOML file (and the directory it lives in, for seed files).
//! Out: a validated [`Config`], or a [`ConfigError`] naming the file, the field
//! and what is wrong (`crawler.toml: sites[2].rate: must be > 0`).
//!
//! Parsing is split from opening the file so the parser is tested on strings.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;
use url::Url;

use chrono_tz::Tz;

use crate::extract::Algorithm;

/// Why a configuration was rejected. Every variant names the file.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("{path}: cannot read: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: {message}")]
    Syntax { path: PathBuf, message: String },
    #[error("{path}: {field}: {message}")]
    Invalid {
        path: PathBuf,
        field: String,
        message: String,
    },
}

/// The validated configuration the crawler runs on.
#[derive(Debug, Clone)]
pub struct Config {
    /// The file this came from (for messages); `<inline>` for strings.
    pub source: PathBuf,
    pub crawler: CrawlerConfig,
    pub politeness: PolitenessConfig,
    pub fetch: FetchConfig,
    pub extract: ExtractConfig,
    pub boilerplate: BoilerplateConfig,
    pub store: StoreConfig,
    pub sites: Vec<SiteConfig>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CrawlerConfig {
    /// Sent with every request; must name the project and a contact URL.
    pub user_agent: String,
    /// Pages fetched at once, over all hosts.
    pub concurrency: usize,
    /// SQLite database file, relative to the working directory.
    pub database: PathBuf,
    /// Stop after this many pages fetched in one run (0 = no limit).
    pub max_pages: u64,
    /// Links further than this many hops from a seed are not followed.
    pub max_depth: u32,
    /// Per-site page budget over the life of the database (0 = no limit).
    pub max_pages_per_site: u64,
    /// URLs a site's frontier may hold at most (0 = no limit): a trap guard.
    pub max_urls_per_site: u64,
    /// Seconds between two visits of a feed, sitemap, start or index page
    /// (`crawl --continuous` revisits them on this schedule).
    pub revisit_secs: f64,
    /// `keep` (default): `/a/` and `/a` are different URLs, as HTTP says;
    /// `strip`: a trailing slash is removed from every path but `/`.
    pub trailing_slash: TrailingSlash,
    /// Fetch each stored article once more this many seconds after its first
    /// fetch, to catch corrections and updates (0 = never).
    pub refetch_articles_after_secs: f64,
}

/// How URL normalisation treats a trailing slash (`[crawler] trailing_slash`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TrailingSlash {
    #[default]
    Keep,
    Strip,
}

impl Default for CrawlerConfig {
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
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PolitenessConfig {
    /// Requests per second to one host (a site's `rate` overrides it).
    pub rate_per_host: f64,
    /// Pages fetched at once from one host.
    pub per_host_concurrency: usize,
    /// Obey robots.txt (disallow rules and Crawl-delay).
    pub respect_robots: bool,
    /// Longest Crawl-delay honoured, in seconds; longer ones are capped.
    pub max_crawl_delay_secs: f64,
}

impl Default for PolitenessConfig {
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
pub struct FetchConfig {
    pub connect_timeout_secs: f64,
    /// Longest pause between two chunks of a body.
    pub read_timeout_secs: f64,
    /// Longest time for one whole request, body included.
    pub timeout_secs: f64,
    /// Bodies larger than this are cut off and counted as `too_large`.
    pub max_body_bytes: u64,
    pub max_redirects: usize,
    /// Attempts after the first for timeouts, resets and 5xx.
    pub retries: u32,
    /// First retry delay; doubles on each attempt.
    pub backoff_base_secs: f64,
    /// Longest retry delay.
    pub backoff_max_secs: f64,
    /// Fetch private, loopback and link-local addresses. Off by default; the
    /// simulated web (demo, tests) turns it on.
    pub allow_private_addresses: bool,
}

impl Default for FetchConfig {
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
        }
    }
}

impl FetchConfig {
    pub fn connect_timeout(&self) -> Duration {
        Duration::from_secs_f64(self.connect_timeout_secs)
    }
    pub fn read_timeout(&self) -> Duration {
        Duration::from_secs_f64(self.read_timeout_secs)
    }
    pub fn timeout(&self) -> Duration {
        Duration::from_secs_f64(self.timeout_secs)
    }
}

#[derive(Debug, Clone, Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct ExtractConfig {
    /// `td`, `ctd` or `auto` (the default: the best-scoring combination).
    pub algorithm: Algorithm,
    /// IANA time zone (`Europe/Paris`) for dates pages write without an
    /// offset; a site's own `timezone` overrides it. None: read as UTC.
    #[serde(deserialize_with = "time_zone")]
    pub timezone: Option<Tz>,
}

/// An IANA time-zone name, with an error that says what is expected.
pub(crate) fn time_zone<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Tz>, D::Error> {
    let name = String::deserialize(d)?;
    parse_time_zone(&name)
        .map(Some)
        .map_err(serde::de::Error::custom)
}

/// Parse an IANA time-zone name (`Asia/Shanghai`, `UTC`).
pub fn parse_time_zone(name: &str) -> Result<Tz, String> {
    name.trim().parse::<Tz>().map_err(|_| {
        format!("unknown time zone {name:?} (expected an IANA name such as \"Europe/Paris\" or \"Asia/Shanghai\")")
    })
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BoilerplateConfig {
    /// Learn and remove per-site recurring lines.
    pub enabled: bool,
    /// L of the Li & Jiang rule: a line is kept while LC ≤ int(1 + RC / L).
    pub line_window: u64,
    /// Records with LC ≤ RC × prune_ratio are deleted when the table is pruned.
    pub prune_ratio: f64,
    /// Prune a site's table every this many articles.
    pub prune_every: u64,
}

impl Default for BoilerplateConfig {
    fn default() -> Self {
        Self {
            enabled: true,
            line_window: 50,
            prune_ratio: 0.01,
            prune_every: 100,
        }
    }
}

/// `[store]`: what the database keeps besides the extracted articles.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct StoreConfig {
    /// Keep each stored article's raw response body (zstd) with its status,
    /// headers and fetch time, for `reextract` and WARC export.
    pub keep_html: bool,
}

impl Default for StoreConfig {
    fn default() -> Self {
        Self { keep_html: true }
    }
}

#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    #[serde(default)]
    crawler: CrawlerConfig,
    #[serde(default)]
    politeness: PolitenessConfig,
    #[serde(default)]
    fetch: FetchConfig,
    #[serde(default)]
    extract: ExtractConfig,
    #[serde(default)]
    boilerplate: BoilerplateConfig,
    #[serde(default)]
    store: StoreConfig,
    #[serde(default)]
    sites: Vec<RawSite>,
}

impl Config {
    /// Read and validate a config file. Seed files are resolved relative to
    /// the file's directory.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        let base = path.parent().unwrap_or(Path::new("."));
        Self::parse(&text, path, base)
    }

    /// Parse and validate config text. `origin` is used in messages only;
    /// `base_dir` resolves `seeds` files.
    pub fn parse(text: &str, origin: &Path, base_dir: &Path) -> Result<Config, ConfigError> {
        let raw: RawConfig = toml::from_str(text).map_err(|e| ConfigError::Syntax {
            path: origin.to_path_buf(),
            message: syntax_message(text, &e),
        })?;
        let invalid = |field: String, message: String| ConfigError::Invalid {
            path: origin.to_path_buf(),
            field,
            message,
        };
        validate_sections(&raw).map_err(|(f, m)| invalid(f.to_string(), m))?;
        let mut sites = Vec::with_capacity(raw.sites.len());
        let mut names = std::collections::HashSet::new();
        for (i, site) in raw.sites.into_iter().enumerate() {
            if !names.insert(site.name.clone()) {
                return Err(invalid(
                    format!("sites[{i}].name"),
                    format!("duplicate site name {:?}", site.name),
                ));
            }
            sites.push(validate_site(i, site, base_dir).map_err(|(f, m)| invalid(f, m))?);
        }
        Ok(Config {
            source: origin.to_path_buf(),
            crawler: raw.crawler,
            politeness: raw.politeness,
            fetch: raw.fetch,
            extract: raw.extract,
            boilerplate: raw.boilerplate,
            store: raw.store,
            sites,
        })
    }

    pub fn site(&self, name: &str) -> Option<&SiteConfig> {
        self.sites.iter().find(|s| s.name == name)
    }

    /// The site that owns a URL's host, if any.
    pub fn site_for(&self, url: &Url) -> Option<&SiteConfig> {
        self.sites.iter().find(|s| s.owns(url))
    }
}

/// `line L, column C: what`, without quoting the offending line: the file may
/// not be a config at all, and its content does not belong in an error.
fn syntax_message(text: &str, e: &toml::de::Error) -> String {
    let what = one_line(e.message());
    match e.span() {
        Some(span) => {
            let before = text.get(..span.start).unwrap_or(text);
            let line = before.matches('\n').count() + 1;
            let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
            format!("line {line}, column {column}: {what}")
        }
        None => what,
    }
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn validate_sections(raw: &RawConfig) -> Result<(), (&'static str, String)> {
    let c = &raw.crawler;
    if c.user_agent.trim().is_empty() {
        return Err(("crawler.user_agent", "must not be empty".into()));
    }
    if c.concurrency == 0 {
        return Err(("crawler.concurrency", "must be > 0".into()));
    }
    if c.database.as_os_str().is_empty() {
        return Err(("crawler.database", "must not be empty".into()));
    }
    positive("crawler.revisit_secs", c.revisit_secs)?;
    non_negative(
        "crawler.refetch_articles_after_secs",
        c.refetch_articles_after_secs,
    )?;
    let p = &raw.politeness;
    positive("politeness.rate_per_host", p.rate_per_host)?;
    if p.per_host_concurrency == 0 {
        return Err(("politeness.per_host_concurrency", "must be > 0".into()));
    }
    non_negative("politeness.max_crawl_delay_secs", p.max_crawl_delay_secs)?;
    let f = &raw.fetch;
    positive("fetch.connect_timeout_secs", f.connect_timeout_secs)?;
    positive("fetch.read_timeout_secs", f.read_timeout_secs)?;
    positive("fetch.timeout_secs", f.timeout_secs)?;
    if f.max_body_bytes == 0 {
        return Err(("fetch.max_body_bytes", "must be > 0".into()));
    }
    non_negative("fetch.backoff_base_secs", f.backoff_base_secs)?;
    non_negative("fetch.backoff_max_secs", f.backoff_max_secs)?;
    let b = &raw.boilerplate;
    if b.line_window == 0 {
        return Err(("boilerplate.line_window", "must be > 0".into()));
    }
    if !(0.0..1.0).contains(&b.prune_ratio) {
        return Err(("boilerplate.prune_ratio", "must be in [0, 1)".into()));
    }
    if b.prune_every == 0 {
        return Err(("boilerplate.prune_every", "must be > 0".into()));
    }
    Ok(())
}

fn positive(field: &'static str, v: f64) -> Result<(), (&'static str, String)> {
    if v.is_finite() && v > 0.0 {
        Ok(())
    } else {
        Err((field, format!("must be > 0 (got {v})")))
    }
}

fn non_negative(field: &'static str, v: f64) -> Result<(), (&'static str, String)> {
    if v.is_finite() && v >= 0.0 {
        Ok(())
    } else {
        Err((field, format!("must be >= 0 (got {v})")))
    }
}

mod site;
#[cfg(test)]
mod tests;

pub use site::{host_key, SiteConfig};
use site::{validate_site, RawSite};
