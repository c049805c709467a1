//! The crawl against every fault mode of the simulated web: it must finish
//! (bounded by timeouts), count each failure by kind, store nothing broken,
//! and stay out of a host whose robots.txt answers 500.

use std::collections::HashMap;
use std::time::Duration;

use crate::support::start_web;
use newshound::crawl::{self, CrawlOptions};
use newshound::simweb::SimWebSpec;
use newshound::store::AnyStore;
use newshound::store::Store;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_fault_is_counted_and_none_wedges_the_crawl() {
    let spec = SimWebSpec {
        sites: 1,
        articles_per_site: 10,
        seed: 5,
        faults: true,
    };
    let (web, dir, cfg) = start_web(spec).await;
    let db = dir.path().join("faults.db");
    let store = Store::open(&db).expect("open store");
    let run = crawl::run(
        &cfg,
        AnyStore::from(store),
        CrawlOptions::default(),
        std::future::pending(),
    );
    // Generous bound: the slowest fault (the drip) is cut by the 1 s read timeout.
    let summary = tokio::time::timeout(Duration::from_secs(120), run)
        .await
        .expect("the crawl finishes")
        .expect("the crawl runs");
    println!("{summary}");

    for kind in [
        "timeout",          // slow drip
        "reset",            // connection cut mid-body
        "http_5xx",         // 500 storm, 503 with Retry-After
        "redirect_loop",    // loop-a ↔ loop-b
        "too_large",        // 30 MiB page, gzip bomb
        "bad_content_type", // HTML labelled image/png, a PDF
        "binary",           // PNG labelled text/html
        "robots_fetch",     // robots.txt 500
    ] {
        assert!(
            summary.errors.get(kind).copied().unwrap_or(0) > 0,
            "no {kind} counted: {:?}",
            summary.errors
        );
    }

    assert!(
        summary
            .skipped
            .get("robots_unavailable")
            .copied()
            .unwrap_or(0)
            > 0,
        "{summary}"
    );
    let requests = web.requests();
    let mut per_path: HashMap<(&str, &str), usize> = HashMap::new();
    for r in &requests {
        *per_path.entry((&r.site, &r.path)).or_default() += 1;
    }
    // The robots-500 site: only robots.txt was asked for, and not hammered.
    let robots_fail: Vec<_> = requests
        .iter()
        .filter(|r| r.site == "faults-robots")
        .collect();
    assert!(!robots_fail.is_empty(), "faults-robots never contacted");
    assert!(
        robots_fail.iter().all(|r| r.path == "/robots.txt"),
        "pages fetched despite robots.txt 500: {robots_fail:?}"
    );
    assert!(
        robots_fail.len() <= 2,
        "robots.txt retried {} times",
        robots_fail.len()
    );
    // Retries are bounded (retries = 1 in the simweb config).
    for path in [
        "/fault/storm-1.html",
        "/fault/busy.html",
        "/fault/slow-drip.html",
    ] {
        let n = per_path.get(&("faults", path)).copied().unwrap_or(0);
        assert!((1..=2).contains(&n), "{path} requested {n} times");
    }
    // Retry-After (1 s) obeyed: the retry of the busy page came no sooner.
    let busy: Vec<_> = requests
        .iter()
        .filter(|r| r.site == "faults" && r.path == "/fault/busy.html")
        .map(|r| r.at)
        .collect();
    if let [first, second] = busy[..] {
        let gap = second.duration_since(first);
        println!("busy page retried after {gap:?} (Retry-After: 1)");
        assert!(gap >= Duration::from_secs(1), "retried after {gap:?}");
    }
    // Traps are cut off: the calendar by the trap guard, `/trap/N` (each page
    // links N+1 and N+2) by the depth limit, which allows at most about two
    // trap pages per level of depth.
    let calendar = requests
        .iter()
        .filter(|r| r.path.starts_with("/calendar"))
        .count();
    let traps = requests
        .iter()
        .filter(|r| r.path.starts_with("/trap/"))
        .count();
    println!("trap requests: {traps}, calendar requests: {calendar}");
    assert!(calendar <= 1, "{calendar} calendar pages fetched");
    let bound = 2 * cfg.crawler.max_depth as usize + 1;
    assert!(traps <= bound, "{traps} trap pages fetched (bound {bound})");

    // Nothing broken was stored: no fault page other than the lying charset.
    let mut store = AnyStore::from(Store::open(&db).expect("reopen"));
    let mut stored = Vec::new();
    store
        .export(&newshound::store::Selection::site("faults"), &mut |a| {
            stored.push(a.clone());
            Ok(())
        })
        .expect("export");
    for a in &stored {
        let path = url::Url::parse(&a.url)
            .expect("stored URL")
            .path()
            .to_string();
        assert!(
            !path.starts_with("/fault/") || path == newshound::simweb::faults::LYING_CHARSET_PATH,
            "fault page stored: {}",
            a.url
        );
    }
    // The GBK page declared UTF-8 is decoded correctly.
    let lying = stored
        .iter()
        .find(|a| {
            a.url
                .ends_with(newshound::simweb::faults::LYING_CHARSET_PATH)
        })
        .expect("lying-charset page stored");
    let gold = web.true_body(&lying.url).expect("true body");
    let f1 = newshound::eval::score(&lying.article.text, gold).f1;
    println!("lying charset page F1 {f1:.3}");
    assert!(f1 >= 0.8, "lying charset page F1 {f1:.3}");
}
