//! Small page fixtures, one per source of each field, plus garbage pages and
//! a no-panic sweep over the corpus (tests/corpus).

use super::*;

fn meta_of(html: &str, url: Option<&str>) -> Metadata {
    let doc = scraper::Html::parse_document(html);
    let url = url.map(|u| Url::parse(u).expect("test url"));
    extract_metadata(&doc, url.as_ref())
}

fn head(h: &str) -> Metadata {
    meta_of(
        &format!("<html><head>{h}</head><body><p>x</p></body></html>"),
        None,
    )
}

fn body(b: &str, url: Option<&str>) -> Metadata {
    meta_of(&format!("<html><head></head><body>{b}</body></html>"), url)
}

mod dates;

// ---- title ----

#[test]
fn title_from_og_title() {
    let m = head(
        r#"<meta property="og:title" content=" Storm  hits coast "><title>Other - Site</title>"#,
    );
    assert_eq!(m.title.as_deref(), Some("Storm hits coast"));
}

#[test]
fn title_from_twitter_title() {
    let m = head(r#"<meta name="twitter:title" content="Storm hits coast">"#);
    assert_eq!(m.title.as_deref(), Some("Storm hits coast"));
}

#[test]
fn title_from_jsonld_headline() {
    let m = head(
        r#"<script type="application/ld+json">{"@type":"NewsArticle","headline":"Storm hits coast"}</script>"#,
    );
    assert_eq!(m.title.as_deref(), Some("Storm hits coast"));
}

#[test]
fn title_tag_minus_site_suffix() {
    let m = head(
        r#"<meta property="og:site_name" content="The Guardian"><title>Storm hits coast | The Guardian</title>"#,
    );
    assert_eq!(m.title.as_deref(), Some("Storm hits coast"));
    assert_eq!(m.site_name.as_deref(), Some("The Guardian"));
    // The host names the site when nothing else does.
    let m = meta_of(
        "<title>Storm hits coast - BBC News</title>",
        Some("https://www.bbc.co.uk/news/1"),
    );
    assert_eq!(m.title.as_deref(), Some("Storm hits coast"));
}

#[test]
fn title_prefers_candidate_matching_h1() {
    let m = meta_of(
        r#"<head><meta property="og:title" content="You won't believe this bridge">
        <title>Council approves new bridge over the river - City Paper</title></head>
        <body><header><h1>City Paper</h1></header><h1>Council approves new bridge over the river</h1></body>"#,
        None,
    );
    assert_eq!(
        m.title.as_deref(),
        Some("Council approves new bridge over the river")
    );
}

#[test]
fn title_from_lone_h1_and_svg_title_ignored() {
    let m = body(
        "<svg><title>icon</title></svg><h1>Only <em>headline</em> here</h1>",
        None,
    );
    assert_eq!(m.title.as_deref(), Some("Only headline here"));
}

// ---- authors ----

#[test]
fn authors_from_jsonld() {
    let m = head(
        r#"<script type="application/ld+json">{"@type":"NewsArticle","author":[{"name":"Jane Roe"},{"name":"John Doe"}]}</script>
        <meta name="author" content="Someone Else">"#,
    );
    assert_eq!(m.authors, ["Jane Roe", "John Doe"]);
}

#[test]
fn regression_persons_named_by_given_and_family_name_were_joined_from_the_byline() {
    // The byline holds one element per name without separators; JSON-LD
    // names each person by givenName and familyName only.
    let m = meta_of(
        r#"<head><script type="application/ld+json">{"@type":"NewsArticle","author":[
        {"@type":"Person","givenName":"Birgit","familyName":"Baumann"},
        {"@type":"Person","givenName":"Anna Giulia","familyName":"Fink"}]}</script></head>
        <body><div class="article-byline"><span>Birgit Baumann</span>
        <span>Anna Giulia Fink</span></div></body>"#,
        None,
    );
    assert_eq!(m.authors, ["Birgit Baumann", "Anna Giulia Fink"]);
    let m = body(
        r#"<div class="article-byline"><span>Birgit Baumann</span>
        <span>Anna Giulia Fink</span></div>"#,
        None,
    );
    assert_eq!(m.authors, ["Birgit Baumann", "Anna Giulia Fink"]);
}

