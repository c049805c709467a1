//! Crawl throughput on the simulated news web (a plain `harness = false` main).
//!
//! In: a simulated web (3 sites; `SITES_ARTICLES` per site, default 200)
//! served on 127.0.0.1, with politeness lifted (the rate is the server's and
//! this machine's, not a politeness setting). Out: pages/s and articles/s of a
//! full one-pass crawl into a temporary database (fetch, discovery,
//! extraction, boilerplate learning, store), and the process's peak RSS.
//! Run: `cargo bench --bench crawl [-- ARTICLES_PER_SITE]`.

use std::path::Path;
use std::time::Instant;

use newshound::config::Config;
use newshound::crawl::{self, CrawlOptions};
use newshound::simweb::{SimWeb, SimWebSpec};
use newshound::store::Store;

fn peak_rss_mb() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<f64>().ok())
        })
        .map_or(0.0, |kb| kb / 1024.0)
}

fn main() {
    let articles: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(200);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let web = SimWeb::start(SimWebSpec {
            sites: 3,
            articles_per_site: articles,
            ..SimWebSpec::default()
        })
        .await
        .expect("simweb");
        let dir = tempfile::tempdir().expect("tempdir");
        let mut cfg =
            Config::parse(&web.config_toml(), Path::new("bench.toml"), dir.path()).expect("config");
        cfg.politeness.rate_per_host = 100_000.0;
        cfg.politeness.per_host_concurrency = 8;
        cfg.crawler.concurrency = 16;
        cfg.crawler.max_pages_per_site = 0;
        let store = Store::open(&dir.path().join("bench.db")).expect("store");
        let started = Instant::now();
        let summary = crawl::run(&cfg, store, CrawlOptions::default(), std::future::pending())
            .await
            .expect("crawl");
        let secs = started.elapsed().as_secs_f64();
        println!("{summary}");
        println!(
            "crawl of 3 × {articles} articles: {:.0} pages/s, {:.0} articles/s, peak RSS {:.1} MB",
            summary.pages_fetched as f64 / secs,
            summary.articles_stored as f64 / secs,
            peak_rss_mb()
        );
    });
}
