//! Store tests: open/migrate, frontier, batched writes, search, export.
//! In: in-memory or temp-file databases. Out: assertions.

use std::path::Path;

use super::lines::LineSettings;
use super::*;
use crate::boilerplate::LineRule;

fn off() -> LineSettings {
    LineSettings {
        rule: LineRule { window: 50 },
        prune_ratio: 0.01,
        prune_every: 100,
        enabled: false,
    }
}

fn url(u: &str, site: &str, kind: UrlKind, priority: i32) -> NewUrl {
    NewUrl {
        url: u.into(),
        site: site.into(),
        kind,
        depth: 1,
        priority,
    }
}

fn article(u: &str, site: &str, title: &str, text: &str) -> NewArticle {
    NewArticle {
        url: u.into(),
        url_id: None,
        site: site.into(),
        fetched_at: 1_000,
        article: Article {
            title: Some(title.into()),
            author: None,
            published_at: Some("2026-11-26T01:00:00Z".into()),
            modified_at: None,
            language: None,
            canonical_url: None,
            site_name: None,
            text: text.into(),
        },
        lines: off(),
    }
}

fn fetched(url_id: i64, next: NextState, error: Option<&str>) -> FetchRecord {
    FetchRecord {
        url_id,
        started_at: 5_000,
        status: if error.is_some() {
            Some(503)
        } else {
            Some(200)
        },
        error_kind: error.map(String::from),
        bytes: 1234,
        elapsed_ms: 12,
        final_url: None,
        content_type: Some("text/html".into()),
        etag: Some("\"v1\"".into()),
        last_modified: None,
        next,
    }
}

fn store_one(s: &mut Store, a: NewArticle) -> WriteOutcome {
    let mut out = s.write_batch(vec![WriteOp::Article(a)]).unwrap();
    out.pop().unwrap()
}

#[test]
fn open_on_a_text_file_is_not_a_database() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("notes.db");
    std::fs::write(&path, "these are my notes, not a database\n".repeat(100)).unwrap();
    match Store::open(&path) {
        Err(StoreError::NotADatabase { path: p }) => assert_eq!(p, path),
        other => panic!("expected NotADatabase, got {:?}", other.map(|_| ())),
    }
}

#[test]
fn open_on_another_apps_sqlite_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("other.db");
    let c = rusqlite::Connection::open(&path).unwrap();
    c.execute_batch("CREATE TABLE contacts(name TEXT)").unwrap();
    drop(c);
    assert!(matches!(
        Store::open(&path),
        Err(StoreError::NotADatabase { .. })
    ));
}

#[test]
fn open_creates_the_file_and_reopen_keeps_data_without_remigrating() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sub.db");
    {
        let mut s = Store::open(&path).unwrap();
        assert_eq!(s.schema_version().unwrap(), open::SCHEMA_VERSION);
        s.add_urls(&[url("https://a.test/1", "a", UrlKind::Article, 1)])
            .unwrap();
        store_one(&mut s, article("https://a.test/1", "a", "T", "body one"));
    }
    assert!(path.exists());
    // Re-running migration 1 would fail with "table sites already exists".
    let mut s = Store::open(&path).unwrap();
    assert_eq!(s.counts().unwrap().queued, 1);
    assert_eq!(s.export(None, |_| Ok(())).unwrap(), 1);
    let mode: String = s
        .conn
        .pragma_query_value(None, "journal_mode", |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
    assert_eq!(s.integrity_check().unwrap(), "ok");
    assert_eq!(
        s.add_urls(&[url("https://a.test/1", "a", UrlKind::Article, 1)])
            .unwrap(),
        0
    );
}

#[test]
fn open_refuses_a_newer_schema() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("new.db");
    drop(Store::open(&path).unwrap());
    let c = rusqlite::Connection::open(&path).unwrap();
    c.pragma_update(None, "user_version", 999).unwrap();
    drop(c);
    match Store::open(&path) {
        Err(StoreError::TooNew { found, .. }) => assert_eq!(found, 999),
        other => panic!("expected TooNew, got {:?}", other.map(|_| ())),
    }
}

