//! Pages/s of 1, 2 and 3 crawler processes on one local PostgreSQL, next
//! to one process on SQLite, over the same simulated web (run once, by
//! hand; wall times on a shared machine are noisy, so compare the figures
//! of one run with each other):
//!
//! `cargo test --release --test pg_crawl -- --ignored --nocapture pages_per_second`
//!
//! The same on a slow web, where the network bounds each process (answers
//! take 0.2–0.5 s, so a process's 8 requests in flight make at most 40
//! pages/s whatever its CPU, and the hosts' rate is well above what one
//! process asks): there the processes should add up.
//!
//! `cargo test --release --test pg_crawl -- --ignored --nocapture slow_web`

use std::time::{Duration, Instant};

use newshound::simweb::{Behaviour, SimWebSpec};

use crate::{finish, Setup};

fn spec() -> SimWebSpec {
    SimWebSpec {
        sites: 12,
        articles_per_site: 60,
        seed: 150,
        faults: false,
    }
}

/// CPU seconds (user + system) of this process's children that ended and
/// were waited for (`/proc/self/stat`, fields 16 and 17, in clock ticks of
/// 1/100 s).
fn children_cpu_secs() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").expect("/proc/self/stat");
    // Fields after the command name, which is in parentheses.
    let after = &stat[stat.rfind(')').expect("command name") + 2..];
    let fields: Vec<&str> = after.split(' ').collect();
    // `after` starts at field 3 (state): cutime is field 16, cstime 17.
    let ticks: f64 =
        fields[13].parse::<f64>().expect("cutime") + fields[14].parse::<f64>().expect("cstime");
    ticks / 100.0
}

/// Pages requested (robots.txt left out), seconds from the first
/// process's start to the last one's end, and the crawlers' CPU seconds.
fn run(setup: &Setup, processes: usize, sqlite: bool) -> (usize, f64, f64) {
    let cpu_before = children_cpu_secs();
    let started = Instant::now();
    let children: Vec<_> = (0..processes)
        .map(|_| {
            if sqlite {
                setup.crawl_into(&setup.dir.path().join("bench.db"))
            } else {
                setup.crawl()
            }
        })
        .collect();
    for child in children {
        assert!(finish(child).status.success(), "a crawl failed");
    }
    let secs = started.elapsed().as_secs_f64();
    let pages = setup.requests_by_url().values().sum();
    (pages, secs, children_cpu_secs() - cpu_before)
}

#[test]
#[ignore = "a measurement: run by hand (see the module doc)"]
fn pages_per_second_with_one_two_and_three_processes() {
    let mut lines = Vec::new();
    let setup = Setup::new(spec(), 50.0, "");
    let (pages, secs, cpu) = run(&setup, 1, true);
    lines.push(format!(
        "SQLite, 1 process: {pages} pages in {secs:.2} s = {:.0} pages/s; crawler CPU {cpu:.2} s",
        pages as f64 / secs
    ));
    for n in 1..=3 {
        let setup = Setup::new(spec(), 50.0, "");
        let (pages, secs, cpu) = run(&setup, n, false);
        lines.push(format!(
            "PostgreSQL, {n} process(es): {pages} pages in {secs:.2} s = {:.0} pages/s; \
             crawlers' CPU {cpu:.2} s",
            pages as f64 / secs
        ));
    }
    println!("\n{}", lines.join("\n"));
}

/// 12 sites of 100 articles (about 1,500 pages).
fn slow_spec() -> SimWebSpec {
    SimWebSpec {
        sites: 12,
        articles_per_site: 100,
        seed: 250,
        faults: false,
    }
}

/// Every answer after 0.2–0.5 s, fixed per URL.
fn slow() -> Behaviour {
    Behaviour {
        latency: Duration::from_millis(200),
        latency_spread: Duration::from_millis(300),
        ..Behaviour::default()
    }
}

/// Each host's rate: one process asks a host about 2 pages/s on average
/// (about 23 pages/s over 12 hosts), three about 6; their bursts (4
/// requests in flight per host and process) would go past 12, so the
/// shared turns are what keeps it.
const SLOW_RATE: f64 = 12.0;

#[test]
#[ignore = "a measurement: run by hand (see the module doc)"]
fn slow_web_pages_per_second_with_one_two_and_three_processes() {
    let mut rows = Vec::new();
    let mut one = None;
    for n in 1..=3 {
        let setup = Setup::with_behaviour(slow_spec(), SLOW_RATE, "", slow());
        let (pages, secs, cpu) = run(&setup, n, false);
        // The figures count only for a whole, polite crawl: every article
        // stored once, no page fetched twice but to retry, every host's
        // rate kept by the processes together.
        setup.assert_articles_stored_once();
        setup.assert_requested_twice_only_for_retries(false);
        setup.assert_rate_kept();
        let rate = pages as f64 / secs;
        let base = *one.get_or_insert(rate);
        rows.push(format!(
            "| {n} | {pages} | {secs:.1} | {rate:.1} | {:.2}× | {cpu:.1} |",
            rate / base
        ));
    }
    println!(
        "\n| processes | pages | seconds | pages/s | × one | crawlers' CPU s |\n\
         |---|---|---|---|---|---|\n{}",
        rows.join("\n")
    );
}
