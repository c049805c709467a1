//! Links of an HTML page, from the link attributes ([`LinkAttrs`]) that the
//! strip prepass collects on its way (on an extracted page, in extraction's
//! own pass; on any other page, that scan alone): each page is read once.
//!
//! In: a page's [`LinkAttrs`] and the page URL. Out: the base they resolve against
//! ([`base_of`]), the canonical URL (`link[rel=canonical]`, else `og:url`)
//! and feed links (`link[rel=alternate]` with an RSS/Atom/JSON feed type)
//! resolved; each href resolved against `<base href>` (or the page URL) and
//! normalised by [`resolve`]. Tests compare the two sources
//! (`one_pass`) with a stand-alone lol_html pass (`reference`, test only);
//! `PageLinks` (test only) is the reference result: followable
//! links (`a[href]`, `area[href]`, meta refresh targets) de-duplicated in
//! document order.

use url::Url;

use crate::extract::strip::links::LinkAttrs;
use crate::urls::normalize;

/// What a page links to.
#[cfg(test)]
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PageLinks {
    /// Anchors, in document order, without duplicates.
    pub links: Vec<Url>,
    /// `link[rel=canonical]`, or `og:url` when there is none.
    pub canonical: Option<Url>,
    /// Alternate RSS/Atom/JSON feeds the page announces.
    pub feeds: Vec<Url>,
}

/// Raw attribute values as found ([`LinkAttrs`]), resolved only at the end
/// because a `<base href>` anywhere in the document applies to every link.
#[cfg(test)]
type Raw = LinkAttrs;

#[cfg(test)]
pub(super) fn page_links(html: &str, page: &Url, max_links: usize) -> PageLinks {
    page_links_of(reference::scan_page(html, max_links), page, max_links)
}

/// [`page_links`] of raw attribute values collected elsewhere (by
/// extraction's prepass: [`crate::extract::strip::strip_collecting`]), which
/// reads a page whose corrupt `<title>` is repaired already.
#[cfg(test)]
pub(super) fn page_links_of(raw: LinkAttrs, page: &Url, max_links: usize) -> PageLinks {
    let mut links = resolve_all(raw, page);
    links.links.truncate(max_links);
    links
}

/// What the page's links are resolved against: its first `<base href>`
/// (an http(s) URL), else the page URL.
pub(super) fn base_of(raw: &LinkAttrs, page: &Url) -> Url {
    raw.base
        .as_deref()
        .and_then(|b| page.join(decode_entities(b.trim()).as_ref()).ok())
        .filter(|b| matches!(b.scheme(), "http" | "https"))
        .unwrap_or_else(|| page.clone())
}

/// The page's canonical URL and its feeds, resolved against `base`.
pub(super) fn canonical_and_feeds(raw: &LinkAttrs, base: &Url) -> (Option<Url>, Vec<Url>) {
    let resolve = |h: &str| resolve(base, h);
    let canonical = raw
        .canonical
        .as_deref()
        .and_then(resolve)
        .or_else(|| raw.og_url.as_deref().and_then(resolve));
    let feeds = dedup(raw.feeds.iter().filter_map(|h| resolve(h)));
    (canonical, feeds)
}

/// Raw hrefs kept for `max_links` links: room for duplicates, bounded (a
/// link farm page holds hundreds of thousands).
pub(super) fn max_raw_links(max_links: usize) -> usize {
    max_links.saturating_mul(RAW_PER_LINK)
}

/// Raw hrefs collected per link wanted (pages repeat links: menus, teasers).
const RAW_PER_LINK: usize = 4;

#[cfg(test)]
fn resolve_all(raw: Raw, page: &Url) -> PageLinks {
    let base = base_of(&raw, page);
    // Templates repeat the same href many times (menus, teaser cards with a
    // linked image and title, rails): resolving and normalising is the cost,
    // so each distinct href is resolved once.
    let mut hrefs = std::collections::HashSet::new();
    let distinct = raw.links.iter().filter(|h| hrefs.insert(h.as_str()));
    let links = dedup(distinct.filter_map(|h| resolve(&base, h)));
    let (canonical, feeds) = canonical_and_feeds(&raw, &base);
    PageLinks {
        links,
        canonical,
        feeds,
    }
}

