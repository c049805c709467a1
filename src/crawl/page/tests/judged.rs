//! A site without article patterns: every HTML page is extracted and
//! judged; only articles come out as articles; feed entries are queued as
//! articles (being listed is evidence); patterns, when given, decide.

use super::*;

fn bare_site() -> SiteSettings {
    unfocused_site()
}

const FRONT: &str = r#"<!DOCTYPE html><html><head><title>World | Blog</title>
<meta property="og:type" content="website"></head><body>
<main><h1>World</h1>
<div class="card"><h2><a href="/2026/one">Storm hits the coast</a></h2><p>The storm reached the coast on Monday night and flooded three towns.</p></div>
<div class="card"><h2><a href="/2026/two">Council passes budget</a></h2><p>The council passed its budget after a long night of talks.</p></div>
<div class="card"><h2><a href="/2026/three">Schools reopen</a></h2><p>Schools in the north reopened on Tuesday after the floods.</p></div>
<div class="card"><h2><a href="/2026/four">Power restored</a></h2><p>Power was restored to most homes by Wednesday morning.</p></div>
</main></body></html>"#;

/// The story, declared `og:type=article` with its publication time.
fn declared_story() -> String {
    ARTICLE.replace(
        "<title>Storm hits the coast</title>",
        "<title>Storm hits the coast</title><meta property=\"og:type\" content=\"article\">\
         <meta property=\"article:published_time\" content=\"2026-03-02T08:00:00Z\">",
    )
}

#[test]
fn on_a_bare_site_an_article_page_is_judged_and_stored_and_a_front_is_not() {
    let s = bare_site();
    let story = declared_story();
    let out = run(
        &s,
        UrlKind::Page,
        1,
        "http://blog.test/2026/one",
        false,
        &story,
    );
    let j = out.judgement.expect("judged");
    assert_eq!(j.reason.as_str(), "declared_og_article");
    assert!(out
        .article
        .is_some_and(|a| a.text.contains("flooding streets")));

    let out = run(&s, UrlKind::Seed, 0, "http://blog.test/world", false, FRONT);
    let j = out.judgement.expect("judged");
    // Four one-line teasers: too little text to be a story at all.
    assert_eq!(j.reason.as_str(), "thin_text");
    assert!(out.article.is_none());
    // Its links are followed as before.
    assert!(out
        .urls
        .iter()
        .any(|u| u.url == "http://blog.test/2026/one"));
}

#[test]
fn given_patterns_decide_and_say_so() {
    let s = site();
    let out = run(
        &s,
        UrlKind::Article,
        1,
        "http://news.test/a/1",
        false,
        ARTICLE,
    );
    assert_eq!(
        out.judgement,
        Some(crate::crawl::judge::Judgement::by_pattern(true))
    );
    assert!(out.article.is_some());
    // A page the patterns do not call an article is not extracted, even
    // when it reads like one.
    let out = run(
        &s,
        UrlKind::Page,
        1,
        "http://news.test/about",
        false,
        ARTICLE,
    );
    assert_eq!(
        out.judgement,
        Some(crate::crawl::judge::Judgement::by_pattern(false))
    );
    assert!(out.article.is_none());
}

#[test]
fn a_bare_sites_feed_entries_are_queued_as_articles_to_judge() {
    let s = bare_site();
    let rss = r#"<?xml version="1.0"?><rss version="2.0"><channel><title>Blog</title>
<item><title>One</title><link>http://blog.test/2026/one</link></item>
</channel></rss>"#;
    let final_url = url("http://blog.test/feed");
    let opts = ExtractOptions::default();
    let out = process(&PageInput {
        site: &s,
        kind: UrlKind::Feed,
        depth: 0,
        max_depth: 3,
        final_url: &final_url,
        redirected: false,
        content_type: Some("application/rss+xml"),
        body: rss.as_bytes(),
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
    });
    let queued: Vec<(&str, UrlKind)> = out.urls.iter().map(|u| (u.url.as_str(), u.kind)).collect();
    assert_eq!(queued, [("http://blog.test/2026/one", UrlKind::Article)]);
    assert_eq!(out.judgement, None, "a feed is not judged");
    // Fetched, the listed page needs only a body and a headline.
    let plain = ARTICLE
        .replace("<article>", "<div>")
        .replace("</article>", "</div>");
    let out = run(
        &s,
        UrlKind::Article,
        1,
        "http://blog.test/2026/one",
        false,
        &plain,
    );
    assert_eq!(out.judgement.map(|j| j.reason.as_str()), Some("listed"));
    let out = run(
        &s,
        UrlKind::Page,
        1,
        "http://blog.test/2026/one",
        false,
        &plain,
    );
    assert!(!out.judgement.expect("judged").is_article());
}

#[test]
fn regression_a_bare_sites_page_queued_by_a_learned_index_shape_was_never_judged() {
    // A site without patterns queues links of a learned index shape as
    // index pages; once such a page was held "not an article" by the
    // pattern rule unread, whatever it said.
    let story = declared_story();
    let out = run(
        &bare_site(),
        UrlKind::Index,
        1,
        "http://blog.test/2026/one",
        false,
        &story,
    );
    let j = out.judgement.expect("judged");
    assert_eq!(j.reason.as_str(), "declared_og_article");
    assert!(out.article.is_some());
    // An index pattern is still the user's word.
    let with_index = {
        let mut s = bare_site();
        s.index_patterns = vec![regex::Regex::new("/2026/").unwrap()];
        s
    };
    let out = run(
        &with_index,
        UrlKind::Index,
        1,
        "http://blog.test/2026/one",
        false,
        &story,
    );
    assert_eq!(out.judgement.map(|j| j.reason.as_str()), Some("pattern"));
    assert!(out.article.is_none());
}
