//! `[crawler] refetch_articles_after_secs`: an article is fetched once more
//! after the delay; a changed body updates the stored article (search
//! follows), an unchanged one leaves it alone, and nothing is fetched a
//! third time. Off (0), articles are fetched once.

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::State;
use axum::response::Html;
use axum::routing::get;
use axum::Router;
use newshound::config::Config;
use newshound::crawl::{self, CrawlOptions, CrawlSummary};
use newshound::store::AnyStore;
use newshound::store::{ArticleRef, Store};

#[derive(Default)]
struct Hits {
    changing: AtomicUsize,
    stable: AtomicUsize,
}

fn page(title: &str, words: &str) -> String {
    let para = format!(
        "<p>{words} The council met on Monday evening to discuss the harbour plans, \
         and residents filled the hall to hear the engineers explain the new design.</p>"
    );
    format!(
        "<!DOCTYPE html><html><head><title>{title}</title>\
         <meta property=\"article:published_time\" content=\"2026-03-02T08:00:00Z\"></head>\
         <body><article><h1>{title}</h1>{para}{para}{para}</article></body></html>"
    )
}

async fn serve() -> (String, Arc<Hits>) {
    let hits = Arc::new(Hits::default());
    let app = Router::new()
        .route(
            "/",
            get(|| async {
                Html("<html><body><a href=\"/a/1\">1</a> <a href=\"/a/2\">2</a></body></html>")
            }),
        )
        .route(
            "/a/1",
            get(|State(h): State<Arc<Hits>>| async move {
                let n = h.changing.fetch_add(1, Ordering::SeqCst);
                let words = if n == 0 {
                    "Zanzibar ferries."
                } else {
                    "Correction: Quokka ferries."
                };
                Html(page("Changing story", words))
            }),
        )
        .route(
            "/a/2",
            get(|State(h): State<Arc<Hits>>| async move {
                h.stable.fetch_add(1, Ordering::SeqCst);
                Html(page("Stable story", "Nothing changes here."))
            }),
        )
        .with_state(hits.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    (format!("http://{addr}/"), hits)
}

fn config(base: &str, dir: &Path, refetch: f64) -> Config {
    let text = format!(
        "{}article_patterns = ['/a/\\d+$']\n",
        bare_config(base, refetch)
    );
    Config::parse(&text, Path::new("t.toml"), dir).expect("config")
}

/// The site by its address alone: its articles are found through links.
fn bare_config(base: &str, refetch: f64) -> String {
    format!(
        "[crawler]\nrefetch_articles_after_secs = {refetch:?}\nrevisit_secs = 3600.0\n\
         [politeness]\nrate_per_host = 50.0\n[fetch]\nallow_private_addresses = true\n\
         [boilerplate]\nenabled = false\n\
         [[sites]]\nname = \"s\"\nstart = [\"{base}\"]\n"
    )
}

async fn continuous(cfg: &Config, db: &Path, for_ms: u64) -> CrawlSummary {
    let opts = CrawlOptions {
        continuous: true,
        ..CrawlOptions::default()
    };
    let stop = tokio::time::sleep(Duration::from_millis(for_ms));
    tokio::time::timeout(
        Duration::from_secs(60),
        crawl::run(
            cfg,
            AnyStore::from(Store::open(db).expect("open")),
            opts,
            stop,
        ),
    )
    .await
    .expect("the crawl stops when asked")
    .expect("crawl runs")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn articles_are_refetched_once_and_updated_when_changed() {
    let (base, hits) = serve().await;
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("refetch.db");
    let cfg = config(&base, dir.path(), 0.8);
    let summary = continuous(&cfg, &db, 3_000).await;
    println!("{summary}");
    assert_eq!(
        hits.changing.load(Ordering::SeqCst),
        2,
        "fetched twice, no more"
    );
    assert_eq!(hits.stable.load(Ordering::SeqCst), 2);
    assert_eq!(summary.articles_stored, 2, "{summary}");
    assert_eq!(summary.articles_updated, 1, "{summary}");

    let mut store = AnyStore::from(Store::open(&db).expect("reopen"));
    let changed = store
        .article(ArticleRef::Url(format!("{base}a/1")))
        .expect("query")
        .expect("stored");
    assert!(
        changed.article.text.contains("Quokka"),
        "{}",
        changed.article.text
    );
    assert!(!changed.article.text.contains("Zanzibar"));
    let hits_new = store
        .search_in("quokka", 10, &newshound::store::Selection::default())
        .expect("search");
    assert_eq!(hits_new.len(), 1);
    assert_eq!(hits_new[0].id, changed.id);
    assert!(store
        .search_in("zanzibar", 10, &newshound::store::Selection::default())
        .expect("search")
        .is_empty());
    assert_eq!(
        Store::open(&db)
            .expect("reopen")
            .counts()
            .expect("counts")
            .queued,
        1,
        "only the start page"
    );

    // A later run does not fetch them a third time.
    let again = continuous(&cfg, &db, 1_500).await;
    assert_eq!(again.pages_fetched, 0, "{again}");
    assert_eq!(hits.changing.load(Ordering::SeqCst), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_refetch_articles_are_fetched_once() {
    let (base, hits) = serve().await;
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("once.db");
    let cfg = config(&base, dir.path(), 0.0);
    let summary = continuous(&cfg, &db, 2_000).await;
    assert_eq!(summary.articles_stored, 2, "{summary}");
    assert_eq!(summary.articles_updated, 0);
    assert_eq!(hits.changing.load(Ordering::SeqCst), 1);
    assert_eq!(hits.stable.load(Ordering::SeqCst), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn regression_articles_found_only_through_links_were_never_refetched() {
    // On a site without patterns they kept the kind `page` they were
    // found with, and only `article` URLs were refetched.
    let (base, hits) = serve().await;
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("bare.db");
    let cfg =
        Config::parse(&bare_config(&base, 0.8), Path::new("t.toml"), dir.path()).expect("config");
    let summary = continuous(&cfg, &db, 3_000).await;
    println!("{summary}");
    assert_eq!(summary.articles_stored, 2, "{summary}");
    assert_eq!(summary.articles_updated, 1, "{summary}");
    assert_eq!(hits.changing.load(Ordering::SeqCst), 2);
    assert_eq!(hits.stable.load(Ordering::SeqCst), 2);
    let kinds: Vec<String> = rusqlite::Connection::open(&db)
        .expect("open")
        .prepare("SELECT kind FROM urls WHERE url LIKE '%/a/%' ORDER BY url")
        .and_then(|mut s| s.query_map([], |r| r.get(0))?.collect())
        .expect("kinds");
    assert_eq!(kinds, ["article", "article"]);
}
