//! `crawler.toml` → [`Config`].
//!
//! In: the bytes of a TOML file (and the directory it lives in, for seed files).
//! Out: a validated [`Config`], or a [`ConfigError`] naming the file, the field
//! and what is wrong (`crawler.toml: sites[2].rate: must be > 0`).
//!
//! Parsing is split from opening the file so the parser is tested on strings.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use chrono_tz::Tz;

use crate::boilerplate::{LineRule, LineSettings, Variant};
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
    pub serve: ServeConfig,
    /// Each site with its effective settings, resolved at load.
    pub sites: Vec<SiteSettings>,
}

#[derive(Debug, Clone, Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct ExtractConfig {
    /// `auto` (the default: the best-scoring combination), `td`, `ctd`,
    /// `htd`, `ceds`, `punct`, `nb` or `tree`.
    pub algorithm: Algorithm,
    /// Model file (`newshound train --out`) for `nb`/`tree`; the model
    /// shipped in the binary when unset. A relative path is read from the
    /// current directory.
    pub model: Option<std::path::PathBuf>,
    /// IANA time zone (`Europe/Paris`) for dates pages write without an
    /// offset; a site's own `timezone` overrides it. None: read as UTC.
    #[serde(deserialize_with = "time_zone")]
    pub timezone: Option<Tz>,
    /// Keep reader comments in the article text (default false: a news
    /// corpus wants the story, not the thread below it).
    pub comments: bool,
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
        let lines = LineSettings::default();
        Self {
            enabled: lines.enabled,
            line_window: lines.rule.window,
            prune_ratio: lines.prune_ratio,
            prune_every: lines.prune_every,
        }
    }
}

impl BoilerplateConfig {
    /// The line filter's settings, with the site's resolved switch.
    pub fn line_settings(&self, enabled: bool) -> LineSettings {
        LineSettings {
            rule: LineRule {
                window: self.line_window,
            },
            prune_ratio: self.prune_ratio,
            prune_every: self.prune_every,
            enabled,
            variant: Variant::default(),
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
    /// Where the corpus lives when not in `[crawler] database`: a SQLite
    /// path or a `postgres://` URL (a database that many crawler processes
    /// share). `--db` overrides both.
    pub url: Option<String>,
    /// On PostgreSQL, how long a claimed URL stays a process's before any
    /// process may claim it again (the process died or hangs).
    pub lease_seconds: u64,
    /// Bytes of an article's text stored at most: the rest is dropped, at
    /// a line break, with a note in the fetch log (a site serving 5 MB
    /// "articles" made every search of them slow).
    pub max_text_bytes: usize,
    /// Longest time an import goes between commits (or 4,096 items): what
    /// a stopped import reads again, against one flush of the search
    /// index's terms per commit.
    pub import_commit_ms: u64,
}

/// The range of `[store] import_commit_ms`: 10 ms to 10 minutes.
const IMPORT_COMMIT_MS: std::ops::RangeInclusive<u64> = 10..=600_000;

/// The range of `[store] max_text_bytes`: a short article, and 1 GiB.
const MIN_TEXT_BYTES: usize = 1024;
const MAX_TEXT_BYTES: usize = 1 << 30;

impl Default for StoreConfig {
    fn default() -> Self {
        Self {
            keep_html: true,
            url: None,
            lease_seconds: 60,
            max_text_bytes: 1 << 20,
            import_commit_ms: 2000,
        }
    }
}

/// `[store]`: a usable `url`, a text cap and a commit interval in range, a
/// lease a crawler can renew in time.
fn check_store(store: &StoreConfig) -> Result<(), (&'static str, String)> {
    if let Some(url) = &store.url {
        if url.trim().is_empty() {
            return Err((
                "store.url",
                "is empty (a SQLite path or a postgres:// URL)".into(),
            ));
        }
        if target::is_postgres_url(url) {
            if let Err(e) = url.parse::<postgres::Config>() {
                return Err(("store.url", format!("not a valid PostgreSQL URL: {e}")));
            }
        }
    }
    if !(MIN_TEXT_BYTES..=MAX_TEXT_BYTES).contains(&store.max_text_bytes) {
        return Err((
            "store.max_text_bytes",
            format!(
                "must be between {MIN_TEXT_BYTES} and {MAX_TEXT_BYTES} (got {})",
                store.max_text_bytes
            ),
        ));
    }
    if !IMPORT_COMMIT_MS.contains(&store.import_commit_ms) {
        return Err((
            "store.import_commit_ms",
            format!(
                "must be between {} and {} (got {})",
                IMPORT_COMMIT_MS.start(),
                IMPORT_COMMIT_MS.end(),
                store.import_commit_ms
            ),
        ));
    }
    if store.lease_seconds < 5 {
        return Err((
            "store.lease_seconds",
            format!(
                "must be at least 5 (a claim must outlive a slow fetch), got {}",
                store.lease_seconds
            ),
        ));
    }
    Ok(())
}

impl Config {
    /// Where the corpus lives: `[store] url` when set, else `[crawler] database`.
    pub fn store_target(&self) -> target::StoreTarget {
        match &self.store.url {
            Some(url) => target::StoreTarget::parse(url),
            None => target::StoreTarget::Sqlite(self.crawler.database.clone()),
        }
    }
}

#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    #[serde(default)]
    crawler: RawCrawler,
    #[serde(default)]
    politeness: RawPoliteness,
    #[serde(default)]
    fetch: RawFetch,
    #[serde(default)]
    extract: ExtractConfig,
    #[serde(default)]
    boilerplate: BoilerplateConfig,
    #[serde(default)]
    store: StoreConfig,
    #[serde(default)]
    serve: RawServe,
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
        let checked = |(f, m): (&str, String)| invalid(f.to_string(), m);
        let crawler = raw.crawler.check().map_err(checked)?;
        let politeness = raw.politeness.check().map_err(checked)?;
        let fetch = raw.fetch.check().map_err(checked)?;
        let serve = raw.serve.check().map_err(checked)?;
        check_boilerplate(&raw.boilerplate).map_err(checked)?;
        check_store(&raw.store).map_err(checked)?;
        let defaults = site_defaults(&politeness, &raw.extract, &raw.boilerplate);
        let mut sites = Vec::with_capacity(raw.sites.len());
        let mut names = std::collections::HashSet::new();
        for (i, site) in raw.sites.into_iter().enumerate() {
            if !names.insert(site.name.clone()) {
                return Err(invalid(
                    format!("sites[{i}].name"),
                    format!("duplicate site name {:?}", site.name),
                ));
            }
            sites
                .push(validate_site(i, site, base_dir, &defaults).map_err(|(f, m)| invalid(f, m))?);
        }
        Ok(Config {
            source: origin.to_path_buf(),
            crawler,
            politeness,
            fetch,
            extract: raw.extract,
            boilerplate: raw.boilerplate,
            store: raw.store,
            serve,
            sites,
        })
    }

