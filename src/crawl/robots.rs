//! robots.txt: what a host allows, cached per host with expiry.
//!
//! In: the outcome of fetching `/robots.txt` ([`RobotsFetch`]). Out:
//! [`Robots`] — the verdict for a URL ([`Robots::check`]), the `Crawl-delay`
//! and the `Sitemap:` URLs. Rules are parsed and matched by [`rules`] for our
//! agent token (the user agent up to the first `/` or space), from at most
//! the first [`rules::MAX_BYTES`] of the file.
//!
//! Failure policy (as Google and RFC 9309 do): a 4xx means there are no rules
//! (allow all); a 5xx, timeout or connection failure means the host's wishes
//! are unknown, so nothing is fetched from it until robots.txt is retried
//! after [`UNAVAILABLE_RETRY`].
//!
//! [`RobotsCache`] keeps one entry per host key with an async lock per host,
//! so concurrent workers fetch a host's robots.txt once.

use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use url::Url;

pub mod rules;

/// How long fetched rules (or "no rules") are trusted.
pub const TTL: Duration = Duration::from_secs(24 * 3600);
/// When to try again after a 5xx/timeout on robots.txt.
pub const UNAVAILABLE_RETRY: Duration = Duration::from_secs(300);
/// Hosts whose robots.txt is remembered at once.
pub const MAX_ENTRIES: usize = 10_000;

/// What fetching `/robots.txt` gave.
#[derive(Debug)]
pub enum RobotsFetch {
    /// 2xx with this body.
    Body(Vec<u8>),
    /// 4xx (or a redirect that leads nowhere). Any 2xx body is a
    /// [`RobotsFetch::Body`], whatever its type or bytes.
    NoRules,
    /// 5xx, timeout, connection failure.
    Unavailable,
}

/// Verdict for one URL.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Allowed,
    Disallowed,
    /// robots.txt could not be fetched: do not fetch the host for now.
    Unknown,
}

/// A host's robots.txt, parsed.
pub struct Robots {
    state: State,
    /// `Crawl-delay` in seconds, uncapped (politeness caps it).
    pub crawl_delay: Option<f64>,
    /// `Sitemap:` lines that parse as http(s) URLs.
    pub sitemaps: Vec<Url>,
    pub expires: Instant,
}

enum State {
    AllowAll,
    Parsed(rules::Rules),
    Unavailable,
}

impl std::fmt::Debug for Robots {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = match &self.state {
            State::AllowAll => "allow-all".to_string(),
            State::Parsed(rules) => format!("{} rules", rules.rule_count()),
            State::Unavailable => "unavailable".to_string(),
        };
        f.debug_struct("Robots")
            .field("rules", &state)
            .field("crawl_delay", &self.crawl_delay)
            .field("sitemaps", &self.sitemaps)
            .finish()
    }
}

/// The token matched against `User-agent:` lines: `newshound/0.1 (+…)` → `newshound`.
pub fn agent_token(user_agent: &str) -> &str {
    user_agent
        .split(['/', ' '])
        .next()
        .filter(|t| !t.is_empty())
        .unwrap_or("*")
}

impl Robots {
    pub fn from_fetch(agent: &str, fetched: RobotsFetch, now: Instant) -> Robots {
        let allow_all = |expires| Robots {
            state: State::AllowAll,
            crawl_delay: None,
            sitemaps: Vec::new(),
            expires,
        };
        match fetched {
            RobotsFetch::NoRules => allow_all(now + TTL),
            RobotsFetch::Unavailable => Robots {
                state: State::Unavailable,
                crawl_delay: None,
                sitemaps: Vec::new(),
                expires: now + UNAVAILABLE_RETRY,
            },
            RobotsFetch::Body(body) => {
                let mut parsed = rules::Rules::parse(agent, &body);
                Robots {
                    crawl_delay: parsed.crawl_delay.filter(|d| d.is_finite() && *d > 0.0),
                    sitemaps: std::mem::take(&mut parsed.sitemaps)
                        .iter()
                        .filter_map(|s| Url::parse(s).ok())
                        .filter(|u| matches!(u.scheme(), "http" | "https"))
                        .collect(),
                    state: State::Parsed(parsed),
                    expires: now + TTL,
                }
            }
        }
    }

    pub fn check(&self, url: &Url) -> Verdict {
        match &self.state {
            State::AllowAll => Verdict::Allowed,
            State::Unavailable => Verdict::Unknown,
            State::Parsed(rules) => {
                // Match on path and query only, as robots.txt rules are written.
                let mut target = url.path().to_string();
                if let Some(q) = url.query() {
                    target.push('?');
                    target.push_str(q);
                }
                if rules.allowed(&target) {
                    Verdict::Allowed
                } else {
                    Verdict::Disallowed
                }
            }
        }
    }
}

type Slot = Arc<tokio::sync::Mutex<Option<Arc<Robots>>>>;

/// robots.txt per host key, with expiry and a bounded size.
pub struct RobotsCache {
    agent: String,
    max_entries: usize,
    slots: Mutex<HashMap<String, Slot>>,
}

impl RobotsCache {
    pub fn new(user_agent: &str) -> RobotsCache {
        RobotsCache {
            agent: agent_token(user_agent).to_string(),
            max_entries: MAX_ENTRIES,
            slots: Mutex::new(HashMap::new()),
        }
    }

