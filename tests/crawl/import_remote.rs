//! `import` of remote archives, from a file server on 127.0.0.1 that
//! answers byte ranges and logs each request: a paths list read with the
//! crawl's user agent, a cut file read on later from its byte offset,
//! private addresses refused as the crawl refuses them, and an unreachable
//! file tried again with backoff, then reported.

use std::collections::HashMap;
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, StatusCode};
use axum::response::Response;
use axum::Router;

use crate::import::import_into;
use crate::support::{start_web, stored};
use crate::warc_files::{warc_gz, web_records};
use newshound::import::{self, ImportOptions};
use newshound::simweb::SimWebSpec;
use newshound::store::{AnyStore, Store};

/// One request as the server saw it.
#[derive(Debug, Clone)]
struct Seen {
    path: String,
    range: Option<String>,
    agent: Option<String>,
}

#[derive(Default)]
struct Served {
    files: Mutex<HashMap<String, Vec<u8>>>,
    /// Paths answered 503.
    down: Mutex<Vec<String>>,
    log: Mutex<Vec<Seen>>,
}

async fn answer(State(s): State<Arc<Served>>, req: Request) -> Response {
    let text = |name| {
        req.headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    };
    let path = req.uri().path().to_string();
    let range = text(header::RANGE);
    s.log.lock().unwrap().push(Seen {
        path: path.clone(),
        range: range.clone(),
        agent: text(header::USER_AGENT),
    });
    let status = |code| {
        Response::builder()
            .status(code)
            .body(Body::empty())
            .unwrap()
    };
    if s.down.lock().unwrap().contains(&path) {
        return status(StatusCode::SERVICE_UNAVAILABLE);
    }
    let Some(bytes) = s.files.lock().unwrap().get(&path).cloned() else {
        return status(StatusCode::NOT_FOUND);
    };
    let from = range
        .as_deref()
        .and_then(|r| r.strip_prefix("bytes="))
        .and_then(|r| r.strip_suffix('-'))
        .and_then(|n| n.parse::<usize>().ok());
    match from {
        Some(at) if at < bytes.len() => Response::builder()
            .status(StatusCode::PARTIAL_CONTENT)
            .header(
                header::CONTENT_RANGE,
                format!("bytes {at}-{}/{}", bytes.len() - 1, bytes.len()),
            )
            .body(Body::from(bytes[at..].to_vec()))
            .unwrap(),
        _ => Response::builder()
            .header(header::CONTENT_TYPE, "application/octet-stream")
            .body(Body::from(bytes))
            .unwrap(),
    }
}

/// The server, and its base URL.
async fn file_server() -> (Arc<Served>, url::Url) {
    let served = Arc::new(Served::default());
    let router = Router::new().fallback(answer).with_state(served.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await });
    (served, url::Url::parse(&format!("http://{addr}/")).unwrap())
}

fn gzip(text: &str) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(text.as_bytes()).unwrap();
    gz.finish().unwrap()
}

