//! A fetched document → what goes back to the frontier and the store (pure):
//! the crawl's side of a page.
//!
//! In: the body of a fetched feed, sitemap or HTML page, with its frontier
//! entry (kind, depth) and its site. Out: [`PageOutput`] — new frontier URLs
//! (normalised, on the site's hosts, within the depth limit, not traps,
//! classified and prioritised) and, for article pages only, the extracted
//! [`Article`], with the page's [`Judgement`]. Runs on the processing pool:
//! decoding, parsing and extraction are the crawl's CPU work.
//!
//! An HTML page goes through the one page path that `import` shares
//! ([`path`]: decode, extract, judge), which gives its article, verdict
//! and links; this file then admits the links to the frontier. Feeds and
//! sitemaps are the crawl's alone and are read here. A bare site's feed
//! and sitemap entries are queued as `article` URLs: being listed is
//! evidence for the judgement, not a verdict.
//!
//! Focus rule: links found in HTML are followed when they are article or
//! index pages of the site by its patterns. A site that configures no
//! patterns at all has its links queued by their learned URL shape
//! ([`frontier::shaped_link`]: article shapes first, index shapes
//! revisited, unknown shapes explored within the site's budget, links
//! inside an article only as far as their shape earns).
//! Feed and sitemap entries are always queued (they were published to be
//! fetched), classified the same way; so are feeds announced by start and
//! index pages.
//!
//! Links the crawl's writer has already committed to the frontier (known
//! through the [`LinkMemo`], see [`crate::crawl::seen::CommittedUrls`]) are
//! left out of [`PageOutput::urls`] and only counted: the store would ignore
//! them, keeping the depth and priority they were first queued with.

use std::collections::HashSet;
use std::sync::Arc;

use url::Url;

use super::judge::{Evidence, Judgement};
use super::kinds::{CapKind, ErrorKind};
use super::path::{self, Outcome, PageIn};
use super::shapes::{shape_of, ExploreBudget, ShapeTable};
use super::{discover, frontier};
use crate::config::SiteSettings;
use crate::extract::tree::rule::{RuleOutcome, SiteRule};
use crate::extract::{Article, ExtractOptions};
use crate::store::{NewUrl, UrlKind};
use crate::urls::TrailingSlash;

mod link_memo;
mod listing;

pub use link_memo::LinkMemo;
use link_memo::{Admitted, Verdict};

/// What to process.
pub struct PageInput<'a> {
    pub site: &'a SiteSettings,
    pub kind: UrlKind,
    pub depth: u32,
    pub max_depth: u32,
    /// The URL after redirects.
    pub final_url: &'a Url,
    /// Whether the frontier URL was redirected to another URL.
    pub redirected: bool,
    pub content_type: Option<&'a str>,
    pub body: &'a [u8],
    pub extract: &'a ExtractOptions,
    /// Unix ms, to judge the freshness of feed and sitemap entries.
    pub now_ms: i64,
    /// `[crawler] trailing_slash`.
    pub trailing_slash: TrailingSlash,
    /// `[crawler] max_links_per_page`: anchors taken from an HTML page.
    pub max_links: usize,
    /// `[crawler] max_sitemaps_per_index`: sitemaps an index may queue.
    pub max_index_sitemaps: usize,
    /// What of a feed or sitemap is read: `[crawler] max_entries_per_feed`,
    /// and whether the body was cut at `[fetch] max_body_bytes`.
    pub entries: discover::EntryBound,
    /// `tree`: the site's content rule, if one is learned.
    pub site_rule: Option<&'a SiteRule>,
    /// What hrefs of the crawl's pages came to ([`LinkMemo`]); `None`
    /// computes every href of the page (the same URLs, more CPU).
    pub link_memo: Option<&'a LinkMemo>,
    /// A site without patterns: its learned URL shapes, by which its links
    /// are queued ([`frontier::shaped_link`]); `None` for a site with
    /// patterns (they decide).
    pub shapes: Option<&'a ShapeTable>,
    /// Links of unknown shape the site may still queue (`None`: no bound).
    pub explore: Option<&'a ExploreBudget>,
}

