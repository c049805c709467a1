//! Memory stays bounded.
//!
//! - Against hostile sites: the real binary crawls 8 link-heavy 10 MB pages
//!   (each ~370,000 links) served on 127.0.0.1; the child's peak RSS (VmHWM,
//!   sampled from /proc until it exits) must stay under [`HOSTILE_CEILING_MB`]
//!   (the documented ceiling, docs/performance.md).
//! - With the frontier on disk: a synthetic site whose every page links to
//!   100 new pages is crawled until 200,000 URLs have been discovered; peak
//!   RSS is printed and must stay under 150 MB. Ignored by default (it
//!   fetches ~2,000 pages); run by hand:
//!   `cargo test --release --test crawl memory:: -- --ignored --nocapture`.

use std::path::Path;

use axum::extract::Path as UrlPath;
use axum::routing::get;
use axum::Router;
use newshound::config::Config;
use newshound::crawl::{self, CrawlOptions};
use newshound::store::Store;

const LINKS_PER_PAGE: u64 = 100;
/// Peak RSS allowed for the hostile crawl (docs/performance.md, "Memory bounds").
const HOSTILE_CEILING_MB: u64 = 300;
/// Size of each hostile page.
const HOSTILE_PAGE_BYTES: usize = 10_000_000;

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

/// A 10 MB page of nothing but links, relative so each page's are its own.
fn link_farm_page() -> String {
    let mut body = String::with_capacity(HOSTILE_PAGE_BYTES + 100);
    body.push_str("<!DOCTYPE html><html><head><title>Farm</title></head><body>");
    let mut i = 0u64;
    while body.len() < HOSTILE_PAGE_BYTES - 40 {
        body.push_str(&format!("<a href=\"{i}\">{i}</a>\n"));
        i += 1;
    }
    body.push_str("</body></html>");
    body
}

/// Peak RSS (VmHWM, kB) of a running process, if it can still be read.
fn peak_rss_of(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[cfg(target_os = "linux")]
#[test]
fn regression_eight_link_heavy_10mb_pages_took_gigabytes() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("runtime");
    let farm = std::sync::Arc::new(link_farm_page());
    let home: String = (1..=8)
        .map(|n| format!("<a href=\"/h/{n}/\">farm {n}</a>"))
        .collect();
    let home = format!("<html><body>{home}</body></html>");
    let router = Router::new()
        .route(
            "/h/{n}/",
            get(move || {
                let farm = farm.clone();
                async move { ([("content-type", "text/html")], farm.as_str().to_owned()) }
            }),
        )
        .route(
            "/",
            get(move || async move { ([("content-type", "text/html")], home.clone()) }),
        );
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    runtime.spawn(async move { axum::serve(listener, router).await });

    let dir = tempfile::tempdir().expect("tempdir");
    let toml = format!(
        r#"[crawler]
max_pages = 9
max_depth = 2
[politeness]
rate_per_host = 1000.0
per_host_concurrency = 8
respect_robots = false
[fetch]
allow_private_addresses = true
[[sites]]
name = "farm"
start = ["http://{addr}/"]
index_patterns = ['^http://{addr}/h/\d+/$']
article_patterns = ['^http://{addr}/h/\d+/\d+$']
"#
    );
    std::fs::write(dir.path().join("farm.toml"), toml).expect("write config");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_newshound"))
        .args(["--config", "farm.toml", "--db", "farm.db", "crawl"])
        .current_dir(dir.path())
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn newshound");
    let pid = child.id();
    let mut peak_kb = 0;
    while child.try_wait().expect("wait").is_none() {
        peak_kb = peak_kb.max(peak_rss_of(pid).unwrap_or(0));
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let out = child.wait_with_output().expect("output");
    let stdout = String::from_utf8_lossy(&out.stdout);
    println!("{stdout}");
    println!("peak RSS of the crawl: {:.1} MB", peak_kb as f64 / 1024.0);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("pages fetched:    9"), "{stdout}");
    assert!(
        peak_kb < HOSTILE_CEILING_MB * 1024,
        "peak RSS {:.1} MB over the {HOSTILE_CEILING_MB} MB ceiling",
        peak_kb as f64 / 1024.0
    );
    runtime.shutdown_background();
}
