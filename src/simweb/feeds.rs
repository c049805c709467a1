//! Machine-readable documents of a site: robots.txt, RSS 2.0, sitemaps.
//!
//! In: the site's content and base URL. Out: the text of `/robots.txt`
//! (`Disallow: /private/` plus `Sitemap:`), `/rss.xml` (every article),
//! `/sitemap.xml` (a `<urlset>`, or for the Chinese site a `<sitemapindex>`
//! pointing at a Google News sitemap and an archive sitemap).

use std::fmt::Write;

use url::Url;

use super::pages::esc;
use super::site::{SiteContent, Template};

/// Sitemap documents a site serves, by path.
pub const SITEMAP: &str = "/sitemap.xml";
pub const NEWS_SITEMAP: &str = "/sitemap-news.xml";
pub const ARCHIVE_SITEMAP: &str = "/sitemap-archive.xml";

/// Articles in the Google News sitemap (the rest go to the archive sitemap).
const NEWS_COUNT: usize = 10;

pub fn robots(site: &SiteContent, base: &Url, crawl_delay: Option<f64>) -> String {
    let delay = crawl_delay.map_or_else(String::new, |d| format!("Crawl-delay: {d}\n"));
    format!(
        "# robots.txt for {name}\n\
         User-agent: BadBot\nDisallow: /\n\n\
         User-agent: *\nDisallow: /private/\nDisallow: /share/\nAllow: /\n{delay}\n\
         Sitemap: {sitemap}\n",
        name = site.display,
        sitemap = join(base, SITEMAP),
    )
}

fn join(base: &Url, path: &str) -> String {
    base.join(path)
        .map_or_else(|_| base.to_string(), |u| u.to_string())
}

pub fn rss(site: &SiteContent, base: &Url) -> String {
    let mut x = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\">\n<channel>\n\
         <title>{name}</title>\n<link>{base}</link>\n<description>Latest news from {name}</description>\n\
         <language>{lang}</language>\n",
        name = esc(&site.display),
        base = esc(base.as_str()),
        lang = site.lang.code(),
    );
    for a in &site.articles {
        let mut url = join(base, &a.path);
        // Le Globe tags its feed links, as many publishers do; the server
        // ignores the query and the crawler should normalise it away.
        if site.template == Template::Globe {
            url.push_str("?utm_source=rss&utm_medium=feed");
        }
        let _ = write!(
            x,
            "<item>\n<title>{title}</title>\n<link>{url}</link>\n<guid isPermaLink=\"true\">{url}</guid>\n\
             <pubDate>{date}</pubDate>\n<description>{teaser}</description>\n</item>\n",
            title = esc(&a.title),
            url = esc(&url),
            date = a.published.rfc2822(),
            teaser = esc(&a.teaser),
        );
    }
    x.push_str("</channel>\n</rss>\n");
    x
}

/// `/sitemap.xml`: a urlset of every article, or (Huaxia) a sitemap index.
pub fn sitemap(site: &SiteContent, base: &Url) -> String {
    if site.template == Template::Huaxia {
        return format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
             <sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n\
             <sitemap><loc>{}</loc></sitemap>\n<sitemap><loc>{}</loc></sitemap>\n</sitemapindex>\n",
            esc(&join(base, NEWS_SITEMAP)),
            esc(&join(base, ARCHIVE_SITEMAP)),
        );
    }
    urlset(site, base, 0..site.articles.len())
}

/// The archive sitemap: articles not in the news sitemap.
pub fn archive_sitemap(site: &SiteContent, base: &Url) -> String {
    urlset(
        site,
        base,
        NEWS_COUNT.min(site.articles.len())..site.articles.len(),
    )
}

fn urlset(site: &SiteContent, base: &Url, range: std::ops::Range<usize>) -> String {
    let mut x = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for a in &site.articles[range] {
        let _ = writeln!(
            x,
            "<url><loc>{}</loc><lastmod>{}</lastmod><changefreq>never</changefreq></url>",
            esc(&join(base, &a.path)),
            a.published.rfc3339()
        );
    }
    x.push_str("</urlset>\n");
    x
}

/// A Google News sitemap of the newest articles.
pub fn news_sitemap(site: &SiteContent, base: &Url) -> String {
    let mut x = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" \
         xmlns:news=\"http://www.google.com/schemas/sitemap-news/0.9\">\n",
    );
    for a in site.articles.iter().take(NEWS_COUNT) {
        let _ = writeln!(
            x,
            "<url><loc>{loc}</loc><news:news><news:publication><news:name>{name}</news:name>\
             <news:language>{lang}</news:language></news:publication>\
             <news:publication_date>{date}</news:publication_date><news:title>{title}</news:title></news:news></url>",
            loc = esc(&join(base, &a.path)),
            name = esc(&site.display),
            lang = site.lang.code(),
            date = a.published.rfc3339(),
            title = esc(&a.title),
        );
    }
    x.push_str("</urlset>\n");
    x
}