/// What came out of one document.
#[derive(Debug, Default)]
pub struct PageOutput {
    pub urls: Vec<NewUrl>,
    pub article: Option<Article>,
    /// URLs to record as known without fetching them: an article's
    /// canonical URL on the same site, when it differs from the fetched one.
    pub known: Vec<NewUrl>,
    /// A problem to count (`bad_feed`, `bad_sitemap`), the page is still done.
    pub problem: Option<ErrorKind>,
    /// A bound of the configuration the page reached (a sitemap index
    /// listing more sitemaps than it may queue).
    pub capped: Option<CapKind>,
    /// `tree`: what the article page did to its site's rule.
    pub rule: Option<RuleOutcome>,
    /// Links left out of `urls` because the frontier has them already.
    pub urls_known: usize,
    /// Distinct links of the page not followed: on other sites' hosts, or
    /// traps.
    pub outside: usize,
    /// Whether an HTML page is an article, and why (`None` for feeds and
    /// sitemaps). `article` is set exactly when the verdict is article.
    pub judgement: Option<Judgement>,
    /// What the judgement weighed (`None` when patterns decided).
    pub evidence: Option<Evidence>,
    /// Links (anchors, feed and sitemap entries) that matched an article
    /// pattern, duplicates on the page counted once.
    pub article_links: usize,
    /// Links of a site with patterns that matched none (fingerprint, URL):
    /// anchors of those are not followed. The crawl's report counts them.
    pub unmatched: Vec<(u128, Arc<str>)>,
    /// A site without patterns: links of an article or index shape that
    /// the frontier may hold as plain pages, queued before their shape was
    /// learned ([`crate::store::WriteOp::Promote`]).
    pub promote: Vec<NewUrl>,
    /// A site without patterns: its feed and sitemap entries, as articles
    /// (being listed is evidence): the frontier may hold them as plain
    /// pages, or have judged them without that evidence
    /// ([`crate::store::WriteOp::Rejudge`]).
    pub listed: Vec<NewUrl>,
}

pub fn process(input: &PageInput<'_>) -> PageOutput {
    match input.kind {
        UrlKind::Feed => listing::feed_or_sitemap(input, true),
        UrlKind::Sitemap => listing::feed_or_sitemap(input, false),
        UrlKind::Seed | UrlKind::Index | UrlKind::Page | UrlKind::Article => html(input),
    }
}

fn html(input: &PageInput<'_>) -> PageOutput {
    let shapes = input.shapes;
    let outcome = path::run(&PageIn {
        url: input.final_url,
        redirected: input.redirected,
        content_type: input.content_type,
        body: input.body,
        site: input.site,
        kind: input.kind,
        extract: input.extract,
        site_rule: input.site_rule,
        shapes,
        trailing_slash: input.trailing_slash,
        max_links: Some(input.max_links),
    });
    let Outcome {
        article,
        judgement,
        rule,
        links,
        canonical,
        evidence,
    } = outcome;
    let mut found = Found::new(input);
    found.from_article = article.is_some();
    if let Some(links) = &links {
        found.hrefs(links);
        // Feeds announced by start and section pages are new entry points;
        // those of article pages (per-article comment feeds) are not.
        if matches!(input.kind, UrlKind::Seed | UrlKind::Index) {
            for feed in &links.feeds {
                found.feed(feed);
            }
        }
    }
    let mut known = Vec::new();
    match (&article, canonical) {
        (Some(_), Some(c)) => {
            // The article is that page: recorded under it, and the canonical
            // URL is known (not fetched again). A canonical pointing at an
            // index page is a site's mistake, not a reason to stop
            // revisiting that index page.
            let fetched =
                frontier::normalize_for(input.site, input.final_url, input.trailing_slash);
            let kind = discover::classify(input.site, &c);
            if fetched.as_ref() != Some(&c) && kind != UrlKind::Index {
                known.push(NewUrl {
                    url: c.to_string(),
                    site: input.site.name.clone(),
                    kind,
                    depth: input.depth,
                    priority: frontier::priority(kind, input.depth),
                });
            }
        }
        // Not an article: the canonical URL is just another link.
        (None, Some(c)) => found.link(&c),
        (_, None) => {}
    }
    PageOutput {
        urls: found.urls,
        article,
        known,
        problem: None,
        capped: None,
        rule,
        urls_known: found.urls_known,
        outside: found.outside,
        judgement: Some(judgement),
        evidence,
        article_links: found.article_links,
        unmatched: found.unmatched,
        promote: found.promote,
        listed: found.listed,
    }
}

/// Collects new frontier URLs of one document, deduplicated.
struct Found<'a> {
    input: &'a PageInput<'a>,
    seen: HashSet<Arc<str>>,
    urls: Vec<NewUrl>,
    /// Links left out as already in the frontier.
    urls_known: usize,
    /// See [`PageOutput::outside`].
    outside: usize,
    /// The site has article or index patterns: plain pages are not followed.
    focused: bool,
    /// The document is an article page: links of unknown shape in it are
    /// not explored once the site knows its article shapes.
    from_article: bool,
    /// See [`PageOutput::article_links`].
    article_links: usize,
    /// See [`PageOutput::unmatched`].
    unmatched: Vec<(u128, Arc<str>)>,
    /// See [`PageOutput::promote`].
    promote: Vec<NewUrl>,
    /// See [`PageOutput::listed`].
    listed: Vec<NewUrl>,
}

