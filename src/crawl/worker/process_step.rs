//! The processing step of a worker: a fetched body handed to the processing
//! pool for discovery and extraction, and (for an article page with
//! `[store] keep_html`) compressed for keeping with the pool thread's zstd
//! context.
//!
//! In: the worker's context, the frontier entry, its site, the fetch and its
//! body. Out: the page's [`page::PageOutput`] and its kept page, or a
//! `process_panic` problem when a pure stage panicked.

use std::sync::Arc;
use std::time::Instant;

use super::{now_ms, Ctx};
use crate::config::SiteSettings;
use crate::crawl::budget::LARGE_PAGE;
use crate::crawl::discover::EntryBound;
use crate::crawl::fetch::Fetched;
use crate::crawl::kinds::ErrorKind;
use crate::crawl::page::{self, PageInput};
use crate::crawl::path::record::kept_page;
use crate::crawl::shapes::by_shapes;
use crate::extract::Algorithm;
use crate::store::{KeptHtml, QueuedUrl, UrlKind};

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
    let extract = ctx.extract.clone();
    // A site without patterns may find an article on any page.
    let extracted = kind == UrlKind::Article || site.article_patterns.is_empty();
    let site_rule = if extract.algorithm == Algorithm::Tree && extracted {
        ctx.learned.rules.get(&site.name)
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
    let shapes = by_shapes(&site).then(|| ctx.learned.shapes.table(&site.name));
    let explore = ctx.explore.clone();
    let _one_large_page = if body.len() > LARGE_PAGE {
        ctx.large_pages.clone().acquire_owned().await.ok()
    } else {
        None
    };
    let keep_html = ctx.cfg.store.keep_html;
    // The fetch without its body (taken out before): what is kept with it.
    let meta = fetched.clone();
    let started = Instant::now();
    let out = ctx
        .pages
        .run(move |tools| {
            let out = page::process(&PageInput {
                site: &site,
                kind,
                depth,
                max_depth,
                final_url: &meta.final_url,
                redirected: !meta.redirects.is_empty(),
                content_type: meta.content_type.as_deref(),
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
            let keep = keep_html && out.article.is_some();
            let html = keep.then(|| kept_page(tools, &meta, &body)).flatten();
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
