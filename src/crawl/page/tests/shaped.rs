//! A site without patterns: its links queued by their learned URL shapes,
//! within its exploration budget, the trap guards holding.

use super::*;
use crate::crawl::shapes::{shape_of, ExploreBudget, Judged, ShapeTable};

/// A table that knows the blog's article, index and other shapes.
fn learned() -> ShapeTable {
    let mut t = ShapeTable::default();
    for (i, word) in ["one", "two", "three"].into_iter().enumerate() {
        let u = |s: String| shape_of(&url(&s));
        t.observe(
            &u(format!(
                "http://blog.test/2026/11/2{i}/a-story-told-{word}.html"
            )),
            Judged::Article,
        );
        t.observe(
            &u(format!("http://blog.test/topics/t{i}/")),
            Judged::Listing,
        );
        t.observe(&u("http://blog.test/login".into()), Judged::Other);
    }
    t
}

const FRONT: &str = r#"<html><body>
<a href="/2026/11/26/budget-vote-delayed.html">Budget</a>
<a href="/topics/economy/">Economy</a>
<a href="/login">Sign in</a>
<a href="/gallery/98765">Photos</a>
<a href="/calendar/2031/05/">Calendar</a>
<a href="/events?month=11&amp;year=2031">Events</a>
<a href="/x/y/x/y/x/y/">Loop</a>
<a href="http://other.test/2026/11/26/elsewhere-story-here.html">Elsewhere</a>
</body></html>"#;

fn shaped(
    kind: UrlKind,
    body: &str,
    table: &ShapeTable,
    budget: Option<&ExploreBudget>,
    memo: Option<&LinkMemo>,
) -> Vec<(String, UrlKind)> {
    let out = shaped_out(kind, body, table, budget, memo);
    out.urls.into_iter().map(|u| (u.url, u.kind)).collect()
}

fn shaped_out(
    kind: UrlKind,
    body: &str,
    table: &ShapeTable,
    budget: Option<&ExploreBudget>,
    memo: Option<&LinkMemo>,
) -> PageOutput {
    let site = unfocused_site();
    let final_url = url("http://blog.test/");
    let opts = ExtractOptions::default();
    process(&PageInput {
        site: &site,
        kind,
        depth: 0,
        max_depth: 3,
        final_url: &final_url,
        redirected: false,
        content_type: Some("text/html; charset=utf-8"),
        body: body.as_bytes(),
        extract: &opts,
        now_ms: 0,
        trailing_slash: crate::urls::TrailingSlash::Keep,
        max_links: usize::MAX,
        max_index_sitemaps: 50_000,
        entries: crate::crawl::discover::EntryBound::WHOLE,
        site_rule: None,
        link_memo: memo,
        shapes: Some(table),
        explore: budget,
    })
}

#[test]
fn links_are_queued_by_the_class_of_their_shape() {
    let t = learned();
    let queued = shaped(UrlKind::Seed, FRONT, &t, None, None);
    assert_eq!(
        queued,
        [
            (
                "http://blog.test/2026/11/26/budget-vote-delayed.html".to_string(),
                UrlKind::Article
            ),
            (
                "http://blog.test/topics/economy/".to_string(),
                UrlKind::Index
            ),
            // Unknown shape: explored as a plain page.
            ("http://blog.test/gallery/98765".to_string(), UrlKind::Page),
        ],
        "the sign-in page (an other shape), the traps and the other site are left out"
    );
    // The same with a link memo warmed by a page of a colder table: the
    // memo keeps shapes, not classes.
    let memo = LinkMemo::default();
    let cold = shaped(
        UrlKind::Seed,
        FRONT,
        &ShapeTable::default(),
        None,
        Some(&memo),
    );
    assert!(cold.iter().all(|(_, k)| *k == UrlKind::Page), "{cold:?}");
    assert!(cold.iter().any(|(u, _)| u.ends_with("/login")), "{cold:?}");
    assert_eq!(shaped(UrlKind::Seed, FRONT, &t, None, Some(&memo)), queued);
}

#[test]
fn article_shaped_links_come_before_index_and_unknown_ones() {
    let site = unfocused_site();
    let final_url = url("http://blog.test/");
    let opts = ExtractOptions::default();
    let t = learned();
    let out = process(&PageInput {
        site: &site,
        kind: UrlKind::Seed,
        depth: 0,
        max_depth: 3,
        final_url: &final_url,
        redirected: false,
        content_type: Some("text/html"),
        body: FRONT.as_bytes(),
        extract: &opts,
        now_ms: 0,
        trailing_slash: crate::urls::TrailingSlash::Keep,
        max_links: usize::MAX,
        max_index_sitemaps: 50_000,
        entries: crate::crawl::discover::EntryBound::WHOLE,
        site_rule: None,
        link_memo: None,
        shapes: Some(&t),
        explore: None,
    });
    let p = |kind| out.urls.iter().find(|u| u.kind == kind).map(|u| u.priority);
    assert!(p(UrlKind::Article) > p(UrlKind::Index));
    assert!(p(UrlKind::Index) > p(UrlKind::Page));
}

#[test]
fn links_of_unknown_shape_spend_the_exploration_budget() {
    let t = ShapeTable::default();
    let many: String = (0..10)
        .map(|i| format!("<a href=\"/p/{i}/about-thing\">{i}</a>"))
        .collect();
    let body = format!("<html><body>{many}</body></html>");
    let budget = ExploreBudget::new(4);
    let first = shaped(UrlKind::Seed, &body, &t, Some(&budget), None);
    assert_eq!(first.len(), 4, "{first:?}");
    let again = shaped(UrlKind::Seed, &body, &t, Some(&budget), None);
    assert!(again.is_empty(), "spent: {again:?}");
}

