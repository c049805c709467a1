//! Page processing on small fixtures: what is queued, what is extracted.

use std::path::Path;

use super::*;
use crate::config::Config;

fn site() -> SiteSettings {
    let text = r#"
[[sites]]
name = "news"
start = ["http://news.test/"]
article_patterns = ['^http://news\.test/a/\d+$']
index_patterns = ['^http://news\.test/(section/[a-z]+)?$']
"#;
    let cfg = Config::parse(text, Path::new("t.toml"), Path::new(".")).unwrap();
    cfg.sites[0].clone()
}

fn url(s: &str) -> Url {
    Url::parse(s).unwrap()
}

fn run(
    site: &SiteSettings,
    kind: UrlKind,
    depth: u32,
    at: &str,
    redirected: bool,
    body: &str,
) -> PageOutput {
    let final_url = url(at);
    let opts = ExtractOptions::default();
    let input = |link_memo| PageInput {
        site,
        kind,
        depth,
        max_depth: 3,
        final_url: &final_url,
        redirected,
        content_type: Some("text/html; charset=utf-8"),
        body: body.as_bytes(),
        extract: &opts,
        now_ms: 0,
        trailing_slash: crate::urls::TrailingSlash::Keep,
        max_links: usize::MAX,
        max_index_sitemaps: 50_000,
        entries: crate::crawl::discover::EntryBound::WHOLE,
        site_rule: None,
        link_memo,
        shapes: None,
        explore: None,
    };
    // With the crawl's link memo (warmed by the same page, then used) the
    // page yields exactly what it yields computing every href.
    let plain = process(&input(None));
    let memo = LinkMemo::default();
    for _ in 0..2 {
        let remembered = process(&input(Some(&memo)));
        assert_eq!(queued_urls(&remembered), queued_urls(&plain));
    }
    plain
}

/// Everything a queued URL says, comparable.
fn queued_urls(out: &PageOutput) -> Vec<(String, String, UrlKind, u32, i32)> {
    out.urls
        .iter()
        .map(|u| (u.url.clone(), u.site.clone(), u.kind, u.depth, u.priority))
        .collect()
}

const ARTICLE: &str = r#"<!DOCTYPE html><html><head><title>Storm hits the coast</title>
<link rel="alternate" type="application/rss+xml" href="/a/1/comments.rss"></head><body>
<nav><a href="/section/world">World</a> <a href="/about">About us</a> <a href="http://other.test/a/9">Elsewhere</a></nav>
<article><h1>Storm hits the coast</h1>
<p>The storm reached the coast on Monday night, flooding streets in three towns and cutting power to thousands of homes across the region.</p>
<p>Emergency services said they had rescued dozens of people from cars and houses, and warned that more rain was expected before the weekend.</p>
<p>The regional government has opened shelters in schools and sports halls and asked residents near the river to leave their homes.</p>
</article><p><a href="/a/2">Next story</a> <a href="/a/2#comments">Comments</a></p></body></html>"#;

#[test]
fn article_pages_are_extracted_and_their_links_focused() {
    let s = site();
    let out = run(
        &s,
        UrlKind::Article,
        1,
        "http://news.test/a/1",
        false,
        ARTICLE,
    );
    let article = out.article.expect("article extracted");
    assert!(
        article.text.contains("flooding streets"),
        "{}",
        article.text
    );
    let queued: Vec<(&str, UrlKind, u32)> = out
        .urls
        .iter()
        .map(|u| (u.url.as_str(), u.kind, u.depth))
        .collect();
    // Off-site, plain pages and duplicates (fragment) are dropped; the
    // article's comment feed is not a new entry point.
    assert_eq!(
        queued,
        [
            ("http://news.test/section/world", UrlKind::Index, 2),
            ("http://news.test/a/2", UrlKind::Article, 2),
        ]
    );
    assert!(out.urls.iter().all(|u| u.site == "news"));
}

#[test]
fn index_pages_are_never_extracted_and_announce_feeds() {
    let s = site();
    let out = run(
        &s,
        UrlKind::Index,
        0,
        "http://news.test/section/world",
        false,
        ARTICLE,
    );
    assert!(out.article.is_none());
    assert!(out
        .urls
        .iter()
        .any(|u| u.kind == UrlKind::Feed && u.url == "http://news.test/a/1/comments.rss"));
}

#[test]
fn start_pages_announce_feeds_too() {
    let s = site();
    let out = run(&s, UrlKind::Seed, 0, "http://news.test/", false, ARTICLE);
    assert!(out
        .urls
        .iter()
        .any(|u| u.kind == UrlKind::Feed && u.url == "http://news.test/a/1/comments.rss"));
}

/// Unmatched links of a page as (URL) strings, in order.
fn unmatched(out: &PageOutput) -> Vec<&str> {
    out.unmatched.iter().map(|(_, u)| &**u).collect()
}

