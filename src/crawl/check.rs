//! `newshound sites check NAME`: a dry run of one site. Its start pages,
//! feeds and sitemaps (those configured, those the start pages announce
//! and those robots.txt lists) are fetched through the crawl's own path —
//! the address guard, robots.txt, the site's rate — and every link found
//! is labelled as the crawl would treat it (`label::label`). With
//! `--fetch N`, up to N of the links are fetched too and judged by the
//! crawl's page path (`judged`), so a user sees what the crawl would
//! store and why. Nothing is stored.
//!
//! In: the configuration, the site, its learned URL shapes (from the
//! store, empty when there is none), how many links to judge. Out: a
//! [`SiteCheck`]: what happened to each document fetched, and each distinct
//! link with its label, reason and source (and, if judged, its verdict and
//! evidence), in the order found.

mod judged;
mod label;

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::Arc;

use url::Url;

pub use judged::JudgedLink;
pub use label::{Blocked, LinkLabel, LinkSource};

use super::fetch::{Expect, Fetched, Fetcher, Validators};
use super::kinds::ErrorKind;
use super::politeness::Politeness;
use super::robots::{Robots, RobotsFetch, Verdict};
use super::shapes::ShapeTable;
use super::{addr, discover, frontier, CrawlError};
use crate::config::{Config, SiteSettings};
use crate::urls::host_key;

/// Documents a check fetches at most (start pages, feeds, sitemaps and
/// the sitemaps a sitemap index lists): a dry run, not a crawl.
pub const MAX_DOCUMENTS: usize = 25;

/// One link found, as the crawl would treat it.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct CheckedLink {
    pub url: String,
    pub label: LinkLabel,
    pub reason: String,
    /// Where it was found (the strongest source when found in several).
    pub source: LinkSource,
    /// With `--fetch`: what its page was judged.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub judged: Option<JudgedLink>,
}

/// What a document of the check came to.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct CheckedDocument {
    pub url: String,
    /// `start`, `feed` or `sitemap`.
    pub kind: &'static str,
    /// `None` when fetched; else why not (`robots.txt disallows it`,
    /// `blocked_address: …`, `http_4xx: …`).
    pub failed: Option<String>,
    /// Links (or entries) found in it.
    pub links: usize,
}

/// The result of a check.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct SiteCheck {
    pub documents: Vec<CheckedDocument>,
    pub links: Vec<CheckedLink>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Doc {
    Start,
    Feed,
    Sitemap,
}

impl Doc {
    fn as_str(self) -> &'static str {
        match self {
            Doc::Start => "start",
            Doc::Feed => "feed",
            Doc::Sitemap => "sitemap",
        }
    }
}

/// Check `site`, judging up to `fetch` of its links (see the module doc).
pub async fn check_site(
    config: &Config,
    site: &SiteSettings,
    table: &ShapeTable,
    fetch: usize,
) -> Result<SiteCheck, CrawlError> {
    let opts = match fetch {
        0 => None,
        _ => Some(super::extract_options(config)?),
    };
    let fetcher =
        Fetcher::new(&config.fetch, &config.crawler.user_agent).map_err(CrawlError::Client)?;
    let mut run = Check {
        config,
        site,
        fetcher,
        politeness: Politeness::for_config(config),
        agent: super::robots::agent_token(&config.crawler.user_agent).to_string(),
        robots: HashMap::new(),
        refused: HashMap::new(),
        queued: HashMap::new(),
        docs: VecDeque::new(),
        found: Vec::new(),
        index: HashMap::new(),
        out: SiteCheck::default(),
    };
    for (doc, list) in [
        (Doc::Start, &site.start_urls),
        (Doc::Feed, &site.feeds),
        (Doc::Sitemap, &site.sitemaps),
    ] {
        for url in list {
            run.queue(url.clone(), doc);
        }
    }
    while let Some((url, doc)) = run.docs.pop_front() {
        run.document(url, doc).await;
    }
    run.label_all(table).await;
    if let Some(opts) = opts {
        run.judge_links(table, fetch, &opts).await;
    }
    Ok(run.out)
}

struct Check<'a> {
    config: &'a Config,
    site: &'a SiteSettings,
    fetcher: Fetcher,
    politeness: Politeness,
    agent: String,
    /// robots.txt per host key.
    robots: HashMap<String, Arc<Robots>>,
    /// The address guard's verdict per host key.
    refused: HashMap<String, Option<String>>,
    /// Documents queued, by URL.
    queued: HashMap<String, Doc>,
    docs: VecDeque<(Url, Doc)>,
    /// Distinct links in the order found, with their strongest source.
    found: Vec<(Url, LinkSource)>,
    index: HashMap<String, usize>,
    out: SiteCheck,
}

