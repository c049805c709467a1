//! The stand-alone lol_html pass over a page's links: the reference that the
//! crawl's own scan (the strip prepass, [`crate::extract::strip::collect_links`]
//! and [`crate::extract::strip::strip_collecting`]) is tested against.
//!
//! In: decoded HTML. Out: its raw link attributes ([`LinkAttrs`]), as the
//! lol_html selectors `a[href]`, `area[href]`, `base[href]`,
//! `link[href][rel]`, `meta[property][content]` and
//! `meta[http-equiv][content]` find them.

use std::cell::RefCell;

use lol_html::{element, HtmlRewriter, Settings};

use super::{max_raw_links, Raw};
use crate::extract::strip::links::{refresh_target, LinkAttrs, FEED_TYPES};

/// The raw link attributes of a page, from a lol_html pass of its own: the
/// reference the crawl's prepass scan is tested against.
pub(super) fn scan_page(html: &str, max_links: usize) -> LinkAttrs {
    let max_raw = max_raw_links(max_links);
    let mut raw = scan(html, max_raw);
    if raw.links.is_empty() {
        // An unclosed <title> makes the rest of the page title text (as the
        // HTML spec says, and as lol_html does): old pages do this, and their
        // links are still wanted. Rename the tag and scan again.
        if let Some(fixed) = neutralise_unclosed_title(html) {
            raw = scan(&fixed, max_raw);
        }
    }
    raw
}

/// One lol_html pass collecting raw attribute values (at most `max_raw`
/// link hrefs).
fn scan(html: &str, max_raw: usize) -> Raw {
    let raw = RefCell::new(Raw::new(max_raw));
    {
        let settings = Settings::new()
            .with_strict(false)
            .append_element_content_handler(element!("a[href], area[href]", |el| {
                let mut r = raw.borrow_mut();
                if r.links.len() < max_raw {
                    if let Some(h) = el.get_attribute("href") {
                        r.links.push(h);
                    }
                }
                Ok(())
            }))
            .append_element_content_handler(element!("base[href]", |el| {
                let mut r = raw.borrow_mut();
                // Only the first <base href> counts (HTML spec).
                if r.base.is_none() {
                    r.base = el.get_attribute("href");
                }
                Ok(())
            }))
            .append_element_content_handler(element!("link[href][rel]", |el| {
                let rel = el
                    .get_attribute("rel")
                    .unwrap_or_default()
                    .to_ascii_lowercase();
                let href = el.get_attribute("href");
                let mut r = raw.borrow_mut();
                let rels: Vec<&str> = rel.split_ascii_whitespace().collect();
                if rels.contains(&"canonical") && r.canonical.is_none() {
                    r.canonical = href;
                } else if rels.contains(&"alternate") {
                    let ty = el.get_attribute("type").unwrap_or_default();
                    let ty = ty.trim().to_ascii_lowercase();
                    if FEED_TYPES.contains(&ty.as_str()) {
                        r.feeds.extend(href);
                    }
                }
                Ok(())
            }))
            .append_element_content_handler(element!("meta[property][content]", |el| {
                let prop = el.get_attribute("property").unwrap_or_default();
                let mut r = raw.borrow_mut();
                if prop.eq_ignore_ascii_case("og:url") && r.og_url.is_none() {
                    r.og_url = el.get_attribute("content");
                }
                Ok(())
            }))
            .append_element_content_handler(element!("meta[http-equiv][content]", |el| {
                // <meta http-equiv="refresh" content="0; url=/moved.html">: a
                // redirect some sites use instead of HTTP 3xx.
                let equiv = el.get_attribute("http-equiv").unwrap_or_default();
                if equiv.eq_ignore_ascii_case("refresh") {
                    let content = el.get_attribute("content").unwrap_or_default();
                    if let Some(target) = refresh_target(&content) {
                        raw.borrow_mut().links.push(target.to_string());
                    }
                }
                Ok(())
            }));
        let mut rewriter = HtmlRewriter::new(settings, |_: &[u8]| {});
        // A rewriting error (memory limit on a pathological page) ends the
        // pass; the links found so far are still good.
        if rewriter.write(html.as_bytes()).is_ok() {
            let _ = rewriter.end();
        }
    }
    raw.into_inner()
}

/// The page with `<title` renamed when a title is opened but never closed.
pub(super) fn neutralise_unclosed_title(html: &str) -> Option<String> {
    let lower = html.to_ascii_lowercase();
    if !lower.contains("<title") || lower.contains("</title") {
        return None;
    }
    // ASCII lowercasing keeps byte offsets, so positions carry over.
    let mut out = String::with_capacity(html.len());
    let mut last = 0;
    for (at, _) in lower.match_indices("<title") {
        out.push_str(&html[last..at]);
        out.push_str("<x-title");
        last = at + "<title".len();
    }
    out.push_str(&html[last..]);
    Some(out)
}