#[test]
fn links_that_match_no_pattern_are_reported_not_dropped_silently() {
    // A path-anchored pattern: patterns are searched in the whole URL.
    let text = "[[sites]]\nname = \"news\"\nstart = [\"http://news.test/\"]\n\
                article_patterns = ['^/a/\\d+$']\n";
    let cfg = Config::parse(text, Path::new("t.toml"), Path::new(".")).unwrap();
    let s = &cfg.sites[0];
    let out = run(s, UrlKind::Seed, 0, "http://news.test/", false, ARTICLE);
    assert_eq!(out.article_links, 0);
    assert_eq!(
        unmatched(&out),
        [
            "http://news.test/section/world",
            "http://news.test/about",
            "http://news.test/a/2"
        ]
    );
    assert!(
        out.urls.iter().all(|u| u.kind == UrlKind::Feed),
        "{:?}",
        out.urls
    );
    // The right patterns: the article link matches, the others are
    // still reported (they are not followed).
    let out = run(
        &site(),
        UrlKind::Seed,
        0,
        "http://news.test/",
        false,
        ARTICLE,
    );
    assert_eq!(out.article_links, 1);
    assert_eq!(unmatched(&out), ["http://news.test/about"]);
}

#[test]
fn a_site_without_patterns_reports_no_unmatched_links() {
    let text = "[[sites]]\nname = \"news\"\nstart = [\"http://news.test/\"]\n";
    let cfg = Config::parse(text, Path::new("t.toml"), Path::new(".")).unwrap();
    let out = run(
        &cfg.sites[0],
        UrlKind::Seed,
        0,
        "http://news.test/",
        false,
        ARTICLE,
    );
    assert!(out.unmatched.is_empty());
}

#[test]
fn an_article_redirected_to_an_index_page_is_not_stored() {
    let s = site();
    let out = run(
        &s,
        UrlKind::Article,
        1,
        "http://news.test/section/world",
        true,
        ARTICLE,
    );
    assert!(out.article.is_none());
    let out = run(
        &s,
        UrlKind::Article,
        1,
        "http://news.test/a/7",
        true,
        ARTICLE,
    );
    assert!(out.article.is_some());
}

#[test]
fn links_beyond_the_depth_limit_are_not_queued() {
    let s = site();
    let out = run(&s, UrlKind::Index, 3, "http://news.test/", false, ARTICLE);
    assert!(out.urls.is_empty(), "{:?}", out.urls);
}

#[test]
fn feed_entries_are_classified_and_bad_feeds_counted() {
    let s = site();
    let rss = r#"<?xml version="1.0"?><rss version="2.0"><channel><title>News</title>
<item><title>One</title><link>http://news.test/a/1</link></item>
<item><title>About</title><link>http://news.test/about</link></item>
<item><title>Away</title><link>http://other.test/a/2</link></item>
</channel></rss>"#;
    let final_url = url("http://news.test/rss.xml");
    let opts = ExtractOptions::default();
    let input = |body: &'static str| PageInput {
        site: &s,
        kind: UrlKind::Feed,
        depth: 0,
        max_depth: 3,
        final_url: &final_url,
        redirected: false,
        content_type: Some("application/rss+xml"),
        body: body.as_bytes(),
        extract: &opts,
        now_ms: 0,
        trailing_slash: crate::urls::TrailingSlash::Keep,
        max_links: usize::MAX,
        max_index_sitemaps: 50_000,
        entries: crate::crawl::discover::EntryBound::WHOLE,
        site_rule: None,
        link_memo: None,
        shapes: None,
        explore: None,
    };
    let out = process(&input(rss));
    let queued: Vec<(&str, UrlKind)> = out.urls.iter().map(|u| (u.url.as_str(), u.kind)).collect();
    assert_eq!(
        queued,
        [
            ("http://news.test/a/1", UrlKind::Article),
            ("http://news.test/about", UrlKind::Page),
        ]
    );
    assert!(out.article.is_none() && out.problem.is_none());
    let out = process(&input("<html>not a feed</html>"));
    assert_eq!(out.problem, Some(crate::crawl::kinds::ErrorKind::BadFeed));
}

fn with_canonical(href: &str) -> String {
    ARTICLE.replace(
        "<title>Storm hits the coast</title>",
        &format!("<title>Storm hits the coast</title><link rel=\"canonical\" href=\"{href}\">"),
    )
}

