//! Extraction throughput on the corpus, tests/corpus (a plain `harness = false` main).
//!
//! In: the corpus pages (read into memory first, so disk is not measured).
//! Out: pages/s per set and algorithm for 1 and 2 threads, the slowest page,
//! and the time of the pathological pages (a 20 MB page, 100,000 nested
//! `<div>`s). Run: `cargo bench --bench extract [-- SET_PREFIX]`, or
//! `-- language` for the language-detection check alone, or `-- stages` for
//! CPU time of the text path and of metadata on page-signal-dev, or `-- big` for the
//! pathological pages alone, or `-- steps` for what the modern-page steps
//! of `auto` cost (each switched off, as `eval --ablate` does), or
//! `-- furniture` for what the furniture steps cost (the full path with and
//! without them, in one run). Everything goes through the library's one
//! extraction entry, [`Extractor`], as any user of the crate would.

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use newshound::extract::{Ablations, Algorithm, ExtractOptions, Extractor, Page, Step};

/// The article of a page's bytes.
fn extract(extractor: &Extractor, bytes: &[u8]) -> newshound::extract::Article {
    extractor.extract(Page::from_bytes(bytes, None)).article
}

/// The text path alone (no metadata, no language detection), `auto`.
fn text_only() -> Extractor {
    Extractor::new(ExtractOptions {
        text_only: true,
        ..ExtractOptions::default()
    })
}

fn load(set: &Path) -> Vec<(String, Vec<u8>)> {
    let mut pages = Vec::new();
    let Ok(rd) = std::fs::read_dir(set.join("html")) else {
        return pages;
    };
    for e in rd.flatten() {
        let p = e.path();
        if let Ok(b) = std::fs::read(&p) {
            pages.push((
                p.file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned(),
                b,
            ));
        }
    }
    pages.sort();
    pages
}

/// CPU time of the calling thread (Linux `schedstat`), so that a busy
/// machine does not count as a slow extractor; `None` elsewhere.
fn thread_cpu() -> Option<Duration> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = s.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

/// Pages/s of one thread over `rounds` passes over all pages, timed pass by
/// pass: (median wall, median per CPU-second, slowest and fastest pass wall).
/// The median, because a shared machine stalls the odd pass (a stolen vCPU
/// counts as CPU time too).
fn single(pages: &[(String, Vec<u8>)], opts: &ExtractOptions, rounds: usize) -> Rates {
    let n = pages.len() as f64;
    let extractor = Extractor::new(opts.clone());
    let mut wall = Vec::new();
    let mut cpu = Vec::new();
    for _ in 0..rounds {
        let t0 = Instant::now();
        let c0 = thread_cpu();
        for (_, bytes) in pages {
            std::hint::black_box(extract(&extractor, bytes));
        }
        wall.push(n / t0.elapsed().as_secs_f64());
        if let (Some(a), Some(b)) = (c0, thread_cpu()) {
            cpu.push(n / (b - a).as_secs_f64());
        }
    }
    Rates::of(wall, cpu)
}

/// Per-pass rates of a measurement.
struct Rates {
    median: f64,
    median_cpu: f64,
    low: f64,
    high: f64,
}

impl Rates {
    fn of(mut wall: Vec<f64>, mut cpu: Vec<f64>) -> Rates {
        let median = |v: &mut Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
        };
        Rates {
            median: median(&mut wall),
            median_cpu: median(&mut cpu),
            low: wall.first().copied().unwrap_or(f64::NAN),
            high: wall.last().copied().unwrap_or(f64::NAN),
        }
    }
}

/// Extract all pages `rounds` times on `threads` threads; pages/s.
fn throughput(
    pages: &[(String, Vec<u8>)],
    opts: &ExtractOptions,
    threads: usize,
    rounds: usize,
) -> f64 {
    let extractor = Extractor::new(opts.clone());
    let total = pages.len() * rounds;
    let next = AtomicUsize::new(0);
    let t0 = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= total {
                    break;
                }
                let a = extract(&extractor, &pages[i % pages.len()].1);
                std::hint::black_box(a);
            });
        }
    });
    total as f64 / t0.elapsed().as_secs_f64()
}

