//! Large templated pages: the furniture of a real news site wrapped around
//! the simulated web's own pages ([`super::Behaviour::large_pages`]).
//!
//! In: a rendered HTML page of a site, its path and the site's content. Out:
//! the same page with a mega navigation after `<body …>` and, before
//! `</body>`, a related-stories rail, a tag cloud, "more from" teaser cards,
//! a footer of link columns, an inline JSON state script and promo blocks —
//! 300+ links and 60–400 KB in all, the size chosen per path (so the same
//! page is always the same bytes). Related and "more from" cards link real
//! articles of the site (most of them already known to a crawler that has
//! been on the site a while); tag, topic and footer links match no article
//! or index pattern. The article's own markup is untouched, so its true body
//! is still what extraction must find.

use std::fmt::Write;

use super::pages::esc;
use super::site::{fnv1a, SiteContent};

/// Smallest and largest page after enlarging.
pub const MIN_BYTES: usize = 60 * 1024;
pub const MAX_BYTES: usize = 400 * 1024;
/// Links of the mega navigation (topics), tag cloud and footer.
const TOPICS: usize = 60;
const TAGS: usize = 120;
const FOOTER_LINKS: usize = 64;
/// Related-story cards in the rail.
const RELATED: usize = 40;

/// Words for topic, tag and footer labels (any language: only their links
/// and length matter).
const WORDS: &[&str] = &[
    "climate",
    "markets",
    "elections",
    "football",
    "health",
    "technology",
    "energy",
    "housing",
    "education",
    "transport",
    "courts",
    "music",
    "film",
    "books",
    "travel",
    "science",
    "space",
    "weather",
    "crime",
    "trade",
    "europe",
    "asia",
    "africa",
    "americas",
    "media",
    "fashion",
    "food",
    "religion",
    "opinion",
    "obituaries",
    "podcasts",
    "video",
    "puzzles",
    "letters",
];

/// The page's target size in bytes: fixed per path, spread over
/// [`MIN_BYTES`, `MAX_BYTES`].
pub fn target_bytes(path: &str) -> usize {
    let span = (MAX_BYTES - MIN_BYTES) as u64;
    MIN_BYTES + (fnv1a(path.as_bytes()) % span) as usize
}

fn word(i: usize) -> &'static str {
    WORDS[i % WORDS.len()]
}

/// `html` with the furniture inserted; a page without `<body` and
/// `</body>` is returned unchanged.
pub fn enlarge(html: &str, path: &str, site: &SiteContent) -> String {
    let Some(body_open) = html
        .find("<body")
        .and_then(|i| Some(i + html[i..].find('>')? + 1))
    else {
        return html.to_string();
    };
    let Some(body_close) = html.rfind("</body>").filter(|&c| c >= body_open) else {
        return html.to_string();
    };
    let seed = fnv1a(path.as_bytes()) as usize;
    let target = target_bytes(path);
    let top = mega_nav(site);
    let mut bottom = String::with_capacity(target);
    related_rail(&mut bottom, site, seed);
    tag_cloud(&mut bottom, seed);
    footer(&mut bottom, site);
    let fixed = html.len() + top.len() + bottom.len();
    let room = target.saturating_sub(fixed);
    // The rest, half markup (teaser cards and promos the parser must build)
    // and half inline script (what a stripper removes cheaply), as on real
    // pages.
    more_from(&mut bottom, site, seed, room / 2);
    state_script(&mut bottom, site, seed, room - room / 2);
    let mut out = String::with_capacity(fixed + room + 64);
    out.push_str(&html[..body_open]);
    out.push_str(&top);
    out.push_str(&html[body_open..body_close]);
    out.push_str(&bottom);
    out.push_str(&html[body_close..]);
    out
}

fn mega_nav(site: &SiteContent) -> String {
    let mut h = String::from("\n<header class=\"mega-header\"><nav class=\"mega-menu\"><ul>");
    for (s, section) in site.sections.iter().enumerate() {
        let _ = write!(
            h,
            "<li class=\"menu-section\"><a href=\"{}\">{}</a><ul class=\"submenu\">",
            esc(&site.section_path(s, 1)),
            esc(section.label)
        );
        for k in 0..TOPICS / site.sections.len().max(1) {
            let _ = write!(
                h,
                "<li><a href=\"/topics/{}/{}-{k}/\">{} {k}</a></li>",
                section.slug,
                word(k + s),
                word(k + s)
            );
        }
        h.push_str("</ul></li>");
    }
    h.push_str(
        "</ul></nav><div class=\"account\"><a href=\"/account/login\">Sign in</a> \
                <a href=\"/subscribe\">Subscribe</a></div></header>\n",
    );
    h
}

