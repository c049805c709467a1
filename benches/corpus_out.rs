//! What keeping pages and getting the corpus out cost (a plain
//! `harness = false` main).
//!
//! In: the simulated web (3 sites × 334 articles, seed 2026) crawled twice,
//! `[store] keep_html` on and off; then a 100,000-article database built
//! from the kept pages (each crawled article written 100 times under new
//! URLs, its text numbered so no two bodies are equal). Out, printed:
//!
//! 1. database size per 1,000 articles with and without kept HTML;
//! 2. kept-HTML compression: ratio, and zstd compress/decompress cost per
//!    page at the stored level and two higher ones;
//! 3. export of the 100,000 articles in each format to a file: wall time,
//!    articles/s (per wall and per CPU second), MB/s, and peak RSS (each
//!    export runs in a fresh process of this binary, `--export FORMAT DB
//!    OUT`, so VmHWM and CPU time are the export's own); Markdown extracts
//!    every kept page again (default options), so it costs what extraction
//!    costs;
//! 4. `serve` search latency on the 100,000 articles: p50/p90/p99 over
//!    `SEARCHES` searches of words from the articles, sequential, over HTTP
//!    on 127.0.0.1 (plus the no-word browse and a CJK query);
//! 5. `serve` under 1, 50 and 500 concurrent searches ([`serve_load`]):
//!    p50/p99, 503s, and the server's peak RSS (a child process of this
//!    binary per level, `--serve DB`).
//!
//! Run: `cargo bench --bench corpus_out`; part 5 alone on a database of
//! your own: `cargo bench --bench corpus_out -- --serve-load DB`.

#[path = "corpus_out/serve_load.rs"]
mod serve_load;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use newshound::boilerplate::LineSettings;
use newshound::config::Config;
use newshound::crawl::{self, CrawlOptions};
use newshound::export::{self, Format};
use newshound::extract::Article;
use newshound::simweb::{SimWeb, SimWebSpec};
use newshound::store::{
    AnyStore, KeptCompressor, NewArticle, Selection, Store, StoredHtml, WriteOp, ZSTD_LEVEL,
};

const SEED: u64 = 2026;
const ARTICLES_PER_SITE: usize = 334;
const COPIES: usize = 100;
/// Articles in the big database (the crawl gives a few more than 1,000).
const BIG: usize = 100_000;
const SEARCHES: usize = 400;

fn status_kb(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status
        .lines()
        .find(|l| l.split(':').next() == Some(field))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// CPU time (user + system) of this process so far, in seconds, from
/// `/proc/self/stat` (clock ticks of Linux's USER_HZ, 100 per second).
fn cpu_secs() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // Fields after the command name (which may hold spaces) in parentheses.
    let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    // utime and stime are fields 14 and 15 of the whole line: 11 and 12 here.
    (ticks(11) + ticks(12)) / 100.0
}

/// Bytes of a database and its WAL/SHM files.
fn db_size(db: &Path) -> u64 {
    ["", "-wal", "-shm"]
        .iter()
        .filter_map(|s| std::fs::metadata(format!("{}{s}", db.display())).ok())
        .map(|m| m.len())
        .sum()
}

fn mb(bytes: f64) -> f64 {
    bytes / 1_048_576.0
}

fn crawl_web(
    rt: &tokio::runtime::Runtime,
    web: &SimWeb,
    db: &Path,
    keep: bool,
) -> Result<(), String> {
    let dir = db.parent().ok_or("db has no directory")?;
    let mut cfg = Config::parse(&web.config_toml(), Path::new("simweb.toml"), dir)
        .map_err(|e| e.to_string())?;
    cfg.store.keep_html = keep;
    cfg.politeness.rate_per_host = 10_000.0;
    cfg.politeness.per_host_concurrency = 8;
    let store = Store::open(db).map_err(|e| e.to_string())?;
    let opts = CrawlOptions::default();
    rt.block_on(crawl::run(
        &cfg,
        AnyStore::from(store),
        opts,
        std::future::pending(),
    ))
    .map_err(|e| e.to_string())?;
    Ok(())
}

fn articles_of(store: &mut AnyStore) -> Result<Vec<newshound::store::StoredArticle>, String> {
    let mut all = Vec::new();
    store
        .export(
            &Selection::default(),
            &mut |a: &newshound::store::StoredArticle| {
                all.push(a.clone());
                Ok(())
            },
        )
        .map_err(|e| e.to_string())?;
    Ok(all)
}