#[test]
fn inside_an_article_unknown_shapes_are_followed_only_until_article_shapes_are_known() {
    // Long enough, dated and declared, so that the page is judged an article.
    let body = r#"<html><head><title>Budget vote delayed</title>
<meta property="og:type" content="article">
<meta property="article:published_time" content="2026-11-25T08:00:00Z"></head><body><article>
<h1>Budget vote delayed</h1>
<p>The vote on the budget was delayed again on Monday, after a long night of talks between the parties ended without agreement on the main points of the plan.</p>
<p>The finance minister told reporters that the government still expected a deal before the end of the month, and that the new taxes would stay in the plan.</p>
<p>Opposition leaders said the delay showed that the coalition could not agree on spending, and asked for a new vote on the health budget first.</p>
<p>Members said they would meet again on Thursday. <a href="/gallery/98765">Photos</a> and
<a href="/2026/11/25/talks-end-late.html">the talks</a>.</p>
</article></body></html>"#;
    let cold = shaped(UrlKind::Article, body, &ShapeTable::default(), None, None);
    assert!(
        cold.iter().any(|(u, _)| u.ends_with("/gallery/98765")),
        "no article shape known yet: explored {cold:?}"
    );
    let warm = shaped(UrlKind::Article, body, &learned(), None, None);
    assert_eq!(
        warm,
        [(
            "http://blog.test/2026/11/25/talks-end-late.html".to_string(),
            UrlKind::Article
        )],
        "an article's link of unknown shape earned nothing"
    );
}

#[test]
fn regression_feed_entries_of_a_learned_index_shape_were_fetched_as_index_pages() {
    let site = unfocused_site();
    let final_url = url("http://blog.test/rss.xml");
    let opts = ExtractOptions::default();
    let rss = r#"<?xml version="1.0"?><rss version="2.0"><channel><title>Blog</title>
<item><title>One</title><link>http://blog.test/p/1/a-first-post</link></item>
<item><title>Topic</title><link>http://blog.test/topics/economy/</link></item>
</channel></rss>"#;
    let t = learned();
    let out = process(&PageInput {
        site: &site,
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
        shapes: Some(&t),
        explore: None,
    });
    // Being listed is evidence no learned shape outweighs: both are
    // fetched as articles, to be judged (a listed section front is then
    // judged a list of teasers).
    let kinds: Vec<UrlKind> = out.urls.iter().map(|u| u.kind).collect();
    assert_eq!(kinds, [UrlKind::Article, UrlKind::Article]);
    // The frontier may hold them as plain pages, or have judged them
    // without that evidence: listed, for promotion and judging again.
    let listed: Vec<(&str, UrlKind)> = (out.listed.iter())
        .map(|u| (u.url.as_str(), u.kind))
        .collect();
    assert_eq!(
        listed,
        [
            ("http://blog.test/p/1/a-first-post", UrlKind::Article),
            ("http://blog.test/topics/economy/", UrlKind::Article)
        ]
    );
    assert!(out.promote.is_empty());
}

#[test]
fn known_links_of_an_article_or_index_shape_are_promoted_not_queued() {
    use crate::crawl::seen::{self, CommittedUrls};
    let committed = CommittedUrls::new(100);
    let memo = LinkMemo::default().with_committed(committed.clone());
    let t = learned();
    for u in [
        "http://blog.test/2026/11/26/budget-vote-delayed.html",
        "http://blog.test/topics/economy/",
        "http://blog.test/gallery/98765",
    ] {
        committed.with(|s| s.insert_fingerprint(seen::fingerprint(u)));
    }
    let out = shaped_out(UrlKind::Seed, FRONT, &t, None, Some(&memo));
    assert!(out.urls.is_empty(), "{:?}", out.urls);
    assert_eq!(out.urls_known, 3);
    let promoted: Vec<(&str, UrlKind)> = (out.promote.iter())
        .map(|u| (u.url.as_str(), u.kind))
        .collect();
    assert_eq!(
        promoted,
        [
            (
                "http://blog.test/2026/11/26/budget-vote-delayed.html",
                UrlKind::Article
            ),
            ("http://blog.test/topics/economy/", UrlKind::Index)
        ],
        "the gallery link's shape is unknown: nothing to promote it to"
    );
}

#[test]
fn a_plain_page_of_an_article_shape_is_an_article_page() {
    let body = r#"<html><head><title>Budget vote delayed</title></head><body><article>
<h1>Budget vote delayed</h1>
<p>The vote on the budget was delayed again on Monday, after a long night of talks between the parties ended without agreement on the main points of the plan.</p>
<p>Members said they would meet again on Thursday to try once more.</p>
<p>The finance minister told reporters that the government still expected a deal before the end of the month, and that the new taxes would stay in the plan.</p>
</article></body></html>"#;
    // Undated and declaring nothing: the learned article shape is what makes
    // the page an article.
    let site = unfocused_site();
    let opts = ExtractOptions::default();
    let t = learned();
    let run = |at: &str| {
        let final_url = url(at);
        process(&PageInput {
            site: &site,
            kind: UrlKind::Page,
            depth: 1,
            max_depth: 3,
            final_url: &final_url,
            redirected: false,
            content_type: Some("text/html"),
            body: body.as_bytes(),
            extract: &opts,
            now_ms: 0,
            trailing_slash: crate::urls::TrailingSlash::Keep,
            max_links: usize::MAX,
            max_index_sitemaps: 50_000,
            entries: crate::crawl::discover::EntryBound::WHOLE,
            site_rule: None,
            link_memo: None,
            shapes: Some(&t),
            explore: None,
        })
    };
    assert!(run("http://blog.test/2026/11/26/budget-vote-delayed.html")
        .article
        .is_some());
    assert!(run("http://blog.test/gallery/98765").article.is_none());
}
