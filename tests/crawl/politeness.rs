//! Politeness measured from the simulated web's request log: per host, the
//! requests in any one-second window never exceed the configured rate (the
//! global default, and a site's own `rate`), even with several requests to
//! the host allowed in flight at once; and, under a loaded crawl (many hosts,
//! fewer fetch slots than they could use, slow answers), never more than
//! `rate` in any second and never a Crawl-delay gap shorter than the delay,
//! counted from the end of the previous response. The web runs on its own
//! runtime so its arrival times are the server's, not the crawler's.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use crate::support::{crawl_into, max_in_window, start_web};
use newshound::config::Config;
use newshound::crawl;
use newshound::simweb::{Behaviour, RequestRecord, SimWeb, SimWebSpec};

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

    let summary = crawl_into(&cfg, &dir.path().join("polite.db")).await;
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

/// A simulated web served by its own runtime on its own thread, so a busy
/// crawler runtime cannot delay the server's clock readings.
struct ServedWeb {
    web: Option<SimWeb>,
    runtime: Option<tokio::runtime::Runtime>,
}

impl ServedWeb {
    fn start(spec: SimWebSpec, behaviour: Behaviour) -> ServedWeb {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("server runtime");
        let web = runtime
            .block_on(SimWeb::start_with(spec, behaviour))
            .expect("simweb starts");
        ServedWeb {
            web: Some(web),
            runtime: Some(runtime),
        }
    }

    fn web(&self) -> &SimWeb {
        self.web.as_ref().expect("web is running")
    }

    fn config(&self, dir: &std::path::Path) -> Config {
        Config::parse(
            &self.web().config_toml(),
            std::path::Path::new("simweb.toml"),
            dir,
        )
        .expect("simweb config parses")
    }

    /// Requests by site, in arrival order.
    fn requests_by_site(&self) -> BTreeMap<String, Vec<RequestRecord>> {
        let mut by_site: BTreeMap<String, Vec<RequestRecord>> = BTreeMap::new();
        for r in self.web().requests() {
            by_site.entry(r.site.clone()).or_default().push(r);
        }
        for list in by_site.values_mut() {
            list.sort_by_key(|r| r.at);
        }
        by_site
    }
}

impl Drop for ServedWeb {
    fn drop(&mut self) {
        // Dropping the web stops its servers; the runtime goes without
        // blocking, so this may run inside the test's runtime.
        drop(self.web.take());
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

/// Busy work on the crawler's runtime: tasks that hold a worker thread for a
/// few milliseconds at a time, as extraction and store replies do in a big
/// crawl.
fn load_the_runtime(stop: std::sync::Arc<std::sync::atomic::AtomicBool>) {
    for _ in 0..4 {
        let stop = stop.clone();
        tokio::spawn(async move {
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(3));
                tokio::task::yield_now().await;
            }
        });
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn regression_rate_turn_taken_before_the_slot_wait_let_a_host_see_three_requests_in_a_second()
{
    let spec = SimWebSpec {
        sites: 12,
        articles_per_site: 6,
        seed: 11,
        faults: false,
    };
    let behaviour = Behaviour {
        latency: Duration::from_millis(300),
        crawl_delay: None,
        ..Behaviour::default()
    };
    // 12 hosts at 2/s with 0.3 s answers could use ~7 slots; 4 means every
    // request waits for a slot after its host's turn came.
    let (served, summary) = crawl_under_load(spec, behaviour, 2.0, 2, 4).await;
    assert!(summary.articles_stored >= 60, "{summary}");

    let mut worst = (0, String::new());
    for (site, list) in served.requests_by_site() {
        let times: Vec<Instant> = list.iter().map(|r| r.at).collect();
        let max = max_in_window(&times, Duration::from_secs(1));
        let shortest = times.windows(2).map(|w| w[1] - w[0]).min();
        println!(
            "{site}: {} requests, max {max} in any 1 s, shortest gap {shortest:?}",
            times.len()
        );
        if max > worst.0 {
            worst = (max, site);
        }
    }
    assert!(
        worst.0 <= 2,
        "{}: {} requests within 1 s at 2/s",
        worst.1,
        worst.0
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn regression_crawl_delay_counted_from_the_send_let_requests_follow_slow_responses_too_closely(
) {
    let spec = SimWebSpec {
        sites: 6,
        articles_per_site: 4,
        seed: 12,
        faults: false,
    };
    let delay = Duration::from_millis(500);
    let behaviour = Behaviour {
        latency: Duration::from_millis(250),
        crawl_delay: Some(delay.as_secs_f64()),
        ..Behaviour::default()
    };
    let (served, summary) = crawl_under_load(spec, behaviour, 20.0, 4, 3).await;
    assert!(summary.articles_stored >= 20, "{summary}");

    for (site, list) in served.requests_by_site() {
        // From the end of each response to the arrival of the next request.
        let gaps: Vec<Duration> = list
            .windows(2)
            .map(|w| w[1].at.saturating_duration_since(w[0].answered))
            .collect();
        let shortest = gaps.iter().min().copied().unwrap_or(Duration::MAX);
        println!(
            "{site}: {} requests, shortest gap after a response {shortest:?}",
            list.len()
        );
        assert!(
            shortest >= delay,
            "{site}: a request came {shortest:?} after the previous response; Crawl-delay is {delay:?}"
        );
    }
}

/// Serve `spec` with `behaviour` on its own runtime and crawl it with the
/// given rate and concurrency while [`load_the_runtime`] keeps the crawler's
/// runtime busy. Returns the web (its request log) and the summary.
async fn crawl_under_load(
    spec: SimWebSpec,
    behaviour: Behaviour,
    rate_per_host: f64,
    per_host_concurrency: usize,
    concurrency: usize,
) -> (ServedWeb, crawl::CrawlSummary) {
    let served = tokio::task::spawn_blocking(move || ServedWeb::start(spec, behaviour))
        .await
        .expect("server thread");
    let dir = tempfile::tempdir().expect("tempdir");
    let mut cfg = served.config(dir.path());
    crate::support::set_rate_per_host(&mut cfg, rate_per_host);
    cfg.politeness.per_host_concurrency = per_host_concurrency;
    cfg.crawler.concurrency = concurrency;
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    load_the_runtime(stop.clone());
    let summary = crawl_into(&cfg, &dir.path().join("crawl.db")).await;
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    println!("{summary}");
    (served, summary)
}
