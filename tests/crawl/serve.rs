//! `newshound serve` over real HTTP on 127.0.0.1: the JSON API against a
//! database filled by a crawl of the simulated web (English, French and
//! Chinese sites), and the page in headless Chromium (`serve_browser`).

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use crate::support::start_web;
use newshound::boilerplate::LineSettings;
use newshound::crawl::{self, CrawlOptions};
use newshound::extract::Article;
use newshound::simweb::{SimWeb, SimWebSpec};
use newshound::store::AnyStore;
use newshound::store::{NewArticle, Selection, Store, StoredArticle, WriteOp};
use serde_json::Value;
use tokio::sync::oneshot;

/// A crawled simulated web in a temporary database.
pub struct Crawled {
    pub web: SimWeb,
    pub dir: tempfile::TempDir,
    pub db: PathBuf,
    pub articles: Vec<StoredArticle>,
}

pub async fn crawled(seed: u64) -> Crawled {
    let spec = SimWebSpec {
        sites: 3,
        articles_per_site: 15,
        seed,
        faults: false,
    };
    let (web, dir, cfg) = start_web(spec).await;
    let db = dir.path().join("serve.db");
    let store = Store::open(&db).unwrap();
    let opts = CrawlOptions::default();
    crawl::run(&cfg, AnyStore::from(store), opts, std::future::pending())
        .await
        .expect("crawl runs");
    let mut store = AnyStore::from(Store::open(&db).unwrap());
    let mut articles = Vec::new();
    store
        .export(&Selection::default(), &mut |a| {
            articles.push(a.clone());
            Ok(())
        })
        .unwrap();
    drop(store);
    Crawled {
        web,
        dir,
        db,
        articles,
    }
}

/// A running server; dropping `stop` (or sending) shuts it down.
pub struct Server {
    pub addr: SocketAddr,
    pub stop: Option<oneshot::Sender<()>>,
    pub task: tokio::task::JoinHandle<()>,
}

pub async fn serve(db: &Path) -> Server {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = oneshot::channel::<()>();
    let db = db.to_path_buf();
    let task = tokio::spawn(async move {
        let shutdown = async {
            let _ = stopped.await;
        };
        newshound::serve::serve(listener, &db, 50, shutdown)
            .await
            .expect("serve runs");
    });
    Server {
        addr,
        stop: Some(stop),
        task,
    }
}

impl Server {
    pub async fn shutdown(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let _ = self.task.await;
    }
}

pub fn client() -> reqwest::Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder().no_proxy().build().unwrap()
}

/// GET a path: (status, content type, body).
pub async fn get(c: &reqwest::Client, addr: SocketAddr, path: &str) -> (u16, String, Vec<u8>) {
    let r = c.get(format!("http://{addr}{path}")).send().await.unwrap();
    let status = r.status().as_u16();
    let ct = r
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    (status, ct, r.bytes().await.unwrap().to_vec())
}

pub async fn get_json(c: &reqwest::Client, addr: SocketAddr, path: &str) -> (u16, Value) {
    let (status, ct, body) = get(c, addr, path).await;
    assert!(ct.starts_with("application/json"), "{path}: {ct}");
    (status, serde_json::from_slice(&body).unwrap())
}

fn ids(v: &Value) -> Vec<i64> {
    v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["id"].as_i64().unwrap())
        .collect()
}

fn enc(s: &str) -> String {
    url::form_urlencoded::byte_serialize(s.as_bytes()).collect()
}