#[test]
fn open_on_a_directory_is_an_open_error() {
    let dir = tempfile::tempdir().unwrap();
    assert!(Store::open(Path::new(dir.path())).is_err());
}

#[test]
fn add_urls_counts_only_new_ones_and_creates_sites() {
    let mut s = Store::open_in_memory().unwrap();
    let n = s
        .add_urls(&[
            url("https://a.test/1", "a", UrlKind::Article, 1),
            url("https://a.test/1", "a", UrlKind::Article, 1),
            url("https://b.test/1", "b", UrlKind::Page, 1),
        ])
        .unwrap();
    assert_eq!(n, 2);
    let a = s.site_id("a").unwrap();
    let b = s.site_id("b").unwrap();
    assert_ne!(a, b);
    assert_eq!(s.site_id("a").unwrap(), a);
    assert_eq!(s.site_urls("a").unwrap(), 1);
}

#[test]
fn claim_due_takes_priority_then_age_and_marks_fetching() {
    let mut s = Store::open_in_memory().unwrap();
    s.add_urls(&[
        url("https://a.test/low", "a", UrlKind::Page, 1),
        url("https://a.test/high1", "a", UrlKind::Article, 9),
        url("https://a.test/high2", "a", UrlKind::Article, 9),
        url("https://a.test/feed", "a", UrlKind::Feed, 20),
    ])
    .unwrap();
    let got: Vec<String> = s
        .claim_due(0, 3)
        .unwrap()
        .into_iter()
        .map(|q| q.url)
        .collect();
    assert_eq!(
        got,
        [
            "https://a.test/feed",
            "https://a.test/high1",
            "https://a.test/high2"
        ]
    );
    let c = s.counts().unwrap();
    assert_eq!((c.queued, c.fetching), (1, 3));
    // Claimed URLs are not handed out twice.
    let rest = s.claim_due(0, 10).unwrap();
    assert_eq!(rest.len(), 1);
    assert_eq!(rest[0].kind, UrlKind::Page);
    assert!(s.claim_due(0, 10).unwrap().is_empty());
}

#[test]
fn claim_due_interleaves_sites_so_a_backlog_cannot_starve_others() {
    let mut s = Store::open_in_memory().unwrap();
    let mut urls: Vec<NewUrl> = (0..50)
        .map(|i| url(&format!("https://big.test/{i}"), "big", UrlKind::Article, 5))
        .collect();
    urls.push(url("https://small.test/feed", "small", UrlKind::Feed, 9));
    urls.push(url("https://small.test/a", "small", UrlKind::Article, 5));
    urls.push(url("https://small.test/b", "small", UrlKind::Article, 5));
    urls.push(url(
        "https://other.test/later",
        "other",
        UrlKind::Article,
        99,
    ));
    s.add_urls(&urls).unwrap();
    // "other" is not due yet.
    let id_later = s.claim_due(0, 100).unwrap();
    s.reset_in_flight().unwrap();
    assert_eq!(id_later.len(), 54);
    let later = id_later.iter().find(|q| q.site == "other").unwrap().id;
    s.write_batch(vec![WriteOp::Fetched(fetched(
        later,
        NextState::At(10),
        None,
    ))])
    .unwrap();
    let got: Vec<String> = s
        .claim_due(5, 6)
        .unwrap()
        .into_iter()
        .map(|q| q.url)
        .collect();
    // Small's feed has the best priority, so small leads every round.
    assert_eq!(
        got,
        [
            "https://small.test/feed",
            "https://big.test/0",
            "https://small.test/a",
            "https://big.test/1",
            "https://small.test/b",
            "https://big.test/2",
        ]
    );
}

#[test]
fn reset_in_flight_requeues_claimed_urls() {
    let mut s = Store::open_in_memory().unwrap();
    s.add_urls(&[
        url("https://a.test/1", "a", UrlKind::Article, 1),
        url("https://a.test/2", "a", UrlKind::Article, 1),
    ])
    .unwrap();
    let claimed = s.claim_due(0, 10).unwrap();
    s.write_batch(vec![WriteOp::Fetched(fetched(
        claimed[0].id,
        NextState::Done,
        None,
    ))])
    .unwrap();
    // Simulated crash: the second claim never came back.
    assert_eq!(s.reset_in_flight().unwrap(), 1);
    let again = s.claim_due(0, 10).unwrap();
    assert_eq!(again.len(), 1);
    assert_eq!(again[0].id, claimed[1].id);
    let c = s.counts().unwrap();
    assert_eq!((c.done, c.fetching, c.queued), (1, 1, 0));
}