fn compression_costs(pages: &[StoredHtml]) {
    let raw: usize = pages.iter().map(|p| p.body.len()).sum();
    println!(
        "kept pages: {} pages, {:.1} KB mean raw",
        pages.len(),
        raw as f64 / pages.len().max(1) as f64 / 1024.0
    );
    for level in [ZSTD_LEVEL, 9, 19] {
        let started = Instant::now();
        let packed: Vec<Vec<u8>> = pages
            .iter()
            .filter_map(|p| zstd::bulk::compress(&p.body, level).ok())
            .collect();
        let compress = started.elapsed();
        let size: usize = packed.iter().map(Vec::len).sum();
        let started = Instant::now();
        for (p, z) in pages.iter().zip(&packed) {
            let _ = zstd::bulk::decompress(z, p.body.len());
        }
        let decompress = started.elapsed();
        let n = pages.len().max(1) as f64;
        println!(
            "  zstd level {level:>2}{}: ratio {:.2}x, compress {:.0} µs/page ({:.0} MB/s), \
             decompress {:.0} µs/page",
            if level == ZSTD_LEVEL { " (stored)" } else { "" },
            raw as f64 / size.max(1) as f64,
            compress.as_secs_f64() * 1e6 / n,
            mb(raw as f64) / compress.as_secs_f64().max(1e-9),
            decompress.as_secs_f64() * 1e6 / n,
        );
    }
}

/// The 100,000-article database: every crawled article `COPIES` times.
fn build_big(small: &Path, big: &Path) -> Result<(), String> {
    let mut src = AnyStore::from(Store::open(small).map_err(|e| e.to_string())?);
    let articles = articles_of(&mut src)?;
    let mut pages = Vec::new();
    let mut kept = KeptCompressor::new().map_err(|e| e.to_string())?;
    for a in &articles {
        if let Some(p) = src.kept_html(a.id).map_err(|e| e.to_string())? {
            let html = kept
                .keep(&p.url, p.status, p.headers.clone(), p.fetched_at, &p.body)
                .map_err(|e| e.to_string())?;
            pages.push((a.clone(), html));
        }
    }
    let mut dst = Store::open(big).map_err(|e| e.to_string())?;
    let started = Instant::now();
    let total = (pages.len() * COPIES).min(BIG);
    let mut ops = Vec::new();
    let copies = (0..COPIES).flat_map(|c| pages.iter().map(move |p| (c, p)));
    for (copy, (a, html)) in copies.take(total) {
        {
            let url = format!("{}?copy={copy}", a.url);
            let mut kept = html.clone();
            kept.url = url.clone();
            ops.push(WriteOp::Article(NewArticle {
                url,
                url_id: None,
                site: a.site.clone(),
                fetched_at: a.fetched_at,
                article: Article {
                    text: format!("{}\n({copy})", a.article.text),
                    canonical_url: None,
                    ..a.article.clone()
                },
                lines: LineSettings {
                    enabled: false,
                    ..LineSettings::default()
                },
                html: Some(kept),
            }));
            if ops.len() == 5_000 {
                dst.write_batch(std::mem::take(&mut ops))
                    .map_err(|e| e.to_string())?;
            }
        }
    }
    dst.write_batch(ops).map_err(|e| e.to_string())?;
    println!(
        "built {total} articles in {:.1} s ({:.0} articles/s written, kept HTML and FTS included); \
         database {:.0} MB",
        started.elapsed().as_secs_f64(),
        total as f64 / started.elapsed().as_secs_f64(),
        mb(db_size(big) as f64)
    );
    Ok(())
}

/// The child: one export, then its figures on one line.
fn export_child(format: &str, db: &Path, out: &Path) -> Result<(), String> {
    let format = match format {
        "jsonl" => Format::Jsonl,
        "csv" => Format::Csv,
        "parquet" => Format::Parquet,
        "warc" => Format::Warc,
        "markdown" => Format::Markdown,
        other => return Err(format!("unknown format {other}")),
    };
    let mut store = AnyStore::from(Store::open_read_only(db).map_err(|e| e.to_string())?);
    let file = std::fs::File::create(out).map_err(|e| e.to_string())?;
    let mut w = std::io::BufWriter::new(file);
    let started = Instant::now();
    let cpu_before = cpu_secs();
    // Markdown extracts every kept page again with the default options.
    let summary = export::write_with(
        &mut store,
        &Selection::default(),
        format,
        &export::Rendering::default(),
        &mut w,
    )
    .map_err(|e| e.to_string())?;
    drop(w);
    let secs = started.elapsed().as_secs_f64();
    let cpu = cpu_secs() - cpu_before;
    let bytes = std::fs::metadata(out).map(|m| m.len()).unwrap_or(0);
    println!(
        "RESULT {} {secs:.3} {bytes} {} {cpu:.2} {}",
        summary.written,
        status_kb("VmHWM").unwrap_or(0),
        summary.from_stored_text
    );
    Ok(())
}

