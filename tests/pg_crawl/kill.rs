//! One of three crawler processes killed with -9 mid-crawl: the other two
//! take over its URLs when its lease ends and finish the crawl.

use std::collections::HashSet;
use std::time::Duration;

use newshound::simweb::SimWebSpec;

use crate::{finish, Setup};

#[test]
fn a_process_killed_mid_crawl_leaves_its_share_to_the_others() {
    let spec = SimWebSpec {
        sites: 2,
        articles_per_site: 16,
        seed: 16,
        faults: false,
    };
    let setup = Setup::new(spec, 5.0, "[store]\nlease_seconds = 5");
    let mut victim = setup.crawl();
    let victim_pid = victim.id();
    let others: Vec<_> = (0..2).map(|_| setup.crawl()).collect();
    // Mid-crawl: the frontier is full, the victim holds claims.
    std::thread::sleep(Duration::from_millis(2500));
    victim.kill().expect("kill -9");
    let _ = victim.wait();
    let mut client = postgres::Client::connect(&setup.db.url, postgres::NoTls).expect("connect");
    let victim_mark = format!(":{victim_pid}:");
    let held: i64 = client
        .query_one(
            "SELECT count(*) FROM urls WHERE state = 'fetching' AND leased_by LIKE '%' || $1 || '%'",
            &[&victim_mark],
        )
        .expect("victim's leases")
        .get(0);
    println!("the victim held {held} URLs when killed");
    assert!(
        held > 0,
        "the victim held nothing: the kill came too late or too early"
    );
    for child in others {
        let out = finish(child);
        assert!(out.status.success(), "a surviving crawl failed");
    }

    let (_, states) = setup.stored();
    println!("frontier: {states:?}");
    assert_eq!(states.get("fetching"), None, "URLs left in flight");
    assert_eq!(states.get("queued"), None, "URLs never fetched");
    let requested = setup.requests_by_url();
    for article in setup.article_paths() {
        assert!(
            requested.contains_key(&article),
            "{article:?} never requested"
        );
    }
    // A URL requested twice: the victim's request was never recorded (its
    // lease ended, a survivor fetched it again). So each was recorded once,
    // by a survivor.
    let twice: HashSet<&(String, String)> = requested
        .iter()
        .filter(|(_, &n)| n > 1)
        .map(|(k, _)| k)
        .collect();
    println!("requested twice: {}", twice.len());
    for (site, path) in &twice {
        let rows = client
            .query(
                "SELECT f.fetched_by FROM fetches f JOIN urls u ON u.id = f.url_id
                 WHERE u.url LIKE '%' || $1 AND NOT f.skipped",
                &[path],
            )
            .expect("fetch log");
        let by: Vec<String> = rows.iter().map(|r| r.get(0)).collect();
        assert_eq!(by.len(), 1, "{site}{path}: fetched by {by:?}");
        assert!(!by[0].contains(&victim_mark), "{site}{path}: {by:?}");
    }
    setup.assert_rate_kept();
    setup.assert_articles_stored_once();
}