/// A word of an article's text that is searchable as a plain word.
pub fn a_word(a: &StoredArticle) -> String {
    a.article
        .text
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
        .find(|w| w.len() >= 6 && w.chars().all(|c| c.is_ascii_alphabetic()))
        .expect("a word")
        .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn api_searches_filters_pages_and_reports_errors_as_json() {
    let c = crawled(41).await;
    let server = serve(&c.db).await;
    let http = client();
    let addr = server.addr;

    // A word of an English article finds it.
    let en = c
        .articles
        .iter()
        .find(|a| a.article.language.as_deref() == Some("eng"))
        .expect("an English article");
    let word = a_word(en);
    let (status, v) = get_json(&http, addr, &format!("/api/search?q={word}&limit=100")).await;
    assert_eq!(status, 200, "{v}");
    assert!(ids(&v).contains(&en.id), "{word}: {v}");

    // CJK: two Han characters of a Chinese title (shorter than a trigram).
    // Only Han: a title that opens with a number ("13家…") would otherwise
    // search for "13", which matches too many articles to find this one.
    let zh = c
        .articles
        .iter()
        .find(|a| a.article.language.as_deref() == Some("cmn"))
        .expect("a Chinese article");
    let title = zh.article.title.clone().unwrap();
    let two: String = title
        .chars()
        .filter(|ch| newshound::words::is_han_or_kana(*ch))
        .take(2)
        .collect();
    let (status, v) = get_json(
        &http,
        addr,
        &format!("/api/search?q={}&limit=100", enc(&two)),
    )
    .await;
    assert_eq!(status, 200);
    assert!(ids(&v).contains(&zh.id), "{two}: {v}");
    let (_, v) = get_json(
        &http,
        addr,
        &format!("/api/search?q={}&lang=eng", enc(&two)),
    )
    .await;
    assert!(ids(&v).is_empty(), "lang filter: {v}");

    // Author, section and tag filters: the articles listing that name.
    let author = en.article.authors.first().expect("an author").clone();
    let (status, v) = get_json(
        &http,
        addr,
        &format!(
            "/api/search?author={}&limit=100",
            enc(&author.to_lowercase())
        ),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    let by_author: Vec<i64> = c
        .articles
        .iter()
        .filter(|a| a.article.authors.contains(&author))
        .map(|a| a.id)
        .collect();
    let mut found = ids(&v);
    found.sort_unstable();
    assert_eq!(found, by_author, "{author}: {v}");
    let (status, v) = get_json(&http, addr, "/api/search?tag=no+such+tag").await;
    assert_eq!(status, 200, "{v}");
    assert!(ids(&v).is_empty(), "tag filter: {v}");
    let (_, one) = get_json(&http, addr, &format!("/api/articles/{}", en.id)).await;
    assert_eq!(one["authors"][0], author.as_str(), "{one}");

    // Site filter and paging, browsing without a word.
    let (_, all) = get_json(
        &http,
        addr,
        &format!("/api/search?site={}&limit=100", zh.site),
    )
    .await;
    let site_ids = ids(&all);
    let expected = c.articles.iter().filter(|a| a.site == zh.site).count();
    assert_eq!(site_ids.len(), expected);
    let (_, p1) = get_json(
        &http,
        addr,
        &format!("/api/search?site={}&limit=5", zh.site),
    )
    .await;
    let (_, p2) = get_json(
        &http,
        addr,
        &format!("/api/search?site={}&limit=5&offset=5", zh.site),
    )
    .await;
    assert_eq!(ids(&p1), site_ids[..5]);
    assert_eq!(ids(&p2), site_ids[5..10]);

    // Dates: nothing before 2000, everything dated up to 2100.
    let (_, v) = get_json(&http, addr, "/api/search?until=2000-01-01").await;
    assert!(ids(&v).is_empty());

    // One article, its kept HTML as text/plain.
    let (status, v) = get_json(&http, addr, &format!("/api/articles/{}", en.id)).await;
    assert_eq!(status, 200);
    assert_eq!(v["url"], en.url.as_str());
    assert_eq!(v["text"], en.article.text.as_str());
    let (status, ct, body) = get(&http, addr, &format!("/api/articles/{}/html", en.id)).await;
    assert_eq!(status, 200);
    assert!(ct.starts_with("text/plain"), "{ct}");
    assert!(String::from_utf8_lossy(&body).contains("<html"));

    // Errors: JSON with the status code.
    for (path, code, needle) in [
        ("/api/search?limit=0", 400, "limit"),
        ("/api/search?limit=abc", 400, "limit"),
        ("/api/search?offset=99999999", 400, "offset"),
        ("/api/search?site=nope", 400, "unknown site"),
        ("/api/search?since=tomorrow", 400, "since"),
        ("/api/search?lang=english", 400, "lang"),
        ("/api/search?q=x&bogus=1", 400, "unknown parameter"),
        ("/api/articles/0", 400, "article id"),
        ("/api/articles/abc", 400, "article id"),
        ("/api/articles/999999", 404, "no article"),
        ("/api/articles/999999/html", 404, "no kept HTML"),
        ("/api/export?format=xml", 400, "format"),
        ("/api/nothing", 404, "no such page"),
    ] {
        let (status, v) = get_json(&http, addr, path).await;
        assert_eq!(status, code, "{path}: {v}");
        assert_eq!(v["status"], code, "{path}");
        assert!(v["error"].as_str().unwrap().contains(needle), "{path}: {v}");
    }
    // FTS syntax is plain text, never an error.
    let (status, _) = get_json(
        &http,
        addr,
        &format!("/api/search?q={}", enc("\"NEAR( AND *")),
    )
    .await;
    assert_eq!(status, 200);

    // Stats: per-day chart data and learned boilerplate lines.
    let (status, s) = get_json(&http, addr, "/api/stats").await;
    assert_eq!(status, 200);
    assert_eq!(s["articles"], c.articles.len() as u64);
    let per_day: u64 = s["per_day"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["articles"].as_u64().unwrap())
        .sum();
    let dated = c
        .articles
        .iter()
        .filter(|a| a.article.published_at.is_some())
        .count() as u64;
    assert_eq!(per_day, dated);
    // Sites repeat their template lines on every page: the learned ones
    // are listed per site, each seen in more than one article.
    let boilerplate = s["boilerplate"].as_array().unwrap();
    assert_eq!(boilerplate.len(), c.web.sites().len());
    let lines: Vec<&Value> = boilerplate
        .iter()
        .flat_map(|b| b["lines"].as_array().unwrap())
        .collect();
    assert!(!lines.is_empty(), "{s}");
    assert!(lines.iter().all(|l| l["count"].as_u64().unwrap() > 1));
    assert_eq!(s["kept_html"]["pages"], c.articles.len() as u64);

    // The page and its assets are served by the binary.
    let (status, ct, body) = get(&http, addr, "/?q=anything").await;
    assert_eq!(status, 200);
    assert!(ct.starts_with("text/html"));
    let html = String::from_utf8(body).unwrap();
    assert!(html.contains("/app.js") && !html.contains("http://") && !html.contains("https://"));
    server.shutdown().await;
    c.web.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn api_export_streams_jsonl_csv_and_parquet_and_serves_beside_a_writer() {
    let c = crawled(42).await;
    let server = serve(&c.db).await;
    let http = client();
    let addr = server.addr;
    let (status, ct, body) = get(&http, addr, "/api/export?format=jsonl").await;
    assert_eq!(status, 200);
    assert!(ct.starts_with("application/x-ndjson"));
    let lines: Vec<&str> = std::str::from_utf8(&body).unwrap().lines().collect();
    assert_eq!(lines.len(), c.articles.len());
    let (status, ct, body) = get(&http, addr, "/api/export?format=csv").await;
    assert_eq!(status, 200);
    assert!(ct.starts_with("text/csv"));
    assert!(body.starts_with(b"id,url,site,"));
    // Parquet: the file's rows read back, one per article.
    let (status, ct, body) = get(&http, addr, "/api/export?format=parquet").await;
    assert_eq!(status, 200);
    assert_eq!(ct, "application/vnd.apache.parquet");
    assert!(body.starts_with(b"PAR1") && body.ends_with(b"PAR1"));
    let rows = {
        use parquet::file::reader::FileReader;
        let mut file = tempfile::tempfile().unwrap();
        std::io::Write::write_all(&mut file, &body).unwrap();
        let reader = parquet::file::reader::SerializedFileReader::new(file).unwrap();
        reader.metadata().file_metadata().num_rows()
    };
    assert_eq!(rows, c.articles.len() as i64);

    // A writer adds articles while the server reads: they show up.
    let mut writer = Store::open(&c.db).unwrap();
    writer
        .write_batch(vec![WriteOp::Article(extra_article(
            "http://127.0.0.1:9/late",
            "zyxwvutsrq appears late",
        ))])
        .unwrap();
    let (_, v) = get_json(&http, addr, "/api/search?q=zyxwvutsrq").await;
    assert_eq!(ids(&v).len(), 1, "{v}");
    drop(writer);
    server.shutdown().await;
    c.web.shutdown().await;
}

fn extra_article(url: &str, text: &str) -> NewArticle {
    NewArticle {
        url: url.into(),
        url_id: None,
        site: "extra".into(),
        fetched_at: 1,
        article: Article {
            title: Some("Extra".into()),
            text: text.into(),
            ..Article::default()
        },
        lines: LineSettings {
            enabled: false,
            ..LineSettings::default()
        },
        html: None,
    }
}

/// The 100,000-row export: every row arrives, streamed in chunks.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn api_export_of_100000_articles_is_complete() {
    const N: usize = 100_000;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("big.db");
    {
        let mut store = Store::open(&db).unwrap();
        for chunk in 0..N / 10_000 {
            let ops = (0..10_000)
                .map(|i| {
                    let n = chunk * 10_000 + i;
                    WriteOp::Article(extra_article(
                        &format!("http://127.0.0.1:9/a/{n}"),
                        &format!("Article number {n} says little."),
                    ))
                })
                .collect();
            store.write_batch(ops).unwrap();
        }
    }
    let server = serve(&db).await;
    let http = client();
    for format in ["jsonl", "csv"] {
        let r = http
            .get(format!("http://{}/api/export?format={format}", server.addr))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 200);
        let body = r.bytes().await.unwrap();
        let rows = body.iter().filter(|&&b| b == b'\n').count();
        let header = usize::from(format == "csv");
        assert_eq!(rows, N + header, "{format}");
    }
    server.shutdown().await;
}