fn export_bench(big: &Path, dir: &Path) -> Result<(), String> {
    let me = std::env::current_exe().map_err(|e| e.to_string())?;
    for format in ["jsonl", "csv", "parquet", "markdown", "warc"] {
        let out_file = dir.join(format!("export.{format}"));
        let out = std::process::Command::new(&me)
            .args(["--export", format])
            .arg(big)
            .arg(&out_file)
            .output()
            .map_err(|e| e.to_string())?;
        let text = String::from_utf8_lossy(&out.stdout);
        let line = text
            .lines()
            .find_map(|l| l.strip_prefix("RESULT "))
            .ok_or_else(|| format!("{format}: {}", String::from_utf8_lossy(&out.stderr)))?;
        let f: Vec<f64> = line.split(' ').filter_map(|x| x.parse().ok()).collect();
        let [n, secs, bytes, hwm, cpu, from_stored] = f[..] else {
            return Err(format!("bad child line {line}"));
        };
        println!(
            "  export {format:<8}: {n:.0} articles in {secs:.1} s = {:.0} articles/s \
             ({:.0} articles per CPU second), {:.0} MB at {:.0} MB/s, peak RSS {:.1} MB{}",
            n / secs.max(1e-9),
            n / cpu.max(1e-9),
            mb(bytes),
            mb(bytes) / secs.max(1e-9),
            hwm / 1024.0,
            if format == "markdown" {
                format!(", {from_stored:.0} from stored text")
            } else {
                String::new()
            }
        );
        let _ = std::fs::remove_file(&out_file);
    }
    Ok(())
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)].as_secs_f64() * 1e3
}

/// Returns the query words, for the concurrency bench.
fn search_bench(rt: &tokio::runtime::Runtime, big: &Path) -> Result<Vec<String>, String> {
    let mut store = AnyStore::from(Store::open_read_only(big).map_err(|e| e.to_string())?);
    // Query words: the 4th word of every 250th article (a spread of common
    // and rare words), and a CJK title prefix.
    let mut words = Vec::new();
    let mut cjk = None;
    let mut i = 0;
    store
        .export(&Selection::default(), &mut |a| {
            i += 1;
            if i % 250 == 0 {
                if let Some(w) = a.article.text.split_whitespace().nth(3) {
                    let w: String = w.chars().filter(|c| c.is_alphanumeric()).collect();
                    if w.chars().count() >= 3 {
                        words.push(w);
                    }
                }
            }
            if cjk.is_none() && a.article.language.as_deref() == Some("cmn") {
                cjk = a
                    .article
                    .title
                    .as_ref()
                    .map(|t| t.chars().take(2).collect::<String>());
            }
            Ok(())
        })
        .map_err(|e| e.to_string())?;
    drop(store);
    let big = big.to_path_buf();
    let returned = words.clone();
    rt.block_on(async move {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .map_err(|e| e.to_string())?;
        let addr = listener.local_addr().map_err(|e| e.to_string())?;
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let server = tokio::spawn(async move {
            let _ = newshound::serve::serve(listener, &big, 50, async {
                let _ = stopped.await;
            })
            .await;
        });
        let _ = rustls::crypto::ring::default_provider().install_default();
        let http = reqwest::Client::builder()
            .no_proxy()
            .build()
            .map_err(|e| e.to_string())?;
        let time = |path: String| {
            let http = http.clone();
            async move {
                let started = Instant::now();
                let r = http
                    .get(format!("http://{addr}{path}"))
                    .send()
                    .await
                    .map_err(|e| e.to_string())?;
                let ok = r.status().is_success();
                let _ = r.bytes().await;
                if !ok {
                    return Err(format!("{path}: failed"));
                }
                Ok::<_, String>(started.elapsed())
            }
        };
        let cases: Vec<(&str, Vec<String>)> = vec![
            (
                "word search (limit 20)",
                (0..SEARCHES)
                    .map(|i| format!("/api/search?q={}", words[i % words.len()]))
                    .collect(),
            ),
            (
                "two-word search",
                (0..SEARCHES)
                    .map(|i| {
                        format!(
                            "/api/search?q={}+{}",
                            words[i % words.len()],
                            words[(i * 7 + 3) % words.len()]
                        )
                    })
                    .collect(),
            ),
            (
                "browse, no word (limit 20, offset 0..2000)",
                (0..SEARCHES / 4)
                    .map(|i| format!("/api/search?offset={}", (i * 20) % 2000))
                    .collect(),
            ),
            (
                "CJK 2-character search (LIKE scan)",
                (0..20)
                    .map(|_| {
                        let q: String = url_encode(cjk.as_deref().unwrap_or("新闻"));
                        format!("/api/search?q={q}")
                    })
                    .collect(),
            ),
        ];
        // Warm the page cache and the connection pool first.
        for w in words.iter().take(20) {
            time(format!("/api/search?q={w}")).await?;
        }
        for (name, paths) in cases {
            let mut times = Vec::with_capacity(paths.len());
            for p in paths {
                times.push(time(p).await?);
            }
            times.sort();
            println!(
                "  {name}: n {}, p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
                times.len(),
                percentile(&times, 0.50),
                percentile(&times, 0.90),
                percentile(&times, 0.99),
                percentile(&times, 1.0)
            );
        }
        let _ = stop.send(());
        let _ = server.await;
        Ok::<(), String>(())
    })?;
    Ok(returned)
}

