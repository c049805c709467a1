//! Bench of the boilerplate learning step with SQLite included.
//!
//! In: synthetic articles (5 template lines, 2 "related story" lines drawn
//! from a pool of 500, 8–20 random body paragraphs). Out, printed: the
//! articles/s of `learn_and_clean` over 100,000 articles on a file-backed
//! WAL database in a temp dir (100 articles per transaction), the maximum
//! line-table row count seen (it must stay bounded) and whether the template
//! left the later articles; then divan timings of the pure steps.
//!
//! Run: `cargo bench --bench boilerplate` (set `BOILERPLATE_ARTICLES` for a
//! shorter run).

use std::time::{Duration, Instant};

use newshound::boilerplate::LineSettings;
use newshound::boilerplate::{filter, normalize_line, LineRule, SiteCounts, Variant};
use newshound::store::lines::{learn_and_clean, table_size};

const BATCH: usize = 100;

const TEMPLATE: [&str; 5] = [
    "Home | News | World | Business | Sport | Culture",
    "Share this story on Facebook, Twitter or by email",
    "Sign up for our daily newsletter",
    "Most read",
    "© 2026 The Example Times. All rights reserved.",
];

/// xorshift64*: deterministic, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// A random letters-only word (digits would be masked away).
    fn word(&mut self) -> String {
        const SYL: [&str; 16] = [
            "ka", "lo", "mi", "ne", "ra", "tu", "se", "vo", "an", "ber", "col", "dis", "gan",
            "hor", "pel", "qui",
        ];
        (0..1 + self.below(3))
            .map(|_| SYL[self.below(16) as usize])
            .collect()
    }
    /// A "related story" title.
    fn headline(&mut self) -> String {
        let mut s: Vec<String> = (0..8).map(|_| self.word()).collect();
        s.push("›".into());
        s.join(" ")
    }
    fn sentence(&mut self, words: u64) -> String {
        let mut s: Vec<String> = (0..words).map(|_| self.word()).collect();
        s.push(".".into());
        s.join(" ")
    }
}

fn article(rng: &mut Rng, related: &[String]) -> String {
    let mut blocks = vec![TEMPLATE[0].to_string()];
    for _ in 0..8 + rng.below(13) {
        let words = 8 + rng.below(40);
        blocks.push(rng.sentence(words));
    }
    blocks.push(TEMPLATE[1].to_string());
    blocks.push(TEMPLATE[2].to_string());
    blocks.push(format!(
        "{}\n{}\n{}",
        TEMPLATE[3],
        related[rng.below(related.len() as u64) as usize],
        related[rng.below(related.len() as u64) as usize]
    ));
    blocks.push(TEMPLATE[4].to_string());
    blocks.join("\n\n")
}

/// CPU time of this thread (Linux `/proc/thread-self/schedstat`, ns on CPU):
/// the machine is shared, so wall-clock time alone understates throughput.
fn thread_cpu() -> Option<Duration> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    Some(Duration::from_nanos(
        s.split_whitespace().next()?.parse().ok()?,
    ))
}

/// A start point for both clocks (the /proc read happens before the wall
/// clock starts).
fn mark() -> (Instant, Option<Duration>) {
    let cpu = thread_cpu();
    (Instant::now(), cpu)
}

fn scale_run(articles: usize) -> Result<(), newshound::store::StoreError> {
    let dir = tempfile::tempdir().map_err(|e| {
        rusqlite::Error::InvalidPath(std::path::PathBuf::from(format!("tempdir: {e}")))
    })?;
    let mut conn = rusqlite::Connection::open(dir.path().join("bench.db"))?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.execute_batch(include_str!("../migrations/0001_init.sql"))?;
    conn.execute("INSERT INTO sites (id, name) VALUES (1, 'example')", [])?;

    let settings = LineSettings::default();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let related: Vec<String> = (0..500).map(|_| rng.headline()).collect();
    let mut learning = Duration::ZERO;
    let mut learning_cpu = Duration::ZERO;
    let (mut max_rows, mut dropped, mut template_left, mut body_lost) =
        (0u64, 0usize, 0usize, 0usize);
    let mut done = 0;
    while done < articles {
        let texts: Vec<String> = (0..BATCH.min(articles - done))
            .map(|_| article(&mut rng, &related))
            .collect();
        let mut start = mark();
        let mut lap = |(wall, cpu): (Instant, Option<Duration>)| {
            learning += wall.elapsed();
            if let (Some(a), Some(b)) = (cpu, thread_cpu()) {
                learning_cpu += b.saturating_sub(a);
            }
        };
        let tx = conn.transaction()?;
        let mut outs = Vec::with_capacity(texts.len());
        for t in &texts {
            outs.push(learn_and_clean(&tx, 1, t, &settings)?);
            // The table peaks just before a prune: look after every
            // article, off the clock.
            lap(start);
            max_rows = max_rows.max(table_size(&tx, 1)?);
            start = mark();
        }
        tx.commit()?;
        lap(start);
        for (t, out) in texts.iter().zip(&outs) {
            dropped += out.dropped;
            if done >= 20 {
                template_left += TEMPLATE.iter().filter(|l| out.text.contains(*l)).count();
                // Body paragraphs end with " ." (related-story lines with
                // " ›"): count true body lines lost.
                let body = |s: &str| s.lines().filter(|l| l.ends_with(" .")).count();
                body_lost += body(t) - body(&out.text);
            }
        }
        done += texts.len();
    }
    let secs = learning.as_secs_f64();
    println!("boilerplate scale run: {articles} articles, batches of {BATCH}, file-backed WAL");
    println!(
        "  learning wall time  {secs:.2} s  ({:.0} articles/s)",
        articles as f64 / secs
    );
    let cpu = learning_cpu.as_secs_f64();
    if cpu > 0.0 {
        println!(
            "  learning CPU time   {cpu:.2} s  ({:.0} articles/s on one core)",
            articles as f64 / cpu
        );
    }
    println!(
        "  max line_hashes rows {max_rows}  (final {})",
        table_size(&conn, 1)?
    );
    println!("  lines dropped        {dropped}");
    println!("  template lines left after article 20: {template_left}");
    println!("  body lines dropped after article 20: {body_lost}");
    Ok(())
}

fn main() {
    let articles = std::env::var("BOILERPLATE_ARTICLES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    if let Err(e) = scale_run(articles) {
        eprintln!("boilerplate scale run failed: {e}");
    }
    divan::main();
}

fn sample_text() -> String {
    let mut rng = Rng(42);
    let related: Vec<String> = (0..50).map(|_| rng.headline()).collect();
    article(&mut rng, &related)
}

#[divan::bench]
fn normalize_article_lines(b: divan::Bencher) {
    let text = sample_text();
    b.bench(|| text.lines().map(|l| normalize_line(l).len()).sum::<usize>());
}

#[divan::bench]
fn filter_article(b: divan::Bencher) {
    let text = sample_text();
    let counts = SiteCounts::default();
    b.bench(|| filter(&text, &LineRule::default(), &Variant::default(), &counts).dropped);
}
