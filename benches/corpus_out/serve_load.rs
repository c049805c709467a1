//! `serve` under concurrent searches: latency and the server's own peak
//! RSS at 1, 50 and 500 searches in flight at once.
//!
//! In: the big database and query words. Out, printed per concurrency:
//! requests answered and busy (503), p50/p99 latency of the answered ones
//! (queueing for a query slot included), and the peak RSS (VmHWM) of the
//! server, a fresh child process of this binary (`--serve DB`) per level,
//! so the figure is the server's alone.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use futures_util::StreamExt;

/// Searches in flight at once.
const LEVELS: [usize; 3] = [1, 50, 500];

/// Child mode: serve `db` on a free loopback port, print the address, stop
/// when stdin closes.
pub fn serve_child(db: &Path) -> Result<(), String> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let db = db.to_path_buf();
    rt.block_on(async move {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .map_err(|e| e.to_string())?;
        println!("{}", listener.local_addr().map_err(|e| e.to_string())?);
        let _ = std::io::stdout().flush();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        std::thread::spawn(move || {
            let _ = std::io::copy(&mut std::io::stdin(), &mut std::io::sink());
            let _ = stop.send(());
        });
        newshound::serve::serve(listener, &db, 50, async {
            let _ = stopped.await;
        })
        .await
        .map_err(|e| e.to_string())
    })
}

/// Query words of a database: the 4th word of every 25th article.
pub fn query_words(db: &Path) -> Result<Vec<String>, String> {
    let mut store = newshound::store::AnyStore::from(
        newshound::store::Store::open_read_only(db).map_err(|e| e.to_string())?,
    );
    let mut words = Vec::new();
    let mut i = 0;
    store
        .export(&newshound::store::Selection::default(), &mut |a| {
            i += 1;
            if i % 25 == 0 {
                if let Some(w) = a.article.text.split_whitespace().nth(3) {
                    let w: String = w.chars().filter(|c| c.is_ascii_alphanumeric()).collect();
                    if w.len() >= 3 {
                        words.push(w);
                    }
                }
            }
            Ok(())
        })
        .map_err(|e| e.to_string())?;
    if words.is_empty() {
        words.push("the".into());
    }
    Ok(words)
}

fn peak_rss_kb(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            let line = s.lines().find(|l| l.starts_with("VmHWM:"))?.to_string();
            line.split_whitespace().nth(1)?.parse().ok()
        })
        .unwrap_or(0)
}

fn ms(times: &[Duration], q: f64) -> f64 {
    if times.is_empty() {
        return 0.0;
    }
    let i = ((times.len() - 1) as f64 * q).round() as usize;
    times[i].as_secs_f64() * 1000.0
}

/// The load at each of [`LEVELS`], one server process per level.
pub fn concurrency_bench(
    rt: &tokio::runtime::Runtime,
    db: &Path,
    words: &[String],
) -> Result<(), String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let _ = rustls::crypto::ring::default_provider().install_default();
    for level in LEVELS {
        let mut child = Command::new(&exe)
            .arg("--serve")
            .arg(db)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| e.to_string())?;
        let mut line = String::new();
        let stdout = child.stdout.take().ok_or("no stdout")?;
        BufReader::new(stdout)
            .read_line(&mut line)
            .map_err(|e| e.to_string())?;
        let addr = line.trim().to_string();
        let total = (level * 4).max(200);
        let (answered, busy) = rt.block_on(async {
            let http = reqwest::Client::builder()
                .no_proxy()
                .pool_max_idle_per_host(level)
                .build()
                .map_err(|e| e.to_string())?;
            let one = |i: usize| {
                let http = http.clone();
                let url = format!(
                    "http://{addr}/api/search?q={}&limit=20",
                    words[i % words.len()]
                );
                async move {
                    let started = Instant::now();
                    let r = http.get(url).send().await.ok()?;
                    let status = r.status().as_u16();
                    let _ = r.bytes().await;
                    Some((status, started.elapsed()))
                }
            };
            let results: Vec<_> = futures_util::stream::iter(0..total)
                .map(one)
                .buffer_unordered(level)
                .collect()
                .await;
            let mut answered: Vec<Duration> = results
                .iter()
                .flatten()
                .filter(|(s, _)| *s == 200)
                .map(|(_, t)| *t)
                .collect();
            answered.sort();
            let busy = results.iter().flatten().filter(|(s, _)| *s == 503).count();
            Ok::<_, String>((answered, busy))
        })?;
        let peak = peak_rss_kb(child.id());
        drop(child.stdin.take());
        let _ = child.wait();
        println!(
            "  {level:>3} concurrent: {} requests, {} answered, {busy} busy (503); \
             p50 {:.2} ms, p99 {:.2} ms; server peak RSS {:.1} MB",
            total,
            answered.len(),
            ms(&answered, 0.50),
            ms(&answered, 0.99),
            peak as f64 / 1024.0
        );
    }
    Ok(())
}