impl<'a> Found<'a> {
    fn new(input: &'a PageInput<'a>) -> Found<'a> {
        let focused =
            !input.site.article_patterns.is_empty() || !input.site.index_patterns.is_empty();
        Found {
            input,
            seen: HashSet::new(),
            urls: Vec::new(),
            urls_known: 0,
            outside: 0,
            focused,
            from_article: false,
            article_links: 0,
            unmatched: Vec::new(),
            promote: Vec::new(),
            listed: Vec::new(),
        }
    }

    /// How a link of the site is queued: by the site's patterns, or, on a
    /// site without them, by its shape ([`frontier::shaped_link`]; the
    /// flag says it spends exploration budget). `None`: not followed.
    fn plan(&self, kind: UrlKind, shape: Option<&super::shapes::Shape>) -> Option<(UrlKind, bool)> {
        match (self.input.shapes, shape) {
            (Some(table), Some(shape)) => frontier::shaped_link(
                table.link_class(shape),
                self.from_article,
                table.knows_articles(),
            ),
            _ => (!(kind == UrlKind::Page && self.focused)).then_some((kind, false)),
        }
    }

    /// Of `n` links that would spend exploration budget, how many may.
    fn explore(&self, n: usize) -> usize {
        match self.input.explore {
            Some(budget) if n > 0 => budget.take(&self.input.site.name, n),
            _ => n,
        }
    }

    fn accept(&mut self, url: &Url) -> Option<Url> {
        let url = frontier::normalize_for(self.input.site, url, self.input.trailing_slash)?;
        self.admit(url)
    }

    /// Within depth, on the site, no trap, not found before on this page.
    fn admit(&mut self, url: Url) -> Option<Url> {
        let depth = self.input.depth + 1;
        if depth > self.input.max_depth
            || !self.input.site.owns(&url)
            || frontier::looks_like_trap(&url)
            || !self.seen.insert(url.as_str().into())
        {
            return None;
        }
        Some(url)
    }

    fn push(&mut self, url: Url, kind: UrlKind, priority: i32) {
        self.urls.push(NewUrl {
            url: url.into(),
            site: self.input.site.name.clone(),
            kind,
            depth: self.input.depth + 1,
            priority,
        });
    }

    fn depth(&self) -> u32 {
        self.input.depth + 1
    }

    fn link(&mut self, url: &Url) {
        let Some(url) = self.accept(url) else { return };
        self.push_link(url);
    }

    /// The anchors of an HTML page, in document order: each distinct href
    /// resolved (through the crawl's [`LinkMemo`]), the first `max_links`
    /// distinct URLs taken, those the site follows admitted.
    fn hrefs(&mut self, links: &discover::RawPageLinks) {
        if self.depth() > self.input.max_depth {
            return;
        }
        let mut hrefs = HashSet::new();
        let distinct: Vec<&str> = (links.hrefs.iter())
            .map(String::as_str)
            .filter(|h| hrefs.insert(*h))
            .collect();
        let memo = self.input.link_memo;
        let site = &self.input.site.name;
        let keys = memo.map_or_else(Vec::new, |_| LinkMemo::keys(site, &links.base, &distinct));
        let mut remembered = match memo {
            Some(memo) => memo.lookup_all(&keys),
            None => vec![None; distinct.len()],
        };
        let mut learned = Vec::new();
        let mut resolved = HashSet::new();
        let mut follow = Vec::new();
        for (i, href) in distinct.iter().enumerate() {
            if resolved.len() >= self.input.max_links {
                break;
            }
            let v = match remembered[i].take() {
                Some(v) => v,
                None => {
                    let v = self.verdict(&links.base, href);
                    if memo.is_some() {
                        learned.push((keys[i], v.clone()));
                    }
                    v
                }
            };
            let Some(url) = v.resolved else { continue };
            if !resolved.insert(url) {
                continue;
            }
            self.outside += usize::from(v.admitted.is_none());
            if let Some(a) = v.admitted {
                if self.seen.insert(a.url.clone()) {
                    self.article_links += usize::from(a.kind == UrlKind::Article);
                    if a.kind == UrlKind::Page && self.focused {
                        // Not followed: no pattern of the site says what it is.
                        self.unmatched.push((a.fingerprint, a.url.clone()));
                    } else {
                        follow.push(a);
                    }
                }
            }
        }
        if let Some(memo) = memo {
            memo.remember_all(learned);
        }
        let planned: Vec<(Admitted, UrlKind, bool)> = follow
            .into_iter()
            .filter_map(|a| {
                let (kind, explores) = self.plan(a.kind, a.shape.as_deref())?;
                Some((a, kind, explores))
            })
            .collect();
        // Built and sent are only the links the frontier may not have yet.
        let known = match memo.and_then(LinkMemo::committed) {
            Some(committed) => {
                let fingerprints: Vec<u128> = planned.iter().map(|p| p.0.fingerprint).collect();
                committed.known(&fingerprints)
            }
            None => vec![false; planned.len()],
        };
        let exploring = (planned.iter().zip(&known))
            .filter(|((_, _, explores), known)| *explores && !**known)
            .count();
        let mut may_explore = self.explore(exploring);
        for ((a, kind, explores), known) in planned.into_iter().zip(known) {
            if known {
                self.urls_known += 1;
                if self.input.shapes.is_some() && matches!(kind, UrlKind::Article | UrlKind::Index)
                {
                    let url = a.url.to_string();
                    self.promote.push(self.new_url(url, kind, self.depth()));
                }
            } else if explores && may_explore == 0 {
                continue;
            } else {
                may_explore -= usize::from(explores);
                self.push_str(a.url.to_string(), kind);
            }
        }
    }

    /// What `href` of this page comes to, depth aside (see [`Verdict`]).
    fn verdict(&self, base: &Url, href: &str) -> Verdict {
        let Some(url) = discover::resolve_href(base, href) else {
            return Verdict {
                resolved: None,
                admitted: None,
            };
        };
        let resolved: Arc<str> = url.as_str().into();
        let site = self.input.site;
        let admitted = frontier::respell_normalized(site, url, self.input.trailing_slash)
            .filter(|u| site.owns(u) && !frontier::looks_like_trap(u))
            .map(|u| {
                let kind = discover::classify(site, &u);
                let url = if u.as_str() == &*resolved {
                    resolved.clone()
                } else {
                    u.as_str().into()
                };
                let shape = self.input.shapes.map(|_| shape_of(&u));
                Admitted::new(url, kind, shape)
            });
        Verdict {
            resolved: Some(resolved),
            admitted,
        }
    }

    fn push_str(&mut self, url: String, kind: UrlKind) {
        let new = self.new_url(url, kind, self.depth());
        self.urls.push(new);
    }

    fn new_url(&self, url: String, kind: UrlKind, depth: u32) -> NewUrl {
        NewUrl {
            url,
            site: self.input.site.name.clone(),
            kind,
            depth,
            priority: frontier::priority(kind, depth),
        }
    }

    fn push_link(&mut self, url: Url) {
        let kind = discover::classify(self.input.site, &url);
        let shape = self.input.shapes.map(|_| shape_of(&url));
        let Some((kind, explores)) = self.plan(kind, shape.as_ref()) else {
            return;
        };
        if explores && self.explore(1) == 0 {
            return;
        }
        self.push(url, kind, frontier::priority(kind, self.depth()));
    }

    /// A feed or sitemap entry: fresh ones first. On a site without
    /// patterns an entry is queued as an article, to be judged when
    /// fetched, whatever its shape: being listed is evidence, not a
    /// verdict, and a shape never outweighs it.
    fn entry(&mut self, url: &Url, published: Option<&str>) {
        let Some(url) = self.accept(url) else { return };
        let site = self.input.site;
        let kind = match discover::classify(site, &url) {
            UrlKind::Page if super::shapes::by_shapes(site) => UrlKind::Article,
            kind => kind,
        };
        self.article_links += usize::from(kind == UrlKind::Article);
        if kind == UrlKind::Page && self.focused {
            // Still queued (it was published to be fetched), but no
            // pattern of the site says what it is.
            let fingerprint = super::seen::fingerprint(url.as_str());
            self.unmatched.push((fingerprint, url.as_str().into()));
        }
        let priority = frontier::entry_priority(kind, self.depth(), published, self.input.now_ms);
        if self.input.shapes.is_some() && kind != UrlKind::Page {
            let mut new = self.new_url(url.to_string(), kind, self.depth());
            new.priority = priority;
            self.listed.push(new);
        }
        self.push(url, kind, priority);
    }

    fn feed(&mut self, url: &Url) {
        let Some(url) = self.accept(url) else { return };
        let priority = frontier::priority(UrlKind::Feed, self.depth());
        self.push(url, UrlKind::Feed, priority);
    }

    fn sitemap(&mut self, url: &Url) {
        let Some(url) = self.accept(url) else { return };
        self.push(
            url,
            UrlKind::Sitemap,
            frontier::priority(UrlKind::Sitemap, self.depth()),
        );
    }
}

#[cfg(test)]
mod tests;
