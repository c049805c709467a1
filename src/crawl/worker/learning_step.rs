//! What a judged page teaches the crawl beyond the page path's writes
//! (`crawl::path::record`, which counts its shape): pages held back for
//! want of evidence judged again when that evidence comes, and the links
//! and entries of a learned kind promoted in the frontier.
//!
//! In: the worker's context, the site, a held page or a page's listed and
//! promoted URLs. Out: `Promote` and `Rejudge` writes.

use super::Ctx;
use crate::crawl::seen::fingerprint;
use crate::store::{NewUrl, UrlKind, WriteOp};

pub use crate::crawl::path::record::{as_article, rejudge};

/// Hold back a page of `site` judged not an article for want of evidence,
/// its writes sent: judged again now if a feed listed it or its shape is
/// an article shape already (see [`crate::crawl::shapes::LiveShapes::hold`]).
pub(super) async fn hold(ctx: &Ctx, site: &str, url: &str) {
    let now = ctx.learned.shapes.hold(site, [url.to_string()]);
    if !now.is_empty() {
        let urls = now.into_iter().map(|u| as_article(u, site)).collect();
        // A stopped writer is noticed by the scheduler's next claim.
        let _ = ctx.writer.write(vec![rejudge(urls)]).await;
    }
}

/// The writes for a page's feed and sitemap entries (`listed`) and its
/// links of a learned shape (`promote`), each asked once per run: queued
/// plain pages take their kind, and pages judged not articles for want of
/// evidence are judged again as articles (a listing is that evidence, and
/// so is an article shape). The pages held in this run that a listing
/// names are judged again every time (see `LiveShapes::listed`).
pub(super) fn listed_and_promoted(
    ctx: &Ctx,
    listed: Vec<NewUrl>,
    promote: Vec<NewUrl>,
    ops: &mut Vec<WriteOp>,
) {
    let mut articles = Vec::new();
    if let Some(first) = listed.first() {
        let site = first.site.clone();
        let entries = listed.iter().map(|u| fingerprint(&u.url));
        ctx.counters.sites.listed(&site, entries);
        let held = ctx
            .learned
            .shapes
            .listed(&site, listed.iter().map(|u| u.url.as_str()));
        articles.extend(held.into_iter().map(|u| as_article(u, &site)));
    }
    let mut promote = ctx.promoted.fresh(promote);
    promote.extend(ctx.promoted.fresh(listed));
    articles.extend(
        (promote.iter())
            .filter(|u| u.kind == UrlKind::Article)
            .cloned(),
    );
    if !promote.is_empty() {
        ops.push(WriteOp::Promote(promote));
    }
    if !articles.is_empty() {
        ops.push(rejudge(articles));
    }
}
