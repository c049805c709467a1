//! robots.txt end to end on a tiny local site: Disallow obeyed, `Sitemap:`
//! lines crawled, `Crawl-delay` spacing the requests, a Crawl-delay
//! beyond `max_crawl_delay_secs` capped, and files as servers write them
//! (NUL bytes, any content type) obeyed, as the server's request log shows.

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

/// What `/robots.txt` answers: its `Content-Type` and its bytes, written
/// from the site's base URL.
type RobotsTxt = Arc<dyn Fn(&str) -> (&'static str, Vec<u8>) + Send + Sync>;

async fn start(crawl_delay: &str) -> (String, Log) {
    let delay = crawl_delay.to_string();
    start_with(Arc::new(move |base| {
        let txt = format!(
            "User-agent: *\nDisallow: /private/\nCrawl-delay: {delay}\n\nSitemap: {base}/sitemap.xml\n"
        );
        ("text/plain", txt.into_bytes())
    }))
    .await
}

async fn start_with(robots: RobotsTxt) -> (String, Log) {
    let log: Log = Arc::new(Mutex::new(Vec::new()));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let (b, l) = (base.clone(), log.clone());
    let app = Router::new().fallback(move |uri: Uri| {
        let (base, log, robots) = (b.clone(), l.clone(), robots.clone());
        async move {
            let path = uri.path().to_string();
            log.lock().unwrap().push((path.clone(), Instant::now()));
            let (ctype, body) = match path.as_str() {
                "/robots.txt" => robots(&base),
                "/sitemap.xml" => (
                    "application/xml",
                    format!("<?xml version=\"1.0\"?><urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>{base}/a/4</loc></url></urlset>").into_bytes(),
                ),
                "/" => (
                    "text/html",
                    b"<html><body><a href=\"/a/1\">1</a> <a href=\"/a/2\">2</a> <a href=\"/private/x\">x</a></body></html>".to_vec(),
                ),
                p if p.starts_with("/a/") => (
                    "text/html",
                    format!("<html><head><title>Story {p}</title></head><body><article><h1>Story {p}</h1>{}</article></body></html>", body(p)).into_bytes(),
                ),
                _ => ("text/html", b"<html><body>private</body></html>".to_vec()),
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
    let paths = paths(&log);
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
    let paths = paths(&log);
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

/// The requests of a crawl, in order.
fn paths(log: &Log) -> Vec<String> {
    log.lock().unwrap().iter().map(|(p, _)| p.clone()).collect()
}

/// A crawl of a site whose robots.txt is `robots` obeys it: `/private/x` is
/// never requested, and its `Sitemap:` line is followed.
async fn assert_robots_obeyed(robots: RobotsTxt, what: &str) {
    let (base, log) = start_with(robots).await;
    let summary = crawl_into_temp(&config(&base, 30.0)).await;
    let paths = paths(&log);
    assert_eq!(paths[0], "/robots.txt", "{what}");
    assert!(
        !paths.iter().any(|p| p.starts_with("/private/")),
        "{what}: disallowed page fetched: {paths:?}"
    );
    assert!(paths.contains(&"/a/4".to_string()), "{what}: {paths:?}");
    assert_eq!(
        summary.skipped.get("robots_disallowed"),
        Some(&1),
        "{what}: {summary}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn regression_a_nul_byte_in_robots_txt_made_the_whole_file_ignored() {
    // NULs in a comment near the top (as some CMSs write them) and at the
    // end of a rule's line: the rules around them still hold.
    assert_robots_obeyed(
        Arc::new(|base| {
            let txt = format!(
                "# generated\0 by a CMS\nUser-agent: *\nDisallow: /private/\0\n\nSitemap: {base}/sitemap.xml\n"
            );
            ("text/plain", txt.into_bytes())
        }),
        "NUL bytes",
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn regression_robots_txt_served_as_octet_stream_image_json_or_xml_was_ignored() {
    // Google reads any 2xx body as robots.txt, whatever its type.
    for ctype in [
        "application/octet-stream",
        "image/png",
        "application/json",
        "application/xml",
    ] {
        assert_robots_obeyed(
            Arc::new(move |base| {
                let txt =
                    format!("User-agent: *\nDisallow: /private/\nSitemap: {base}/sitemap.xml\n");
                (ctype, txt.into_bytes())
            }),
            ctype,
        )
        .await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn regression_allow_index_html_did_not_allow_its_directory() {
    // Google reads `Allow: /index.html` as allowing `/` as well, the address
    // a server answers with its index page; so the home page is crawled.
    let (base, log) = start_with(Arc::new(|base| {
        let txt = format!(
            "User-agent: *\nAllow: /index.html\nAllow: /a/\nAllow: /sitemap.xml\nDisallow: /\n\
             Sitemap: {base}/sitemap.xml\n"
        );
        ("text/plain", txt.into_bytes())
    }))
    .await;
    let summary = crawl_into_temp(&config(&base, 30.0)).await;
    let paths = paths(&log);
    assert!(paths.contains(&"/".to_string()), "{paths:?}");
    // Its links were followed, within the rules.
    assert!(paths.contains(&"/a/1".to_string()), "{paths:?}");
    assert!(
        !paths.iter().any(|p| p.starts_with("/private/")),
        "{paths:?}"
    );
    assert_eq!(summary.articles_stored, 3, "{summary}");
}
