//! A site's entry points found from its address alone, for `sites add`.
//!
//! In: the configuration (fetch limits, address guard, politeness, user
//! agent) and the address of a site's start page. Out: [`EntryPoints`]: the
//! start URL (after redirects), the feeds its page announces with
//! `<link rel="alternate">`, the sitemaps of its robots.txt and, when
//! there are neither, the usual paths that answered as a feed or a sitemap
//! (`discover::PROBE_PATHS`).
//!
//! Polite as the crawl: robots.txt first (its rules obeyed unless
//! `respect_robots = false`, its Crawl-delay applied up to
//! `max_crawl_delay_secs`), one request at a time, spaced by the host's
//! rate; the address guard applies to every request and redirect.

use std::time::Duration;

use url::Url;

use super::discover;
use super::fetch::{Expect, FetchError, Fetched, Fetcher, Validators};
use super::robots::{agent_token, Robots, RobotsFetch, Verdict};
use crate::config::Config;
use crate::store::UrlKind;

/// What was found for a site.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntryPoints {
    /// The start page, where its address redirected to.
    pub start: Url,
    pub feeds: Vec<Url>,
    pub sitemaps: Vec<Url>,
    /// Hosts of those feeds and sitemaps beyond the start page's (and its
    /// `www.` twin): the site's `hosts`, so the crawl fetches them.
    pub hosts: Vec<String>,
    /// The usual paths tried because the site announced nothing.
    pub probed: Vec<Url>,
}

#[derive(Debug, thiserror::Error)]
pub enum EntryError {
    #[error("cannot start the HTTP client: {0}")]
    Client(#[source] FetchError),
    #[error("{url}: {source}{}", hint(.source))]
    Fetch {
        url: Url,
        #[source]
        source: FetchError,
    },
    #[error("{url}: robots.txt cannot be fetched now ({source}); try again later")]
    RobotsUnavailable {
        url: Url,
        #[source]
        source: FetchError,
    },
    #[error("{url}: robots.txt disallows it for {agent:?}")]
    Disallowed { url: Url, agent: String },
}

/// What to do about a refused address.
fn hint(e: &FetchError) -> &'static str {
    if e.kind() == super::kinds::ErrorKind::BlockedAddress {
        " (loopback and private addresses are refused unless `allow_private_addresses = true` \
         is set under [fetch])"
    } else {
        ""
    }
}

/// One request at a time, spaced as politeness spaces a host's requests.
struct Polite<'a> {
    fetcher: &'a Fetcher,
    spacing: Duration,
    sent: bool,
}

impl Polite<'_> {
    async fn fetch(&mut self, url: &Url, expect: Expect) -> Result<Fetched, FetchError> {
        if self.sent {
            tokio::time::sleep(self.spacing).await;
        }
        self.sent = true;
        self.fetcher
            .fetch(url, &Validators::default(), expect)
            .await
    }
}

/// Whether two URLs are on the same host, or one on the other's `www.` twin.
fn same_site(a: &Url, b: &Url) -> bool {
    let bare = |u: &Url| {
        let h = u.host_str().unwrap_or("").to_ascii_lowercase();
        h.strip_prefix("www.").map(String::from).unwrap_or(h)
    };
    bare(a) == bare(b)
}

/// Find the entry points of the site whose start page is `start`.
pub async fn entry_points(config: &Config, start: &Url) -> Result<EntryPoints, EntryError> {
    let fetcher =
        Fetcher::new(&config.fetch, &config.crawler.user_agent).map_err(EntryError::Client)?;
    let rate = config.politeness.rate_per_host.max(f64::MIN_POSITIVE);
    let mut polite = Polite {
        fetcher: &fetcher,
        spacing: Duration::from_secs_f64((1.0 / rate).min(3600.0)),
        sent: false,
    };
    let agent = agent_token(&config.crawler.user_agent).to_string();
    let robots_url = start.join("/robots.txt").unwrap_or_else(|_| start.clone());
    let robots = match polite.fetch(&robots_url, Expect::Text).await {
        Ok(f) => RobotsFetch::Body(f.body),
        Err(e) if e.kind() == super::kinds::ErrorKind::BlockedAddress => {
            return Err(EntryError::Fetch {
                url: robots_url,
                source: e,
            })
        }
        Err(e) if e.is_host_failure() || e.kind() == super::kinds::ErrorKind::Http429 => {
            return Err(EntryError::RobotsUnavailable {
                url: robots_url,
                source: e,
            })
        }
        Err(_) => RobotsFetch::NoRules,
    };
    let robots = Robots::from_fetch(&agent, robots, std::time::Instant::now());
    if let Some(delay) = robots.crawl_delay {
        let delay = delay.clamp(0.0, config.politeness.max_crawl_delay.as_secs_f64());
        polite.spacing = polite.spacing.max(Duration::from_secs_f64(delay));
    }
    let allowed =
        |url: &Url| !config.politeness.respect_robots || robots.check(url) == Verdict::Allowed;
    if !allowed(start) {
        return Err(EntryError::Disallowed {
            url: start.clone(),
            agent,
        });
    }
    let page = polite
        .fetch(start, Expect::Html)
        .await
        .map_err(|source| EntryError::Fetch {
            url: start.clone(),
            source,
        })?;
    let decoded = crate::extract::charset::decode(
        &page.body,
        page.content_type.as_deref(),
        Some(&page.final_url),
    );
    let links = discover::raw_page_links(
        &decoded.text,
        None,
        &page.final_url,
        config.crawler.max_links_per_page,
    );
    let start = page.final_url.clone();
    let feeds = dedup(links.feeds.into_iter());
    let sitemaps = dedup(robots.sitemaps.iter().cloned());
    let mut found = EntryPoints {
        hosts: extra_hosts(&start, feeds.iter().chain(&sitemaps)),
        feeds,
        sitemaps,
        probed: Vec::new(),
        start,
    };
    if !found.feeds.is_empty() || !found.sitemaps.is_empty() {
        return Ok(found);
    }
    for (path, expected) in discover::PROBE_PATHS {
        let Ok(url) = found.start.join(path) else {
            continue;
        };
        if !allowed(&url) {
            continue;
        }
        found.probed.push(url.clone());
        let Ok(f) = polite.fetch(&url, Expect::Feed).await else {
            continue;
        };
        match discover::probed_kind(&f.body, &f.final_url, expected) {
            Some(UrlKind::Feed) => found.feeds.push(url),
            Some(_) => found.sitemaps.push(url),
            None => {}
        }
    }
    Ok(found)
}

