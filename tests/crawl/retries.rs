//! What a crawl says and does about URLs that did not get through, end to
//! end on a tiny local site: a URL refused by a setting is tried again once
//! the setting changed, URLs waiting for robots.txt are named with the time
//! they wait for, `--retry-failed` queues failed URLs again, and a site
//! whose patterns match none of its links is named with a hint.

use std::path::Path;
use std::sync::atomic::{AtomicU16, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::http::{StatusCode, Uri};
use axum::Router;
use newshound::config::Config;
use newshound::crawl::{self, CrawlOptions, CrawlSummary};
use newshound::store::AnyStore;
use newshound::store::Store;

/// A distinct article body per page.
fn body(page: &str) -> String {
    const TOWNS: [&str; 4] = ["Ashford", "Brampton", "Carlow", "Dunmore"];
    const TOPICS: [&str; 4] = ["schools", "bridges", "libraries", "buses"];
    let i = page.bytes().last().map_or(0, |b| b as usize) % 4;
    let (town, topic) = (TOWNS[i], TOPICS[i]);
    format!(
        "<p>The council of {town} approved the new budget on Tuesday after a long debate about {topic}, roads and the harbour.</p>\
         <p>Opposition members in {town} said the plan for {topic} would raise local taxes, while the mayor argued that it was overdue.</p>"
    )
}

/// The site's behaviour, changeable while it runs.
#[derive(Clone, Default)]
struct Knobs {
    /// The status robots.txt answers (0: 200 with no rules).
    robots: Arc<AtomicU16>,
    /// The status article pages answer (0: 200).
    articles: Arc<AtomicU16>,
}

/// A home page linking three articles under `/news/2026/`.
async fn start(knobs: Knobs) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let app = Router::new().fallback(move |uri: Uri| {
        let knobs = knobs.clone();
        async move {
            let path = uri.path().to_string();
            let status = |s: &AtomicU16| match s.load(Ordering::SeqCst) {
                0 => StatusCode::OK,
                n => StatusCode::from_u16(n).unwrap(),
            };
            let (code, body) = match path.as_str() {
                "/robots.txt" => (status(&knobs.robots), "User-agent: *\nDisallow: /private/\n".to_string()),
                "/" => (
                    StatusCode::OK,
                    "<html><body><a href=\"/news/2026/a1\">1</a> <a href=\"/news/2026/a2\">2</a> \
                     <a href=\"/news/2026/a3\">3</a> <a href=\"/private/p\">p</a></body></html>"
                        .to_string(),
                ),
                p if p.starts_with("/news/") => (
                    status(&knobs.articles),
                    format!("<html><head><title>Story {p}</title></head><body><article><h1>Story {p}</h1>{}</article></body></html>", body(p)),
                ),
                _ => (StatusCode::NOT_FOUND, String::new()),
            };
            (code, [("content-type", "text/html")], body)
        }
    });
    tokio::spawn(async move { axum::serve(listener, app).await });
    base
}

/// The tiny site's config; `pattern` is its article pattern (a regex).
fn config(base: &str, extra: &str, pattern: &str) -> Config {
    let text = format!(
        r#"[politeness]
rate_per_host = 50.0
[fetch]
retries = 0
{extra}
[[sites]]
name = "tiny"
start = ["{base}/"]
article_patterns = ['{pattern}']
"#
    );
    Config::parse(&text, Path::new("tiny.toml"), Path::new(".")).unwrap()
}

/// The right pattern: any URL under `/news/2026/`.
const NEWS: &str = r"/news/\d{4}/";

