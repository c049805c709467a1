//! A fetched document → what goes back to the frontier and the store (pure).
//!
//! In: the body of a fetched feed, sitemap or HTML page, with its frontier
//! entry (kind, depth) and its site. Out: [`PageOutput`] — new frontier URLs
//! (normalised, on the site's hosts, within the depth limit, not traps,
//! classified and prioritised) and, for article pages only, the extracted
//! [`Article`]. Runs on the blocking pool: decoding, parsing and extraction
//! are the crawl's CPU work.
//!
//! Focus rule: links found in HTML are followed when they are article or
//! index pages of the site; other pages of the site are followed only when
//! the site configures no patterns at all (then the whole host is the site).
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

use super::kinds::ErrorKind;
use super::{discover, frontier};
use crate::config::SiteSettings;
use crate::extract::tree::rule::{RuleOutcome, SiteRule};
use crate::extract::{self, Article, ExtractOptions};
use crate::store::{NewUrl, UrlKind};
use crate::urls::TrailingSlash;

mod link_memo;

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
    /// `tree`: the site's content rule, if one is learned.
    pub site_rule: Option<&'a SiteRule>,
    /// What hrefs of the crawl's pages came to ([`LinkMemo`]); `None`
    /// computes every href of the page (the same URLs, more CPU).
    pub link_memo: Option<&'a LinkMemo>,
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
    /// `tree`: what the article page did to its site's rule.
    pub rule: Option<RuleOutcome>,
    /// Links left out of `urls` because the frontier has them already.
    pub urls_known: usize,
}

/// Sitemaps one sitemap index may list (the protocol's limit).
pub const MAX_INDEX_ENTRIES: usize = 50_000;

pub fn process(input: &PageInput<'_>) -> PageOutput {
    match input.kind {
        UrlKind::Feed => feed_or_sitemap(input, true),
        UrlKind::Sitemap => feed_or_sitemap(input, false),
        UrlKind::Seed | UrlKind::Index | UrlKind::Page | UrlKind::Article => html(input),
    }
}

/// Feeds and sitemaps are tried as what they were configured as first, then
/// as the other (sites list news sitemaps as feeds and vice versa).
fn feed_or_sitemap(input: &PageInput<'_>, feed_first: bool) -> PageOutput {
    let mut out = PageOutput::default();
    let mut found = Found::new(input);
    let as_feed = |found: &mut Found<'_>| match discover::feed_entries(input.body, input.final_url)
    {
        Ok(entries) => {
            for e in entries {
                found.entry(&e.url, e.published.as_deref());
            }
            true
        }
        Err(_) => false,
    };
    let as_sitemap = |found: &mut Found<'_>| match discover::sitemap(input.body, input.final_url) {
        // An index lists sitemaps, never other indexes, and at most
        // MAX_INDEX_ENTRIES of them (sitemaps.org). Only a sitemap queued
        // at depth 0 (configured, or named by robots.txt) may be an index:
        // one listed by an index is nested, and its children are not
        // followed (a chain of nested indexes queued a million URLs).
        Ok(discover::Sitemap::Index(_)) if input.depth > 0 => false,
        Ok(discover::Sitemap::Index(maps)) => {
            for url in maps.iter().take(MAX_INDEX_ENTRIES) {
                found.sitemap(url);
            }
            true
        }
        Ok(discover::Sitemap::Urls(entries)) => {
            for e in entries {
                found.entry(&e.url, e.published.as_deref());
            }
            true
        }
        Err(_) => false,
    };
    let order: [&dyn Fn(&mut Found<'_>) -> bool; 2] = if feed_first {
        [&as_feed, &as_sitemap]
    } else {
        [&as_sitemap, &as_feed]
    };
    let parsed = order.iter().any(|parse| parse(&mut found));
    if !parsed {
        out.problem = Some(if feed_first {
            ErrorKind::BadFeed
        } else {
            ErrorKind::BadSitemap
        });
    }
    out.urls = found.urls;
    out
}