fn related_rail(h: &mut String, site: &SiteContent, seed: usize) {
    let n = site.articles.len();
    if n == 0 {
        return;
    }
    h.push_str("<aside class=\"related-rail\"><h3>Related stories</h3><ul>");
    for k in 0..RELATED.min(n) {
        let a = &site.articles[(seed / 7 + k * 13) % n];
        let _ = write!(
            h,
            "<li class=\"card\"><a href=\"{}\"><span class=\"kicker\">{}</span> {}</a></li>",
            esc(&a.path),
            word(k),
            esc(&a.title)
        );
    }
    h.push_str("</ul></aside>\n");
}

fn tag_cloud(h: &mut String, seed: usize) {
    h.push_str("<div class=\"tag-cloud\"><h4>Tags</h4>");
    for k in 0..TAGS {
        let w = word(seed / 3 + k);
        let _ = write!(
            h,
            "<a class=\"tag tag-{}\" href=\"/tag/{w}-{k}\">{w}</a> ",
            k % 5
        );
    }
    h.push_str("</div>\n");
}

fn footer(h: &mut String, site: &SiteContent) {
    h.push_str("<footer class=\"site-footer\"><div class=\"columns\">");
    for col in 0..4 {
        h.push_str("<ul class=\"footer-column\">");
        for k in 0..FOOTER_LINKS / 4 {
            let w = word(col * 7 + k);
            let _ = write!(h, "<li><a href=\"/about/{w}-{col}-{k}\">{w}</a></li>");
        }
        h.push_str("</ul>");
    }
    let _ = writeln!(
        h,
        "</div><p class=\"legal\">{} — all rights reserved.</p></footer>",
        esc(&site.display)
    );
}

/// Teaser cards of other articles (title and first sentence, the whole card
/// one link, as news sites make them) and promo blocks
/// with an inline icon, up to `bytes`.
fn more_from(h: &mut String, site: &SiteContent, seed: usize, bytes: usize) {
    let n = site.articles.len();
    let end = h.len() + bytes;
    h.push_str("<section class=\"more-from\"><h3>More from the site</h3>");
    let mut k = 0;
    while h.len() < end && n > 0 {
        let a = &site.articles[(seed / 11 + k * 17) % n];
        let _ = write!(
            h,
            "<div class=\"teaser-card\"><a class=\"teaser-link\" href=\"{}\"><h4>{}</h4>\
             <p class=\"teaser-text\">{}</p></a></div>",
            esc(&a.path),
            esc(&a.title),
            esc(&a.teaser)
        );
        if k % 4 == 3 {
            h.push_str(
                "<div class=\"promo ad-slot\"><svg viewBox=\"0 0 24 24\" width=\"24\" \
                 height=\"24\"><path d=\"M12 2L2 7l10 5 10-5-10-5zm0 13l-10-5v6l10 5 10-5v-6l-10 5z\"/>\
                 </svg><span class=\"promo-label\">Advertisement</span></div>",
            );
        }
        k += 1;
    }
    h.push_str("</section>\n");
}

/// An inline JSON state blob (what client-side frameworks ship) of `bytes`.
fn state_script(h: &mut String, site: &SiteContent, seed: usize, bytes: usize) {
    let n = site.articles.len();
    let end = h.len() + bytes;
    h.push_str("<script id=\"__STATE__\" type=\"application/json\">{\"teasers\":[");
    let mut k = 0;
    while h.len() < end && n > 0 {
        let a = &site.articles[(seed / 5 + k * 31) % n];
        let _ = write!(
            h,
            "{{\"id\":{},\"path\":\"{}\",\"views\":{}}},",
            a.id,
            a.path,
            (seed + k * 977) % 100_000
        );
        k += 1;
    }
    h.push_str("{}]}</script>\n");
}

#[cfg(test)]
mod tests {
    use super::super::site::Template;
    use super::*;

