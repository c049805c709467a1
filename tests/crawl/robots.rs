//! robots.txt end to end on a tiny local site: Disallow obeyed, `Sitemap:`
//! lines crawled, `Crawl-delay` spacing the requests, and a Crawl-delay
//! beyond `max_crawl_delay_secs` capped.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::http::Uri;
use axum::Router;
use newshound::config::Config;
use newshound::crawl::{self, CrawlOptions, CrawlSummary};
use newshound::store::AnyStore;
use newshound::store::Store;

type Log = Arc<Mutex<Vec<(String, Instant)>>>;

/// A distinct article body per page, different in words (identical bodies
/// would be duplicates, and lines differing only in digits boilerplate).
fn body(page: &str) -> String {
    const TOWNS: [&str; 5] = ["Ashford", "Brampton", "Carlow", "Dunmore", "Elgin"];
    const TOPICS: [&str; 5] = ["schools", "bridges", "libraries", "buses", "parks"];
    let i = page.bytes().last().map_or(0, |b| b as usize) % 5;
    let (town, topic) = (TOWNS[i], TOPICS[i]);
    format!(
        "<p>The council of {town} approved the new budget on Tuesday after a long debate about {topic}, roads and the harbour.</p>\
         <p>Opposition members in {town} said the plan for {topic} would raise local taxes, while the mayor argued that it was overdue.</p>"
    )
}

async fn start(crawl_delay: &str) -> (String, Log) {
    let log: Log = Arc::new(Mutex::new(Vec::new()));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let (b, l, delay) = (base.clone(), log.clone(), crawl_delay.to_string());
    let app = Router::new().fallback(move |uri: Uri| {
        let (base, log, delay) = (b.clone(), l.clone(), delay.clone());
        async move {
            let path = uri.path().to_string();
            log.lock().unwrap().push((path.clone(), Instant::now()));
            let (ctype, body) = match path.as_str() {
                "/robots.txt" => (
                    "text/plain",
                    format!("User-agent: *\nDisallow: /private/\nCrawl-delay: {delay}\n\nSitemap: {base}/sitemap.xml\n"),
                ),
                "/sitemap.xml" => (
                    "application/xml",
                    format!("<?xml version=\"1.0\"?><urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>{base}/a/4</loc></url></urlset>"),
                ),
                "/" => (
                    "text/html",
                    "<html><body><a href=\"/a/1\">1</a> <a href=\"/a/2\">2</a> <a href=\"/private/x\">x</a></body></html>".to_string(),
                ),
                p if p.starts_with("/a/") => (
                    "text/html",
                    format!("<html><head><title>Story {p}</title></head><body><article><h1>Story {p}</h1>{}</article></body></html>", body(p)),
                ),
                _ => ("text/html", "<html><body>private</body></html>".to_string()),
            };
            ([("content-type", ctype)], body)
        }
    });
    tokio::spawn(async move { axum::serve(listener, app).await });
    (base, log)
}

fn config(base: &str, max_crawl_delay: f64) -> Config {
    let text = format!(
        r#"[politeness]
rate_per_host = 50.0
per_host_concurrency = 4
max_crawl_delay_secs = {max_crawl_delay}
[fetch]
allow_private_addresses = true
[[sites]]
name = "tiny"
start = ["{base}/"]
article_patterns = ['^{b}/a/\d+$']
index_patterns = ['^{b}/(private/.*)?$']
"#,
        b = regex::escape(base)
    );
    Config::parse(&text, Path::new("tiny.toml"), Path::new(".")).unwrap()
}

async fn crawl_into_temp(cfg: &Config) -> CrawlSummary {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("tiny.db")).unwrap();
    let run = crawl::run(
        cfg,
        AnyStore::from(store),
        CrawlOptions::default(),
        std::future::pending(),
    );
    tokio::time::timeout(Duration::from_secs(60), run)
        .await
        .expect("crawl finishes")
        .expect("crawl runs")
}

/// Gaps between consecutive requests after robots.txt.
fn gaps(log: &Log) -> Vec<Duration> {
    let log = log.lock().unwrap();
    log.windows(2).map(|w| w[1].1 - w[0].1).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn robots_rules_sitemaps_and_crawl_delay_are_obeyed() {
    let (base, log) = start("0.5").await;
    let summary = crawl_into_temp(&config(&base, 30.0)).await;
    println!("{summary}");
    let paths: Vec<String> = log.lock().unwrap().iter().map(|(p, _)| p.clone()).collect();
    println!("requests: {paths:?}");
    assert_eq!(paths[0], "/robots.txt");
    assert!(!paths.iter().any(|p| p.starts_with("/private/")));
    assert!(
        paths.contains(&"/sitemap.xml".to_string()),
        "robots Sitemap: line not crawled"
    );
    assert!(
        paths.contains(&"/a/4".to_string()),
        "sitemap entry not crawled"
    );
    assert_eq!(summary.articles_stored, 3, "{summary}");
    assert_eq!(summary.skipped.get("robots_disallowed"), Some(&1));
    // Crawl-delay 0.5 s: requests leave the limiter ≥ 0.5 s apart; a little
    // slack for when each one reaches the server.
    let g = gaps(&log);
    println!("gaps: {g:?}");
    assert!(g.iter().all(|d| *d >= Duration::from_millis(450)), "{g:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crawl_delay_beyond_the_cap_is_capped() {
    // A day between requests would never finish; the cap is 0.2 s.
    let (base, log) = start("86400").await;
    let summary = crawl_into_temp(&config(&base, 0.2)).await;
    println!("{summary}");
    assert_eq!(summary.articles_stored, 3, "{summary}");
    let g = gaps(&log);
    assert!(g.iter().all(|d| *d >= Duration::from_millis(150)), "{g:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn robots_can_be_switched_off() {
    let (base, log) = start("0.5").await;
    let mut cfg = config(&base, 30.0);
    cfg.politeness.respect_robots = false;
    let summary = crawl_into_temp(&cfg).await;
    println!("{summary}");
    let paths: Vec<String> = log.lock().unwrap().iter().map(|(p, _)| p.clone()).collect();
    assert!(!paths.contains(&"/robots.txt".to_string()), "{paths:?}");
    assert!(paths.contains(&"/private/x".to_string()), "{paths:?}");
    // Without robots.txt there is no Sitemap: line to follow; the home page
    // announces no feed either, so the usual paths are probed, and the
    // sitemap is found that way (said in the summary).
    assert!(paths.contains(&"/feed".to_string()), "{paths:?}");
    let found = &summary.sites["tiny"].found_by_probing;
    assert_eq!(found, &[format!("{base}/sitemap.xml")], "{summary}");
    assert!(paths.contains(&"/a/4".to_string()), "{paths:?}");
}
