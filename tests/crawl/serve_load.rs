//! `newshound serve` under load and abuse. As a child process: hundreds of
//! parallel searches take a bounded number of threads and bounded memory
//! (peak VmHWM and thread count sampled from /proc while it runs); the
//! requests beyond the query cap wait, then get 503, never another error.
//! In this process: rebound `Host` names get 421, every response carries
//! `nosniff`, and half-sent or idle connections are closed.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use newshound::boilerplate::LineSettings;
use newshound::extract::Article;
use newshound::store::{NewArticle, Store, WriteOp};

/// Threads the server may have under load: its async workers, the query
/// and export slots, tokio's and SQLite's own. Before the cap: one per
/// parallel request.
const MAX_THREADS: u64 = 40;
/// Peak RSS allowed under the load below (debug build).
const CEILING_MB: u64 = 300;

const WORDS: [&str; 8] = [
    "harbour", "council", "budget", "railway", "schools", "weather", "market", "北京",
];

/// A database of `n` articles, each a few paragraphs of common words.
pub fn corpus(db: &Path, n: usize) {
    let mut store = Store::open(db).unwrap();
    let ops = (0..n)
        .map(|i| {
            let text = (0..40)
                .map(|k| {
                    format!(
                        "The {} of the town said {} things about the {} in {}.",
                        WORDS[(i + k) % 8],
                        i * 7 + k,
                        WORDS[(i * 3 + k) % 8],
                        WORDS[k % 8]
                    )
                })
                .collect::<Vec<_>>()
                .join("\n");
            WriteOp::Article(NewArticle {
                url: format!("http://127.0.0.1:9/a/{i}"),
                url_id: None,
                site: "load".into(),
                fetched_at: 1,
                article: Article {
                    title: Some(format!("Story {i} of the town")),
                    text,
                    ..Article::default()
                },
                lines: LineSettings {
                    enabled: false,
                    ..LineSettings::default()
                },
                html: None,
            })
        })
        .collect();
    store.write_batch(ops).unwrap();
}

/// `newshound serve` on a free port: the child and its address.
pub fn spawn_serve(dir: &Path, db: &Path, extra: &[&str]) -> (Child, SocketAddr) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_newshound"))
        .arg("--db")
        .arg(db)
        .args(["serve", "--addr", "127.0.0.1:0"])
        .args(extra)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn newshound serve");
    let stderr = child.stderr.take().expect("stderr");
    let mut lines = BufReader::new(stderr).lines();
    let addr = loop {
        let line = lines
            .next()
            .expect("serve says where")
            .expect("stderr line");
        if let Some(rest) = line.split("http://").nth(1) {
            let host_port = rest.split('/').next().unwrap_or_default();
            break host_port.parse().expect("address");
        }
    };
    // Keep draining stderr so the child never blocks on a full pipe.
    std::thread::spawn(move || for _ in lines {});
    (child, addr)
}