fn url_encode(s: &str) -> String {
    s.bytes().map(|b| format!("%{b:02X}")).collect()
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(i) = args.iter().position(|a| a == "--export") {
        let (Some(format), Some(db), Some(out)) =
            (args.get(i + 1), args.get(i + 2), args.get(i + 3))
        else {
            return Err("--export FORMAT DB OUT".into());
        };
        return export_child(format, Path::new(db), Path::new(out));
    }
    if let Some(i) = args.iter().position(|a| a == "--serve") {
        let db = args.get(i + 1).ok_or("--serve DB")?;
        return serve_load::serve_child(Path::new(db));
    }
    // Part 5 alone, on a database of your own (the reference figures are on
    // `newshound demo --articles 1000 --db demo.db`'s 3,000 articles).
    if let Some(i) = args.iter().position(|a| a == "--serve-load") {
        let db = Path::new(args.get(i + 1).ok_or("--serve-load DB")?);
        let rt = tokio::runtime::Runtime::new().map_err(|e| e.to_string())?;
        let words = serve_load::query_words(db)?;
        println!(
            "serve: concurrent searches on {} (a server process per level):",
            db.display()
        );
        return serve_load::concurrency_bench(&rt, db, &words);
    }
    if let Ok(load) = std::fs::read_to_string("/proc/loadavg") {
        println!("load average at start: {}", load.trim());
    }
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let spec = SimWebSpec {
        sites: 3,
        articles_per_site: ARTICLES_PER_SITE,
        seed: SEED,
        faults: false,
    };
    let web = rt
        .block_on(SimWeb::start(spec))
        .map_err(|e| e.to_string())?;
    let mut sizes = Vec::new();
    for keep in [true, false] {
        let db: PathBuf = dir.path().join(format!("keep-{keep}.db"));
        crawl_web(&rt, &web, &db, keep)?;
        let n = articles_of(&mut AnyStore::from(
            Store::open(&db).map_err(|e| e.to_string())?,
        ))?
        .len();
        let bytes = db_size(&db);
        println!(
            "keep_html = {keep}: {n} articles, database {:.1} MB = {:.2} MB per 1,000 articles",
            mb(bytes as f64),
            mb(bytes as f64) * 1000.0 / n.max(1) as f64
        );
        sizes.push((keep, db));
    }
    let kept_db = &sizes[0].1;
    {
        let mut store = AnyStore::from(Store::open(kept_db).map_err(|e| e.to_string())?);
        let k = store.kept_sizes().map_err(|e| e.to_string())?;
        println!(
            "kept HTML: {} pages, {:.1} MB raw → {:.1} MB stored, ratio {:.2}x",
            k.pages,
            mb(k.body_bytes as f64),
            mb(k.compressed_bytes as f64),
            k.body_bytes as f64 / k.compressed_bytes.max(1) as f64
        );
        let mut pages = Vec::new();
        store
            .export_html(&Selection::default(), &mut |p: &StoredHtml| {
                pages.push(p.clone());
                Ok(())
            })
            .map_err(|e| e.to_string())?;
        compression_costs(&pages);
    }
    rt.block_on(web.shutdown());
    let big = dir.path().join("big.db");
    build_big(kept_db, &big)?;
    println!("export of the 100,000 articles (one process each):");
    export_bench(&big, dir.path())?;
    println!("serve: search latency on the 100,000 articles, sequential HTTP requests:");
    let words = search_bench(&rt, &big)?;
    println!("serve: concurrent searches on the 100,000 articles (a server process per level):");
    serve_load::concurrency_bench(&rt, &big, &words)?;
    if let Ok(load) = std::fs::read_to_string("/proc/loadavg") {
        println!("load average at end: {}", load.trim());
    }
    Ok(())
}
