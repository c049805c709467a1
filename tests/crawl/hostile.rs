//! Hostile sites on a local server, crawled for real: what one site can
//! make the crawl store, queue and hold is bounded by settings, each bound
//! seen from the store (and the server's request log) and named in the
//! summary when it was reached.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::http::Uri;
use axum::Router;
use newshound::config::Config;
use newshound::crawl::{self, CrawlOptions, CrawlSummary};
use newshound::store::{AnyStore, Store};

type Log = Arc<Mutex<Vec<String>>>;

/// What the site answers for a path: its `Content-Type` and body.
type Pages = Arc<dyn Fn(&str, &str) -> (&'static str, String) + Send + Sync>;

/// A site on 127.0.0.1 answering `pages(base, path)`, and its request log.
async fn start(pages: Pages) -> (String, Log) {
    let log: Log = Arc::new(Mutex::new(Vec::new()));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let (b, l) = (base.clone(), log.clone());
    let app = Router::new().fallback(move |uri: Uri| {
        let (base, log, pages) = (b.clone(), l.clone(), pages.clone());
        async move {
            let path = uri.path().to_string();
            log.lock().unwrap().push(path.clone());
            let (ctype, body) = pages(&base, &path);
            ([("content-type", ctype)], body)
        }
    });
    tokio::spawn(async move { axum::serve(listener, app).await });
    (base, log)
}

/// A config for the site at `base`, with `extra` settings (TOML sections
/// written before the site).
fn config(base: &str, extra: &str, site: &str) -> Config {
    let text = format!(
        r#"{extra}
[politeness]
rate_per_host = 200.0
per_host_concurrency = 4
[fetch]
allow_private_addresses = true
[[sites]]
name = "hostile"
start = ["{base}/"]
{site}
"#
    );
    Config::parse(&text, Path::new("hostile.toml"), Path::new(".")).unwrap()
}

async fn crawl_into(db: &Path, cfg: &Config, opts: CrawlOptions) -> CrawlSummary {
    let store = Store::open(db).unwrap();
    let run = crawl::run(cfg, AnyStore::from(store), opts, std::future::pending());
    tokio::time::timeout(Duration::from_secs(120), run)
        .await
        .expect("crawl finishes")
        .expect("crawl runs")
}

/// An article page of `bytes` of text, every paragraph its own (lines
/// that differ only in digits are one line to boilerplate learning: the
/// path tells articles apart by words).
fn article_page(path: &str, bytes: usize) -> String {
    let mut body = String::with_capacity(bytes + 1024);
    let mut n = 0;
    while body.len() < bytes {
        n += 1;
        body.push_str(&format!(
            "<p>Paragraph {n} of {path}: the harbour council met again and argued about \
             the budget for {n} new berths until late.</p>\n"
        ));
    }
    format!(
        "<html><head><title>Story {path}</title>\
         <meta property=\"article:published_time\" content=\"2026-11-20T08:00:00Z\">\
         </head><body><article><h1>Story {path}</h1>{body}</article></body></html>"
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn regression_thirty_5_mb_articles_were_stored_whole() {
    // Three "articles" of 600 KB of text each; the cap, 64 KiB.
    let (base, _log) = start(Arc::new(|_base, path| match path {
        "/" => (
            "text/html",
            "<html><body><a href=\"/2026/11/ashford\">1</a> <a href=\"/2026/11/brampton\">2</a> \
             <a href=\"/2026/11/carlow\">3</a></body></html>"
                .to_string(),
        ),
        p if p.starts_with("/2026/11/") => ("text/html", article_page(p, 600_000)),
        _ => ("text/plain", String::new()),
    }))
    .await;
    let cfg = config(
        &base,
        "[store]\nmax_text_bytes = 65536\n",
        &format!(
            "article_patterns = ['^{}/2026/11/[a-z]+$']",
            regex::escape(&base)
        ),
    );
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("hostile.db");
    let summary = crawl_into(&db, &cfg, CrawlOptions::default()).await;
    println!("{summary}");
    assert_eq!(summary.articles_stored, 3, "{summary}");
    assert_eq!(
        summary.caps.get("store.max_text_bytes"),
        Some(&3),
        "{summary}"
    );
    assert!(
        summary.to_string().contains("article texts cut"),
        "{summary}"
    );
    let conn = rusqlite::Connection::open(&db).unwrap();
    let longest: i64 = conn
        .query_row(
            "SELECT max(length(CAST(text AS BLOB))) FROM articles",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(longest <= 65_536 && longest > 60_000, "{longest}");
    let notes: Vec<String> = conn
        .prepare("SELECT note FROM fetches WHERE note IS NOT NULL")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(notes.len(), 3, "{notes:?}");
    assert!(
        notes.iter().all(|n| n.starts_with("text_cut ")),
        "{notes:?}"
    );
}
