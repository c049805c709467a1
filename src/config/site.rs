//! One `[[sites]]` entry of crawler.toml: its raw form, and its validation
//! into the site's effective settings.
//!
//! In: the raw entry and the global sections it falls back on
//! ([`SiteDefaults`]). Out: a [`SiteSettings`] with everything resolved once
//! (URLs parsed, patterns compiled, time zone, rate and boilerplate settings
//! chosen between the site's own value and the global one), so no later
//! stage looks at two places.

use std::path::{Path, PathBuf};

use chrono_tz::Tz;
use regex::Regex;
use serde::Deserialize;
use url::Url;

use super::one_line;
use crate::boilerplate::LineSettings;
use crate::urls::{has_credentials, host_key, redacted};

/// What a site falls back on when its entry does not say.
pub(super) struct SiteDefaults {
    /// `[politeness] rate_per_host`.
    pub(super) rate: f64,
    /// `[extract] timezone`.
    pub(super) timezone: Option<Tz>,
    /// `[boilerplate]`; `enabled` is the global switch.
    pub(super) lines: LineSettings,
}

/// One configured news site with its effective settings, resolved once at
/// load: URLs parsed, patterns compiled, and the site's own `rate`,
/// `timezone` and `boilerplate` switch already merged with the global ones.
#[derive(Debug, Clone)]
pub struct SiteSettings {
    pub name: String,
    /// Start pages (from `start` and the `seeds` file).
    pub start_urls: Vec<Url>,
    pub feeds: Vec<Url>,
    pub sitemaps: Vec<Url>,
    /// A URL matching one of these is an article page.
    pub article_patterns: Vec<Regex>,
    /// A URL matching one of these is an index page: followed, never stored.
    pub index_patterns: Vec<Regex>,
    /// Hosts (`host` or `host:port`) that belong to the site.
    pub hosts: Vec<String>,
    /// Requests per second to this site's hosts: the site's `rate`, else
    /// `[politeness] rate_per_host`.
    pub rate: f64,
    /// The line filter's settings: `[boilerplate]` with the site's switch.
    pub lines: LineSettings,
    /// `www.example.com` and `example.com` are one site (default true): both
    /// spellings belong to the site and are respelled as the configured one.
    pub merge_www: bool,
    /// Time zone of dates the site writes without an offset: the site's
    /// `timezone`, else `[extract] timezone` (None: UTC).
    pub timezone: Option<Tz>,
}

impl SiteSettings {
    /// Whether a URL is on one of the site's hosts (or, with `merge_www`,
    /// on the www/bare twin of one).
    pub fn owns(&self, url: &Url) -> bool {
        let authority = host_key(url);
        let host = url.host_str().unwrap_or("");
        self.hosts.iter().any(|h| *h == authority || h == host)
            || (self.merge_www && self.merged_host(url).is_some())
    }

    /// With `merge_www`: the first configured host that is this URL's host
    /// or its www/bare twin (`host:port` keys compare with the port).
    fn merged_host(&self, url: &Url) -> Option<&str> {
        let key = host_key(url);
        let twin = match key.strip_prefix("www.") {
            Some(bare) => bare.to_string(),
            None => format!("www.{key}"),
        };
        self.hosts
            .iter()
            .find(|h| **h == key || **h == twin)
            .map(String::as_str)
    }

