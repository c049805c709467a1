//! Politeness measured from the simulated web's request log: per host, the
//! requests in any one-second window never exceed the configured rate (the
//! global default, and a site's own `rate`), even with several requests to
//! the host allowed in flight at once.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use crate::support::{max_in_window, start_web};
use newshound::crawl::{self, CrawlOptions};
use newshound::simweb::SimWebSpec;
use newshound::store::Store;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn observed_rate_per_host_never_exceeds_the_configured_rate() {
    let spec = SimWebSpec {
        sites: 2,
        articles_per_site: 12,
        seed: 3,
        faults: false,
    };
    let (web, dir, mut cfg) = start_web(spec).await;
    // Slow enough that a crawl of a site spans several seconds, with more
    // requests allowed in flight per host than the rate would need.
    crate::support::set_rate_per_host(&mut cfg, 10.0);
    cfg.politeness.per_host_concurrency = 4;
    cfg.crawler.concurrency = 8;
    cfg.sites[1].rate = 5.0;
    let rates: BTreeMap<String, f64> = cfg.sites.iter().map(|s| (s.name.clone(), s.rate)).collect();

    let store = Store::open(&dir.path().join("polite.db")).expect("open store");
    let summary = crawl::run(&cfg, store, CrawlOptions::default(), std::future::pending())
        .await
        .expect("crawl runs");
    println!("{summary}");
    assert!(summary.articles_stored >= 24, "{summary}");

    let mut times: BTreeMap<String, Vec<Instant>> = BTreeMap::new();
    for r in web.requests() {
        times.entry(r.site).or_default().push(r.at);
    }
    for (site, mut t) in times {
        t.sort();
        let rate = rates[&site];
        let max = max_in_window(&t, Duration::from_secs(1));
        let span = (t[t.len() - 1] - t[0]).as_secs_f64();
        let mean = (t.len() - 1) as f64 / span;
        println!(
            "{site}: {} requests in {span:.2} s, mean {mean:.2}/s, max {max} in any 1 s; configured {rate}/s",
            t.len()
        );
        // The limiter spaces requests ≥ 1/rate apart as they leave; arrival
        // jitter can pull one more into a window, hence + 1 beyond the burst.
        assert!(
            max as f64 <= rate + 2.0,
            "{site}: {max} requests in 1 s at {rate}/s"
        );
        // Over the whole crawl the mean is at most the rate (one period of
        // slack for the first request).
        assert!(
            (t.len() - 2) as f64 / span <= rate,
            "{site}: mean {mean:.2}/s over {rate}/s"
        );
    }
}
