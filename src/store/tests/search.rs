//! Search (FTS5, trigram, LIKE fallback), export and site stats.

use super::*;
use crate::store::*;

fn search_fixture() -> Store {
    let mut s = Store::open_in_memory().unwrap();
    let ops = vec![
        WriteOp::Article(article(
            "https://a.test/1",
            "a",
            "Harbour strike ends",
            "Dock workers returned on Monday.\n\nThe strike ended.",
        )),
        WriteOp::Article(article(
            "https://a.test/2",
            "a",
            "Weather",
            "Rain all week. A strike of lightning hit the harbour crane.",
        )),
        WriteOp::Article(article(
            "https://a.test/3",
            "a",
            "Budget",
            "The council passed the budget.",
        )),
        WriteOp::Article(article(
            "https://c.test/1",
            "xinhua",
            "新华社报道",
            "国务院总理今天在北京主持召开会议，研究部署经济工作。",
        )),
        WriteOp::Article(article(
            "https://c.test/2",
            "xinhua",
            "天气",
            "北京今天有雨。",
        )),
    ];
    s.write_batch(ops).unwrap();
    s
}

#[test]
fn search_ranks_title_hits_first_and_marks_snippets() {
    let s = search_fixture();
    let hits = s.search("strike harbour", 10).unwrap();
    assert_eq!(hits.len(), 2);
    assert_eq!(hits[0].url, "https://a.test/1");
    assert!(hits[0].rank > hits[1].rank);
    assert!(hits[0].snippet.contains("[strike]"), "{}", hits[0].snippet);
    assert!(hits.iter().all(|h| !h.snippet.contains('\n')));
    assert_eq!(s.search("budget", 10).unwrap().len(), 1);
    assert_eq!(s.search("strike", 1).unwrap().len(), 1);
    assert_eq!(s.search("stri*", 10).unwrap().len(), 2);
}

#[test]
fn search_never_fails_on_fts_syntax() {
    let s = search_fixture();
    for q in [
        "\"",
        "strike\"",
        "AND",
        "strike AND",
        "NOT strike",
        "(strike",
        "-strike",
        "strike OR",
        "*",
        "col:strike",
        "NEAR(strike harbour)",
        "^strike",
        "",
        "   ",
        "'",
        "北京\"",
        "%",
        "_",
    ] {
        assert!(s.search(q, 10).is_ok(), "{q:?}");
    }
    assert_eq!(s.search("strike\"", 10).unwrap().len(), 2);
    assert_eq!(s.search("%", 10).unwrap().len(), 0);
}

#[test]
fn search_finds_chinese_words() {
    let s = search_fixture();
    // Three or more characters: trigram index.
    let hits = s.search("国务院", 10).unwrap();
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].url, "https://c.test/1");
    assert!(hits[0].snippet.contains("[国务院]"), "{}", hits[0].snippet);
    // Two characters: LIKE fallback, both articles, ranked by occurrences.
    let hits = s.search("北京", 10).unwrap();
    assert_eq!(hits.len(), 2);
    assert!(hits[0].snippet.contains("[北京]"), "{}", hits[0].snippet);
    assert!(s.search("上海", 10).unwrap().is_empty());
    // Mixed short terms: all must occur; punctuation separates terms.
    assert_eq!(s.search("北京 雨", 10).unwrap().len(), 1);
    assert_eq!(s.search("北京，雨。", 10).unwrap().len(), 1);
    assert_eq!(s.search("「国务院」", 10).unwrap().len(), 1);
}

#[test]
fn export_streams_every_article_and_filters_by_site() {
    let s = search_fixture();
    let mut urls = Vec::new();
    let n = s
        .export(None, |a| {
            urls.push(a.url.clone());
            Ok(())
        })
        .unwrap();
    assert_eq!(n, 5);
    assert_eq!(urls.len(), 5);
    assert_eq!(s.export(Some("xinhua"), |_| Ok(())).unwrap(), 2);
    assert!(matches!(
        s.export(Some("nope"), |_| Ok(())),
        Err(StoreError::UnknownSite(_))
    ));
    let broken = s.export(None, |_| Err(std::io::Error::other("pipe closed")));
    assert!(matches!(broken, Err(StoreError::Io(_))));
}

#[test]
fn site_stats_reports_articles_per_site() {
    let s = search_fixture();
    let stats = s.site_stats(50).unwrap();
    let names: Vec<_> = stats
        .iter()
        .map(|x| (x.site.as_str(), x.articles))
        .collect();
    assert_eq!(names, [("a", 3), ("xinhua", 2)]);
}
