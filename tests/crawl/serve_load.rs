//! `newshound serve` under load, as a child process: hundreds of parallel
//! searches take a bounded number of threads and bounded memory (peak
//! VmHWM and thread count sampled from /proc while it runs); the requests
//! beyond the query cap wait, then get 503, never another error.

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
