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
    process(&PageInput {
        site,
        kind,
        depth,
        max_depth: 3,
        final_url: &final_url,
        redirected,
        content_type: Some("text/html; charset=utf-8"),
        body: body.as_bytes(),
        extract: &ExtractOptions::default(),
        now_ms: 0,
        trailing_slash: crate::urls::TrailingSlash::Keep,
        site_rule: None,
    })
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
        site_rule: None,
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
