//! What a judged page teaches its site: its shape counted, pages held
//! back for want of evidence judged again when that evidence comes, and
//! the links and entries of a learned kind promoted in the frontier.
//!
//! In: the worker's context, the site, the page (its frontier kind, final
//! URL, judgement, whether it gave an article) and its listed and
//! promoted URLs. Out: `Shapes`, `Promote` and `Rejudge` writes.

use url::Url;

use super::Ctx;
use crate::config::SiteSettings;
use crate::crawl::judge::{JudgeReason, Judgement};
use crate::crawl::seen::fingerprint;
use crate::crawl::shapes::{self, Judged};
use crate::store::{NewUrl, Rejudge, UrlKind, WriteOp};

/// A judged page: its frontier kind, its URL after redirects, its
/// judgement (HTML pages), whether it gave an article to store.
pub(super) type JudgedPage<'a> = (UrlKind, &'a Url, Option<Judgement>, bool);

/// What a judged page is for the rest of the crawl.
#[derive(Debug, Default)]
pub(super) struct Learned {
    /// Judged on its evidence (a site without patterns).
    pub(super) judged: bool,
    /// A list of links of a site without patterns: revisited like an
    /// index page.
    pub(super) listing: bool,
    /// Judged not an article for want of evidence a listing or its shape
    /// may bring: held back ([`hold`]) once its writes are sent.
    pub(super) hold: bool,
}

/// Count the page for its shape and judge again the held pages its shape
/// now vouches for.
pub(super) fn learn(
    ctx: &Ctx,
    site: &SiteSettings,
    (kind, url, judgement, article): JudgedPage<'_>,
    ops: &mut Vec<WriteOp>,
) -> Learned {
    let mut learned = Learned::default();
    let judged = match judgement {
        Some(j) if shapes::by_shapes(site) => {
            if !j.is_article() {
                let reason = j.reason.as_str();
                ctx.counters
                    .sites
                    .not_article(&site.name, reason, url.as_str());
            }
            learned.judged = true;
            learned.listing = j.is_listing();
            // Only a page found through links waits for new evidence: a
            // listed one had all it will get.
            learned.hold = j.reason.revisable() && matches!(kind, UrlKind::Page | UrlKind::Index);
            // A start page is a list of links, whatever its text.
            match j.shape_evidence() {
                Some(e) if kind == UrlKind::Seed && e != Judged::Article => Some(Judged::Listing),
                e => e,
            }
        }
        _ => shapes::judged_by_kind(site, kind, article),
    };
    let revision = ctx.shapes.observe(&site.name, url, judged);
    ops.extend(revision.update.map(WriteOp::Shapes));
    if !revision.rejudge.is_empty() {
        let urls = revision
            .rejudge
            .into_iter()
            .map(|u| as_article(u, &site.name));
        ops.push(rejudge(urls.collect()));
    }
    learned
}

/// Hold back a page of `site` judged not an article for want of evidence,
/// its writes sent: judged again now if a feed listed it or its shape is
/// an article shape already (see [`crate::crawl::shapes::LiveShapes::hold`]).
pub(super) async fn hold(ctx: &Ctx, site: &str, url: &str) {
    let now = ctx.shapes.hold(site, [url.to_string()]);
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

/// Judge `urls` again, if their last judgement was one new evidence may
/// change.
pub fn rejudge(urls: Vec<NewUrl>) -> WriteOp {
    WriteOp::Rejudge(Rejudge {
        urls,
        reasons: JudgeReason::revisable_strs(),
    })
}

/// A URL of `site` to judge again, as an article: due first.
pub fn as_article(url: String, site: &str) -> NewUrl {
    NewUrl {
        url,
        site: site.to_string(),
        kind: UrlKind::Article,
        depth: 1,
        priority: crate::crawl::frontier::priority(UrlKind::Article, 1),
    }
}
