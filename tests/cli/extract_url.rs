//! `extract --url` (a file's or stdin's real address) and what `extract
//! --json` says of a page: its metadata, and whether the crawl would judge
//! it an article, and why.

use crate::support::{
    assert_clean_failure, assert_usage_error, newshound, newshound_piped, stderr, stdout,
};

/// A story that declares nothing but a byline, a date in its URL only, and
/// a relative canonical link.
const STORY: &str = r#"<html><head><title>Harbour reopens | Port News</title>
    <link rel="canonical" href="/2024/05/03/harbour-reopens">
    <meta property="og:type" content="article">
    <meta property="og:description" content="Ships queue again after a month of repairs.">
    <meta property="article:section" content="Local">
    <meta property="article:tag" content="Harbour"><meta property="article:tag" content="Shipping">
    <meta property="og:image" content="/img/harbour.jpg">
    <meta name="author" content="Jane Roe und John Doe">
    </head><body><h1>Harbour reopens</h1><article>
    <p>The harbour reopened on Monday after a month of repairs to the breakwater, the port said.</p>
    <p>Ships queued outside from early morning, and the first ferry left shortly after eight.</p>
    <p>Repairs to the second pier will take until the summer, the harbour master told reporters.</p>
    <p>Fishermen, who had landed their catch in the next town for weeks, welcomed the news and
    said the detour had cost them a day of work each week since the storm in March.</p>
    </article></body></html>"#;

fn json_of(out: &std::process::Output) -> serde_json::Value {
    assert!(out.status.success(), "{}", stderr(out));
    serde_json::from_str(&stdout(out)).unwrap_or_else(|e| panic!("{e}: {}", stdout(out)))
}

#[test]
fn url_gives_a_file_its_address_and_json_the_judgement_and_details() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("p.html"), STORY).unwrap();
    let url = "https://news.example.org/2024/05/03/harbour-reopens?ref=rss";
    let json = json_of(&newshound(
        &["extract", "p.html", "--json", "--url", url],
        dir.path(),
    ));
    assert_eq!(
        json["canonical_url"],
        "https://news.example.org/2024/05/03/harbour-reopens"
    );
    assert_eq!(json["published_at"], "2024-05-03T00:00:00Z", "{json}");
    assert_eq!(json["image"], "https://news.example.org/img/harbour.jpg");
    assert_eq!(json["authors"], serde_json::json!(["Jane Roe", "John Doe"]));
    assert_eq!(json["author"], "Jane Roe, John Doe");
    assert_eq!(json["section"], "Local");
    assert_eq!(json["tags"], serde_json::json!(["Harbour", "Shipping"]));
    assert_eq!(
        json["description"],
        "Ships queue again after a month of repairs."
    );
    assert_eq!(json["paywalled"], serde_json::Value::Null);
    assert_eq!(json["judged"], "article", "{json}");
    assert_eq!(json["judge_reason"], "declared_og_article", "{json}");

    // Without the address: no date, so no article by that evidence.
    let json = json_of(&newshound(&["extract", "p.html", "--json"], dir.path()));
    assert_eq!(json["published_at"], serde_json::Value::Null);
    assert_eq!(json["canonical_url"], serde_json::Value::Null);
    assert_eq!(json["judged"], "not_article", "{json}");
    assert_eq!(json["judge_reason"], "undated", "{json}");
}

#[test]
fn url_works_for_stdin_too() {
    let dir = tempfile::tempdir().unwrap();
    let out = newshound_piped(
        &[
            "extract",
            "-",
            "--json",
            "--url",
            "https://news.example.org/2024/05/03/harbour-reopens",
        ],
        dir.path(),
        STORY.as_bytes(),
    );
    let json = json_of(&out);
    assert_eq!(json["published_at"], "2024-05-03T00:00:00Z", "{json}");
}

#[test]
fn url_is_refused_where_it_means_nothing_and_must_be_http() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("pages")).unwrap();
    let out = newshound(
        &["extract", "pages", "--url", "https://example.org/a"],
        dir.path(),
    );
    assert_clean_failure(&out, "--url");
    let out = newshound(
        &[
            "extract",
            "https://example.org/a",
            "--url",
            "https://example.org/b",
        ],
        dir.path(),
    );
    assert_clean_failure(&out, "--url");
    std::fs::write(dir.path().join("p.html"), STORY).unwrap();
    for bad in ["ftp://example.org/a", "/2024/05/03/a", "not a url"] {
        let out = newshound(&["extract", "p.html", "--url", bad], dir.path());
        assert_usage_error(&out, "--url");
    }
}
