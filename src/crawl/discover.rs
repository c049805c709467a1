//! Fetched page/feed/sitemap → URLs to crawl (pure).
//!
//! In: HTML (links from the link attributes that extraction's prepass
//! collects in its pass over an extracted page, or that prepass alone), RSS/Atom/JSON feeds (feed-rs),
//! sitemaps and sitemap indexes incl. Google News (quick-xml), robots.txt
//! `Sitemap:` lines. Out: absolute, normalised URLs with what is known about
//! them. Every function here is pure and total: bad input gives an error or
//! nothing, never a panic.

mod feed_items;
mod feeds;
mod html;
mod sitemap;

use url::Url;

#[cfg(test)]
pub use html::PageLinks;

use crate::config::SiteSettings;
use crate::extract::strip::links::LinkAttrs;
use crate::store::UrlKind;

#[derive(Debug, thiserror::Error)]
pub enum DiscoverError {
    #[error("not a feed: {0}")]
    Feed(String),
    #[error("not a sitemap: {0}")]
    Sitemap(String),
}

/// A URL found in a feed or sitemap, with its dates if given.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub url: Url,
    pub title: Option<String>,
    /// RFC 3339 (feed published/updated, sitemap lastmod or news:publication_date).
    pub published: Option<String>,
}

/// What a sitemap document holds.
#[derive(Debug, Clone, PartialEq)]
pub enum Sitemap {
    /// `<sitemapindex>`: more sitemaps, with their `lastmod` as
    /// `published`.
    Index(Vec<Entry>),
    /// `<urlset>`: pages.
    Urls(Vec<Entry>),
}

/// Links of an HTML page, with the canonical URL (`link[rel=canonical]`,
/// else `og:url`) and alternate feeds kept apart from the anchors; only the
/// first `max_links` anchors (document order, after de-duplication): the
/// crawler's bound against link farms.
#[cfg(test)]
pub fn page_links(html: &str, base: &Url, max_links: usize) -> PageLinks {
    html::page_links(html, base, max_links)
}

/// An empty collector of a page's link attributes for extraction's prepass
/// to fill (`Page::collect_links` of [`crate::extract::Page`]), bounded as
/// [`page_links`] bounds its own pass.
pub fn link_attrs_for(max_links: usize) -> LinkAttrs {
    LinkAttrs::new(html::max_raw_links(max_links))
}

/// [`page_links`] from the link attributes extraction collected while it
/// read the page: one pass over an article page instead of two. Gives what
/// [`page_links`] gives for the same page (pinned by tests).
#[cfg(test)]
pub fn page_links_of(attrs: LinkAttrs, base: &Url, max_links: usize) -> PageLinks {
    html::page_links_of(attrs, base, max_links)
}

/// A page's links before its anchors are resolved: the crawler resolves
/// them itself, remembering what each href of a site came to
/// ([`crate::crawl::page`]'s link memo).
#[derive(Debug, Clone, PartialEq)]
pub struct RawPageLinks {
    /// What the hrefs are resolved against ([`resolve_href`]): the first
    /// `<base href>`, else the page URL.
    pub base: Url,
    /// Anchor hrefs as found, in document order (duplicates included).
    pub hrefs: Vec<String>,
    /// As in [`PageLinks`].
    pub canonical: Option<Url>,
    /// As in [`PageLinks`].
    pub feeds: Vec<Url>,
}

/// [`RawPageLinks`] of a page, from the link attributes extraction collected
/// in its pass, or (`attrs: None`, a page that is not extracted) from that
/// pass's byte scan alone ([`crate::extract::strip::collect_links`]): every
/// page is read once, by the same scan. Resolving
/// `hrefs` with [`resolve_href`], de-duplicating and keeping the first
/// `max_links` gives [`PageLinks::links`].
pub fn raw_page_links(
    html: &str,
    attrs: Option<LinkAttrs>,
    page: &Url,
    max_links: usize,
) -> RawPageLinks {
    let attrs = attrs.unwrap_or_else(|| {
        let mut attrs = link_attrs_for(max_links);
        crate::extract::strip::collect_links(html, &mut attrs);
        attrs
    });
    let base = html::base_of(&attrs, page);
    let (canonical, feeds) = html::canonical_and_feeds(&attrs, &base);
    RawPageLinks {
        base,
        hrefs: attrs.links,
        canonical,
        feeds,
    }
}

/// An href of a page resolved against its base and normalised: `None` for
/// fragments, empty hrefs, non-web schemes and what does not parse.
pub fn resolve_href(base: &Url, href: &str) -> Option<Url> {
    html::resolve(base, href)
}

/// How much of a feed or sitemap is read: its first `max` entries (the
/// same bound for both, `[crawler] max_entries_per_feed`), and whether the
/// body was cut short at the body limit, so that the whole entries before
/// the cut are read (a broken document is otherwise an error).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EntryBound {
    pub max: usize,
    pub cut: bool,
}

impl EntryBound {
    /// Every entry of a whole document.
    pub const WHOLE: EntryBound = EntryBound {
        max: usize::MAX,
        cut: false,
    };
}

/// Entries of an RSS/Atom/JSON feed.
pub fn feed_entries(bytes: &[u8], base: &Url) -> Result<Vec<Entry>, DiscoverError> {
    feed_entries_within(bytes, base, EntryBound::WHOLE).map(|(entries, _)| entries)
}

/// The first entries of an RSS/Atom/JSON feed under `bound`, and whether
/// any were left out. A large XML feed is parsed a few hundred entries at
/// a time, so its size does not multiply into memory.
pub fn feed_entries_within(
    bytes: &[u8],
    base: &Url,
    bound: EntryBound,
) -> Result<(Vec<Entry>, bool), DiscoverError> {
    feeds::feed_entries_within(bytes, base, bound)
}