    #[test]
    fn an_enlarged_page_has_its_target_size_300_links_and_its_own_markup() {
        let site = SiteContent::generate(2026, 0, Template::Planet, 200);
        let page = "<html><head><title>t</title></head>\n<body class=\"x\"><div id=\"story\">\
                    <p>The story.</p></div></body></html>";
        for path in ["/news/a-1.html", "/news/b-2.html", "/section/world"] {
            let big = enlarge(page, path, &site);
            let target = target_bytes(path);
            assert!((MIN_BYTES..=MAX_BYTES).contains(&target), "{target}");
            // Within a card or record of the target.
            assert!(big.len() + 1024 >= target, "{} < {target}", big.len());
            assert!(big.len() <= target + 4096, "{} > {target}", big.len());
            assert!(big.matches("<a ").count() >= 300, "{path}");
            assert!(big.contains("<body class=\"x\">\n<header class=\"mega-header\">"));
            assert!(big.contains("<div id=\"story\"><p>The story.</p></div>"));
            assert!(big.ends_with("</body></html>"));
            assert_eq!(big, enlarge(page, path, &site), "deterministic");
        }
        assert_eq!(enlarge("no body", "/x", &site), "no body");
    }
}

#[cfg(test)]
mod extraction {
    use super::super::article::article_page;
    use super::super::pages::Ctx;
    use super::super::site::Template;
    use super::*;

    #[test]
    fn the_article_body_is_still_what_extraction_finds_in_a_large_page() {
        let base = url::Url::parse("http://127.0.0.1:9/").unwrap();
        for t in [
            Template::Planet,
            Template::Globe,
            Template::Huaxia,
            Template::Wire,
        ] {
            let site = SiteContent::generate(2026, 0, t, 100);
            let ctx = Ctx {
                site: &site,
                base: &base,
                fault_links: &[],
            };
            let f1: Vec<f64> = (0..100)
                .step_by(10)
                .map(|i| {
                    let a = &site.articles[i];
                    let html = enlarge(&article_page(&ctx, i), &a.path, &site);
                    let got = crate::extract::extract_html(&html, Some(&base), &Default::default());
                    crate::eval::score(&got.text, &a.body).f1
                })
                .collect();
            let mean = f1.iter().sum::<f64>() / f1.len() as f64;
            // Small pages of these templates score 0.95–0.99; the
            // furniture (all links, script, promos) must not pull it down.
            assert!(mean >= 0.9, "{t:?}: mean F1 {mean:.3} ({f1:?})");
        }
    }
}

#[cfg(test)]
mod one_pass_links {
    use super::super::article::article_page;
    use super::super::pages::{index_page, Ctx};
    use super::super::site::Template;
    use super::*;
    use crate::crawl::discover;
    use crate::extract::strip::{collect_links, strip_collecting};

    /// The crawler takes an article page's links from extraction's prepass
    /// (one pass): on the large web's pages they are what the stand-alone
    /// link scan finds.
    #[test]
    fn the_links_of_a_large_article_page_from_extractions_pass_are_the_link_scans() {
        let base = url::Url::parse("http://127.0.0.1:9/news/x.html").expect("url");
        for t in [
            Template::Planet,
            Template::Globe,
            Template::Huaxia,
            Template::Wire,
        ] {
            let site = SiteContent::generate(2026, 0, t, 40);
            let ctx = Ctx {
                site: &site,
                base: &base,
                fault_links: &[],
            };
            for i in (0..40).step_by(7) {
                let html = enlarge(&article_page(&ctx, i), &site.articles[i].path, &site);
                for max_links in [2000, 100] {
                    let mut attrs = discover::link_attrs_for(max_links);
                    let _ = strip_collecting(&html, &mut attrs);
                    let one_pass = discover::page_links_of(attrs, &base, max_links);
                    let scan = discover::page_links(&html, &base, max_links);
                    assert!(scan.links.len() >= 100, "{t:?}: {}", scan.links.len());
                    assert_eq!(one_pass, scan, "{t:?} page {i}");
                }
            }
        }
    }

    /// A page the crawler does not extract (a home or section page) has
    /// its links from the prepass alone: what the stand-alone scan finds.
    #[test]
    fn the_links_of_a_large_index_page_from_the_prepass_alone_are_the_link_scans() {
        let base = url::Url::parse("http://127.0.0.1:9/").expect("url");
        for t in [
            Template::Planet,
            Template::Globe,
            Template::Huaxia,
            Template::Wire,
        ] {
            let site = SiteContent::generate(2026, 0, t, 40);
            let ctx = Ctx {
                site: &site,
                base: &base,
                fault_links: &[],
            };
            let html = enlarge(&index_page(&ctx, None, 1), "/", &site);
            for max_links in [2000, 100] {
                let mut attrs = discover::link_attrs_for(max_links);
                collect_links(&html, &mut attrs);
                let alone = discover::page_links_of(attrs, &base, max_links);
                let scan = discover::page_links(&html, &base, max_links);
                assert!(scan.links.len() >= 100, "{t:?}: {}", scan.links.len());
                assert_eq!(alone, scan, "{t:?}");
            }
        }
    }
}
