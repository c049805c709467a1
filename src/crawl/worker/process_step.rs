//! The processing step of a worker: a fetched body handed to the processing
//! pool for discovery and extraction, and (for an article page with
//! `[store] keep_html`) compressed for keeping with the pool thread's zstd
//! context.
//!
//! In: the worker's context, the frontier entry, its site, the fetch and its
//! body. Out: the page's [`page::PageOutput`] and its kept page, or a
//! `process_panic` problem when a pure stage panicked; and what a `tree`
//! page did to its site's rule ([`rule_update`]).

use std::sync::Arc;
use std::time::Instant;

use super::{now_ms, Ctx};
use crate::config::SiteSettings;
use crate::crawl::budget::LARGE_PAGE;
use crate::crawl::discover::EntryBound;
use crate::crawl::fetch::Fetched;
use crate::crawl::kinds::ErrorKind;
use crate::crawl::page::{self, PageInput};
use crate::crawl::shapes::by_shapes;
use crate::extract::tree::rule::RuleOutcome;
use crate::extract::Algorithm;
use crate::store::{KeptHeaders, KeptHtml, QueuedUrl, SiteRuleUpdate, UrlKind};

/// Discovery and extraction on the processing pool (CPU work); for an
/// article page with `[store] keep_html`, the body compressed for keeping too,
/// with the pool thread's compression context.
pub(super) async fn process_blocking(
    ctx: &Ctx,
    q: &QueuedUrl,
    site: &Arc<SiteSettings>,
    fetched: &Fetched,
    body: Vec<u8>,
) -> (page::PageOutput, Option<KeptHtml>) {
    let site = site.clone();
    let kind = q.kind;
    let depth = q.depth;
    let max_depth = ctx.cfg.crawler.max_depth;
    let final_url = fetched.final_url.clone();
    let redirected = !fetched.redirects.is_empty();
    let content_type = fetched.content_type.clone();
    let extract = ctx.extract.clone();
    // A site without patterns may find an article on any page.
    let extracted = kind == UrlKind::Article || site.article_patterns.is_empty();
    let site_rule = if extract.algorithm == Algorithm::Tree && extracted {
        ctx.site_rules
            .lock()
            .ok()
            .and_then(|rules| rules.get(&site.name).cloned())
    } else {
        None
    };
    let trailing_slash = ctx.cfg.crawler.trailing_slash;
    let max_links = ctx.cfg.crawler.max_links_per_page;
    let max_index_sitemaps = ctx.cfg.crawler.max_sitemaps_per_index;
    let entries = EntryBound {
        max: ctx.cfg.crawler.max_entries_per_feed,
        cut: fetched.cut,
    };
    let link_memo = ctx.link_memo.clone();
    // A site without patterns queues its links by the shapes learned so far.
    let shapes = by_shapes(&site).then(|| ctx.shapes.table(&site.name));
    let explore = ctx.explore.clone();
    let _one_large_page = if body.len() > LARGE_PAGE {
        ctx.large_pages.clone().acquire_owned().await.ok()
    } else {
        None
    };
    let keep_html = ctx.cfg.store.keep_html;
    let status = fetched.status;
    let headers = KeptHeaders {
        content_type: fetched.content_type.clone(),
        last_modified: fetched.last_modified.clone(),
        etag: fetched.etag.clone(),
        date: fetched.date.clone(),
    };
    let started = Instant::now();
    let out = ctx
        .pages
        .run(move |tools| {
            let out = page::process(&PageInput {
                site: &site,
                kind,
                depth,
                max_depth,
                final_url: &final_url,
                redirected,
                content_type: content_type.as_deref(),
                body: &body,
                extract: &extract,
                now_ms: now_ms(),
                trailing_slash,
                max_links,
                max_index_sitemaps,
                entries,
                site_rule: site_rule.as_ref(),
                link_memo: Some(&link_memo),
                shapes: shapes.as_deref(),
                explore: Some(&explore),
            });
            let html = match (&mut tools.kept, keep_html && out.article.is_some()) {
                (Some(kept), true) => kept
                    .keep(final_url.as_str(), status, headers, now_ms(), &body)
                    // Compression fails only when zstd cannot allocate: the
                    // article is still stored, without its page.
                    .ok(),
                _ => None,
            };
            (out, html)
        })
        .await;
    tracing::trace!(url = %q.url, "processed in {:?}", started.elapsed());
    out.unwrap_or_else(|_| {
        // A panic in a pure stage is a bug; count it and keep crawling.
        let out = page::PageOutput {
            problem: Some(ErrorKind::ProcessPanic),
            ..Default::default()
        };
        (out, None)
    })
}

/// Record what a `tree` page did to its site's rule: keep the shared map
/// current and tell the store.
pub(super) fn rule_update(ctx: &Ctx, site: &str, outcome: RuleOutcome) -> SiteRuleUpdate {
    let (by_rule, dropped, learned) = match outcome {
        RuleOutcome::ByRule => (true, false, None),
        RuleOutcome::Learned(r) => (false, false, r),
        RuleOutcome::Relearned(r) => (false, true, r),
    };
    if let Ok(mut rules) = ctx.site_rules.lock() {
        if dropped {
            rules.remove(site);
        }
        if let Some(r) = &learned {
            rules.insert(site.to_string(), r.clone());
        }
    }
    SiteRuleUpdate {
        site: site.to_string(),
        by_rule,
        dropped,
        learned: learned.map(|r| (r.to_json(), r.display())),
    }
}
