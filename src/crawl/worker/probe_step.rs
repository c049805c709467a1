//! The probing step of a worker: a site that announces no feed and no
//! sitemap (none configured, none in `<link rel="alternate">` of its start
//! or index page, no `Sitemap:` line in robots.txt) has its usual feed and
//! sitemap paths tried, politely, at most once per revisit.
//!
//! In: the worker's context, the site, the page that announced nothing and
//! its host. Out: the paths that answered with a feed or a sitemap, as
//! frontier URLs to add. A probe that fails (a 404, a page that is neither)
//! is no error of the crawl: it is logged at debug level only.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use url::Url;

use super::robots_step::robots_of;
use super::{send_turn, Ctx};
use crate::config::SiteSettings;
use crate::crawl::discover::{probed_kind, PROBE_PATHS};
use crate::crawl::fetch::{Expect, Validators};
use crate::crawl::frontier;
use crate::crawl::robots::Verdict;
use crate::crawl::summary::Counters;
use crate::store::{NewUrl, UrlKind, WriteOp};

/// When each site was last probed in this run: a site is probed again only
/// after `[crawler] revisit_secs` (a continuous crawl's next visit).
#[derive(Debug, Default)]
pub struct Probes {
    last: Mutex<HashMap<String, Instant>>,
}

impl Probes {
    /// Take `site`'s probe if it is due (never probed, or probed more than
    /// `revisit` ago); `false` when another page took it.
    pub fn take(&self, site: &str, now: Instant, revisit: Duration) -> bool {
        let mut last = self.last.lock().unwrap_or_else(|p| p.into_inner());
        match last.get(site) {
            Some(at) if now.saturating_duration_since(*at) < revisit => false,
            _ => {
                last.insert(site.to_string(), now);
                true
            }
        }
    }
}

/// Whether a page of `kind` that announced `announced` feeds or sitemaps,
/// on a host whose robots.txt lists `robots_sitemaps`, leaves its site
/// without any entry point but its pages (pure).
pub fn announces_nothing(
    site: &SiteSettings,
    kind: UrlKind,
    announced: usize,
    robots_sitemaps: usize,
) -> bool {
    matches!(kind, UrlKind::Seed | UrlKind::Index)
        && site.feeds.is_empty()
        && site.sitemaps.is_empty()
        && announced == 0
        && robots_sitemaps == 0
}

/// A start or index page announced no feed or sitemap: unless robots.txt
/// lists one, probe the site's usual paths (once per revisit) and queue what
/// answers as a feed or sitemap.
pub(super) async fn probe_if_due(
    ctx: &Ctx,
    site: &SiteSettings,
    page: &Url,
    host: &str,
    ops: &mut Vec<WriteOp>,
) {
    if ctx.cfg.politeness.respect_robots
        && !robots_of(ctx, page, host, site, ops)
            .await
            .sitemaps
            .is_empty()
    {
        return;
    }
    let now = std::time::Instant::now();
    if !ctx.probes.take(&site.name, now, ctx.cfg.crawler.revisit) {
        return;
    }
    let found = probe(ctx, site, page, host, ops).await;
    let urls: Vec<String> = found.iter().map(|u| u.url.clone()).collect();
    ctx.counters.sites.probed(&site.name, &urls);
    if !found.is_empty() {
        Counters::add(&ctx.counters.urls_discovered, found.len() as u64);
        ops.push(WriteOp::AddUrls(found));
    }
}

/// The probe itself, after the page that announced nothing (`page` is its
/// URL): each usual path of its origin that robots.txt allows, fetched in
/// the host's turn; those that are feeds or sitemaps come back as frontier
/// URLs (depth 0, like configured ones). `ops` gets what robots.txt adds.
pub(super) async fn probe(
    ctx: &Ctx,
    site: &SiteSettings,
    page: &Url,
    host: &str,
    ops: &mut Vec<WriteOp>,
) -> Vec<NewUrl> {
    let mut found = Vec::new();
    for (path, expected) in PROBE_PATHS {
        let Ok(url) = page.join(path) else { continue };
        let Some(url) = frontier::normalize_for(site, &url, ctx.cfg.crawler.trailing_slash) else {
            continue;
        };
        if ctx.cfg.politeness.respect_robots
            && robots_of(ctx, &url, host, site, ops).await.check(&url) != Verdict::Allowed
        {
            continue;
        }
        let Some(_room) = ctx.body_budget.reserve().await else {
            break;
        };
        let Some((_slot, sent)) = send_turn(ctx, host).await else {
            break;
        };
        let fetched = ctx
            .fetcher
            .fetch(&url, &Validators::default(), Expect::Feed)
            .await;
        drop(sent);
        let kind = match fetched {
            Ok(f) => probed_kind(&f.body, &f.final_url, expected),
            Err(e) => {
                tracing::debug!(url = %url, "probe: {e}");
                None
            }
        };
        if let Some(kind) = kind {
            tracing::info!("{}: found {url} by probing", site.name);
            found.push(NewUrl {
                url: url.into(),
                site: site.name.clone(),
                kind,
                depth: 0,
                priority: frontier::priority(kind, 0),
            });
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::config::Config;

    fn site(extra: &str) -> SiteSettings {
        let text = format!("[[sites]]\nname = \"s\"\nstart = [\"http://h.test/\"]\n{extra}");
        Config::parse(&text, Path::new("t.toml"), Path::new("."))
            .unwrap()
            .sites[0]
            .clone()
    }

    #[test]
    fn only_a_start_or_index_page_of_a_site_with_no_entry_point_is_probed() {
        let bare = site("");
        assert!(announces_nothing(&bare, UrlKind::Seed, 0, 0));
        assert!(announces_nothing(&bare, UrlKind::Index, 0, 0));
        assert!(!announces_nothing(&bare, UrlKind::Article, 0, 0));
        assert!(!announces_nothing(&bare, UrlKind::Page, 0, 0));
        // A `<link rel="alternate">` feed, or a robots.txt `Sitemap:` line.
        assert!(!announces_nothing(&bare, UrlKind::Seed, 1, 0));
        assert!(!announces_nothing(&bare, UrlKind::Seed, 0, 1));
        // Configured ones.
        let fed = site("feeds = [\"http://h.test/rss.xml\"]");
        assert!(!announces_nothing(&fed, UrlKind::Seed, 0, 0));
        let mapped = site("sitemaps = [\"http://h.test/map.xml\"]");
        assert!(!announces_nothing(&mapped, UrlKind::Seed, 0, 0));
    }

    #[test]
    fn a_site_is_probed_at_most_once_per_revisit() {
        let probes = Probes::default();
        let t0 = Instant::now();
        let revisit = Duration::from_secs(600);
        assert!(probes.take("s", t0, revisit));
        assert!(!probes.take("s", t0 + Duration::from_secs(10), revisit));
        assert!(probes.take("other", t0, revisit));
        assert!(probes.take("s", t0 + Duration::from_secs(601), revisit));
    }
}