#[test]
fn fetch_outcome_schedules_retries_and_records_validators() {
    let mut s = Store::open_in_memory().unwrap();
    s.add_urls(&[url("https://a.test/feed", "a", UrlKind::Feed, 1)])
        .unwrap();
    let id = s.claim_due(0, 1).unwrap()[0].id;
    assert_eq!(s.next_due_at().unwrap(), None);
    s.write_batch(vec![WriteOp::Fetched(fetched(
        id,
        NextState::At(60_000),
        Some("http_5xx"),
    ))])
    .unwrap();
    assert_eq!(s.next_due_at().unwrap(), Some(60_000));
    assert!(s.claim_due(59_999, 10).unwrap().is_empty());
    let q = s.claim_due(60_000, 10).unwrap();
    assert_eq!(q.len(), 1);
    assert_eq!(q[0].attempts, 1);
    assert_eq!(q[0].etag.as_deref(), Some("\"v1\""));
    assert_eq!(s.site_pages("a").unwrap(), 0);
    s.write_batch(vec![WriteOp::Fetched(fetched(
        id,
        NextState::At(120_000),
        None,
    ))])
    .unwrap();
    assert_eq!(s.site_pages("a").unwrap(), 1);
    assert_eq!(s.pages_by_site().unwrap().get("a"), Some(&1));
    let q = s.claim_due(200_000, 10).unwrap();
    assert_eq!(q[0].attempts, 0, "a success resets the failure count");
    let stats = s.site_stats(50).unwrap();
    assert_eq!(stats[0].pages_fetched, 1);
    assert_eq!(stats[0].errors, vec![("http_5xx".to_string(), 1)]);
}

#[test]
fn write_batch_is_atomic() {
    let mut s = Store::open_in_memory().unwrap();
    s.add_urls(&[url("https://a.test/1", "a", UrlKind::Article, 1)])
        .unwrap();
    let r = s.write_batch(vec![
        WriteOp::AddUrls(vec![url("https://a.test/2", "a", UrlKind::Article, 1)]),
        WriteOp::Article(article("https://a.test/1", "a", "T", "some text")),
        // No such frontier URL: this op fails, so the whole batch must go.
        WriteOp::Fetched(fetched(424242, NextState::Done, None)),
    ]);
    assert!(r.is_err());
    assert_eq!(s.counts().unwrap().queued, 1);
    assert_eq!(s.export(None, |_| Ok(())).unwrap(), 0);
    assert!(s.search("text", 10).unwrap().is_empty());
}

#[test]
fn same_url_twice_and_same_body_twice_store_one_article() {
    let mut s = Store::open_in_memory().unwrap();
    let first = store_one(
        &mut s,
        article("https://a.test/1", "a", "T", "Line one.\nLine two."),
    );
    let WriteOutcome::ArticleStored { id, lines_dropped } = first else {
        panic!("{first:?}")
    };
    assert_eq!(lines_dropped, 0);
    assert_eq!(
        store_one(&mut s, article("https://a.test/1", "a", "T", "changed")),
        WriteOutcome::ArticleDuplicate { id }
    );
    assert_eq!(
        store_one(
            &mut s,
            article("https://a.test/1?amp", "a", "T", "Line one.\nLine two.")
        ),
        WriteOutcome::ArticleDuplicate { id }
    );
    // The same body on another site is another site's article.
    assert!(matches!(
        store_one(
            &mut s,
            article("https://b.test/1", "b", "T", "Line one.\nLine two.")
        ),
        WriteOutcome::ArticleStored { .. }
    ));
    assert_eq!(s.export(Some("a"), |_| Ok(())).unwrap(), 1);
    let alias = s
        .article(ArticleRef::Url("https://a.test/1?amp".into()))
        .unwrap()
        .unwrap();
    assert_eq!(alias.id, id);
    assert_eq!(alias.url, "https://a.test/1");
    let hit = s.article(ArticleRef::Id(id)).unwrap().unwrap();
    assert_eq!(hit.article.text, "Line one.\nLine two.");
    assert_eq!(hit.word_count, 4);
    assert!(s.article(ArticleRef::Id(id + 100)).unwrap().is_none());
    assert!(s
        .article(ArticleRef::Url("https://nowhere.test/".into()))
        .unwrap()
        .is_none());
}

