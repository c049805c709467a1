//! Memory stays bounded.
//!
//! - Against hostile sites: the real binary crawls 8 link-heavy 10 MB pages
//!   (each ~370,000 links) served on 127.0.0.1; the child's peak RSS (VmHWM,
//!   sampled from /proc until it exits) must stay under [`HOSTILE_CEILING_MB`]
//!   (the documented ceiling, docs/performance.md).
//! - Against a hostile robots.txt: 9.5 MB of distinct wildcard rules (each
//!   once compiled into a ~30 KB regex: 8.4 GB); the crawl's peak RSS must
//!   stay under [`ROBOTS_CEILING_MB`].
//! - With the frontier on disk: a synthetic site whose every page links to
//!   100 new pages is crawled until 200,000 URLs have been discovered; peak
//!   RSS is printed and must stay under 150 MB. Ignored by default (it
//!   fetches ~2,000 pages); run by hand:
//!   `cargo test --release --test crawl memory:: -- --ignored --nocapture`.

use std::path::Path;

use crate::support::crawl_into;
use axum::extract::Path as UrlPath;
use axum::routing::get;
use axum::Router;
use newshound::config::Config;

const LINKS_PER_PAGE: u64 = 100;
/// Peak RSS allowed for the hostile crawl (docs/performance.md, "Memory bounds").
const HOSTILE_CEILING_MB: u64 = 300;
/// Peak RSS allowed for the crawl behind a hostile robots.txt (README,
/// "Memory bounds"; docs/security.md).
const ROBOTS_CEILING_MB: u64 = 150;
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
    let summary = crawl_into(&cfg, &dir.path().join("memory.db")).await;
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
    let out = crawl_watching_memory(dir.path(), "farm", HOSTILE_CEILING_MB);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("pages fetched:    9"), "{stdout}");
    runtime.shutdown_background();
}

/// Runs `newshound crawl` on `NAME.toml` in `dir`, sampling its peak RSS
/// (VmHWM) until it exits; killed as soon as it passes `ceiling_mb`, so a
/// regression fails quickly instead of eating the machine. Returns its
/// output once it succeeded under the ceiling.
fn crawl_watching_memory(dir: &Path, name: &str, ceiling_mb: u64) -> std::process::Output {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_newshound"))
        .args([
            "--config",
            &format!("{name}.toml"),
            "--db",
            &format!("{name}.db"),
            "crawl",
        ])
        .current_dir(dir)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn newshound");
    let pid = child.id();
    let mut peak_kb = 0;
    while child.try_wait().expect("wait").is_none() {
        peak_kb = peak_kb.max(peak_rss_of(pid).unwrap_or(0));
        if peak_kb > ceiling_mb * 1024 {
            let _ = child.kill();
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let out = child.wait_with_output().expect("output");
    println!("{}", String::from_utf8_lossy(&out.stdout));
    println!("peak RSS of the crawl: {:.1} MB", peak_kb as f64 / 1024.0);
    assert!(
        peak_kb < ceiling_mb * 1024,
        "peak RSS {:.1} MB over the {ceiling_mb} MB ceiling",
        peak_kb as f64 / 1024.0
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// 290,000 distinct wildcard rules, 9.5 MB (under the 10 MiB body cap).
fn hostile_robots_txt() -> String {
    let mut txt = String::from("User-agent: *\n");
    for n in 1..=290_000 {
        txt.push_str(&format!("Disallow: /news/*x{n:07}*.html$\n"));
    }
    txt
}

#[cfg(target_os = "linux")]
#[test]
fn regression_hostile_robots_txt_took_gigabytes() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("runtime");
    let robots = std::sync::Arc::new(hostile_robots_txt());
    assert!(robots.len() > 9_000_000 && robots.len() < 10 << 20);
    let home: String = (1..=40)
        .map(|n| format!("<a href=\"/news/{n}.html\">story {n}</a>"))
        .collect();
    let home = format!("<html><body>{home}</body></html>");
    let router = Router::new()
        .route(
            "/robots.txt",
            get(move || {
                let robots = robots.clone();
                async move { ([("content-type", "text/plain")], robots.as_str().to_owned()) }
            }),
        )
        .route(
            "/news/{n}",
            get(|UrlPath(n): UrlPath<String>| async move {
                let body = format!("<html><head><title>Story {n}</title></head><body><p>Story {n}.</p></body></html>");
                ([("content-type", "text/html")], body)
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
max_pages = 41
max_depth = 2
[politeness]
rate_per_host = 1000.0
per_host_concurrency = 8
respect_robots = true
[fetch]
allow_private_addresses = true
[[sites]]
name = "hostile"
start = ["http://{addr}/"]
article_patterns = ['^http://{addr}/news/\d+\.html$']
"#
    );
    std::fs::write(dir.path().join("hostile.toml"), toml).expect("write config");
    let out = crawl_watching_memory(dir.path(), "hostile", ROBOTS_CEILING_MB);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("pages fetched:    41"), "{stdout}");
    runtime.shutdown_background();
}