/// The hosts of `urls` that are not `start`'s (nor its `www.` twin), each
/// once, in order.
fn extra_hosts<'a>(start: &Url, urls: impl Iterator<Item = &'a Url>) -> Vec<String> {
    let mut hosts: Vec<String> = Vec::new();
    for u in urls.filter(|u| !same_site(u, start)) {
        if let Some(h) = u.host_str().map(str::to_ascii_lowercase) {
            if !hosts.contains(&h) {
                hosts.push(h);
            }
        }
    }
    hosts
}

fn dedup(urls: impl Iterator<Item = Url>) -> Vec<Url> {
    let mut out: Vec<Url> = Vec::new();
    for u in urls {
        if !out.contains(&u) {
            out.push(u);
        }
    }
    out
}

/// A site name made from a host: `www.` and the public suffix dropped, the
/// rest joined with `-` (`www.lemonde.fr` → `lemonde`, `news.bbc.co.uk` →
/// `news-bbc`); an address literal keeps all its parts (`127.0.0.1:8080`
/// → `127-0-0-1-8080`).
pub fn site_name_from(url: &Url) -> String {
    let host = url.host_str().unwrap_or("site").to_ascii_lowercase();
    let host = host.trim_matches(|c| c == '[' || c == ']');
    let is_address = host.parse::<std::net::IpAddr>().is_ok();
    let mut labels: Vec<&str> = host.split(['.', ':']).filter(|l| !l.is_empty()).collect();
    if !is_address {
        if labels.first() == Some(&"www") && labels.len() > 1 {
            labels.remove(0);
        }
        // A two-letter country code under a generic second level
        // (`co.uk`, `com.au`) is a suffix of two labels.
        let generic = ["co", "com", "net", "org", "gov", "ac", "edu", "ne", "or"];
        let n = labels.len();
        let suffix = if n > 2 && labels[n - 1].len() == 2 && generic.contains(&labels[n - 2]) {
            2
        } else {
            usize::from(n > 1)
        };
        labels.truncate(n - suffix);
    }
    let mut name = labels.join("-");
    if let Some(port) = url.port() {
        name = format!("{name}-{port}");
    }
    if name.is_empty() {
        "site".to_string()
    } else {
        name
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(u: &str) -> String {
        site_name_from(&Url::parse(u).unwrap())
    }

    #[test]
    fn a_site_is_named_after_its_host() {
        assert_eq!(name("https://www.lemonde.fr/"), "lemonde");
        assert_eq!(name("https://news.bbc.co.uk/"), "news-bbc");
        assert_eq!(name("https://www.abc.net.au/news"), "abc");
        assert_eq!(name("https://example.com"), "example");
        assert_eq!(name("http://127.0.0.1:8080/"), "127-0-0-1-8080");
        assert_eq!(name("http://localhost:3000/"), "localhost-3000");
    }

    #[test]
    fn feeds_on_other_hosts_add_their_hosts_to_the_site() {
        let u = |s: &str| Url::parse(s).unwrap();
        let start = u("https://www.x.test/");
        let found = [
            u("https://x.test/feed"),
            u("https://feeds.x-cdn.test/news.rss"),
            u("https://feeds.x-cdn.test/world.rss"),
            u("https://WWW.x.test/sitemap.xml"),
        ];
        assert_eq!(extra_hosts(&start, found.iter()), ["feeds.x-cdn.test"]);
    }
}