    /// With `merge_www`, a URL on either spelling of a host is respelled with
    /// the configured one, so the frontier knows one URL per page and
    /// politeness sees one host per server. Other URLs are returned as is.
    pub fn merge_host(&self, url: Url) -> Url {
        if !self.merge_www {
            return url;
        }
        let Some(target) = self.merged_host(&url) else {
            return url;
        };
        if target == host_key(&url) {
            return url;
        }
        let name = target.rsplit_once(':').map_or(target, |(h, _)| h);
        let mut out = url.clone();
        match out.set_host(Some(name)) {
            Ok(()) => out,
            Err(_) => url,
        }
    }
    pub fn is_article(&self, url: &Url) -> bool {
        self.article_patterns
            .iter()
            .any(|p| p.is_match(url.as_str()))
    }
    pub fn is_index(&self, url: &Url) -> bool {
        self.index_patterns.iter().any(|p| p.is_match(url.as_str()))
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawSite {
    pub(super) name: String,
    /// File under the config's directory with one URL per line (`#` comments).
    seeds: Option<PathBuf>,
    #[serde(default)]
    start: Vec<String>,
    #[serde(default)]
    feeds: Vec<String>,
    #[serde(default)]
    sitemaps: Vec<String>,
    #[serde(default)]
    article_patterns: Vec<String>,
    #[serde(default)]
    index_patterns: Vec<String>,
    /// Extra hosts beyond those of the seed URLs (e.g. `www.` and bare domain).
    #[serde(default)]
    hosts: Vec<String>,
    rate: Option<f64>,
    boilerplate: Option<bool>,
    merge_www: Option<bool>,
    #[serde(default, deserialize_with = "super::time_zone")]
    timezone: Option<Tz>,
}

impl RawSite {
    /// A site known by its address alone, as `sites add` writes one: a
    /// name and a start page, everything else the defaults.
    pub(super) fn from_address(name: &str, home: &Url) -> RawSite {
        RawSite {
            name: name.to_string(),
            seeds: None,
            start: vec![home.to_string()],
            feeds: Vec::new(),
            sitemaps: Vec::new(),
            article_patterns: Vec::new(),
            index_patterns: Vec::new(),
            hosts: Vec::new(),
            rate: None,
            boilerplate: None,
            merge_www: None,
            timezone: None,
        }
    }
}

fn parse_urls(field: &str, items: &[String]) -> Result<Vec<Url>, (String, String)> {
    items
        .iter()
        .enumerate()
        .map(|(j, s)| {
            let url = Url::parse(s.trim())
                .map_err(|e| (format!("{field}[{j}]"), format!("invalid URL {s:?}: {e}")))?;
            if !matches!(url.scheme(), "http" | "https") {
                return Err((
                    format!("{field}[{j}]"),
                    format!("URL {s:?} must be http or https"),
                ));
            }
            if has_credentials(&url) {
                return Err((format!("{field}[{j}]"), credentials_refused(&url)));
            }
            Ok(url)
        })
        .collect()
}

/// Why an address with a user name or password is refused (the password
/// itself never shown).
pub fn credentials_refused(url: &Url) -> String {
    format!(
        "{:?} has a user name or password: credentials in a site's address are refused \
         (they would be stored in the database and sent to the host with every request); \
         give the address without them",
        redacted(url)
    )
}

fn compile(field: &str, items: &[String]) -> Result<Vec<Regex>, (String, String)> {
    items
        .iter()
        .enumerate()
        .map(|(j, s)| {
            Regex::new(s).map_err(|e| {
                (
                    format!("{field}[{j}]"),
                    format!("invalid regex {s:?}: {}", one_line(&e.to_string())),
                )
            })
        })
        .collect()
}

pub(super) fn validate_site(
    i: usize,
    raw: RawSite,
    base_dir: &Path,
    defaults: &SiteDefaults,
) -> Result<SiteSettings, (String, String)> {
    let at = |f: &str| format!("sites[{i}].{f}");
    if raw.name.trim().is_empty() {
        return Err((at("name"), "must not be empty".into()));
    }
    let mut start = raw.start.clone();
    if let Some(seeds) = &raw.seeds {
        let path = base_dir.join(seeds);
        let text = std::fs::read_to_string(&path).map_err(|e| {
            (
                at("seeds"),
                format!("cannot read seed file {}: {e}", path.display()),
            )
        })?;
        start.extend(
            text.lines()
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
                .map(String::from),
        );
    }
    let start_urls = parse_urls(&at("start"), &start)?;
    let feeds = parse_urls(&at("feeds"), &raw.feeds)?;
    let sitemaps = parse_urls(&at("sitemaps"), &raw.sitemaps)?;
    if start_urls.is_empty() && feeds.is_empty() && sitemaps.is_empty() {
        return Err((
            at("seeds"),
            "site has no start URLs, feeds or sitemaps".into(),
        ));
    }
    if let Some(rate) = raw.rate {
        super::sections::check_rate(rate).map_err(|m| (at("rate"), m))?;
    }
    let mut hosts: Vec<String> = raw.hosts.clone();
    for url in start_urls.iter().chain(&feeds).chain(&sitemaps) {
        let key = host_key(url);
        if !hosts.contains(&key) {
            hosts.push(key);
        }
    }
    Ok(SiteSettings {
        name: raw.name,
        article_patterns: compile(&at("article_patterns"), &raw.article_patterns)?,
        index_patterns: compile(&at("index_patterns"), &raw.index_patterns)?,
        start_urls,
        feeds,
        sitemaps,
        hosts,
        rate: raw.rate.unwrap_or(defaults.rate),
        lines: LineSettings {
            enabled: raw.boilerplate.unwrap_or(defaults.lines.enabled),
            ..defaults.lines
        },
        merge_www: raw.merge_www.unwrap_or(true),
        timezone: raw.timezone.or(defaults.timezone),
    })
}