fn status_field(pid: u32, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[cfg(target_os = "linux")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn regression_serve_took_a_thread_and_a_connection_per_parallel_search() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("load.db");
    corpus(&db, 2_000);
    let (mut child, addr) = spawn_serve(dir.path(), &db, &[]);
    let pid = child.id();
    let (peak_kb, peak_threads) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
    let done = Arc::new(AtomicBool::new(false));
    let sampler = {
        let (kb, threads, done) = (peak_kb.clone(), peak_threads.clone(), done.clone());
        std::thread::spawn(move || {
            while !done.load(Ordering::SeqCst) {
                kb.fetch_max(status_field(pid, "VmHWM:").unwrap_or(0), Ordering::SeqCst);
                threads.fetch_max(status_field(pid, "Threads:").unwrap_or(0), Ordering::SeqCst);
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
        })
    };
    let http = crate::serve::client();
    let queries = (0..300).map(|i| {
        let http = http.clone();
        let q = ["the", "%E5%8C%97%E4%BA%AC", "harbour"][i % 3];
        let url = format!(
            "http://{addr}/api/search?q={q}&limit=100&offset={}",
            (i % 5) * 100
        );
        async move { http.get(url).send().await.map(|r| r.status().as_u16()) }
    });
    let statuses = futures_util::future::join_all(queries).await;
    done.store(true, Ordering::SeqCst);
    sampler.join().unwrap();
    let _ = child.kill();
    let _ = child.wait();
    let ok = statuses.iter().filter(|s| matches!(s, Ok(200))).count();
    let busy = statuses.iter().filter(|s| matches!(s, Ok(503))).count();
    let (kb, threads) = (
        peak_kb.load(Ordering::SeqCst),
        peak_threads.load(Ordering::SeqCst),
    );
    println!(
        "300 parallel searches: {ok} answered, {busy} busy; peak {threads} threads, {:.1} MB",
        kb as f64 / 1024.0
    );
    assert_eq!(ok + busy, statuses.len(), "{statuses:?}");
    assert!(ok > 0);
    assert!(threads <= MAX_THREADS, "{threads} threads");
    assert!(kb < CEILING_MB * 1024, "peak RSS {kb} kB");
}

/// `serve` in this process with a short header timeout.
async fn serve_quick(db: &Path) -> (SocketAddr, tokio::sync::oneshot::Sender<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let target = newshound::store::StoreTarget::Sqlite(db.to_path_buf());
    let options = newshound::serve::ServeOptions {
        allow_hosts: vec!["news.lan".into()],
        header_timeout: std::time::Duration::from_secs(1),
        ..newshound::serve::ServeOptions::new(50)
    };
    tokio::spawn(async move {
        let shutdown = async {
            let _ = stopped.await;
        };
        newshound::serve::serve_with(listener, &target, &options, shutdown)
            .await
            .expect("serve runs");
    });
    (addr, stop)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn regression_dns_rebinding_requests_were_answered_without_nosniff() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("hosts.db");
    corpus(&db, 3);
    let (addr, stop) = serve_quick(&db).await;
    let http = crate::serve::client();
    let get = |host: &'static str| {
        http.get(format!("http://{addr}/api/stats"))
            .header("host", host)
            .send()
    };
    let evil = get("evil.example:8080").await.unwrap();
    assert_eq!(evil.status().as_u16(), 421);
    assert_eq!(evil.headers()["x-content-type-options"], "nosniff");
    let body = evil.text().await.unwrap();
    assert!(
        body.contains("evil.example") && !body.contains("articles"),
        "{body}"
    );
    for host in ["localhost:8080", "news.lan", "127.0.0.1"] {
        let ok = get(host).await.unwrap();
        assert_eq!(ok.status().as_u16(), 200, "{host}");
        assert_eq!(ok.headers()["x-content-type-options"], "nosniff", "{host}");
    }
    let missing = http
        .get(format!("http://{addr}/nowhere"))
        .send()
        .await
        .unwrap();
    assert_eq!(missing.status().as_u16(), 404);
    assert_eq!(missing.headers()["x-content-type-options"], "nosniff");
    let _ = stop.send(());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn regression_half_sent_requests_were_kept_open_for_good() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("slow.db");
    corpus(&db, 3);
    let (addr, stop) = serve_quick(&db).await;
    let mut half = tokio::net::TcpStream::connect(addr).await.unwrap();
    half.write_all(b"GET /api/stats HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        .await
        .unwrap();
    // The server closes it (1 s header timeout here); a generous bound.
    let mut buf = Vec::new();
    let read = tokio::time::timeout(
        std::time::Duration::from_secs(30),
        half.read_to_end(&mut buf),
    )
    .await;
    assert!(read.is_ok(), "a half-sent request still open after 30 s");
    // An idle keep-alive connection is closed the same way.
    let mut idle = tokio::net::TcpStream::connect(addr).await.unwrap();
    idle.write_all(b"GET /app.css HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .await
        .unwrap();
    let mut buf = Vec::new();
    let read = tokio::time::timeout(
        std::time::Duration::from_secs(30),
        idle.read_to_end(&mut buf),
    )
    .await;
    assert!(read.is_ok(), "an idle connection still open after 30 s");
    assert!(
        buf.starts_with(b"HTTP/1.1 200"),
        "{}",
        String::from_utf8_lossy(&buf)
    );
    let _ = stop.send(());
}