#[test]
fn regression_share_links_in_an_author_box_were_taken_for_a_name() {
    let m = body(
        r#"<div class="author-contact-wrapper"><a href="https://twitter.com/x">Twitter</a>
        <a href="https://facebook.com/x">Facebook</a></div>"#,
        None,
    );
    assert!(m.authors.is_empty(), "{:?}", m.authors);
}

#[test]
fn regression_names_joined_by_a_conjunction_were_one_author() {
    let m = head(
        r#"<script type="application/ld+json">{"@type":"NewsArticle",
        "author":[{"@type":"Person","name":"Felix Schröder und Jörg Soldwisch"},{"@type":"Person","name":"dpa"}]}</script>"#,
    );
    assert_eq!(m.authors, ["Felix Schröder", "Jörg Soldwisch", "dpa"]);
}

#[test]
fn regression_an_affiliation_after_the_name_dropped_the_author() {
    let m = meta_of(
        r#"<script type="application/ld+json">{"@type":"NewsArticle","author":[{"@type":"Person",
        "name":"Povilas Aleksandravičius, Mykolo Romerio universiteto profesorius, Lrt.lt"}]}</script>"#,
        Some("https://www.lrt.lt/naujienos/1"),
    );
    assert_eq!(m.authors, ["Povilas Aleksandravičius"]);
}

#[test]
fn jsonld_author_that_is_the_site_is_skipped_for_a_person() {
    let m = head(
        r#"<meta property="og:site_name" content="BBC News">
        <script type="application/ld+json">{"@type":"NewsArticle","author":{"@type":"Organization","name":"BBC News"}}</script>
        <meta name="author" content="Jane Roe">"#,
    );
    assert_eq!(m.authors, ["Jane Roe"]);
}

#[test]
fn the_site_as_the_only_declared_author_is_the_author() {
    let m = head(
        r#"<meta property="og:site_name" content="DER SPIEGEL">
        <script type="application/ld+json">{"@type":"NewsArticle","author":{"@type":"Organization","name":"DER SPIEGEL"}}</script>"#,
    );
    assert_eq!(m.authors, ["DER SPIEGEL"]);
    let m = head(
        r#"<script type="application/ld+json">{"@type":"NewsArticle","author":{"@type":"Person","name":"ndr.de"}}</script>"#,
    );
    assert_eq!(m.authors, ["ndr.de"]);
}