#[test]
fn article_lookup_accepts_an_unnormalised_url() {
    let mut s = Store::open_in_memory().unwrap();
    let WriteOutcome::ArticleStored { id, .. } = store_one(
        &mut s,
        article("https://a.test/story", "a", "T", "Body text."),
    ) else {
        panic!()
    };
    let got = s
        .article(ArticleRef::Url(
            "HTTPS://A.test:443/story?utm_source=rss#top".into(),
        ))
        .unwrap();
    assert_eq!(got.map(|a| a.id), Some(id));
}

#[test]
fn empty_text_is_not_stored() {
    let mut s = Store::open_in_memory().unwrap();
    assert_eq!(
        store_one(&mut s, article("https://a.test/1", "a", "T", "  \n\n ")),
        WriteOutcome::ArticleEmpty
    );
    assert_eq!(s.export(None, |_| Ok(())).unwrap(), 0);
}

#[test]
fn word_count_counts_cjk_characters_each() {
    assert_eq!(articles::word_count("The quick  brown\nfox"), 4);
    assert_eq!(articles::word_count("新华社北京"), 5);
    assert_eq!(articles::word_count("据新华社 GDP增长5%。"), 4 + 1 + 2 + 1);
    assert_eq!(articles::word_count(""), 0);
}

#[test]
fn content_hash_is_md5_hex() {
    assert_eq!(
        articles::content_hash("hello"),
        "5d41402abc4b2a76b9719d911017c592"
    );
}

fn search_fixture() -> Store {
    let mut s = Store::open_in_memory().unwrap();
    let ops = vec![
        WriteOp::Article(article(
            "https://a.test/1",
            "a",
            "Harbour strike ends",
            "Dock workers returned on Monday after the strike ended.",
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

/// Scale check, run by hand: `cargo test --lib frontier_scale -- --ignored --nocapture`.
/// Prints timings; asserts only correctness (timings are not asserted).
#[test]
#[ignore]
fn frontier_scale_200k() {
    use std::time::Instant;
    let dir = tempfile::tempdir().unwrap();
    let mut s = Store::open(&dir.path().join("scale.db")).unwrap();
    let t = Instant::now();
    for batch in 0..200 {
        let urls: Vec<NewUrl> = (0..1000)
            .map(|i| {
                let n = batch * 1000 + i;
                url(
                    &format!("https://site{}.test/2026/11/{n}.html", n % 7),
                    &format!("site{}", n % 7),
                    if n % 5 == 0 {
                        UrlKind::Index
                    } else {
                        UrlKind::Article
                    },
                    n % 13,
                )
            })
            .collect();
        s.write_batch(vec![WriteOp::AddUrls(urls)]).unwrap();
    }
    println!("add 200k urls in 200 batches: {:?}", t.elapsed());
    let t = Instant::now();
    let mut claimed = 0;
    for _ in 0..200 {
        let q = s.claim_due(1, 64).unwrap();
        claimed += q.len();
        let ops = q
            .iter()
            .map(|u| WriteOp::Fetched(fetched(u.id, NextState::Done, None)))
            .collect();
        s.write_batch(ops).unwrap();
    }
    println!("200 × (claim 64 + record 64 fetches): {:?}", t.elapsed());
    assert_eq!(claimed, 200 * 64);
    let t = Instant::now();
    let c = s.counts().unwrap();
    println!("counts {:?}: {:?}", c, t.elapsed());
    assert_eq!(c.done, 200 * 64);
    let t = Instant::now();
    let _ = s.next_due_at().unwrap();
    println!("next_due_at: {:?}", t.elapsed());
    let t = Instant::now();
    let _ = s.site_stats(50).unwrap();
    println!("site_stats: {:?}", t.elapsed());
}