/// Parse a sitemap or sitemap index (plain or gzip-compressed).
pub fn sitemap(bytes: &[u8], base: &Url) -> Result<Sitemap, DiscoverError> {
    sitemap_within(bytes, base, EntryBound::WHOLE).map(|(map, _)| map)
}

/// A sitemap's first pages under `bound` (an index's sitemaps have their
/// own bound, `max_sitemaps_per_index`), and whether any were left out.
pub fn sitemap_within(
    bytes: &[u8],
    base: &Url,
    bound: EntryBound,
) -> Result<(Sitemap, bool), DiscoverError> {
    sitemap::sitemap(bytes, base, bound)
}

/// The usual paths of a site's feeds and sitemaps, tried (in this order)
/// when the site announces none, with what each is expected to be.
pub const PROBE_PATHS: [(&str, UrlKind); 5] = [
    ("/feed", UrlKind::Feed),
    ("/rss", UrlKind::Feed),
    ("/sitemap.xml", UrlKind::Sitemap),
    ("/news-sitemap.xml", UrlKind::Sitemap),
    ("/sitemap_index.xml", UrlKind::Sitemap),
];

/// What a probed body is: a feed or a sitemap (tried as `expected` first),
/// or `None` (a soft 404 page, anything else).
pub fn probed_kind(body: &[u8], url: &Url, expected: UrlKind) -> Option<UrlKind> {
    let feed = || feed_entries(body, url).is_ok();
    let map = || sitemap(body, url).is_ok();
    match expected {
        UrlKind::Sitemap if map() => Some(UrlKind::Sitemap),
        _ if feed() => Some(UrlKind::Feed),
        _ if map() => Some(UrlKind::Sitemap),
        _ => None,
    }
}

/// How a site's URL should be treated: `Article`, `Index` or `Page`.
/// Article patterns win over index patterns when both match.
pub fn classify(site: &SiteSettings, url: &Url) -> UrlKind {
    if site.is_article(url) {
        UrlKind::Article
    } else if site.is_index(url) {
        UrlKind::Index
    } else {
        UrlKind::Page
    }
}

#[cfg(test)]
mod tests {
    use regex::Regex;

    use super::*;

    fn site() -> SiteSettings {
        SiteSettings {
            name: "ex".into(),
            start_urls: vec![],
            feeds: vec![],
            sitemaps: vec![],
            article_patterns: vec![Regex::new(r"/\d{4}/\d{2}/\d{2}/[^/]+\.html$").unwrap()],
            index_patterns: vec![Regex::new(r"/(section|world)/?$").unwrap()],
            hosts: vec!["news.example.com".into()],
            rate: 1.0,
            lines: crate::boilerplate::LineSettings::default(),
            merge_www: true,
            timezone: None,
        }
    }

    #[test]
    fn classify_by_patterns() {
        let u = |s: &str| Url::parse(s).unwrap();
        let s = site();
        assert_eq!(
            classify(&s, &u("https://news.example.com/2026/11/26/budget.html")),
            UrlKind::Article
        );
        assert_eq!(
            classify(&s, &u("https://news.example.com/world/")),
            UrlKind::Index
        );
        assert_eq!(
            classify(&s, &u("https://news.example.com/about")),
            UrlKind::Page
        );
    }

    #[test]
    fn a_probed_body_is_kept_only_when_it_is_a_feed_or_a_sitemap() {
        let url = Url::parse("http://h.test/feed").unwrap();
        let rss = br#"<?xml version="1.0"?><rss version="2.0"><channel><title>t</title>
<item><link>http://h.test/a/1</link></item></channel></rss>"#;
        let map = br#"<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://h.test/a/1</loc></url></urlset>"#;
        assert_eq!(probed_kind(rss, &url, UrlKind::Feed), Some(UrlKind::Feed));
        assert_eq!(
            probed_kind(map, &url, UrlKind::Sitemap),
            Some(UrlKind::Sitemap)
        );
        // A sitemap at a feed's path is still a sitemap.
        assert_eq!(
            probed_kind(map, &url, UrlKind::Feed),
            Some(UrlKind::Sitemap)
        );
        // A soft 404: an HTML page answered for any path.
        let html = b"<html><body><h1>Not found</h1></body></html>";
        assert_eq!(probed_kind(html, &url, UrlKind::Feed), None);
    }

    /// Run by hand: `cargo test --lib discover_corpus -- --ignored --nocapture`.
    /// Link extraction over every page of the corpus (tests/corpus): no panic, and
    /// pages with anchors yield links.
    #[test]
    #[ignore]
    fn discover_corpus_pages() {
        let root = crate::corpus_archive::repo_corpus();
        let base = Url::parse("https://corpus.example.com/a/b.html").unwrap();
        let (mut pages, mut links, mut bytes) = (0, 0, 0);
        let t = std::time::Instant::now();
        for set in ["cleaneval-dev", "cleanportaleval", "page-signal-dev"] {
            let Ok(dir) = std::fs::read_dir(root.join(set).join("html")) else {
                continue;
            };
            for f in dir.flatten() {
                let raw = std::fs::read(f.path()).unwrap();
                let html = String::from_utf8_lossy(&raw);
                let found = page_links(&html, &base, usize::MAX).links;
                if html.contains("<a href") {
                    assert!(!found.is_empty(), "{:?}", f.path());
                }
                pages += 1;
                links += found.len();
                bytes += raw.len();
            }
        }
        let el = t.elapsed();
        println!(
            "{pages} pages, {links} links, {:.1} MB in {el:?} ({:.0} MB/s)",
            bytes as f64 / 1e6,
            bytes as f64 / 1e6 / el.as_secs_f64()
        );
    }
}