#[test]
fn authors_from_metas() {
    assert_eq!(
        head(r#"<meta name="author" content="Jane Roe">"#).authors,
        ["Jane Roe"]
    );
    let m = head(
        r#"<meta property="article:author" content="https://facebook.com/jane"><meta property="article:author" content="Jane Roe"><meta property="article:author" content="John Doe">"#,
    );
    assert_eq!(m.authors, ["Jane Roe", "John Doe"]);
    assert_eq!(
        head(r#"<meta name="byl" content="By JANE ROE and JOHN DOE">"#).authors,
        ["JANE ROE", "JOHN DOE"]
    );
}

#[test]
fn author_equal_to_site_name_is_skipped() {
    let m = head(
        r#"<meta property="og:site_name" content="Daily Planet"><meta name="author" content="Daily Planet"><meta name="dc.creator" content="Jane Roe">"#,
    );
    assert_eq!(m.authors, ["Jane Roe"]);
}

#[test]
fn authors_from_itemprop_rel_and_byline() {
    let m = body(
        r#"<span itemprop="author" itemscope><span itemprop="name">Jane Roe</span></span>"#,
        None,
    );
    assert_eq!(m.authors, ["Jane Roe"]);
    let m = body(r#"<a rel="author" href="/jane">Jane Roe</a>"#, None);
    assert_eq!(m.authors, ["Jane Roe"]);
    let m = body(
        r#"<div class="article-byline"><span>By</span><a href="/j">Jane Roe</a> | Sep 5, 2019</div>"#,
        None,
    );
    assert_eq!(m.authors, ["Jane Roe"]);
    let m = body(
        r#"<div class="byline"><span class="byline-name">By Jane O'Brien</span> <span class="byline-title">BBC, Washington</span></div>"#,
        None,
    );
    assert_eq!(m.authors, ["Jane O'Brien"]);
    let m = body(
        r#"<ol class="comments"><li><span class="author">troll99</span></li></ol>"#,
        None,
    );
    assert!(m.authors.is_empty());
}

#[test]
fn regression_an_author_box_was_taken_for_a_byline_of_eight_names() {
    let m = meta_of(
        r#"<head><meta property="og:site_name" content="朝日新聞デジタル">
        <script type="application/ld+json">{"@type":"NewsArticle",
        "author":{"@type":"Organization","name":"朝日新聞デジタル"}}</script></head>
        <body><div class="author-box"><span>この記事を書いた人</span><span>渡辺洋介</span>
        <span>東京社会部</span><span>専門・関心分野</span><span>戦争、平和、核問題</span></div></body>"#,
        None,
    );
    assert_eq!(m.authors, ["朝日新聞デジタル"]);
}

#[test]
fn regression_bylines_of_teasers_in_a_rail_were_added_to_the_authors() {
    let m = body(
        r#"<ul class="meta-author-list"><li>Nathaniel Flakin</li></ul><p>Story.</p>
        <div class="teaser"><ul class="teaser-author-list"><li>Emilio Albamonte</li></ul></div>"#,
        None,
    );
    assert_eq!(m.authors, ["Nathaniel Flakin"]);
}

// ---- canonical ----

#[test]
fn canonical_sources() {
    let m = meta_of(
        r#"<link rel="canonical" href="/a/b?x=1"><meta property="og:url" content="https://other/">"#,
        Some("https://x.com/a/b?utm=2"),
    );
    assert_eq!(m.canonical_url.as_deref(), Some("https://x.com/a/b?x=1"));
    let m = meta_of(
        r#"<meta property="og:url" content="https://x.com/story">"#,
        None,
    );
    assert_eq!(m.canonical_url.as_deref(), Some("https://x.com/story"));
    // Relative without a base, or not http(s): nothing.
    assert_eq!(
        meta_of(r#"<link rel="canonical" href="/a">"#, None).canonical_url,
        None
    );
    assert_eq!(
        meta_of(
            r#"<link rel="canonical" href="javascript:void(0)">"#,
            Some("https://x.com/")
        )
        .canonical_url,
        None
    );
}

// ---- site name ----

#[test]
fn site_name_sources() {
    assert_eq!(
        head(r#"<meta property="og:site_name" content="BBC News">"#)
            .site_name
            .as_deref(),
        Some("BBC News")
    );
    let m = head(
        r#"<script type="application/ld+json">{"@type":"NewsArticle","publisher":{"@type":"Organization","name":"Daily Planet"}}</script>"#,
    );
    assert_eq!(m.site_name.as_deref(), Some("Daily Planet"));
    assert_eq!(
        head(r#"<meta name="application-name" content="City Paper">"#)
            .site_name
            .as_deref(),
        Some("City Paper")
    );
}

// ---- garbage ----

#[test]
fn empty_and_garbage_pages_yield_none() {
    let deep = "<div>".repeat(20_000);
    for html in [
        "",
        "\u{0}\u{FFFD}\u{FFFD}",
        "<html><head><script type='application/ld+json'>{broken</script></head></html>",
        "<script type='application/ld+json'>{\"@type\":\"NewsArticle\",\"datePublished\":\"0000-00-00\",\"author\":{\"name\":\"\"}}</script>",
        "<meta property='article:published_time' content='9999-99-99T99:99'><meta name='author' content='http://x'>",
        "<time datetime='soon'>later</time><link rel=canonical href='::::'>",
        &deep,
    ] {
        let m = meta_of(html, None);
        assert_eq!(m, Metadata::default(), "{:.60}", html);
    }
}

#[test]
fn deep_and_repetitive_pages_are_bounded() {
    // Every level is a hint candidate, an itemprop, a <time> and a label:
    // without the work budgets this is quadratic in depth.
    // (Parsing deep nesting is itself slow in html5ever, so keep it moderate.)
    let depth = 5_000;
    let mut html = String::from("<html><body><nav>");
    for _ in 0..depth {
        html.push_str(
            "<div class='date byline' itemprop='author datePublished'><time>Posted:</time>",
        );
    }
    html.push_str("<h1>Deep headline</h1><p>Published: 2019-09-05</p>");
    let m = meta_of(&html, Some("https://x.com/2019/09/05/a"));
    assert_eq!(m.title.as_deref(), Some("Deep headline"));
    assert_eq!(m.published_at.as_deref(), Some("2019-09-05T00:00:00Z"));
}

#[test]
fn random_strings_never_panic() {
    // Deterministic mutations of valid inputs: they reach both the success and
    // the rejection paths of every parser.
    const SEEDS: &[&str] = &[
        "2019-09-05T11:10:00+08:00",
        "2019年09月05日 11:10",
        "Sep 5, 2019 3:04 pm EDT",
        "5 September 2019",
        "05.09.2019, 11:10",
        "By Jane Roe | Sep 5, 2019",
        "Storm hits coast - BBC News",
    ];
    const PIECES: &[&str] = &[
        "9", "0", "3", "-", "/", ".", ":", "：", "年", "日", " ", "T", "Z", "+", "pm", "|", "_",
        "é", "\u{FFFD}", "<", "\"", "{", "@", "",
    ];
    let mut x: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x as usize
    };
    let mut parsed = 0;
    for _ in 0..3_000 {
        let mut chars: Vec<String> = SEEDS[next() % SEEDS.len()]
            .chars()
            .map(String::from)
            .collect();
        for _ in 0..next() % 4 {
            let at = next() % chars.len();
            chars[at] = PIECES[next() % PIECES.len()].to_string();
        }
        let s: String = chars.concat();
        if let Some(d) = parse_date(&s) {
            assert!(
                chrono::DateTime::parse_from_rfc3339(&d).is_ok(),
                "{s:?} gave {d:?}"
            );
            parsed += 1;
        }
        let _ = author::clean_author(&s);
        let _ = title::strip_site(&s, std::slice::from_ref(&s));
        let _ = crate::extract::charset::prescan(s.as_bytes());
        let _ = meta_of(
            &format!("<title>{s}</title><meta name=date content='{s}'><p>{s}</p>"),
            None,
        );
    }
    // Both paths must have been taken.
    assert!(
        parsed > 300 && parsed < 3_000,
        "{parsed} of 3000 mutated strings parsed"
    );
}

// ---- corpus ----

/// Every page of the corpus (tests/corpus) goes through decode, metadata and language
/// without panicking, and the corpus (English news) yields titles.
#[test]
fn corpus_pages_never_panic() {
    let mut pages = 0;
    let mut with_title = 0;
    for path in crate::corpus_archive::repo_corpus_pages() {
        let bytes = std::fs::read(&path).expect("read page");
        let decoded = crate::extract::charset::decode(&bytes, None, None);
        let doc = scraper::Html::parse_document(&decoded.text);
        let m = extract_metadata(
            &doc,
            Some(&Url::parse("https://example.com/2019/09/05/a").expect("url")),
        );
        let _ = detect_language(&decoded.text);
        pages += 1;
        with_title += usize::from(m.title.is_some());
    }
    assert!(pages >= 400, "only {pages} corpus pages found");
    assert!(
        with_title * 10 >= pages * 9,
        "titles on only {with_title}/{pages} pages"
    );
}

// ---- what the page shows about its kind ----

#[test]
fn regression_a_last_updated_line_under_a_policy_title_was_read_as_its_publication_date() {
    let m = body(
        "<h1>Privacy policy</h1><p>Last updated: 3 March 2025</p><p>We keep what you tell us.</p>",
        None,
    );
    assert_eq!(m.published_at, None);
    assert_eq!(m.modified_at.as_deref(), Some("2025-03-03T00:00:00Z"));
    // Nor when its class says "updated" (a date hint).
    let m = body(
        "<h1>Privacy policy</h1><p class=\"updated\">Last updated: 3 March 2025</p><p>We keep it.</p>",
        None,
    );
    assert_eq!(m.published_at, None);
    // A dateline under a headline still is one.
    let m = body(
        "<h1>Budget passes</h1><p>3 March 2025</p><p>The vote was close.</p>",
        None,
    );
    assert!(m.published_at.is_some());
}

#[test]
fn signals_count_declarations_teasers_links_and_forms() {
    let html = "<html><head><meta property='og:type' content='Article'>\
        <script type='application/ld+json'>{\"@type\":\"ItemList\",\"itemListElement\":[{\"@type\":\"NewsArticle\",\"headline\":\"A\"}]}</script>\
        </head><body><header><nav><h3><a href='/x'>Menu</a></h3></nav></header>\
        <main><h1>World</h1><article><h2><a href='/a'>One</a></h2><p>Text of one.</p></article>\
        <article><h2><a href='/b'>Two</a></h2></article></main>\
        <aside><h3><a href='/c'>Rail</a></h3></aside><div class='more-stories'><h3><a href='/d'>More</a></h3></div>\
        <form><label>Find</label></form></body></html>";
    let doc = scraper::Html::parse_document(html);
    let (_, s) = metadata_and_signals(&doc, None, None);
    assert_eq!(s.og_type.as_deref(), Some("article"));
    assert!(s.ld_article && s.ld_not_article);
    assert!(!s.published_declared);
    assert_eq!(s.article_elements, 2);
    assert!(!s.article_headline, "the h1 is outside the articles");
    assert_eq!(
        s.linked_headings, 2,
        "nav, aside and rail headings are not teasers"
    );
    assert_eq!(s.forms, 1);
    assert!(s.link_bytes > 0 && s.link_bytes < s.text_bytes);
    let doc = scraper::Html::parse_document(
        "<article><h1>Story</h1><meta property='article:published_time' content='2026-01-02'></article>",
    );
    let (_, s) = metadata_and_signals(&doc, None, None);
    assert!(s.article_headline && s.published_declared);
}

/// What an article page of today declares beside its story: breadcrumbs
/// whose items are the sections (`CollectionPage`), the site's menu as an
/// `ItemList` of `SiteNavigationElement`, a carousel of links. None of it
/// says the page is a list; a list of stories at the top does.
#[test]
fn only_a_page_node_that_lists_stories_or_is_a_collection_declares_another_kind() {
    let declared = |blocks: &[&str]| {
        let scripts: String = blocks
            .iter()
            .map(|b| format!("<script type='application/ld+json'>{b}</script>"))
            .collect();
        let doc = scraper::Html::parse_document(&format!(
            "<html><head>{scripts}</head><body><p>Text.</p></body></html>"
        ));
        metadata_and_signals(&doc, None, None).1.ld_not_article
    };
    let story = r#"{"@type":"NewsArticle","headline":"A","datePublished":"2026-01-02",
        "isPartOf":{"@type":"CollectionPage","name":"Politics"}}"#;
    let crumbs = r#"{"@type":"BreadcrumbList","itemListElement":[{"@type":"ListItem",
        "position":1,"item":{"@type":"CollectionPage","@id":"https://example.org/politics/"}}]}"#;
    let menu = r#"{"@type":"ItemList","itemListElement":[{"@type":"SiteNavigationElement",
        "name":"Sport","url":"https://example.org/sport/"}]}"#;
    let carousel = r#"{"@type":"ItemList","itemListElement":[{"@type":"ListItem",
        "position":1,"url":"https://example.org/b"}]}"#;
    assert!(!declared(&[story, crumbs, menu, carousel]));
    let front = r#"{"@type":"ItemList","itemListElement":[{"@type":"ListItem",
        "position":1,"item":{"@type":"NewsArticle","headline":"B"}}]}"#;
    assert!(declared(&[front]));
    let yoast = r#"{"@context":"https://schema.org","@graph":[{"@type":"CollectionPage",
        "@id":"https://example.org/politics/"},{"@type":"WebSite","name":"Example"}]}"#;
    assert!(declared(&[yoast]));
    assert!(declared(&[
        r#"[{"@type":"ProfilePage","name":"Jane Roe"}]"#
    ]));
}
