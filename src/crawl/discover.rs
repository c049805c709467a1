//! Fetched page/feed/sitemap → URLs to crawl (pure).
//!
//! In: HTML (links via a lol_html pass), RSS/Atom/JSON feeds (feed-rs),
//! sitemaps and sitemap indexes incl. Google News (quick-xml), robots.txt
//! `Sitemap:` lines. Out: absolute URLs with what is known about them.

use url::Url;

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
pub fn html_links(html: &str, base: &Url) -> Vec<Url> {
    let _ = (html, base);
    todo!()
}

/// Entries of an RSS/Atom/JSON feed.
pub fn feed_entries(bytes: &[u8], base: &Url) -> Result<Vec<Entry>, DiscoverError> {
    let _ = (bytes, base);
    todo!()
}

/// Parse a sitemap or sitemap index.
pub fn sitemap(bytes: &[u8], base: &Url) -> Result<Sitemap, DiscoverError> {
    let _ = (bytes, base);
    todo!()
}

/// How a site's URL should be treated: `Article`, `Index` or `Page`.
pub fn classify(site: &SiteConfig, url: &Url) -> UrlKind {
    let _ = (site, url);
    todo!()
}