impl Check<'_> {
    fn queue(&mut self, url: Url, doc: Doc) {
        if self.queued.len() < MAX_DOCUMENTS && !self.queued.contains_key(url.as_str()) {
            self.queued.insert(url.to_string(), doc);
            self.docs.push_back((url, doc));
        }
    }

    /// A link found (in the frontier's spelling), once per URL.
    fn link(&mut self, url: &Url, source: LinkSource) {
        let trailing = self.config.crawler.trailing_slash;
        let url = frontier::normalize_for(self.site, url, trailing).unwrap_or_else(|| url.clone());
        match self.index.get(url.as_str()) {
            Some(&i) => {
                let s = &mut self.found[i].1;
                *s = (*s).max(source);
            }
            None => {
                self.index.insert(url.to_string(), self.found.len());
                self.found.push((url, source));
            }
        }
    }

    async fn document(&mut self, url: Url, doc: Doc) {
        let mut record = CheckedDocument {
            url: url.to_string(),
            kind: doc.as_str(),
            failed: None,
            links: 0,
        };
        match self.blocked(&url).await {
            Some(Blocked::AnotherSite) | None => {}
            Some(b) => {
                record.failed = Some(blocked_text(&b));
                self.out.documents.push(record);
                return;
            }
        }
        let expect = match doc {
            Doc::Start => Expect::Html,
            Doc::Feed | Doc::Sitemap => Expect::Feed,
        };
        let host = host_key(&url);
        let sent = self.politeness.wait_turn(&host).await;
        let fetched = self
            .fetcher
            .fetch(&url, &Validators::default(), expect)
            .await;
        drop(sent);
        let fetched = match fetched {
            Ok(f) => f,
            Err(e) => {
                record.failed = Some(format!("{}: {e}", e.kind().as_str()));
                self.out.documents.push(record);
                return;
            }
        };
        let base = fetched.final_url.clone();
        let parsed = match doc {
            Doc::Start => Ok(self.html(&fetched.body, fetched.content_type.as_deref(), &base)),
            Doc::Feed => self.feed_or_sitemap(&fetched, &base, true),
            Doc::Sitemap => self.feed_or_sitemap(&fetched, &base, false),
        };
        match parsed {
            Ok(n) => record.links = n,
            Err(kind) => {
                let why = "parses as neither a feed nor a sitemap";
                record.failed = Some(format!("{}: {why}", kind.as_str()));
            }
        }
        self.out.documents.push(record);
    }

    /// A start page's links; the feeds it announces are checked too.
    fn html(&mut self, body: &[u8], content_type: Option<&str>, base: &Url) -> usize {
        let decoded = crate::extract::charset::decode(body, content_type, Some(base));
        let max = self.config.crawler.max_links_per_page;
        let links = discover::raw_page_links(&decoded.text, None, base, max);
        let mut n = 0;
        for href in &links.hrefs {
            if n >= max {
                break;
            }
            if let Some(url) = discover::resolve_href(&links.base, href) {
                self.link(&url, LinkSource::Page);
                n += 1;
            }
        }
        for feed in links.feeds {
            if self.site.owns(&feed) {
                self.queue(feed, Doc::Feed);
            }
        }
        n
    }

    /// Entries of a feed or a sitemap (tried as what it was configured as
    /// first, as the crawl does, its first entries only); a sitemap
    /// index's sitemaps are checked too.
    fn feed_or_sitemap(
        &mut self,
        fetched: &Fetched,
        base: &Url,
        feed_first: bool,
    ) -> Result<usize, ErrorKind> {
        let body = &fetched.body[..];
        let bound = discover::EntryBound {
            max: self.config.crawler.max_entries_per_feed,
            cut: fetched.cut,
        };
        let as_feed = discover::feed_entries_within(body, base, bound)
            .ok()
            .map(|(entries, _)| {
                let urls: Vec<Url> = entries.into_iter().map(|e| e.url).collect();
                (urls, LinkSource::FeedEntry, Vec::new())
            });
        let as_sitemap = || match discover::sitemap_within(body, base, bound).ok()?.0 {
            discover::Sitemap::Index(maps) => Some((
                Vec::new(),
                LinkSource::SitemapEntry,
                maps.into_iter().map(|e| e.url).collect(),
            )),
            discover::Sitemap::Urls(entries) => Some((
                entries.into_iter().map(|e| e.url).collect(),
                LinkSource::SitemapEntry,
                Vec::new(),
            )),
        };
        let parsed = if feed_first {
            as_feed.or_else(as_sitemap)
        } else {
            as_sitemap().or(as_feed)
        };
        let Some((urls, source, maps)) = parsed else {
            return Err(if feed_first {
                ErrorKind::BadFeed
            } else {
                ErrorKind::BadSitemap
            });
        };
        let mut n = 0;
        for url in &urls {
            self.link(url, source);
            n += 1;
        }
        for map in maps {
            if self.site.owns(&map) {
                n += 1;
                self.queue(map, Doc::Sitemap);
            }
        }
        Ok(n)
    }

    /// What keeps the crawl from fetching `url`, if anything: its host is
    /// not the site's, the address guard, robots.txt (fetched once per
    /// host; its `Sitemap:` lines are checked too), the trap guard.
    async fn blocked(&mut self, url: &Url) -> Option<Blocked> {
        if !self.site.owns(url) {
            return Some(Blocked::AnotherSite);
        }
        let host = host_key(url);
        if let Some(why) = self.address_refused(url, &host).await {
            return Some(Blocked::Address(why));
        }
        if self.config.politeness.respect_robots {
            let robots = self.robots_of(url, &host).await;
            match robots.check(url) {
                Verdict::Allowed => {}
                Verdict::Disallowed => return Some(Blocked::RobotsDisallowed),
                Verdict::Unknown => return Some(Blocked::RobotsUnavailable),
            }
        }
        frontier::looks_like_trap(url).then_some(Blocked::Trap)
    }

    async fn address_refused(&mut self, url: &Url, host: &str) -> Option<String> {
        let allow = self.config.fetch.allow_private_addresses;
        if let Some(known) = self.refused.get(host) {
            return known.clone();
        }
        let refused = match addr::url_host_refused(url, allow) {
            Some(why) => Some(why),
            None if allow => None,
            None => match url.host() {
                Some(url::Host::Domain(name)) => resolved_refusal(name).await,
                _ => None,
            },
        };
        self.refused.insert(host.to_string(), refused.clone());
        refused
    }

    async fn robots_of(&mut self, url: &Url, host: &str) -> Arc<Robots> {
        if let Some(r) = self.robots.get(host) {
            return r.clone();
        }
        let fetched = match url.join("/robots.txt") {
            Ok(robots_url) => {
                let sent = self.politeness.wait_turn(host).await;
                let got = self
                    .fetcher
                    .fetch(&robots_url, &Validators::default(), Expect::Text)
                    .await;
                drop(sent);
                match got {
                    Ok(f) => RobotsFetch::Body(f.body),
                    Err(e) if e.leaves_robots_unknown() => RobotsFetch::Unavailable,
                    Err(_) => RobotsFetch::NoRules,
                }
            }
            Err(_) => RobotsFetch::NoRules,
        };
        let robots = Arc::new(Robots::from_fetch(
            &self.agent,
            fetched,
            std::time::Instant::now(),
        ));
        if let Some(delay) = robots.crawl_delay {
            self.politeness.set_crawl_delay(host, delay);
        }
        for map in &robots.sitemaps {
            if self.site.owns(map) {
                self.queue(map.clone(), Doc::Sitemap);
            }
        }
        self.robots.insert(host.to_string(), robots.clone());
        robots
    }

    /// Label every link found, in the order found.
    async fn label_all(&mut self, table: &ShapeTable) {
        let found = std::mem::take(&mut self.found);
        for (url, source) in found {
            let blocked = self.blocked(&url).await;
            let (label, reason) = match (&blocked, self.queued.get(url.as_str())) {
                (None, Some(Doc::Feed | Doc::Sitemap)) => (
                    LinkLabel::Index,
                    "a feed or sitemap of the site: its entries are queued, it is revisited"
                        .to_string(),
                ),
                _ => label::label(self.site, table, &url, source, blocked.as_ref()),
            };
            self.out.links.push(CheckedLink {
                url: url.into(),
                label,
                reason,
                source,
                judged: None,
            });
        }
    }
}

/// A document's failure in words.
fn blocked_text(b: &Blocked) -> String {
    match b {
        Blocked::AnotherSite => "not on the site's hosts".into(),
        Blocked::Address(why) => format!(
            "blocked_address: {why} is refused ([fetch] allow_private_addresses = true allows it)"
        ),
        Blocked::RobotsDisallowed => "robots.txt disallows it".into(),
        Blocked::RobotsUnavailable => "robots.txt is unavailable: the crawl waits for it".into(),
        Blocked::Trap => "the trap guard refuses it".into(),
    }
}

/// The address guard on a host name: refused when every address it
/// resolves to is (as the crawl's resolver decides); a name that does not
/// resolve is the fetch's problem, not the guard's.
async fn resolved_refusal(name: &str) -> Option<String> {
    let addrs: Vec<IpAddr> = tokio::net::lookup_host((name, 0))
        .await
        .ok()?
        .map(|a| a.ip())
        .collect();
    let first = *addrs.first()?;
    addrs
        .iter()
        .all(|ip| addr::refusal(*ip).is_some())
        .then(|| {
            format!(
                "{name} ({first}, {})",
                addr::refusal(first).unwrap_or("refused")
            )
        })
}
