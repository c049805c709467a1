//! What each zstd level costs and saves on kept pages (`[store] keep_html`):
//! `cargo bench --bench crawl -- --zstd-levels`.
//!
//! In: the article pages of the small-page web (5 × 1000) and of the
//! large-page web (4 × 300), an even sample of ≤ 600 each, rendered by the
//! simulated web without HTTP. Out, printed per web and level: the
//! compression ratio (raw bytes / compressed bytes over the sample) and the
//! CPU µs per page of compressing (this thread's CPU clock, so the
//! machine's other load does not count) and of decompressing.

use newshound::simweb::{Behaviour, SimWeb, SimWebSpec};

use crate::measure::thread_cpu;
use crate::SEED;

/// Levels compared: zstd's fast negative levels, then 1–3 (3 is zstd's
/// default and was ours).
const LEVELS: [i32; 7] = [-5, -3, -1, 1, 2, 3, 6];
/// Article pages sampled per web, at most.
const SAMPLE: usize = 600;
/// Passes over the sample per level (the thread clock ticks in 10 ms).
const PASSES: usize = 3;

/// Print ratio and CPU per page for every level on both webs.
pub fn run(rt: &tokio::runtime::Runtime) -> Result<(), String> {
    for (sites, articles, large) in [(5, 1000, false), (4, 300, true)] {
        let spec = SimWebSpec {
            sites,
            articles_per_site: articles,
            seed: SEED,
            faults: false,
        };
        let behaviour = Behaviour {
            large_pages: large,
            ..Behaviour::default()
        };
        let web = rt
            .block_on(SimWeb::start_with(spec, behaviour))
            .map_err(|e| format!("simweb: {e}"))?;
        let urls: Vec<&url::Url> = web
            .sites()
            .iter()
            .flat_map(|s| s.article_urls.iter())
            .collect();
        let stride = urls.len().div_ceil(SAMPLE).max(1);
        let pages: Vec<Vec<u8>> = urls
            .into_iter()
            .step_by(stride)
            .filter_map(|u| web.page_html(u))
            .map(String::into_bytes)
            .collect();
        rt.block_on(web.shutdown());
        let raw: usize = pages.iter().map(Vec::len).sum();
        let label = if large { "4x300-large" } else { "5x1000" };
        println!(
            "kept pages {label}: {} pages, mean {:.1} KB",
            pages.len(),
            raw as f64 / pages.len().max(1) as f64 / 1024.0
        );
        for level in LEVELS {
            let (ratio, compress_us, decompress_us) = measure(&pages, level)?;
            let reused_us = measure_reused(&pages, level)?;
            println!(
                "  zstd level {level:>2}: ratio {ratio:.2}x, compress {compress_us:.0} µs/page \
                 ({reused_us:.0} with one context), decompress {decompress_us:.0} µs/page"
            );
        }
    }
    Ok(())
}

/// (ratio, compress µs per page, decompress µs per page) at `level`.
fn measure(pages: &[Vec<u8>], level: i32) -> Result<(f64, f64, f64), String> {
    let fail = |e: std::io::Error| format!("zstd level {level}: {e}");
    let mut compressed = Vec::with_capacity(pages.len());
    let t0 = thread_cpu();
    for pass in 0..PASSES {
        for page in pages {
            let c = zstd::bulk::compress(page, level).map_err(fail)?;
            if pass == 0 {
                compressed.push(c);
            }
        }
    }
    let compress = thread_cpu() - t0;
    let t0 = thread_cpu();
    let mut back = 0usize;
    for _ in 0..PASSES {
        for (c, page) in compressed.iter().zip(pages) {
            back += zstd::bulk::decompress(c, page.len()).map_err(fail)?.len();
        }
    }
    let decompress = thread_cpu() - t0;
    std::hint::black_box(back);
    let raw: usize = pages.iter().map(Vec::len).sum();
    let packed: usize = compressed.iter().map(Vec::len).sum();
    let per_page = |s: f64| s * 1e6 / (pages.len() * PASSES).max(1) as f64;
    Ok((
        raw as f64 / packed.max(1) as f64,
        per_page(compress),
        per_page(decompress),
    ))
}

/// Compress µs per page at `level` with one compression context for all
/// pages (`zstd::bulk::compress` makes a new one per call).
fn measure_reused(pages: &[Vec<u8>], level: i32) -> Result<f64, String> {
    let fail = |e: std::io::Error| format!("zstd level {level}: {e}");
    let mut compressor = zstd::bulk::Compressor::new(level).map_err(fail)?;
    let mut packed = 0usize;
    let t0 = thread_cpu();
    for _ in 0..PASSES {
        for page in pages {
            packed += compressor.compress(page).map_err(fail)?.len();
        }
    }
    let cpu = thread_cpu() - t0;
    std::hint::black_box(packed);
    Ok(cpu * 1e6 / (pages.len() * PASSES).max(1) as f64)
}