#[test]
fn an_articles_canonical_url_on_the_site_is_known_not_queued() {
    let s = site();
    // Fetched under a variant spelling (bare host, merged into news.test's
    // twin would need www; here a query variant of the same page).
    let body = with_canonical("http://news.test/a/7#top");
    let out = run(
        &s,
        UrlKind::Article,
        1,
        "http://news.test/a/7-amp?x=1",
        false,
        &body,
    );
    let article = out.article.expect("article extracted");
    assert_eq!(
        article.canonical_url.as_deref(),
        Some("http://news.test/a/7")
    );
    let known: Vec<(&str, UrlKind)> = out.known.iter().map(|u| (u.url.as_str(), u.kind)).collect();
    assert_eq!(known, [("http://news.test/a/7", UrlKind::Article)]);
    assert!(out.urls.iter().all(|u| u.url != "http://news.test/a/7"));

    // The canonical URL is the fetched one: nothing extra to record.
    let out = run(
        &s,
        UrlKind::Article,
        1,
        "http://news.test/a/7",
        false,
        &body,
    );
    assert!(out.known.is_empty());
    assert_eq!(
        out.article.and_then(|a| a.canonical_url).as_deref(),
        Some("http://news.test/a/7")
    );

    // Another site's canonical (syndication) is neither known nor queued.
    let body = with_canonical("http://other.test/a/7");
    let out = run(
        &s,
        UrlKind::Article,
        1,
        "http://news.test/a/8",
        false,
        &body,
    );
    assert!(out.known.is_empty());
    assert!(out.urls.iter().all(|u| !u.url.contains("other.test")));

    // On an index page the canonical URL is just a link.
    let body = with_canonical("http://news.test/section/world");
    let out = run(
        &s,
        UrlKind::Index,
        0,
        "http://news.test/?page=1",
        false,
        &body,
    );
    assert!(out.known.is_empty() && out.article.is_none());
    assert!(out
        .urls
        .iter()
        .any(|u| u.url == "http://news.test/section/world"));
}

#[test]
fn dates_without_offset_are_read_in_the_sites_time_zone() {
    let page = ARTICLE.replace(
        "<h1>Storm hits the coast</h1>",
        "<h1>Storm hits the coast</h1><p class=\"date\">Published 2019-07-01 09:30</p>",
    );
    let mut s = site();
    let stored = |s: &SiteSettings| {
        run(s, UrlKind::Article, 1, "http://news.test/a/1", false, &page)
            .article
            .and_then(|a| a.published_at)
    };
    assert_eq!(stored(&s).as_deref(), Some("2019-07-01T09:30:00Z"));
    s.timezone = Some(chrono_tz::Europe::Paris);
    assert_eq!(stored(&s).as_deref(), Some("2019-07-01T09:30:00+02:00"));
}

/// Settings of a site with no patterns: every page of its host is followed.
fn unfocused_site() -> SiteSettings {
    let text = r#"
[[sites]]
name = "blog"
start = ["http://blog.test/"]
"#;
    let cfg = Config::parse(text, Path::new("t.toml"), Path::new(".")).unwrap();
    cfg.sites[0].clone()
}

/// An HTML page of `site` at `depth` processed with (or without) `memo`.
fn page_with(
    site: &SiteSettings,
    (kind, depth, at): (UrlKind, u32, &str),
    body: &str,
    max_links: usize,
    link_memo: Option<&LinkMemo>,
) -> PageOutput {
    let final_url = url(at);
    process(&PageInput {
        site,
        kind,
        depth,
        max_depth: 3,
        final_url: &final_url,
        redirected: false,
        content_type: Some("text/html; charset=utf-8"),
        body: body.as_bytes(),
        extract: &ExtractOptions::default(),
        now_ms: 0,
        trailing_slash: crate::urls::TrailingSlash::Keep,
        max_links,
        max_index_sitemaps: 50_000,
        entries: crate::crawl::discover::EntryBound::WHOLE,
        site_rule: None,
        link_memo,
        shapes: None,
        explore: None,
    })
}

/// A templated page: the same navigation on every page, relative links, a
/// `<base href>` on some, links off the site, duplicates, plain pages.
fn templated(host: &str, n: usize, base: Option<&str>) -> String {
    let mut h = format!("<html><head><title>P{n}</title>");
    if let Some(b) = base {
        h.push_str(&format!("<base href=\"{b}\">"));
    }
    h.push_str("</head><body><nav>");
    for s in [
        "/",
        "/section/world",
        "/section/sport",
        "/about",
        "/a/1",
        "/a/2",
        "a/4",
        "../section/world",
        "../a/5",
        "?page=2",
    ] {
        h.push_str(&format!("<a href=\"{s}\">{s}</a> "));
    }
    h.push_str(&format!(
        "<a href=\"http://{host}/a/3?utm_source=x\">abs</a> <a href=\"a/{n}\">rel</a> \
         <a href=\"../a/{n}\">up</a> <a href=\"?page={n}\">next</a> <a href=\"#top\">top</a> \
         <a href=\"http://other.test/a/9\">away</a> <a href=\"/a/1\">again</a> \
         <a href=\"/cal/calendar/2026-01-01/calendar/2026-01-02/calendar/2026-01-03/x\">trap</a>\
         </nav><p>Page {n} text.</p></body></html>"
    ));
    h
}