fn html(input: &PageInput<'_>) -> PageOutput {
    let decoded = extract::charset::decode(input.body, input.content_type, Some(input.final_url));
    // A URL queued as an article that redirected to a non-article page (a
    // section front, a login wall) is not stored.
    let is_article = input.kind == UrlKind::Article
        && (!input.redirected
            || discover::classify(input.site, input.final_url) == UrlKind::Article);
    let mut rule = None;
    // An article page's links come out of extraction's own pass over it;
    // other pages get a pass of their own.
    let (attrs, mut article) = if is_article {
        let opts = ExtractOptions {
            timezone: input.site.timezone,
            ..input.extract.clone()
        };
        let mut attrs = discover::link_attrs_for(input.max_links);
        let (article, outcome) = extract::extract_html_by_rule_with_links(
            &decoded.text,
            Some(input.final_url),
            &opts,
            input.site_rule,
            Some(&mut attrs),
        );
        rule = outcome;
        (Some(attrs), Some(article))
    } else {
        (None, None)
    };
    let links = discover::raw_page_links(&decoded.text, attrs, input.final_url, input.max_links);
    let mut found = Found::new(input);
    found.hrefs(&links);
    // Feeds announced by start and section pages are new entry points; those
    // of article pages (per-article comment feeds) are not.
    if matches!(input.kind, UrlKind::Seed | UrlKind::Index) {
        for feed in &links.feeds {
            found.feed(feed);
        }
    }
    // The canonical URL (`link rel=canonical`, else `og:url`) in the
    // frontier's spelling, if it is on the site.
    let canonical = links
        .canonical
        .as_ref()
        .and_then(|c| frontier::normalize_for(input.site, c, input.trailing_slash))
        .filter(|c| input.site.owns(c));
    let mut known = Vec::new();
    match (&mut article, canonical) {
        (Some(a), Some(c)) => {
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
            a.canonical_url = Some(c.into());
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
        rule,
        urls_known: found.urls_known,
    }
}

/// Collects new frontier URLs of one document, deduplicated.
struct Found<'a> {
    input: &'a PageInput<'a>,
    seen: HashSet<Arc<str>>,
    urls: Vec<NewUrl>,
    /// Links left out as already in the frontier.
    urls_known: usize,
    /// The site has article or index patterns: plain pages are not followed.
    focused: bool,
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
            focused,
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
            if let Some(a) = v.admitted {
                if self.seen.insert(a.url.clone()) && a.follow {
                    follow.push(a);
                }
            }
        }
        if let Some(memo) = memo {
            memo.remember_all(learned);
        }
        // Built and sent are only the links the frontier may not have yet.
        let known = match memo.and_then(LinkMemo::committed) {
            Some(committed) => {
                let fingerprints: Vec<u128> = follow.iter().map(|a| a.fingerprint).collect();
                committed.known(&fingerprints)
            }
            None => vec![false; follow.len()],
        };
        for (a, known) in follow.into_iter().zip(known) {
            if known {
                self.urls_known += 1;
            } else {
                self.push_str(a.url.to_string(), a.kind);
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
                Admitted::new(url, kind, !(kind == UrlKind::Page && self.focused))
            });
        Verdict {
            resolved: Some(resolved),
            admitted,
        }
    }

    fn push_str(&mut self, url: String, kind: UrlKind) {
        self.urls.push(NewUrl {
            url,
            site: self.input.site.name.clone(),
            kind,
            depth: self.depth(),
            priority: frontier::priority(kind, self.depth()),
        });
    }

    fn push_link(&mut self, url: Url) {
        let kind = discover::classify(self.input.site, &url);
        if kind == UrlKind::Page && self.focused {
            return;
        }
        self.push(url, kind, frontier::priority(kind, self.depth()));
    }

    /// A feed or sitemap entry: fresh ones first.
    fn entry(&mut self, url: &Url, published: Option<&str>) {
        let Some(url) = self.accept(url) else { return };
        let kind = discover::classify(self.input.site, &url);
        let priority = frontier::entry_priority(kind, self.depth(), published, self.input.now_ms);
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
