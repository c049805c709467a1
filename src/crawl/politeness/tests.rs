//! Politeness: spacing, caps, pauses, parking, eviction.

use std::time::{Duration, Instant};

use super::*;

fn polite(rate: f64, per_host: usize) -> Politeness {
    let p = PolitenessConfig {
        rate_per_host: rate,
        per_host_concurrency: per_host,
        respect_robots: true,
        max_crawl_delay: Duration::from_secs(30),
    };
    Politeness::new(&p, &FetchConfig::default())
}

#[tokio::test]
async fn concurrent_waiters_never_exceed_the_host_rate() {
    let rate = 20.0;
    let p = Arc::new(polite(rate, 4));
    let mut tasks = Vec::new();
    for _ in 0..4 {
        let p = p.clone();
        tasks.push(tokio::spawn(async move {
            let mut stamps = Vec::new();
            for _ in 0..4 {
                p.wait_turn("a.example:1").await;
                stamps.push(Instant::now());
            }
            stamps
        }));
    }
    let mut stamps = Vec::new();
    for t in tasks {
        stamps.extend(t.await.unwrap());
    }
    stamps.sort();
    let n = stamps.len();
    let span = stamps[n - 1] - stamps[0];
    // Scheduling noise only delays; one period of slack covers a late first stamp.
    let min_span = Duration::from_secs_f64((n - 2) as f64 / rate);
    assert!(span >= min_span, "{n} turns in {span:?} at {rate}/s");
}

#[tokio::test]
async fn hosts_have_independent_limiters() {
    let p = polite(0.5, 1);
    p.wait_turn("a:1").await;
    let ready = |h: &str| p.with_host(h, |s| s.limiter.check().is_ok());
    // a:1 used its turn; a different host is not held back by a:1's period.
    assert!(!ready("a:1"));
    assert!(ready("b:2"));
    assert_eq!(p.hosts_tracked(), 2);
}

#[test]
fn crawl_delay_lowers_the_rate_and_is_capped() {
    let p = polite(10.0, 1);
    p.set_crawl_delay("h", 0.5);
    assert_eq!(p.rate("h"), 2.0);
    // The robots.txt request just made counts: no turn is free at once.
    assert!(p.with_host("h", |s| s.limiter.check().is_err()));
    p.set_crawl_delay("h2", 1000.0);
    assert!((p.rate("h2") - 1.0 / 30.0).abs() < 1e-9);
    // A delay shorter than the configured period never speeds a host up.
    p.set_crawl_delay("h3", 0.01);
    assert_eq!(p.rate("h3"), 10.0);
}

#[test]
fn site_rate_overrides_the_default() {
    let text = "[politeness]\nrate_per_host = 5.0\n[[sites]]\nname = \"s\"\nstart = [\"http://127.0.0.1:9/\"]\nrate = 2.5\n";
    let cfg = Config::parse(
        text,
        std::path::Path::new("t.toml"),
        std::path::Path::new("."),
    )
    .unwrap();
    let p = Politeness::for_config(&cfg);
    assert_eq!(p.rate("127.0.0.1:9"), 2.5);
    assert_eq!(p.rate("127.0.0.1:10"), 5.0);
}

#[test]
fn per_host_concurrency_is_capped() {
    let p = polite(1.0, 2);
    let a = p.try_permit("h").unwrap();
    let _b = p.try_permit("h").unwrap();
    assert!(p.try_permit("h").is_none());
    assert!(p.try_permit("other").is_some());
    drop(a);
    assert!(p.try_permit("h").is_some());
}

#[test]
fn repeated_failures_park_the_host_and_parks_grow() {
    let p = polite(1.0, 2);
    for _ in 0..PARK_AFTER - 1 {
        assert_eq!(p.record_failure("h"), None);
    }
    let first = p.record_failure("h").unwrap();
    assert!(p.blocked_until("h").is_some());
    assert!(p.try_permit("h").is_none());
    for _ in 0..PARK_AFTER - 1 {
        p.record_failure("h");
    }
    let second = p.record_failure("h").unwrap();
    assert_eq!(second, first * 2);
    // A success resets the count, not a park already in force.
    p.record_success("h");
    assert_eq!(p.record_failure("h"), None);
}

#[test]
fn retry_after_pauses_the_whole_host() {
    let p = polite(1.0, 2);
    p.pause("h", Duration::from_secs(60));
    assert!(p.try_permit("h").is_none());
    assert!(p.blocked_until("h").unwrap() > Instant::now() + Duration::from_secs(50));
    assert!(p.try_permit("other").is_some());
}

#[test]
fn idle_hosts_are_evicted_beyond_the_bound() {
    let mut p = polite(1.0, 1);
    p.max_hosts = 10;
    let held = p.try_permit("busy").unwrap();
    for i in 0..50 {
        p.rate(&format!("h{i}"));
    }
    assert!(p.hosts_tracked() <= 10, "{}", p.hosts_tracked());
    // The host with a permit out was never evicted: its cap still holds.
    assert!(p.try_permit("busy").is_none());
    drop(held);
}
