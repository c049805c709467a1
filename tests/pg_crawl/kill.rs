//! One of three crawler processes killed with -9 mid-crawl: the other two
//! take over its URLs when its lease ends and finish the crawl, and the
//! learning counts agree with the stored articles.

use std::time::Duration;

use newshound::simweb::SimWebSpec;
use newshound::store::pg::PgStore;

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
    // The schema first, so the victim's leases can be read from the start.
    drop(PgStore::open(&setup.db.url).expect("migrate"));
    let mut victim = setup.crawl();
    let victim_pid = victim.id();
    // Mid-crawl, holding claims: the victim starts first and claims, the
    // others join, and the victim dies once all three crawl (polled from
    // the database, so a slow start on a loaded machine does not matter).
    let mut client = postgres::Client::connect(&setup.db.url, postgres::NoTls).expect("connect");
    let victim_mark = format!(":{victim_pid}:");
    let held_by_victim = |client: &mut postgres::Client| -> i64 {
        client
            .query_one(
                "SELECT count(*) FROM urls
                 WHERE state = 'fetching' AND leased_by LIKE '%' || $1 || '%'",
                &[&victim_mark],
            )
            .expect("victim's leases")
            .get(0)
    };
    let mut wait_until_victim_holds = |at_least: i64| {
        for _ in 0..600 {
            if held_by_victim(&mut client) >= at_least {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("the victim never held {at_least} URLs");
    };
    wait_until_victim_holds(3);
    let others: Vec<_> = (0..2).map(|_| setup.crawl()).collect();
    std::thread::sleep(Duration::from_secs(1));
    wait_until_victim_holds(1);
    victim.kill().expect("kill -9");
    let _ = victim.wait();
    let held = held_by_victim(&mut client);
    println!("the victim held {held} URLs when killed");
    assert!(held > 0, "the victim's claims vanished with it");
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
    // lease ended, a survivor fetched it again), or an attempt failed.
    setup.assert_requested_twice_only_for_retries(true);
    setup.assert_rate_kept();
    setup.assert_articles_stored_once();
    // Killed mid-batch or not, the victim left no count without its
    // article (a site's counts commit with its articles).
    setup.assert_counts_agree_with_articles();
}
