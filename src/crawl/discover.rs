//! Fetched page/feed/sitemap → URLs to crawl (pure).
//!
//! In: HTML (links via a lol_html pass), RSS/Atom/JSON feeds (feed-rs),
//! sitemaps and sitemap indexes incl. Google News (quick-xml), robots.txt
//! `Sitemap:` lines. Out: absolute, normalised URLs with what is known about
//! them. Every function here is pure and total: bad input gives an error or
//! nothing, never a panic.

mod feeds;
mod html;
mod sitemap;

use url::Url;

pub use html::PageLinks;

use crate::config::SiteConfig;
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
    /// `<sitemapindex>`: more sitemaps.
    Index(Vec<Url>),
    /// `<urlset>`: pages.
    Urls(Vec<Entry>),
}

/// Links of an HTML page (`a[href]`, `link[rel=canonical]`...), resolved
/// against `base` (and `<base href>`), http(s) only.
///
/// Everything a page points at, flattened: anchors, then the canonical URL,
/// then announced feeds. Use [`page_links`] to tell them apart.
pub fn html_links(html: &str, base: &Url) -> Vec<Url> {
    let p = html::page_links(html, base, usize::MAX);
    let mut out = p.links;
    for u in p.canonical.into_iter().chain(p.feeds) {
        if !out.contains(&u) {
            out.push(u);
        }
    }
    out
}

/// Links of an HTML page, with the canonical URL (`link[rel=canonical]`,
/// else `og:url`) and alternate feeds kept apart from the anchors.
pub fn page_links(html: &str, base: &Url) -> PageLinks {
    html::page_links(html, base, usize::MAX)
}

/// [`page_links`] keeping only the first `max_links` anchors (document order,
/// after de-duplication): the crawler's bound against link farms.
pub fn page_links_capped(html: &str, base: &Url, max_links: usize) -> PageLinks {
    html::page_links(html, base, max_links)
}

/// Entries of an RSS/Atom/JSON feed.
pub fn feed_entries(bytes: &[u8], base: &Url) -> Result<Vec<Entry>, DiscoverError> {
    feeds::feed_entries(bytes, base)
}

/// Parse a sitemap or sitemap index (plain or gzip-compressed).
pub fn sitemap(bytes: &[u8], base: &Url) -> Result<Sitemap, DiscoverError> {
    sitemap::sitemap(bytes, base)
}

/// How a site's URL should be treated: `Article`, `Index` or `Page`.
/// Article patterns win over index patterns when both match.
pub fn classify(site: &SiteConfig, url: &Url) -> UrlKind {
    if site.is_article(url) {
        UrlKind::Article
    } else if site.is_index(url) {
        UrlKind::Index
    } else {
        UrlKind::Page
    }
}

/// The `Sitemap:` lines of a robots.txt (absolute http(s) URLs only, as the
/// protocol requires; the field name is case-insensitive and applies
/// outside any user-agent group).
pub fn robots_sitemaps(robots_txt: &str) -> Vec<Url> {
    let mut out: Vec<Url> = Vec::new();
    for line in robots_txt.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        if !key.trim().eq_ignore_ascii_case("sitemap") {
            continue;
        }
        let url = Url::parse(value.trim())
            .ok()
            .and_then(|u| crate::urls::normalize(&u));
        if let Some(u) = url {
            if !out.contains(&u) {
                out.push(u);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use regex::Regex;

    use super::*;

    fn site() -> SiteConfig {
        SiteConfig {
            name: "ex".into(),
            start_urls: vec![],
            feeds: vec![],
            sitemaps: vec![],
            article_patterns: vec![Regex::new(r"/\d{4}/\d{2}/\d{2}/[^/]+\.html$").unwrap()],
            index_patterns: vec![Regex::new(r"/(section|world)/?$").unwrap()],
            hosts: vec!["news.example.com".into()],
            rate: None,
            boilerplate: None,
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
    fn html_links_flattens_canonical_and_feeds() {
        let base = Url::parse("https://news.example.com/x.html").unwrap();
        let html = r#"<link rel="canonical" href="/x.html"><link rel="alternate"
            type="application/rss+xml" href="/rss"><a href="/y.html">y</a><a href="/x.html">x</a>"#;
        let got: Vec<String> = html_links(html, &base)
            .into_iter()
            .map(String::from)
            .collect();
        assert_eq!(
            got,
            [
                "https://news.example.com/y.html",
                "https://news.example.com/x.html",
                "https://news.example.com/rss"
            ]
        );
    }

    #[test]
    fn robots_sitemap_lines() {
        let txt =
            "User-agent: *\nDisallow: /private\nSitemap: https://news.example.com/sitemap.xml\n\
                   sitemap:https://news.example.com/news.xml # news\nSITEMAP: /relative.xml\n\
                   Sitemap: ftp://x/y\nSitemap: https://news.example.com/sitemap.xml\n";
        let got: Vec<String> = robots_sitemaps(txt).into_iter().map(String::from).collect();
        assert_eq!(
            got,
            [
                "https://news.example.com/sitemap.xml",
                "https://news.example.com/news.xml"
            ]
        );
        assert!(robots_sitemaps("").is_empty());
    }

    /// Run by hand: `cargo test --lib discover_corpus -- --ignored --nocapture`.
    /// Link extraction over every page of ../shared/corpus: no panic, and
    /// pages with anchors yield links.
    #[test]
    #[ignore]
    fn discover_corpus_pages() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
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
                let found = html_links(&html, &base);
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