async fn crawl_once(cfg: &Config, db: &Path, opts: CrawlOptions) -> CrawlSummary {
    let store = Store::open(db).unwrap();
    let run = crawl::run(cfg, AnyStore::from(store), opts, std::future::pending());
    let summary = tokio::time::timeout(Duration::from_secs(60), run)
        .await
        .expect("crawl finishes")
        .expect("crawl runs");
    println!("{summary}");
    summary
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn regression_a_start_url_refused_by_the_address_guard_stayed_failed_after_the_setting_changed(
) {
    let base = start(Knobs::default()).await;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    let refused = config(&base, "allow_private_addresses = false", NEWS);
    let first = crawl_once(&refused, &db, CrawlOptions::default()).await;
    assert_eq!(first.errors.get("blocked_address"), Some(&1), "{first}");
    assert_eq!(first.articles_stored, 0);
    // The refusal is named as failed, not hidden.
    let text = first.to_string();
    assert!(text.contains("blocked_address"), "{text}");
    // The user does what the message said: the start URL is tried again.
    let allowed = config(&base, "allow_private_addresses = true", NEWS);
    let second = crawl_once(&allowed, &db, CrawlOptions::default()).await;
    assert_eq!(second.requeued, 1, "{second}");
    assert_eq!(second.articles_stored, 3, "{second}");
    assert!(second.outlook.failed.is_empty(), "{second}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn regression_robots_disallowed_urls_were_listed_as_failed_with_a_hint_to_retry_them() {
    let base = start(Knobs::default()).await;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    let pattern = r"/(news/\d{4}|private)/";
    let cfg = config(&base, "allow_private_addresses = true", pattern);
    let summary = crawl_once(&cfg, &db, CrawlOptions::default()).await;
    assert!(summary.outlook.failed.is_empty(), "{summary}");
    let refused: Vec<(&str, u64)> = (summary.outlook.refused.iter())
        .map(|r| (r.reason.as_str(), r.urls))
        .collect();
    assert_eq!(refused, [("robots_disallowed", 1)], "{summary}");
    let text = summary.to_string();
    assert!(!text.contains("failed (all runs)"), "{text}");
    assert!(!text.contains("--retry-failed"), "{text}");
    assert!(text.contains("refused (all runs): 1 (robots.txt"), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_url_refused_by_robots_is_tried_again_when_robots_are_no_longer_obeyed() {
    let base = start(Knobs::default()).await;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    // `/private/` matches the pattern too: robots.txt alone keeps it out.
    let pattern = r"/(news/\d{4}|private)/";
    let obey = config(&base, "allow_private_addresses = true", pattern);
    let first = crawl_once(&obey, &db, CrawlOptions::default()).await;
    assert_eq!(first.skipped.get("robots_disallowed"), Some(&1), "{first}");
    // The same settings: nothing comes back.
    let again = crawl_once(&obey, &db, CrawlOptions::default()).await;
    assert_eq!(again.requeued, 0, "{again}");
    let mut ignore = config(&base, "allow_private_addresses = true", pattern);
    ignore.politeness.respect_robots = false;
    let third = crawl_once(&ignore, &db, CrawlOptions::default()).await;
    assert_eq!(third.requeued, 1, "{third}");
    assert_eq!(third.skipped.get("robots_disallowed"), None, "{third}");
    // Fetched this time (the tiny site has no such page).
    assert_eq!(third.errors.get("http_4xx"), Some(&1), "{third}");
}

/// The tiny site crawled once while its robots.txt answers 503: every URL
/// waits. Its knobs, directory, database, config and first summary.
async fn waiting_for_robots() -> (
    Knobs,
    tempfile::TempDir,
    std::path::PathBuf,
    Config,
    CrawlSummary,
) {
    let knobs = Knobs::default();
    knobs.robots.store(503, Ordering::SeqCst);
    let base = start(knobs.clone()).await;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    let cfg = config(&base, "allow_private_addresses = true", NEWS);
    let first = crawl_once(&cfg, &db, CrawlOptions::default()).await;
    (knobs, dir, db, cfg, first)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn regression_urls_waiting_after_robots_unavailable_were_invisible_to_the_next_crawl() {
    let (_knobs, _dir, db, cfg, first) = waiting_for_robots().await;
    assert_eq!(first.articles_stored, 0);
    // The second crawl has nothing due, and says what waits until when.
    let second = crawl_once(&cfg, &db, CrawlOptions::default()).await;
    assert_eq!(second.pages_fetched, 0, "{second}");
    // Its waits were lifted (nothing else of the site was due), and could
    // not be: the run says so, and fails.
    assert_eq!(second.waits_lifted, 1, "{second}");
    let stalled = second.stalled().expect("a stalled run");
    assert!(
        stalled.contains("1 robots_unavailable of tiny until"),
        "{stalled}"
    );
    let waits: Vec<&str> = second
        .outlook
        .waiting
        .iter()
        .map(|r| r.reason.as_str())
        .collect();
    assert_eq!(waits, ["robots_unavailable"], "{second}");
    assert!(second.outlook.waiting[0].until.is_some());
    let text = second.to_string();
    assert!(
        text.contains("waiting:") && text.contains("robots_unavailable") && text.contains("until"),
        "{text}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn regression_retry_failed_fetched_nothing_while_every_url_waited() {
    let (knobs, _dir, db, cfg, first) = waiting_for_robots().await;
    assert_eq!(first.outlook.waiting.len(), 1, "{first}");
    // The server is back; the user asks for a retry: it happens now.
    knobs.robots.store(0, Ordering::SeqCst);
    let opts = CrawlOptions {
        retry_failed: true,
        ..CrawlOptions::default()
    };
    let retried = crawl_once(&cfg, &db, opts).await;
    assert_eq!(retried.waits_lifted, 1, "{retried}");
    assert_eq!(retried.articles_stored, 3, "{retried}");
    assert!(retried.outlook.waiting.is_empty(), "{retried}");
    assert_eq!(retried.stalled(), None);
    assert!(retried.to_string().contains("waits lifted:"), "{retried}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn retry_failed_queues_failed_urls_again() {
    let knobs = Knobs::default();
    knobs.articles.store(404, Ordering::SeqCst);
    let base = start(knobs.clone()).await;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    let cfg = config(&base, "allow_private_addresses = true", NEWS);
    let first = crawl_once(&cfg, &db, CrawlOptions::default()).await;
    assert_eq!(first.errors.get("http_4xx"), Some(&3), "{first}");
    let failed: u64 = first.outlook.failed.iter().map(|r| r.urls).sum();
    assert_eq!(failed, 3, "{first}");
    assert!(first.to_string().contains("--retry-failed"), "{first}");
    // The site is fixed; a plain crawl leaves a 404 alone...
    knobs.articles.store(0, Ordering::SeqCst);
    let plain = crawl_once(&cfg, &db, CrawlOptions::default()).await;
    assert_eq!(plain.articles_stored, 0, "{plain}");
    // ...and `--retry-failed` fetches the failed URLs again.
    let opts = CrawlOptions {
        retry_failed: true,
        ..CrawlOptions::default()
    };
    let retried = crawl_once(&cfg, &db, opts).await;
    assert_eq!(retried.requeued, 3, "{retried}");
    assert_eq!(retried.articles_stored, 3, "{retried}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn regression_a_path_anchored_pattern_stored_nothing_and_said_nothing() {
    let base = start(Knobs::default()).await;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    // A natural mistake: patterns are matched against the whole URL.
    let cfg = config(&base, "allow_private_addresses = true", r"^/news/\d{4}/");
    let summary = crawl_once(&cfg, &db, CrawlOptions::default()).await;
    assert_eq!(summary.articles_stored, 0);
    let report = &summary.sites["tiny"];
    assert_eq!(report.unmatched_links, 4, "{summary}");
    assert_eq!(report.unmatched_examples.len(), 3);
    assert!(report.unmatched_examples[0].contains("/news/2026/a1"));
    let hints = summary.hints();
    assert_eq!(hints.len(), 1, "{summary}");
    assert!(hints[0].contains("newshound sites check tiny"), "{hints:?}");
    // The home page announced no feed: the usual paths were probed, and
    // their 404s are no errors of the crawl.
    assert!(summary.errors.is_empty(), "{summary}");
    assert!(report.found_by_probing.is_empty(), "{summary}");
    let text = summary.to_string();
    assert!(text.contains("4 links matched no pattern"), "{text}");
    assert!(text.contains("hint:"), "{text}");
    // The right pattern: articles stored, no hint.
    let dir = tempfile::tempdir().unwrap();
    let right = config(&base, "allow_private_addresses = true", NEWS);
    let good = crawl_once(&right, &dir.path().join("t.db"), CrawlOptions::default()).await;
    assert_eq!(good.articles_stored, 3, "{good}");
    assert_eq!(good.sites["tiny"].articles_stored, 3, "{good}");
    assert!(good.hints().is_empty(), "{good}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_transient_failure_waits_for_a_later_crawl_and_says_until_when() {
    let knobs = Knobs::default();
    knobs.articles.store(503, Ordering::SeqCst);
    let base = start(knobs.clone()).await;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    let cfg = config(&base, "allow_private_addresses = true", NEWS);
    let first = crawl_once(&cfg, &db, CrawlOptions::default()).await;
    assert_eq!(first.errors.get("http_5xx"), Some(&3), "{first}");
    // Not failed: waiting for a later crawl (no retries within the run).
    assert!(first.outlook.failed.is_empty(), "{first}");
    let waiting: Vec<(&str, u64)> = first
        .outlook
        .waiting
        .iter()
        .map(|r| (r.reason.as_str(), r.urls))
        .collect();
    assert_eq!(waiting, [("http_5xx", 3)], "{first}");
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    let until = first.outlook.waiting[0].until.unwrap();
    assert!(until > now + 30 * 60 * 1000, "{until} vs {now}");
}

/// A crawl on a PostgreSQL store (opened off the async workers: its client
/// blocks).
async fn crawl_shared(cfg: &Config, url: &str) -> CrawlSummary {
    let url = url.to_string();
    let store = tokio::task::spawn_blocking(move || {
        newshound::store::pg::PgStore::open(&url).unwrap_or_else(|e| panic!("open: {e}"))
    })
    .await
    .unwrap();
    let run = crawl::run(
        cfg,
        AnyStore::from(store),
        CrawlOptions::default(),
        std::future::pending(),
    );
    let summary = tokio::time::timeout(Duration::from_secs(60), run)
        .await
        .expect("crawl finishes")
        .expect("crawl runs");
    println!("{summary}");
    summary
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn regression_a_refused_start_url_is_tried_again_on_postgresql_too() {
    let base = start(Knobs::default()).await;
    let db = tokio::task::spawn_blocking(crate::pg_testing::TestDb::new)
        .await
        .unwrap();
    let refused = config(&base, "allow_private_addresses = false", NEWS);
    let first = crawl_shared(&refused, &db.url).await;
    assert_eq!(first.errors.get("blocked_address"), Some(&1), "{first}");
    let failed: Vec<&str> = first
        .outlook
        .failed
        .iter()
        .map(|r| r.reason.as_str())
        .collect();
    assert_eq!(failed, ["blocked_address"], "{first}");
    let allowed = config(&base, "allow_private_addresses = true", NEWS);
    let second = crawl_shared(&allowed, &db.url).await;
    assert_eq!(second.requeued, 1, "{second}");
    assert_eq!(second.articles_stored, 3, "{second}");
    tokio::task::spawn_blocking(move || drop(db)).await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn regression_a_site_known_by_its_address_that_stored_nothing_did_not_say_why() {
    let base = start(Knobs::default()).await;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    // Its stories carry no date, no feed lists them, they declare nothing.
    let text = format!(
        "[politeness]\nrate_per_host = 50.0\n[fetch]\nretries = 0\nallow_private_addresses = true\n\
         [[sites]]\nname = \"tiny\"\nstart = [\"{base}/\"]\n"
    );
    let cfg = Config::parse(&text, Path::new("tiny.toml"), Path::new(".")).unwrap();
    let summary = crawl_once(&cfg, &db, CrawlOptions::default()).await;
    assert_eq!(summary.articles_stored, 0, "{summary}");
    let hints = summary.hints();
    assert_eq!(hints.len(), 1, "{summary}");
    let hint = &hints[0];
    assert!(hint.starts_with("site \"tiny\" has no articles"), "{hint}");
    assert!(hint.contains(&format!("e.g. {base}/news/2026/a")), "{hint}");
    assert!(
        hint.contains("newshound sites check tiny --fetch 5"),
        "{hint}"
    );
    assert!(
        summary
            .to_string()
            .contains("hint: site \"tiny\" has no articles"),
        "{summary}"
    );
}
