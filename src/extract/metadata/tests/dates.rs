//! Published and modified dates.

use super::*;

// ---- published ----

#[test]
fn published_from_jsonld() {
    let m = head(
        r#"<script type="application/ld+json">{"@graph":[{"@type":"NewsArticle","datePublished":"2019-09-05T11:10:00+08:00"}]}</script>
        <meta property="article:published_time" content="2001-01-01">"#,
    );
    assert_eq!(m.published_at.as_deref(), Some("2019-09-05T11:10:00+08:00"));
}

#[test]
fn published_from_article_meta() {
    let m = head(r#"<meta property="article:published_time" content="2019-09-05T11:10:00Z">"#);
    assert_eq!(m.published_at.as_deref(), Some("2019-09-05T11:10:00Z"));
}

#[test]
fn published_from_other_metas() {
    for (key, attr) in [
        ("pubdate", "name"),
        ("publishdate", "name"),
        ("date", "name"),
        ("DC.date", "name"),
        ("datePublished", "itemprop"),
    ] {
        let m = head(&format!(r#"<meta {attr}="{key}" content="Sep 5, 2019">"#));
        assert_eq!(
            m.published_at.as_deref(),
            Some("2019-09-05T00:00:00Z"),
            "{key}"
        );
    }
}

#[test]
fn published_from_itemprop_and_time() {
    let m = body(
        r#"<span itemprop="datePublished" content="2019-09-05T11:10">5 Sep</span>"#,
        None,
    );
    assert_eq!(m.published_at.as_deref(), Some("2019-09-05T11:10:00Z"));
    let m = body(
        r#"<article><time datetime="2019-09-05T11:10:00-04:00">Sept 5</time></article>"#,
        None,
    );
    assert_eq!(m.published_at.as_deref(), Some("2019-09-05T11:10:00-04:00"));
    let m = body(r#"<time>5 September 2019</time>"#, None);
    assert_eq!(m.published_at.as_deref(), Some("2019-09-05T00:00:00Z"));
}

#[test]
fn published_from_chinese_byline_text() {
    let m = body(
        r#"<div class="info">2019-09-05 11:10:00 来源: 新华网</div>"#,
        None,
    );
    assert_eq!(m.published_at.as_deref(), Some("2019-09-05T11:10:00Z"));
    let m = body(r#"<span class="pubtime">2019年09月05日 11:10</span>"#, None);
    assert_eq!(m.published_at.as_deref(), Some("2019-09-05T11:10:00Z"));
    // With the site's time zone the same text is Beijing time; a date with
    // its own offset (the modified meta) keeps it.
    let doc = scraper::Html::parse_document(
        r#"<head><meta property="article:modified_time" content="2019-09-06T01:00:00Z"></head>
           <body><span class="pubtime">2019年09月05日 11:10</span></body>"#,
    );
    let m = extract_metadata_in(&doc, None, Some(chrono_tz::Asia::Shanghai));
    assert_eq!(m.published_at.as_deref(), Some("2019-09-05T11:10:00+08:00"));
    assert_eq!(m.modified_at.as_deref(), Some("2019-09-06T01:00:00Z"));
}

#[test]
fn published_from_url_and_url_overrules_date_widget() {
    let m = body(
        "<p>no dates</p>",
        Some("https://x.com/2019/09/05/story.html"),
    );
    assert_eq!(m.published_at.as_deref(), Some("2019-09-05T00:00:00Z"));
    let m = body(
        r#"<div class="date">Monday, Nov 23, 2026</div>"#,
        Some("https://x.com/20190905/story.html"),
    );
    assert_eq!(m.published_at.as_deref(), Some("2019-09-05T00:00:00Z"));
    // Same day: the byline adds the time.
    let m = body(
        r#"<div class="date">Sep 5, 2019 3:04 pm</div>"#,
        Some("https://x.com/2019/09/05/s"),
    );
    assert_eq!(m.published_at.as_deref(), Some("2019-09-05T15:04:00Z"));
}

#[test]
fn published_from_labelled_text_and_date_elements() {
    let m = body(
        "<div>Tuesday, January 15, 2008</div><p><b>Published:</b> January 09, 2008</p><p>Updated: Jan 10, 2008 10:00</p>",
        None,
    );
    assert_eq!(m.published_at.as_deref(), Some("2008-01-09T00:00:00Z"));
    assert_eq!(m.modified_at.as_deref(), Some("2008-01-10T10:00:00Z"));
    let m = body(
        "<div class='date'>17 January 2008</div><ul><li><strong>Published Date: </strong> 31 December 2007</li></ul>\
         <div>Last Updated: 31 December 2007 10:36 AM</div>",
        None,
    );
    assert_eq!(m.published_at.as_deref(), Some("2007-12-31T00:00:00Z"));
    assert_eq!(m.modified_at.as_deref(), Some("2007-12-31T10:36:00Z"));
    // A weak date after the modification date is not the publication date.
    let m = body(
        "<div class='date'>17 January 2008</div><p>Updated: 3 January 2008</p>",
        None,
    );
    assert_eq!(m.published_at, None);
    let m = body("<p>发布时间：2019-09-05 11:10</p>", None);
    assert_eq!(m.published_at.as_deref(), Some("2019-09-05T11:10:00Z"));
    let m = body("<DATE>January 18, 2008</DATE>", None);
    assert_eq!(m.published_at.as_deref(), Some("2008-01-18T00:00:00Z"));
}

#[test]
fn published_from_canonical_url_date() {
    let m = meta_of(
        r#"<link rel="canonical" href="http://tv.msnbc.com/2012/12/07/fiscal-cliff/"><div class="date">Dec 15, 2012</div>"#,
        Some("http://tv.msnbc.com/?p=123"),
    );
    assert_eq!(m.published_at.as_deref(), Some("2012-12-07T00:00:00Z"));
}

#[test]
fn date_in_site_header_is_not_the_article_date() {
    let m = body(
        r#"<header><span class="date">Nov 23, 2026</span></header><p>x</p>"#,
        None,
    );
    assert_eq!(m.published_at, None);
}

// ---- modified ----

#[test]
fn modified_sources() {
    let m = head(
        r#"<script type="application/ld+json">{"@type":"Article","dateModified":"2019-09-06"}</script>"#,
    );
    assert_eq!(m.modified_at.as_deref(), Some("2019-09-06T00:00:00Z"));
    let m = head(r#"<meta property="article:modified_time" content="2019-09-06T01:02:03+01:00">"#);
    assert_eq!(m.modified_at.as_deref(), Some("2019-09-06T01:02:03+01:00"));
    let m = head(r#"<meta property="og:updated_time" content="2019-09-06 01:02">"#);
    assert_eq!(m.modified_at.as_deref(), Some("2019-09-06T01:02:00Z"));
    let m = body(
        r#"<time itemprop="dateModified" datetime="2019-09-06">x</time>"#,
        None,
    );
    assert_eq!(m.modified_at.as_deref(), Some("2019-09-06T00:00:00Z"));
    assert_eq!(
        m.published_at.as_deref(),
        Some("2019-09-06T00:00:00Z"),
        "a lone <time> is also the best publication date"
    );
}
