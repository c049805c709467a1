//! Search (FTS5, trigram, LIKE fallback), export and site stats.

use super::*;
use crate::store::rules::search::SNIPPET_WINDOW;

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
        // At worst a query error for the user (no words, only
        // exclusions), never an SQL error.
        match s.search(q, 10) {
            Ok(_) | Err(StoreError::Query(_)) => {}
            Err(e) => panic!("{q:?}: {e}"),
        }
    }
    assert_eq!(s.search("strike\"", 10).unwrap().len(), 2);
    assert!(matches!(s.search("%", 10), Err(StoreError::Query(_))));
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
        .export(&Selection::default(), |a| {
            urls.push(a.url.clone());
            Ok(())
        })
        .unwrap();
    assert_eq!(n, 5);
    assert_eq!(urls.len(), 5);
    assert_eq!(s.export(&Selection::site("xinhua"), |_| Ok(())).unwrap(), 2);
    assert!(matches!(
        s.export(&Selection::site("nope"), |_| Ok(())),
        Err(StoreError::UnknownSite(_))
    ));
    let broken = s.export(&Selection::default(), |_| {
        Err(std::io::Error::other("pipe closed"))
    });
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

pub(super) fn fts_check(s: &Store) -> rusqlite::Result<()> {
    // rank 1 also compares the index with the articles table; the trigram
    // table deliberately holds fewer rows, so it is checked on its own (0).
    s.conn.execute_batch(
        "INSERT INTO articles_fts(articles_fts, rank) VALUES ('integrity-check', 1);
         INSERT INTO articles_fts_cjk(articles_fts_cjk, rank) VALUES ('integrity-check', 0);",
    )
}

pub(super) fn trigram_rows(s: &Store, term: &str) -> i64 {
    s.conn
        .query_row(
            "SELECT count(*) FROM articles_fts_cjk WHERE articles_fts_cjk MATCH ?1",
            [format!("\"{term}\"")],
            |r| r.get(0),
        )
        .unwrap()
}

#[test]
fn only_cjk_articles_go_into_the_trigram_index() {
    let mut s = search_fixture();
    // Alphabetic articles are not in the trigram index...
    assert_eq!(trigram_rows(&s, "harbour"), 0);
    // ...CJK ones are, whole (their Latin words included).
    assert_eq!(trigram_rows(&s, "国务院"), 1);
    s.write_batch(vec![WriteOp::Article(article(
        "https://c.test/3",
        "xinhua",
        "GDP增长",
        "Quarterly GDP figures: 国内生产总值增长.",
    ))])
    .unwrap();
    assert_eq!(trigram_rows(&s, "Quarterly"), 1);
    fts_check(&s).unwrap();
    // Updates move articles in and out of the trigram index.
    s.conn
        .execute(
            "UPDATE articles SET text = 'Now in English only.', title = 'EN' WHERE url = 'https://c.test/3'",
            [],
        )
        .unwrap();
    assert_eq!(trigram_rows(&s, "Quarterly"), 0);
    s.conn
        .execute(
            "UPDATE articles SET text = text || ' 港口罢工结束' WHERE url = 'https://a.test/1'",
            [],
        )
        .unwrap();
    assert_eq!(trigram_rows(&s, "港口罢工"), 1);
    assert_eq!(s.search("港口罢工", 10).unwrap()[0].url, "https://a.test/1");
    s.conn
        .execute_batch(
            "DELETE FROM article_urls WHERE url LIKE 'https://c.test/%';
             DELETE FROM articles WHERE url LIKE 'https://c.test/%';",
        )
        .unwrap();
    fts_check(&s).unwrap();
    assert!(s.search("国务院", 10).unwrap().is_empty());
    assert_eq!(s.search("strike", 10).unwrap().len(), 2);
}

#[test]
fn migrating_a_version_2_database_drops_latin_rows_from_the_trigram_index() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v2.db");
    {
        // A version-2 database as the previous release wrote it.
        let c = rusqlite::Connection::open(&path).unwrap();
        c.execute_batch(include_str!("../../../../migrations/0001_init.sql"))
            .unwrap();
        c.execute_batch(include_str!("../../../../migrations/0002_claim_index.sql"))
            .unwrap();
        c.execute_batch(
            "PRAGMA user_version = 2;
             INSERT INTO sites(id, name) VALUES (1, 'a');
             INSERT INTO articles(url, site_id, title, text, raw_text, content_hash, word_count, fetched_at)
               VALUES ('https://a.test/1', 1, 'Harbour', 'Harbour strike ends.', '', 'h1', 3, 1),
                      ('https://a.test/2', 1, '新闻', '国务院常务会议召开。', '', 'h2', 9, 1);",
        )
        .unwrap();
        let n: i64 = c
            .query_row(
                "SELECT count(*) FROM articles_fts_cjk WHERE articles_fts_cjk MATCH '\"Harbour\"'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(n, 1, "version 2 indexed Latin text in the trigram table");
    }
    let s = Store::open(&path).unwrap();
    assert_eq!(trigram_rows(&s, "Harbour"), 0);
    assert_eq!(trigram_rows(&s, "国务院"), 1);
    fts_check(&s).unwrap();
    assert_eq!(s.search("harbour", 10).unwrap().len(), 1);
}

fn at(s: &str) -> chrono::DateTime<chrono::FixedOffset> {
    chrono::DateTime::parse_from_rfc3339(s).unwrap()
}