    fn slot(&self, host: &str) -> Slot {
        let mut slots = self.slots.lock().unwrap_or_else(|p| p.into_inner());
        if !slots.contains_key(host) && slots.len() >= self.max_entries {
            // Drop entries nobody is using; they are refetched when needed.
            slots.retain(|_, s| Arc::strong_count(s) > 1);
        }
        slots.entry(host.to_string()).or_default().clone()
    }

    /// The host's robots.txt, fetching it with `fetch` when missing or
    /// expired. Returns the rules and whether they were just fetched (the
    /// caller then applies Crawl-delay and queues the sitemaps).
    pub async fn get<F, Fut>(&self, host: &str, fetch: F) -> (Arc<Robots>, bool)
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = RobotsFetch>,
    {
        let slot = self.slot(host);
        let mut guard = slot.lock().await;
        let now = Instant::now();
        if let Some(robots) = guard.as_ref().filter(|r| r.expires > now) {
            return (robots.clone(), false);
        }
        let robots = Arc::new(Robots::from_fetch(
            &self.agent,
            fetch().await,
            Instant::now(),
        ));
        *guard = Some(robots.clone());
        (robots, true)
    }
}

#[cfg(test)]
mod google_cases;

#[cfg(test)]
mod tests {
    use super::*;

    fn url(s: &str) -> Url {
        Url::parse(s).unwrap()
    }

    const TXT: &[u8] = b"User-agent: *\nDisallow: /private/\nDisallow: /search?\n\n\
User-agent: newshound\nDisallow: /private/\nDisallow: /drafts\nAllow: /private/open\nCrawl-delay: 2.5\n\n\
Sitemap: http://127.0.0.1:9/sitemap.xml\nSitemap: not a url\n";

    #[test]
    fn rules_for_our_agent_apply() {
        let r = Robots::from_fetch("newshound", RobotsFetch::Body(TXT.to_vec()), Instant::now());
        assert_eq!(r.check(&url("http://h/private/x")), Verdict::Disallowed);
        assert_eq!(r.check(&url("http://h/drafts/1")), Verdict::Disallowed);
        assert_eq!(r.check(&url("http://h/private/open/1")), Verdict::Allowed);
        assert_eq!(r.check(&url("http://h/news/1")), Verdict::Allowed);
        // The `*` group does not apply when our agent has its own.
        assert_eq!(r.check(&url("http://h/search?q=1")), Verdict::Allowed);
        assert_eq!(r.crawl_delay, Some(2.5));
        assert_eq!(r.sitemaps, vec![url("http://127.0.0.1:9/sitemap.xml")]);
    }

    #[test]
    fn star_group_applies_to_other_agents() {
        let r = Robots::from_fetch("otherbot", RobotsFetch::Body(TXT.to_vec()), Instant::now());
        assert_eq!(r.check(&url("http://h/search?q=1")), Verdict::Disallowed);
        assert_eq!(r.check(&url("http://h/drafts/1")), Verdict::Allowed);
        assert_eq!(r.crawl_delay, None);
    }

    #[test]
    fn not_found_allows_all_and_server_errors_block_for_now() {
        let now = Instant::now();
        let r = Robots::from_fetch("newshound", RobotsFetch::NoRules, now);
        assert_eq!(r.check(&url("http://h/private/x")), Verdict::Allowed);
        assert_eq!(r.expires, now + TTL);
        let r = Robots::from_fetch("newshound", RobotsFetch::Unavailable, now);
        assert_eq!(r.check(&url("http://h/news/1")), Verdict::Unknown);
        assert_eq!(r.expires, now + UNAVAILABLE_RETRY);
    }

    #[test]
    fn regression_hostile_robots_txt_rules_past_500_kib_are_ignored() {
        let mut txt = b"User-agent: *\nDisallow: /early/\n".to_vec();
        let mut n = 0;
        while txt.len() < 600 * 1024 {
            n += 1;
            txt.extend_from_slice(format!("Disallow: /news/*x{n:07}*.html$\n").as_bytes());
        }
        txt.extend_from_slice(b"Disallow: /late/\n");
        let r = Robots::from_fetch("newshound", RobotsFetch::Body(txt), Instant::now());
        assert_eq!(r.check(&url("http://h/early/1")), Verdict::Disallowed);
        assert_eq!(
            r.check(&url("http://h/news/a/x0000007/b.html")),
            Verdict::Disallowed
        );
        assert_eq!(r.check(&url("http://h/late/1")), Verdict::Allowed);
        assert_eq!(r.check(&url("http://h/news/a/b.html")), Verdict::Allowed);
    }

    #[test]
    fn agent_token_is_the_product_name() {
        assert_eq!(agent_token("newshound/0.1 (+https://x)"), "newshound");
        assert_eq!(agent_token("Bot 1.0"), "Bot");
        assert_eq!(agent_token(""), "*");
    }

    #[tokio::test]
    async fn cache_fetches_once_until_expiry() {
        let cache = RobotsCache::new("newshound/0.1");
        let mut calls = 0;
        let (r, fresh) = cache
            .get("h:1", || {
                calls += 1;
                async { RobotsFetch::Body(b"User-agent: *\nDisallow: /x".to_vec()) }
            })
            .await;
        assert!(fresh);
        assert_eq!(r.check(&url("http://h:1/x")), Verdict::Disallowed);
        let (_, fresh) = cache
            .get("h:1", || {
                calls += 1;
                async { RobotsFetch::NoRules }
            })
            .await;
        assert!(!fresh);
        assert_eq!(calls, 1);
    }
}