#[test]
fn the_link_memo_never_changes_what_a_sequence_of_pages_queues() {
    let (news, blog) = (site(), unfocused_site());
    let mut queued = 0;
    // Large, and small so that it forgets while the pages go by.
    for capacity in [1000, 6] {
        let memo = LinkMemo::new(capacity);
        for round in 0..3 {
            for (i, depth) in [3, 0, 2, 1, 3, 0].into_iter().enumerate() {
                let n = round * 10 + i;
                for (site, host) in [(&news, "news.test"), (&blog, "blog.test")] {
                    let base = (i % 3 == 1).then(|| format!("http://{host}/section/"));
                    let body = templated(host, n, base.as_deref());
                    let dir = ["section", "a", "section/x"][n % 3];
                    let at = format!("http://{host}/{dir}/p{n}");
                    for max_links in [usize::MAX, 4] {
                        let page = (UrlKind::Index, depth, at.as_str());
                        let plain = page_with(site, page, &body, max_links, None);
                        let remembered = page_with(site, page, &body, max_links, Some(&memo));
                        assert_eq!(
                            queued_urls(&remembered),
                            queued_urls(&plain),
                            "{host} page {n} at depth {depth}, max_links {max_links}"
                        );
                        queued += plain.urls.len();
                    }
                }
            }
        }
    }
    assert!(queued > 100, "{queued}");
}

#[test]
fn a_link_beyond_the_depth_limit_is_queued_when_a_shallower_page_has_it() {
    let news = site();
    let memo = LinkMemo::default();
    let body = templated("news.test", 1, None);
    // At the depth limit nothing is queued (depth 4 > max_depth 3) ...
    let deep = page_with(
        &news,
        (UrlKind::Index, 3, "http://news.test/section/p1"),
        &body,
        usize::MAX,
        Some(&memo),
    );
    assert!(deep.urls.is_empty());
    // ... which the memo does not take for a verdict on the links.
    let shallow = page_with(
        &news,
        (UrlKind::Index, 1, "http://news.test/section/p2"),
        &body,
        usize::MAX,
        Some(&memo),
    );
    let got: Vec<(&str, u32)> = shallow
        .urls
        .iter()
        .map(|u| (u.url.as_str(), u.depth))
        .collect();
    assert!(got.contains(&("http://news.test/a/1", 2)), "{got:?}");
    assert!(
        got.contains(&("http://news.test/section/world", 2)),
        "{got:?}"
    );
    // A focused site's plain pages, other sites and traps stay out.
    assert!(got.iter().all(|(u, _)| !u.contains("about")
        && !u.contains("other.test")
        && !u.contains("calendar")));
}

mod frontier_skip;
fn sitemap_index(children: impl Iterator<Item = String>) -> String {
    let mut xml =
        String::from(r#"<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">"#);
    for loc in children {
        xml.push_str(&format!("<sitemap><loc>{loc}</loc></sitemap>"));
    }
    xml.push_str("</sitemapindex>");
    xml
}

#[test]
fn regression_sitemap_indexes_nested_in_indexes_were_followed() {
    let site = site();
    let index = sitemap_index((1..=3).map(|n| format!("http://news.test/maps/{n}.xml")));
    // A configured (or robots.txt) sitemap at depth 0: its children are queued.
    let top = run(
        &site,
        UrlKind::Sitemap,
        0,
        "http://news.test/index.xml",
        false,
        &index,
    );
    let kinds: Vec<(UrlKind, u32)> = top.urls.iter().map(|u| (u.kind, u.depth)).collect();
    assert_eq!(kinds, vec![(UrlKind::Sitemap, 1); 3]);
    assert_eq!(top.problem, None);
    // One of those children is an index again: nested, not followed.
    let nested = run(
        &site,
        UrlKind::Sitemap,
        1,
        "http://news.test/maps/1.xml",
        false,
        &index,
    );
    assert!(nested.urls.is_empty(), "{:?}", nested.urls);
    assert_eq!(nested.problem, Some(ErrorKind::BadSitemap));
}

#[test]
fn a_sitemap_index_is_read_up_to_the_protocols_50000_entries() {
    let site = site();
    let index = sitemap_index((0..50_100).map(|n| format!("http://news.test/maps/{n}.xml")));
    let out = run(
        &site,
        UrlKind::Sitemap,
        0,
        "http://news.test/index.xml",
        false,
        &index,
    );
    assert_eq!(out.urls.len(), 50_000);
    assert_eq!(out.capped, Some(CapKind::SitemapsPerIndex));
}

mod judged;
mod shaped;
