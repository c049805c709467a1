//! `serve` over a corpus of huge articles (a hostile site's 3 MB pages,
//! stored before texts had a cap): searches of them never hold every query
//! slot, so `/api/stats` keeps answering while four run, and a query past
//! its time budget (`[serve] query_budget_secs`, here made tiny) is stopped
//! with a 503 that says so.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

use newshound::boilerplate::LineSettings;
use newshound::extract::Article;
use newshound::serve::ServeOptions;
use newshound::store::{NewArticle, Store, StoreTarget, WriteOp};
use tokio::sync::oneshot;

use crate::serve::{client, get_json, Server};

/// Huge articles, and their size.
const HUGE: usize = 8;
const HUGE_BYTES: usize = 3 << 20;
/// Small articles beside them: a search over many rows.
const SMALL: usize = 1_500;

const WORDS: [&str; 24] = [
    "the", "council", "said", "on", "budget", "railway", "of", "schools", "weather", "market",
    "and", "a", "new", "plan", "for", "town", "was", "after", "week", "police", "bank", "river",
    "port", "ships",
];

fn new_article(i: usize, text: String) -> WriteOp {
    WriteOp::Article(NewArticle {
        url: format!("http://127.0.0.1:9/2026/11/{i}"),
        url_id: None,
        site: "huge".into(),
        fetched_at: 1,
        article: Article {
            title: Some(format!("Report {i}")),
            text,
            ..Article::default()
        },
        lines: LineSettings {
            enabled: false,
            ..LineSettings::default()
        },
        html: None,
    })
}

/// `bytes` of paragraphs of common words, `harbour` in every one.
fn huge_text(seed: usize, bytes: usize) -> String {
    let mut state = seed as u64 * 2_654_435_761 + 1;
    let mut text = String::with_capacity(bytes + 512);
    while text.len() < bytes {
        for _ in 0..60 {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            text.push_str(WORDS[(state >> 33) as usize % WORDS.len()]);
            text.push(' ');
        }
        text.push_str("by the harbour.\n\n");
    }
    text
}

/// The corpus, built once for the tests of this file.
fn corpus() -> &'static Path {
    static DB: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    &DB.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("huge.db");
        let mut store = Store::open(&db).unwrap();
        for i in 0..HUGE {
            store
                .write_batch(vec![new_article(i, huge_text(i, HUGE_BYTES))])
                .unwrap();
        }
        let small = (HUGE..HUGE + SMALL)
            .map(|i| new_article(i, format!("Item {i}: the harbour board met on day {i}.")))
            .collect();
        store.write_batch(small).unwrap();
        (dir, db)
    })
    .1
}

async fn serve_with(db: &Path, query_budget: Duration) -> Server {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = oneshot::channel::<()>();
    let target = StoreTarget::from(db);
    let options = ServeOptions {
        query_budget: Some(query_budget),
        ..ServeOptions::new(50)
    };
    let task = tokio::spawn(async move {
        let shutdown = async {
            let _ = stopped.await;
        };
        newshound::serve::serve_with(listener, &target, &options, shutdown)
            .await
            .expect("serve runs");
    });
    Server {
        addr,
        stop: Some(stop),
        task,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn regression_four_searches_of_huge_articles_held_every_query_slot_and_stats_got_503() {
    let db = corpus();
    let server = serve_with(db, Duration::from_secs(60)).await;
    let addr = server.addr;
    let searches: Vec<_> = (0..4)
        .map(|_| {
            tokio::spawn(async move { get_json(&client(), addr, "/api/search?q=harbour").await })
        })
        .collect();
    // The searches take their slots first (before, each held one for as
    // long as its snippets took: all four, for many seconds).
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (status, stats) = get_json(&client(), addr, "/api/stats").await;
    assert_eq!(status, 200, "{stats}");
    assert_eq!(stats["articles"], HUGE + SMALL, "{stats}");
    for search in searches {
        let (status, v) = search.await.unwrap();
        assert_eq!(status, 200, "{v}");
        let results = v["results"].as_array().unwrap();
        assert_eq!(results.len(), 20, "{v}");
        assert!(
            results
                .iter()
                .all(|h| h["snippet"].as_str().unwrap().contains("[harbour]")),
            "{v}"
        );
    }
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn regression_a_search_held_its_query_slot_for_minutes() {
    // A budget no query can keep: the search is stopped, and says why.
    let server = serve_with(corpus(), Duration::from_nanos(1)).await;
    let (status, v) = get_json(&client(), server.addr, "/api/search?q=harbour").await;
    assert_eq!(status, 503, "{v}");
    let error = v["error"].as_str().unwrap();
    assert!(error.contains("time budget"), "{error}");
    assert!(error.contains("query_budget_secs"), "{error}");
    server.shutdown().await;
}
