//! Memory stays flat with the frontier on disk: a synthetic site whose every
//! page links to 100 new pages is crawled until 200,000 URLs have been
//! discovered; peak RSS (VmHWM) is printed and must stay under 150 MB.
//!
//! Ignored by default (it fetches ~2,000 pages); run by hand:
//! `cargo test --release --test crawl memory:: -- --ignored --nocapture`.

use std::path::Path;

use axum::extract::Path as UrlPath;
use axum::routing::get;
use axum::Router;
use newshound::config::Config;
use newshound::crawl::{self, CrawlOptions};
use newshound::store::Store;

const LINKS_PER_PAGE: u64 = 100;

async fn page(UrlPath(n): UrlPath<u64>) -> ([(&'static str, &'static str); 1], String) {
    let mut body = format!(
        "<!DOCTYPE html><html><head><title>Page {n}</title></head><body><h1>Page {n}</h1><ul>"
    );
    for i in 1..=LINKS_PER_PAGE {
        let child = n * LINKS_PER_PAGE + i;
        body.push_str(&format!(
            "<li><a href=\"/p/{child}\">Section {child}</a></li>"
        ));
    }
    body.push_str("</ul></body></html>");
    ([("content-type", "text/html; charset=utf-8")], body)
}

fn peak_rss_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "fetches ~2,000 pages; run by hand to measure peak memory"]
async fn peak_memory_with_200k_discovered_urls() {
    let router = Router::new()
        .route("/p/{n}", get(page))
        .route("/", get(|| async { page(UrlPath(0)).await }));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await });

    let toml = format!(
        r#"[crawler]
concurrency = 16
max_pages = 2000
max_depth = 100
[politeness]
rate_per_host = 2000.0
per_host_concurrency = 16
respect_robots = true
[fetch]
allow_private_addresses = true
[[sites]]
name = "wide"
start = ["http://{addr}/"]
index_patterns = ['^http://{addr}/p/\d+$']
"#,
        addr = addr
    );
    let dir = tempfile::tempdir().unwrap();
    let cfg = Config::parse(&toml, Path::new("memory.toml"), dir.path()).unwrap();
    let store = Store::open(&dir.path().join("memory.db")).unwrap();
    let summary = crawl::run(&cfg, store, CrawlOptions::default(), std::future::pending())
        .await
        .unwrap();
    println!("{summary}");
    let peak = peak_rss_kb().unwrap_or(0);
    println!(
        "URLs discovered: {}; peak RSS {:.1} MB",
        summary.urls_discovered,
        peak as f64 / 1024.0
    );
    assert!(summary.urls_discovered >= 200_000, "{summary}");
    assert!(peak < 150 * 1024, "peak RSS {peak} kB");
}
