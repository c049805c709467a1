//! The robots.txt step of a worker: the verdict for a URL, fetching the
//! host's robots.txt once (under the same body budget and send turn as a
//! page), applying its Crawl-delay and queueing its `Sitemap:` lines.
//!
//! In: the worker's context, the URL, its host and site. Out: a [`Verdict`],
//! and the sitemap URLs to add pushed onto the page's writes.

use std::sync::Arc;

use url::Url;

use super::{send_turn, Ctx};
use crate::config::SiteSettings;
use crate::crawl::fetch::{Expect, Validators};
use crate::crawl::kinds::ErrorKind;
use crate::crawl::robots::{Robots, RobotsFetch, Verdict};
use crate::crawl::summary::Counters;
use crate::store::{NewUrl, UrlKind, WriteOp};

/// Whether robots.txt allows `url` (fetching and caching it first if needed).
pub(super) async fn robots_verdict(
    ctx: &Ctx,
    url: &Url,
    host: &str,
    site: &SiteSettings,
    ops: &mut Vec<WriteOp>,
) -> Verdict {
    robots_of(ctx, url, host, site, ops).await.check(url)
}

/// The host's robots.txt (fetched and cached first if needed; when just
/// fetched, its Crawl-delay is applied and its sitemaps pushed onto `ops`).
pub(super) async fn robots_of(
    ctx: &Ctx,
    url: &Url,
    host: &str,
    site: &SiteSettings,
    ops: &mut Vec<WriteOp>,
) -> Arc<Robots> {
    let (robots, fresh) = ctx.robots.get(host, || fetch_robots(ctx, url, host)).await;
    if fresh {
        if let Some(delay) = robots.crawl_delay {
            ctx.politeness.set_crawl_delay(host, delay);
            if let Some(turns) = &ctx.host_turns {
                // Every process's turns of the host, not only this one's.
                let spacing = ctx.politeness.spacing(host);
                if let Err(e) = turns.set_delay_spacing(host, spacing).await {
                    tracing::warn!("{host}: cannot share its Crawl-delay: {e}");
                }
            }
        }
        let maps: Vec<NewUrl> = robots
            .sitemaps
            .iter()
            .filter_map(|u| {
                crate::crawl::frontier::normalize_for(site, u, ctx.cfg.crawler.trailing_slash)
            })
            .filter(|u| site.owns(u))
            .map(|u| NewUrl {
                url: u.into(),
                site: site.name.clone(),
                kind: UrlKind::Sitemap,
                depth: 0,
                priority: crate::crawl::frontier::priority(UrlKind::Sitemap, 0),
            })
            .collect();
        if !maps.is_empty() {
            Counters::add(&ctx.counters.urls_discovered, maps.len() as u64);
            ops.push(WriteOp::AddUrls(maps));
        }
    }
    robots
}

async fn fetch_robots(ctx: &Ctx, url: &Url, host: &str) -> RobotsFetch {
    let Ok(robots_url) = url.join("/robots.txt") else {
        return RobotsFetch::NoRules;
    };
    // robots.txt bodies count against the body budget like pages (a hostile
    // host may serve a huge one); taken before the turn, as for pages.
    let Some(_room) = ctx.body_budget.reserve().await else {
        return RobotsFetch::Unavailable;
    };
    let Some((_slot, sent)) = send_turn(ctx, host).await else {
        return RobotsFetch::Unavailable;
    };
    let fetched = ctx
        .fetcher
        .fetch(&robots_url, &Validators::default(), Expect::Text)
        .await;
    drop(sent);
    match fetched {
        Ok(f) => RobotsFetch::Body(f.body),
        Err(e) if e.leaves_robots_unknown() => {
            // The one place a dead host shows up: say why, once per attempt.
            tracing::warn!("{host}: {}; its URLs wait", e.brief());
            ctx.counters.error(ErrorKind::RobotsFetch);
            RobotsFetch::Unavailable
        }
        // 4xx or a broken redirect: no rules.
        Err(_) => RobotsFetch::NoRules,
    }
}