fn slowest(pages: &[(String, Vec<u8>)], opts: &ExtractOptions) -> (Duration, String) {
    let extractor = Extractor::new(opts.clone());
    let mut worst = (Duration::ZERO, String::new());
    for (name, bytes) in pages {
        // Best of 3, so one scheduler hiccup does not count as the page's time.
        let d = (0..3)
            .map(|_| {
                let t = Instant::now();
                std::hint::black_box(extract(&extractor, bytes));
                t.elapsed()
            })
            .min()
            .unwrap_or_default();
        if d > worst.0 {
            worst = (d, name.clone());
        }
    }
    worst
}

fn main() {
    let filter = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let corpus = newshound::corpus_archive::unpacked(
        &root.join("tests/corpus"),
        &root.join("target/corpus"),
    )
    .unwrap_or_else(|e| panic!("the corpus of tests/corpus: {e}"));
    if filter.as_deref() == Some("language") {
        language_check(&corpus, None);
        return;
    }
    if filter.as_deref() == Some("big") {
        big_pages();
        return;
    }
    if filter.as_deref() == Some("steps") {
        step_costs(&corpus);
        return;
    }
    if filter.as_deref() == Some("furniture") {
        furniture_cost(&corpus);
        return;
    }
    if filter.as_deref() == Some("stages") {
        stages(&load(&corpus.join("page-signal-dev")));
        return;
    }
    for set in ["page-signal-dev", "cleaneval-dev", "cleanportaleval"] {
        if filter.as_deref().is_some_and(|f| !set.starts_with(f)) {
            continue;
        }
        let pages = load(&corpus.join(set));
        if pages.is_empty() {
            println!("{set}: no pages at {}", corpus.display());
            continue;
        }
        let mb = pages.iter().map(|p| p.1.len()).sum::<usize>() as f64 / 1e6;
        for alg in [Algorithm::Auto, Algorithm::Td, Algorithm::Ctd] {
            let opts = ExtractOptions {
                algorithm: alg,
                ..ExtractOptions::default()
            };
            throughput(&pages, &opts, 1, 1); // warm-up
            let r = single(&pages, &opts, 7);
            let t2 = throughput(&pages, &opts, 2, 3);
            let (w, name) = slowest(&pages, &opts);
            println!(
                "{set:<16} {alg:<4?} {n} pages {mb:.1} MB: 1 thread {:>5.0} pages/s wall (median of 7 passes, range {:.0}-{:.0}; {:>5.0} per CPU-second), 2 threads {t2:>5.0} pages/s wall; slowest {:.1} ms ({name})",
                r.median,
                r.low,
                r.high,
                r.median_cpu,
                w.as_secs_f64() * 1e3,
                n = pages.len(),
            );
        }
    }
    // The text path alone (decode, strip, parse, select, assemble; no
    // metadata, no language detection) on the main set: what
    // `extract DIR --out DIR2` (plain .txt files) runs per page.
    let pages = load(&corpus.join("page-signal-dev"));
    if !pages.is_empty()
        && filter
            .as_deref()
            .is_none_or(|f| "page-signal-dev".starts_with(f))
    {
        let n = pages.len() as f64;
        let text_only = text_only();
        let mut wall = Vec::new();
        let mut cpu = Vec::new();
        for _ in 0..7 {
            let c0 = thread_cpu();
            let t0 = Instant::now();
            for (_, bytes) in &pages {
                std::hint::black_box(extract(&text_only, bytes));
            }
            wall.push(n / t0.elapsed().as_secs_f64());
            if let (Some(a), Some(b)) = (c0, thread_cpu()) {
                cpu.push(n / (b - a).as_secs_f64());
            }
        }
        let r = Rates::of(wall, cpu);
        println!(
            "page-signal-dev  Auto text only (no metadata/language): 1 thread {:>5.0} pages/s wall (median of 7 passes, range {:.0}-{:.0}; {:>5.0} per CPU-second)",
            r.median, r.low, r.high, r.median_cpu
        );
    }
    language_check(&corpus, filter.as_deref());
    big_pages();
}

/// The steps of the furniture rules (captions, credits, bylines, prompts,
/// link lists, the title line, tag lines, author bios).
const FURNITURE_STEPS: [Step; 8] = [
    Step::Captions,
    Step::Credits,
    Step::Bylines,
    Step::Prompts,
    Step::LinkLists,
    Step::TitleLine,
    Step::TagLines,
    Step::AuthorBios,
];