fn spec(seed: u64) -> SimWebSpec {
    SimWebSpec {
        sites: 2,
        articles_per_site: 8,
        seed,
        faults: false,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paths_list_over_http_is_read_with_the_crawls_user_agent_and_resumed_by_range() {
    let (web, dir, cfg) = start_web(spec(51)).await;
    let records = web_records(&web, 8, false);
    web.shutdown().await;
    let (server, base) = file_server().await;
    let half = records.len() / 2;
    let first = warc_gz(&records[..half]);
    let second = warc_gz(&records[half..]);
    {
        let mut files = server.files.lock().unwrap();
        files.insert("/cc/a.warc.gz".into(), first);
        // Cut short, as a file still being written.
        files.insert("/cc/b.warc.gz".into(), second[..second.len() - 30].to_vec());
        files.insert(
            "/warc.paths.gz".into(),
            gzip("cc/a.warc.gz\n\n# a comment\ncc/b.warc.gz\n"),
        );
    }
    let opts = || ImportOptions {
        paths: Some(base.join("warc.paths.gz").unwrap().to_string()),
        base: Some(base.to_string()),
        ..ImportOptions::default()
    };
    let db = dir.path().join("remote.db");
    let summary = import_into(&cfg, &db, opts()).await;
    assert_eq!(summary.files, 2, "{summary}");
    assert_eq!(summary.files_read, 1, "{summary}");
    assert_eq!(summary.files_retry.len(), 1, "{summary}");
    let log = server.log.lock().unwrap().clone();
    assert!(
        log.iter()
            .all(|s| s.agent.as_deref() == Some(cfg.crawler.user_agent.as_str())),
        "{log:?}"
    );
    let partial = stored(&db).len();
    assert!(partial < records.len() - 1, "{partial}");

    // The file is whole now: read on from where it stopped, by range.
    server
        .files
        .lock()
        .unwrap()
        .insert("/cc/b.warc.gz".into(), second.clone());
    let again = import_into(&cfg, &db, opts()).await;
    assert_eq!(
        (again.files_read, again.files_already_done),
        (1, 1),
        "{again}"
    );
    assert_eq!(again.duplicates, 0, "{again}");
    assert_eq!(stored(&db).len(), records.len() - 1, "every page once");
    let log = server.log.lock().unwrap().clone();
    let ranged: Vec<&Seen> = log
        .iter()
        .filter(|s| s.path == "/cc/b.warc.gz" && s.range.is_some())
        .collect();
    assert_eq!(ranged.len(), 1, "{log:?}");
    let from: usize = ranged[0].range.as_deref().unwrap()["bytes=".len()..]
        .trim_end_matches('-')
        .parse()
        .unwrap();
    assert!(from > 0 && from < second.len(), "{from}");
    // The file read to its end before is not asked for again.
    let done_asked = log.iter().filter(|s| s.path == "/cc/a.warc.gz").count();
    assert_eq!(done_asked, 1, "{log:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn private_addresses_are_refused_as_the_crawl_refuses_them() {
    let (web, dir, mut cfg) = start_web(spec(52)).await;
    let records = web_records(&web, 2, false);
    web.shutdown().await;
    let (server, base) = file_server().await;
    server
        .files
        .lock()
        .unwrap()
        .insert("/a.warc.gz".into(), warc_gz(&records));
    // The tests opt in to loopback; an import of real archives does not.
    cfg.fetch.allow_private_addresses = false;
    let list = dir.path().join("private.paths");
    let lines = format!(
        "{}\nhttp://10.1.2.3/b.warc.gz\n",
        base.join("a.warc.gz").unwrap()
    );
    std::fs::write(&list, lines).unwrap();
    let db = dir.path().join("private.db");
    let opts = ImportOptions {
        paths: Some(list.display().to_string()),
        ..ImportOptions::default()
    };
    let summary = import_into(&cfg, &db, opts).await;
    assert_eq!(summary.files_failed.len(), 2, "{summary}");
    for (_, why) in &summary.files_failed {
        assert!(why.contains("refused address"), "{why}");
    }
    assert_eq!(summary.errors.get("blocked_address"), Some(&2), "{summary}");
    // A remote paths list on a private address: the import stops at once.
    let open = || AnyStore::from(Store::open(&db).unwrap());
    let remote = ImportOptions {
        paths: Some(base.join("list.paths").unwrap().to_string()),
        ..ImportOptions::default()
    };
    let err = import::run(&cfg, open(), open(), remote, std::future::pending())
        .await
        .unwrap_err();
    assert!(err.to_string().contains("refused address"), "{err}");
    assert!(
        server.log.lock().unwrap().is_empty(),
        "a request reached 127.0.0.1"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreachable_file_is_tried_again_with_backoff_then_reported() {
    let (web, dir, mut cfg) = start_web(spec(53)).await;
    web.shutdown().await;
    let (server, base) = file_server().await;
    server.down.lock().unwrap().push("/down.warc.gz".into());
    cfg.fetch.retries = 2;
    cfg.fetch.backoff_base = Duration::from_millis(20);
    let list = dir.path().join("down.paths");
    std::fs::write(&list, format!("{}\n", base.join("down.warc.gz").unwrap())).unwrap();
    let db = dir.path().join("down.db");
    let opts = ImportOptions {
        paths: Some(list.display().to_string()),
        ..ImportOptions::default()
    };
    let summary = import_into(&cfg, &db, opts).await;
    assert_eq!(summary.files_retry.len(), 1, "{summary}");
    assert!(summary.files_retry[0].1.contains("503"), "{summary}");
    assert_eq!(summary.errors.get("unreachable"), Some(&1), "{summary}");
    assert_eq!(
        server.log.lock().unwrap().len(),
        3,
        "the first try and two more"
    );
}