/// An href resolved against `base` and normalised; `None` for fragments,
/// empty hrefs, non-web schemes and what does not parse.
pub(super) fn resolve(base: &Url, href: &str) -> Option<Url> {
    let href = decode_entities(href.trim());
    let lower = href.get(..11).unwrap_or(&href).to_ascii_lowercase();
    if href.is_empty()
        || href.starts_with('#')
        || ["javascript:", "mailto:", "tel:", "data:", "sms:"]
            .iter()
            .any(|s| lower.starts_with(s))
    {
        return None;
    }
    normalize(&base.join(&href).ok()?)
}

fn dedup(urls: impl Iterator<Item = Url>) -> Vec<Url> {
    let mut seen = std::collections::HashSet::new();
    urls.filter(|u| seen.insert(u.as_str().to_string()))
        .collect()
}

/// lol_html hands attribute values over raw: decode the character references
/// that occur in URLs (`&amp;` above all; numeric ones; the XML five).
fn decode_entities(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.contains('&') {
        return s.into();
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        let end = rest.find(';').filter(|&e| e <= 10);
        let decoded = end.and_then(|e| {
            let name = &rest[1..e];
            let c = match name {
                "amp" => Some('&'),
                "lt" => Some('<'),
                "gt" => Some('>'),
                "quot" => Some('"'),
                "apos" => Some('\''),
                _ => {
                    let n = name.strip_prefix('#')?;
                    let code = match n.strip_prefix(['x', 'X']) {
                        Some(h) => u32::from_str_radix(h, 16).ok()?,
                        None => n.parse().ok()?,
                    };
                    char::from_u32(code)
                }
            };
            c.map(|c| (c, e))
        });
        match decoded {
            Some((c, e)) => {
                out.push(c);
                rest = &rest[e + 1..];
            }
            None => {
                // A bare `&` (common in hand-written query strings).
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out.into()
}

#[cfg(test)]
mod tests {
    use super::reference::neutralise_unclosed_title;
    use super::*;
    use crate::extract::strip::links::refresh_target;

    fn page() -> Url {
        Url::parse("https://news.example.com/world/story.html").unwrap()
    }

    fn strs(v: &[Url]) -> Vec<&str> {
        v.iter().map(Url::as_str).collect()
    }

    #[test]
    fn resolves_normalises_and_skips_non_http_links() {
        let html = r##"<html><body>
            <a href="/politics/a1.html#top">one</a>
            <a href="other.html?utm_source=x&amp;id=7">two</a>
            <a href="javascript:void(0)">js</a>
            <A HREF="MailTo:desk@example.com">mail</A>
            <a href="#comments">frag</a>
            <a href="">empty</a>
            <a href="  https://Other.example.org:443/x  ">abs</a>
            <a href="/politics/a1.html">dup</a>
            <a>no href</a>
            <area href="/map.html">
        </body></html>"##;
        let got = page_links(html, &page(), usize::MAX);
        assert_eq!(
            strs(&got.links),
            [
                "https://news.example.com/politics/a1.html",
                "https://news.example.com/world/other.html?id=7",
                "https://other.example.org/x",
                "https://news.example.com/map.html",
            ]
        );
        assert_eq!(got.canonical, None);
    }

    #[test]
    fn base_href_applies_to_links_before_and_after_it() {
        let html = r#"<a href="a.html">a</a><head><base href="https://cdn.example.com/en/"></head>
            <a href="b.html">b</a><base href="https://ignored.example.com/">"#;
        let got = page_links(html, &page(), usize::MAX);
        assert_eq!(
            strs(&got.links),
            [
                "https://cdn.example.com/en/a.html",
                "https://cdn.example.com/en/b.html"
            ]
        );
    }

    #[test]
    fn canonical_and_feeds_from_link_tags() {
        let html = r#"<head>
            <meta property="og:url" content="https://news.example.com/og">
            <link rel="Canonical" href="/world/story.html?utm_medium=social">
            <link rel="alternate" type="application/rss+xml" href="/rss.xml">
            <link rel="alternate" type="application/atom+xml" href="https://news.example.com/atom">
            <link rel="alternate" hreflang="fr" href="/fr/story.html">
            <link rel="stylesheet" href="/s.css">
        </head>"#;
        let got = page_links(html, &page(), usize::MAX);
        assert_eq!(
            got.canonical.as_ref().map(Url::as_str),
            Some("https://news.example.com/world/story.html")
        );
        assert_eq!(
            strs(&got.feeds),
            [
                "https://news.example.com/rss.xml",
                "https://news.example.com/atom"
            ]
        );
        assert!(got.links.is_empty());
    }

    #[test]
    fn og_url_is_the_canonical_fallback() {
        let html = r#"<meta property="og:url" content="https://news.example.com/og?a=1&amp;b=2">"#;
        let got = page_links(html, &page(), usize::MAX);
        assert_eq!(
            got.canonical.as_ref().map(Url::as_str),
            Some("https://news.example.com/og?a=1&b=2")
        );
    }

    #[test]
    fn broken_html_does_not_panic() {
        for html in [
            "<a href=",
            "<a href='/x",
            "<<<>>><a href=\"/ok\">",
            "<base href='javascript:alert(1)'><a href='/y'>",
            "\u{0}\u{feff}<a href=/z>",
        ] {
            let _ = page_links(html, &page(), usize::MAX);
        }
        let got = page_links(
            "<base href='javascript:x'><a href='/y'>",
            &page(),
            usize::MAX,
        );
        assert_eq!(strs(&got.links), ["https://news.example.com/y"]);
    }

    #[test]
    fn links_survive_an_unclosed_title() {
        // Regression: a BBC page of page-signal-dev ("<title>BBC SPORTi library-->").
        let html = "<html><head><title>Sport library-->\n<script src=x.js></script></head>\n\
                    <body><a href=\"/sport/1.stm\">one</a><A HREF='/sport/2.stm'>two</A></body>";
        let got = page_links(html, &page(), usize::MAX);
        assert_eq!(
            strs(&got.links),
            [
                "https://news.example.com/sport/1.stm",
                "https://news.example.com/sport/2.stm"
            ]
        );
        assert_eq!(
            neutralise_unclosed_title("<title>ok</title><a href=x>"),
            None
        );
    }

    #[test]
    fn meta_refresh_is_a_link() {
        let html = r#"<meta http-equiv="Refresh" content="0; URL='/moved/story.html'">
            <meta http-equiv="refresh" content="300">"#;
        let got = page_links(html, &page(), usize::MAX);
        assert_eq!(
            strs(&got.links),
            ["https://news.example.com/moved/story.html"]
        );
        assert_eq!(refresh_target("5;url=x.html"), Some("x.html"));
        assert_eq!(refresh_target("5"), None);
        assert_eq!(refresh_target("5; url="), None);
    }

    #[test]
    fn entities_decode() {
        assert_eq!(decode_entities("a&amp;b&#38;c&#x26;d&e;f&"), "a&b&c&d&e;f&");
    }
}

#[cfg(test)]
mod capped {
    use super::*;

    #[test]
    fn regression_a_link_farm_page_kept_every_one_of_its_links_in_memory() {
        let mut html = String::from("<html><body>");
        for i in 0..10_000 {
            html.push_str(&format!(
                "<a href=\"/p/{i}\">{i}</a><a href=\"/p/{i}\">again</a>"
            ));
        }
        let page = Url::parse("http://example.com/").expect("url");
        let got = page_links(&html, &page, 100);
        assert_eq!(got.links.len(), 100);
        assert_eq!(got.links[0].as_str(), "http://example.com/p/0");
        assert_eq!(got.links[99].as_str(), "http://example.com/p/99");
        assert_eq!(page_links(&html, &page, usize::MAX).links.len(), 10_000);
    }
}

#[cfg(test)]
mod one_pass;
#[cfg(test)]
mod reference;
