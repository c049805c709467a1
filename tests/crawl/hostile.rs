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

/// The site's article pattern: `/2026/11/` and a word.
fn story_patterns(base: &str) -> String {
    format!(
        "article_patterns = ['^{}/2026/11/[a-z]+$']",
        regex::escape(base)
    )
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
        &story_patterns(&base),
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

/// `n` in letters (`305` → `dah`): lines of articles that differ only in
/// digits are one line to boilerplate learning, in letters they are not.
fn letters(n: usize) -> String {
    n.to_string()
        .bytes()
        .map(|d| char::from(b'a' + (d - b'0')))
        .collect()
}

/// A site whose robots.txt names a sitemap index of 50,000 sitemaps, each
/// listing three articles; `lastmod` grows with the sitemap's number.
fn sitemap_index_site(base: &str, path: &str) -> (&'static str, String) {
    const XML: &str = "application/xml";
    match path {
        "/robots.txt" => (
            "text/plain",
            format!("User-agent: *\nSitemap: {base}/sitemap_index.xml\n"),
        ),
        "/sitemap_index.xml" => {
            let mut xml = String::from(
                "<?xml version=\"1.0\"?><sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">",
            );
            for n in 0..50_000 {
                let (day, second) = (1 + n / 86_400 % 28, n % 86_400);
                xml.push_str(&format!(
                    "<sitemap><loc>{base}/sitemaps/{n}.xml</loc>\
                     <lastmod>2026-10-{day:02}T{:02}:{:02}:{:02}Z</lastmod></sitemap>",
                    second / 3600,
                    second / 60 % 60,
                    second % 60
                ));
            }
            xml.push_str("</sitemapindex>");
            (XML, xml)
        }
        p if p.starts_with("/sitemaps/") => {
            let n: usize = p["/sitemaps/".len()..]
                .trim_end_matches(".xml")
                .parse()
                .unwrap_or(0);
            let mut xml = String::from(
                "<?xml version=\"1.0\"?><urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">",
            );
            for k in 0..3 {
                xml.push_str(&format!(
                    "<url><loc>{base}/2026/11/story-{}-{}</loc></url>",
                    letters(n),
                    letters(k)
                ));
            }
            xml.push_str("</urlset>");
            (XML, xml)
        }
        p if p.starts_with("/2026/11/story-") => {
            let words = p["/2026/11/story-".len()..].replace('-', " ");
            (
                "text/html",
                format!(
                    "<html><head><title>Story {words}</title></head><body><article>\
                     <h1>Story {words}</h1><p>The harbour council of {words} met on \
                     Tuesday and agreed the budget for {words} after a long debate.</p>\
                     <p>Residents of {words} said the plan came late, and the mayor of \
                     {words} promised more berths.</p></article></body></html>"
                ),
            )
        }
        "/" => (
            "text/html",
            "<html><body><p>Home</p></body></html>".to_string(),
        ),
        _ => ("text/plain", String::new()),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn regression_a_sitemap_index_of_50000_sitemaps_starved_the_articles() {
    let (base, log) = start(Arc::new(sitemap_index_site)).await;
    let cfg = config(
        &base,
        "[crawler]\nmax_sitemaps_per_index = 40\n",
        &format!(
            "article_patterns = ['^{}/2026/11/story-']",
            regex::escape(&base)
        ),
    );
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("hostile.db");
    let opts = CrawlOptions {
        max_pages: Some(200),
        ..CrawlOptions::default()
    };
    let summary = crawl_into(&db, &cfg, opts).await;
    println!("{summary}");
    // Articles are fetched as their sitemaps give them: most of the run.
    assert!(summary.articles_stored >= 100, "{summary}");
    let sitemaps: Vec<String> = log
        .lock()
        .unwrap()
        .iter()
        .filter(|p| p.starts_with("/sitemaps/"))
        .cloned()
        .collect();
    // Of the 50,000, the 40 freshest are queued, fetched one by one as
    // the articles already known run out.
    assert!(sitemaps.len() <= 40, "{}", sitemaps.len());
    assert!(
        sitemaps.iter().all(|p| {
            let n: usize = p["/sitemaps/".len()..]
                .trim_end_matches(".xml")
                .parse()
                .unwrap();
            n >= 50_000 - 40
        }),
        "{sitemaps:?}"
    );
    assert_eq!(
        summary.caps.get("crawler.max_sitemaps_per_index"),
        Some(&1),
        "{summary}"
    );
    let conn = rusqlite::Connection::open(&db).unwrap();
    let queued: i64 = conn
        .query_row(
            "SELECT count(*) FROM urls WHERE kind = 'sitemap'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(queued, 41, "the index and 40 of its sitemaps");
}

/// A site of endless "articles": every page claims to be a dated article
/// and links to 50 new ones.
fn endless_site(_base: &str, path: &str) -> (&'static str, String) {
    let n: usize = match path {
        "/" => 0,
        p => match p.strip_prefix("/2026/11/story-") {
            Some(word) => word
                .bytes()
                .fold(0, |n, b| n * 10 + usize::from(b.saturating_sub(b'a'))),
            None => return ("text/plain", String::new()),
        },
    };
    let words = letters(n);
    let links: String = (1..=50)
        .map(|k| {
            format!(
                "<li><a href=\"/2026/11/story-{}\">More</a></li>",
                letters(n * 50 + k)
            )
        })
        .collect();
    // Five paragraphs naming the page's own words: enough text to be an
    // article, and no line shared with another page (boilerplate).
    let text: String = [
        "The harbour council of {w} met on Tuesday and agreed the budget for {w} after a long debate about berths.",
        "Residents of {w} said the plan came late, and the mayor of {w} promised more ships and a new quay.",
        "Fishermen in {w} asked for a cold store; the council of {w} said it would look at the costs in spring.",
        "The ferry to {w} will keep its winter timetable, the operator said, while the quay of {w} is rebuilt.",
        "A public meeting in {w} is planned for next month, where the plans for {w} will be shown in full.",
    ]
    .iter()
    .map(|p| format!("<p>{}</p>", p.replace("{w}", &words)))
    .collect();
    (
        "text/html",
        format!(
            "<html><head><title>Story {words}</title>\
             <meta property=\"og:type\" content=\"article\">\
             <meta property=\"article:published_time\" content=\"2026-11-20T08:00:00Z\">\
             </head><body><article><h1>Story {words}</h1>{text}</article>\
             <ul>{links}</ul></body></html>"
        ),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn regression_endless_article_like_pages_were_unbounded() {
    let (base, _log) = start(Arc::new(endless_site)).await;
    let cfg = config(
        &base,
        "[crawler]\nmax_queued_per_site = 300\nmax_articles_per_site = 40\n",
        "",
    );
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("hostile.db");
    let summary = crawl_into(&db, &cfg, CrawlOptions::default()).await;
    println!("{summary}");
    // The run stops taking the site's pages at 40 articles (the pages in
    // flight and in the writer's buffer still land), and never queues more
    // than 300 new URLs of the site.
    assert!((40..100).contains(&summary.articles_stored), "{summary}");
    assert_eq!(
        summary.caps.get("crawler.max_articles_per_site"),
        Some(&1),
        "{summary}"
    );
    assert!(
        summary
            .caps
            .get("crawler.max_queued_per_site")
            .is_some_and(|n| *n > 0),
        "{summary}"
    );
    let conn = rusqlite::Connection::open(&db).unwrap();
    let queued: i64 = conn
        .query_row(
            "SELECT count(*) FROM urls WHERE state = 'queued'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    // Claimed URLs the spent budget put back are queued again on top.
    let put_back = summary.skipped.get("article_budget").copied().unwrap_or(0);
    assert!(queued <= 300 + put_back as i64, "{queued} queued");
    let size = std::fs::metadata(&db).unwrap().len();
    println!("{queued} URLs queued, database {size} bytes");
}

/// A site whose feed has 10,000 entries of about 1.1 KB each: 11 MB, over
/// the default body limit of 10 MiB.
fn large_feed_site(_base: &str, path: &str) -> (&'static str, String) {
    match path {
        "/feed.xml" => {
            let summary = "The harbour council met again and argued about berths. ".repeat(19);
            let items: String = (0..10_000)
                .map(|i| {
                    format!(
                        "<item><title>Story {i}</title><link>/2026/11/story-{}</link>\
                         <description>{summary}</description></item>\n",
                        letters(i)
                    )
                })
                .collect();
            (
                "application/rss+xml",
                format!(
                    "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>All</title>\n\
                     {items}</channel></rss>"
                ),
            )
        }
        "/" => ("text/html", "<html><body>Home</body></html>".to_string()),
        _ => ("text/plain", String::new()),
    }
}

/// The article URLs queued in `db`, by number.
fn queued_stories(db: &Path) -> Vec<usize> {
    let conn = rusqlite::Connection::open(db).unwrap();
    let mut stmt = conn
        .prepare("SELECT url FROM urls WHERE url LIKE '%/story-%'")
        .unwrap();
    let mut got: Vec<usize> = stmt
        .query_map([], |r| r.get::<_, String>(0))
        .unwrap()
        .map(|u| {
            let u = u.unwrap();
            let word = &u[u.rfind("story-").unwrap() + 6..];
            word.bytes().fold(0, |n, b| n * 10 + usize::from(b - b'a'))
        })
        .collect();
    got.sort_unstable();
    got
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn regression_a_feed_over_the_body_limit_was_dropped_whole() {
    let (base, _log) = start(Arc::new(large_feed_site)).await;
    let site = format!("feeds = [\"{base}/feed.xml\"]");
    let opts = || CrawlOptions {
        max_pages: Some(2),
        ..CrawlOptions::default()
    };
    // Cut at the body limit: the whole entries before the cut are read.
    let cfg = config(&base, "", &site);
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("cut.db");
    let summary = crawl_into(&db, &cfg, opts()).await;
    println!("{summary}");
    assert!(summary.errors.is_empty(), "{summary}");
    let got = queued_stories(&db);
    let whole = 10 * 1024 * 1024 / 1_130;
    assert!((whole - 200..10_000).contains(&got.len()), "{}", got.len());
    assert_eq!(got, (0..got.len()).collect::<Vec<_>>());
    assert_eq!(
        summary.caps.get("crawler.max_entries_per_feed"),
        Some(&1),
        "{summary}"
    );
    // Under the bound: the first entries, the same way.
    let cfg = config(&base, "[crawler]\nmax_entries_per_feed = 700\n", &site);
    let db = dir.path().join("first.db");
    let summary = crawl_into(&db, &cfg, opts()).await;
    assert_eq!(queued_stories(&db), (0..700).collect::<Vec<_>>());
    assert_eq!(
        summary.caps.get("crawler.max_entries_per_feed"),
        Some(&1),
        "{summary}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn regression_credentials_in_a_link_were_stored_and_sent() {
    // The server logs every Authorization header it gets.
    let auth: Log = Arc::new(Mutex::new(Vec::new()));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let seen = auth.clone();
    let app = Router::new().fallback(move |uri: Uri, headers: axum::http::HeaderMap| {
        let seen = seen.clone();
        async move {
            if let Some(v) = headers.get("authorization") {
                seen.lock()
                    .unwrap()
                    .push(v.to_str().unwrap_or("?").to_string());
            }
            let body = match uri.path() {
                "/" => format!(
                    "<html><body><a href=\"http://user:secret@{addr}/2026/11/ashford\">1</a> \
                     <a href=\"http://token@{addr}/2026/11/brampton\">2</a></body></html>"
                ),
                "/2026/11/brampton" => {
                    return axum::response::Response::builder()
                        .status(302)
                        .header(
                            "location",
                            format!("http://user:secret@{addr}/2026/11/carlow"),
                        )
                        .body(axum::body::Body::empty())
                        .unwrap();
                }
                p => article_page(p, 2_000),
            };
            axum::response::Response::builder()
                .header("content-type", "text/html")
                .body(axum::body::Body::from(body))
                .unwrap()
        }
    });
    tokio::spawn(async move { axum::serve(listener, app).await });
    let base = format!("http://{addr}");
    let cfg = config(&base, "", &story_patterns(&base));
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("hostile.db");
    let summary = crawl_into(&db, &cfg, CrawlOptions::default()).await;
    println!("{summary}");
    assert_eq!(summary.articles_stored, 2, "{summary}");
    assert!(
        auth.lock().unwrap().is_empty(),
        "{:?}",
        auth.lock().unwrap()
    );
    // Nothing stored anywhere names the credentials.
    drop(summary);
    let raw = std::fs::read(&db).unwrap();
    let wal = std::fs::read(dir.path().join("hostile.db-wal")).unwrap_or_default();
    for bytes in [&raw, &wal] {
        assert!(
            !bytes.windows(6).any(|w| w == b"secret") && !bytes.windows(6).any(|w| w == b"token@"),
            "credentials stored"
        );
    }
}