/// Articles published at the same instant written in three zones, one a
/// minute later, and one without a date.
fn dated_fixture() -> Store {
    let mut s = Store::open_in_memory().unwrap();
    let dated = |u: &str, site: &str, when: Option<&str>| {
        // Distinct texts: a site's duplicate texts are stored once.
        let text = format!("The harbour reopened today ({u}).");
        let mut a = article(u, site, "Harbour news", &text);
        a.article.published_at = when.map(String::from);
        WriteOp::Article(a)
    };
    s.write_batch(vec![
        dated("https://a.test/1", "a", Some("2026-11-01T12:00:00Z")),
        dated("https://a.test/2", "a", Some("2026-11-01T20:00:00+08:00")),
        dated("https://b.test/1", "b", Some("2026-11-01T07:00:00-05:00")),
        dated("https://b.test/2", "b", Some("2026-11-01T12:01:00Z")),
        dated("https://b.test/3", "b", None),
    ])
    .unwrap();
    s
}

#[test]
fn export_and_search_select_by_publication_time_across_offsets() {
    let s = dated_fixture();
    let count = |sel: &Selection| s.export(sel, |_| Ok(())).unwrap();
    let between = |since: Option<&str>, until: Option<&str>| Selection {
        published_since: since.map(at),
        published_until: until.map(at),
        ..Selection::default()
    };
    assert_eq!(count(&Selection::default()), 5);
    // The first three are the same instant (12:00 UTC) in three spellings:
    // bounds compare instants, not strings; undated articles are left out.
    assert_eq!(count(&between(Some("2026-11-01T12:00:00Z"), None)), 4);
    assert_eq!(count(&between(None, Some("2026-11-01T13:00:00+01:00"))), 3);
    assert_eq!(count(&between(Some("2026-11-01T12:00:30Z"), None)), 1);
    assert_eq!(
        count(&between(
            Some("2026-11-01T12:00:00Z"),
            Some("2026-11-01T12:00:00Z")
        )),
        3
    );
    // Site and dates together; search applies the same selection.
    let sel = Selection {
        site: Some("b".into()),
        ..between(Some("2026-11-01T00:00:00Z"), None)
    };
    assert_eq!(count(&sel), 2);
    let hits = s.search_in("harbour", 10, &sel).unwrap();
    let mut urls: Vec<&str> = hits.iter().map(|h| h.url.as_str()).collect();
    urls.sort_unstable();
    assert_eq!(urls, ["https://b.test/1", "https://b.test/2"]);
    assert_eq!(s.search("harbour", 10).unwrap().len(), 5);
    assert!(matches!(
        s.search_in("harbour", 10, &Selection::site("nope")),
        Err(StoreError::UnknownSite(_))
    ));
}

#[test]
fn regression_cjk_queries_an_article_outside_the_trigram_index_can_match_find_it() {
    let mut s = search_fixture();
    // Compatibility ideographs only: no Han of the trigram index's ranges.
    s.write_batch(vec![WriteOp::Article(article(
        "https://c.test/3",
        "xinhua",
        "Old forms",
        "Written with \u{F900}\u{F901}\u{F902} in it.",
    ))])
    .unwrap();
    assert_eq!(trigram_rows(&s, "\u{F900}\u{F901}\u{F902}"), 0);
    for q in ["\u{F900}", "\u{F900}\u{F901}\u{F902}"] {
        let hits = s.search(q, 10).unwrap();
        let urls: Vec<&str> = hits.iter().map(|h| h.url.as_str()).collect();
        assert_eq!(urls, ["https://c.test/3"], "{q}");
    }
    // An alternative without CJK matches articles the index does not hold.
    let hits = s.search("国务院 OR harbour", 10).unwrap();
    let mut urls: Vec<&str> = hits.iter().map(|h| h.url.as_str()).collect();
    urls.sort_unstable();
    assert_eq!(
        urls,
        ["https://a.test/1", "https://a.test/2", "https://c.test/1"]
    );
}

#[test]
fn regression_snippets_were_made_from_the_whole_text_of_huge_articles() {
    // `snippet()` over a 5 MB text took seconds: a text longer than the
    // window gets its snippet from the window, by the first term.
    let filler = "Quiet words fill the middle of this long text.\n\n".repeat(2_000);
    let text = format!("The harbour opened at dawn.\n\n{filler}A zeppelin came at the end.");
    assert!(text.len() > SNIPPET_WINDOW);
    let mut s = Store::open_in_memory().unwrap();
    s.write_batch(vec![WriteOp::Article(article(
        "https://a.test/long",
        "a",
        "Long",
        &text,
    ))])
    .unwrap();
    let hits = s.search("harbour", 10).unwrap();
    assert_eq!(hits.len(), 1);
    assert!(hits[0].snippet.contains("[harbour]"), "{}", hits[0].snippet);
    // Found by the index over the whole text; its hit lies past the window,
    // so the snippet is the text's start.
    let hits = s.search("zeppelin", 10).unwrap();
    assert_eq!(hits.len(), 1);
    assert!(!hits[0].snippet.contains("zeppelin"), "{}", hits[0].snippet);
    assert!(
        hits[0].snippet.starts_with("The harbour"),
        "{}",
        hits[0].snippet
    );
    assert!(hits[0].snippet.len() < 200, "{}", hits[0].snippet);
}