/// The full path (`auto`, metadata included) with and without the furniture
/// steps, passes interleaved so both see the same machine load: pages per
/// CPU-second of each and their ratio.
fn furniture_cost(corpus: &Path) {
    let with = ExtractOptions::default();
    let without = ExtractOptions {
        ablate: FURNITURE_STEPS
            .iter()
            .fold(Ablations::default(), |a, &s| a.with(s)),
        ..ExtractOptions::default()
    };
    for set in ["readability-dev", "page-signal-dev"] {
        let pages = load(&corpus.join(set));
        if pages.is_empty() {
            continue;
        }
        throughput(&pages, &with, 1, 1); // warm-up
        let (mut on, mut off) = (Vec::new(), Vec::new());
        for _ in 0..5 {
            on.push(single(&pages, &with, 1).median_cpu);
            off.push(single(&pages, &without, 1).median_cpu);
        }
        let median = |v: &mut Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        };
        let (a, b) = (median(&mut on), median(&mut off));
        println!(
            "{set:<16} Auto full path, 1 thread, pages per CPU-second (median of 5 interleaved passes): with furniture steps {a:>5.0}, without {b:>5.0}, ratio {:.3}",
            a / b
        );
    }
}

/// The pathological pages: 20 MB of blocks, 100,000 nested `<div>`s.
fn big_pages() {
    let full = Extractor::default();
    // A 20 MB page: many paragraphs and link lists.
    let mut big = String::from("<html><head><title>Big</title></head><body>");
    let mut k = 0;
    while big.len() < 20_000_000 {
        big.push_str("<div class=item><h2>Heading number one</h2><p>A paragraph of article text, with commas, and a <a href=x>link</a> in it.</p><ul><li><a href=y>nav</a></li><li><a href=z>more nav</a></li></ul></div>\n");
        k += 1;
    }
    // Wall and CPU time: on a shared machine the wall time includes waiting.
    let cpu_ms = |c0: Option<Duration>| match (c0, thread_cpu()) {
        (Some(a), Some(b)) => (b - a).as_secs_f64() * 1e3,
        _ => f64::NAN,
    };
    let (t, c) = (Instant::now(), thread_cpu());
    let a = extract(&full, big.as_bytes());
    println!(
        "20 MB page ({k} blocks): {:.0} ms wall, {:.0} ms CPU, {} chars out",
        t.elapsed().as_secs_f64() * 1e3,
        cpu_ms(c),
        a.text.len()
    );
    let (t, c) = (Instant::now(), thread_cpu());
    let text = extract(&text_only(), big.as_bytes()).text;
    println!(
        "20 MB page, text only: {:.0} ms wall, {:.0} ms CPU, {} chars out",
        t.elapsed().as_secs_f64() * 1e3,
        cpu_ms(c),
        text.len()
    );
    let mut deep = String::from("<html><body>");
    for _ in 0..100_000 {
        deep.push_str("<div>");
    }
    deep.push_str("deep text");
    let t = Instant::now();
    let a = extract(&full, deep.as_bytes());
    println!(
        "100,000 nested divs: {:.0} ms, text {:?}",
        t.elapsed().as_secs_f64() * 1e3,
        a.text
    );
}

/// The language the metadata stage reported before it was tuned for speed:
/// whatlang over the first 2048 bytes of the text.
fn reference_language(text: &str) -> Option<String> {
    let mut end = text.len().min(2048);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let sample = &text[..end];
    if sample.chars().filter(|c| c.is_alphabetic()).count() < 20 {
        return None;
    }
    let info = whatlang::detect(sample)?;
    info.is_reliable().then(|| info.lang().code().to_string())
}