    pub fn site(&self, name: &str) -> Option<&SiteSettings> {
        self.sites.iter().find(|s| s.name == name)
    }

    /// The configured sites' names, as an error about an unknown one lists
    /// them ("bbc, guardian").
    pub fn site_list(&self) -> String {
        let names: Vec<&str> = self.sites.iter().map(|s| s.name.as_str()).collect();
        names.join(", ")
    }

    /// A site this config does not name, known by its address alone — as
    /// `sites add` would configure it (its name and a start page) and this
    /// config would load it. `import --any-site` makes one of each host.
    pub fn site_from_address(
        &self,
        name: &str,
        home: &url::Url,
    ) -> Result<SiteSettings, ConfigError> {
        let defaults = site_defaults(&self.politeness, &self.extract, &self.boilerplate);
        let raw = RawSite::from_address(name, home);
        validate_site(self.sites.len(), raw, Path::new("."), &defaults).map_err(
            |(field, message)| ConfigError::Invalid {
                path: self.source.clone(),
                field,
                message,
            },
        )
    }

    /// Boilerplate settings of the site called `name`; for a name that is no
    /// configured site (or `None`), `[boilerplate]` with its global switch.
    pub fn line_settings(&self, name: Option<&str>) -> LineSettings {
        match name.and_then(|n| self.site(n)) {
            Some(site) => site.lines,
            None => self.boilerplate.line_settings(self.boilerplate.enabled),
        }
    }
}

/// What a site falls back on: the global sections' values.
fn site_defaults(
    politeness: &PolitenessConfig,
    extract: &ExtractConfig,
    boilerplate: &BoilerplateConfig,
) -> SiteDefaults {
    SiteDefaults {
        rate: politeness.rate_per_host,
        timezone: extract.timezone,
        lines: boilerplate.line_settings(boilerplate.enabled),
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

fn check_boilerplate(b: &BoilerplateConfig) -> Result<(), (&'static str, String)> {
    if !(1..=1_000_000).contains(&b.line_window) {
        return Err((
            "boilerplate.line_window",
            format!("must be between 1 and 1000000 (got {})", b.line_window),
        ));
    }
    if !(0.0..1.0).contains(&b.prune_ratio) {
        return Err((
            "boilerplate.prune_ratio",
            format!("must be in [0, 1) (got {})", b.prune_ratio),
        ));
    }
    if !(1..=1_000_000_000).contains(&b.prune_every) {
        return Err((
            "boilerplate.prune_every",
            format!("must be between 1 and 1000000000 (got {})", b.prune_every),
        ));
    }
    Ok(())
}

pub mod append;
mod sections;
mod site;
pub mod target;
#[cfg(test)]
mod tests;

pub use sections::{CrawlerConfig, FetchConfig, PolitenessConfig, ServeConfig};
use sections::{RawCrawler, RawFetch, RawPoliteness, RawServe};

pub use site::{credentials_refused, SiteSettings};
use site::{validate_site, RawSite, SiteDefaults};