/// Language detection: the reference (see [`reference_language`]) against
/// the language the extraction reports, on every corpus page: agreement,
/// and the CPU time of the reference against that of metadata and language
/// together (the full path less the text path).
fn language_check(corpus: &Path, filter: Option<&str>) {
    let mut pages = Vec::new();
    for set in ["page-signal-dev", "cleaneval-dev", "cleanportaleval"] {
        if filter.is_some_and(|f| !set.starts_with(f)) {
            continue;
        }
        pages.extend(load(&corpus.join(set)));
    }
    if pages.is_empty() {
        return;
    }
    let articles: Vec<_> = pages
        .iter()
        .map(|(_, b)| extract(&Extractor::default(), b))
        .collect();
    let c0 = thread_cpu();
    let mut old: Vec<Option<String>> = Vec::new();
    for _ in 0..3 {
        old = articles
            .iter()
            .map(|a| reference_language(&a.text))
            .collect();
    }
    let old_us = match (c0, thread_cpu()) {
        (Some(a), Some(b)) => (b - a).as_secs_f64() * 1e6 / (3 * pages.len()) as f64,
        _ => f64::NAN,
    };
    let (text_us, full_us) = text_and_full_us(&pages, 1);
    let new: Vec<Option<String>> = articles.into_iter().map(|a| a.language).collect();
    let same = old.iter().zip(&new).filter(|(a, b)| a == b).count();
    println!(
        "language: {same}/{} pages agree with the reference ({:.1} %); reference {old_us:.0} µs per page, metadata and language {:.0} µs per page",
        pages.len(),
        100.0 * same as f64 / pages.len() as f64,
        full_us - text_us
    );
    for (a, b) in old.iter().zip(&new).filter(|(a, b)| a != b).take(10) {
        println!("  reference {a:?}, now {b:?}");
    }
}

/// CPU µs per page of the text path and of the full path (metadata and
/// language too), `rounds` passes over `pages`, interleaved page by page.
fn text_and_full_us(pages: &[(String, Vec<u8>)], rounds: usize) -> (f64, f64) {
    let (text_only, full) = (text_only(), Extractor::default());
    let mut t = [Duration::ZERO; 2];
    for _ in 0..rounds {
        for (_, bytes) in pages {
            for (i, extractor) in [&text_only, &full].into_iter().enumerate() {
                let c0 = thread_cpu();
                std::hint::black_box(extract(extractor, bytes));
                if let (Some(a), Some(b)) = (c0, thread_cpu()) {
                    t[i] += b - a;
                }
            }
        }
    }
    let n = (rounds * pages.len()) as f64;
    (t[0].as_secs_f64() * 1e6 / n, t[1].as_secs_f64() * 1e6 / n)
}

/// `auto` with the six modern-page steps (heading-anchor ids, the declared
/// article's neighbours, galleries, nested sections, interior link lists,
/// the declared main) switched off, all together and one at a time, against the full `auto`, in one run: pages
/// per CPU-second (median of 5 passes) and the ratio to the full path.
fn step_costs(corpus: &Path) {
    let new_steps = [
        Step::SlugIds,
        Step::DeclaredBeside,
        Step::GalleryInBody,
        Step::NestedSections,
        Step::InteriorLinkLists,
        Step::DeclaredMain,
    ];
    let all_off = new_steps
        .iter()
        .fold(Ablations::default(), |a, s| a.with(*s));
    let mut configs = vec![("full auto".to_string(), Ablations::default())];
    configs.push(("all six off".to_string(), all_off));
    for s in new_steps {
        configs.push((format!("{} off", s.name()), Ablations::default().with(s)));
    }
    for set in ["page-signal-dev", "readability-dev"] {
        let pages = load(&corpus.join(set));
        if pages.is_empty() {
            continue;
        }
        let mut full = 0.0;
        for (name, ablate) in &configs {
            let opts = ExtractOptions {
                ablate: *ablate,
                ..ExtractOptions::default()
            };
            throughput(&pages, &opts, 1, 1); // warm-up
            let r = single(&pages, &opts, 5);
            if full == 0.0 {
                full = r.median_cpu;
            }
            println!(
                "{set:<16} {name:<26} {:>6.0} pages per CPU-second ({:>6.0} wall), {:.3} × full",
                r.median_cpu,
                r.median,
                r.median_cpu / full
            );
        }
    }
}

/// CPU time of the text path (decode, strip, parse, select, assemble) and
/// of metadata with language detection (the full path less the text path),
/// over all pages (3 rounds), in µs per page and pages per CPU-second.
fn stages(pages: &[(String, Vec<u8>)]) {
    let (text_us, full_us) = text_and_full_us(pages, 3);
    for (name, us) in [
        ("text path", text_us),
        ("metadata+language", full_us - text_us),
        ("full", full_us),
    ] {
        println!(
            "stage {name:<18} {us:>7.0} µs/page {:>7.0} pages per CPU-second",
            1e6 / us
        );
    }
}
