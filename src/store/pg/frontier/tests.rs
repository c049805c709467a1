//! The shared frontier against a real server: claims of concurrent
//! processes, leases, this process's reset, write batches, host turns.

use std::collections::HashSet;
use std::time::Duration;

use crate::store::pg::testing::TestDb;
use crate::store::pg::{PgStore, Turn};
use crate::store::portable::requeue::{lift_waits, outlook, requeue_failed, requeue_refused};
use crate::store::{ClaimFilter, FetchRecord, NewUrl, NextState, UrlKind, WriteOp, WriteOutcome};

/// `n` article URLs spread over `hosts` hosts of one site.
fn urls(n: usize, hosts: usize) -> Vec<NewUrl> {
    (0..n)
        .map(|i| NewUrl {
            url: format!("http://h{}.test/a/{i}", i % hosts),
            site: "s".into(),
            kind: UrlKind::Article,
            depth: 1,
            priority: 0,
        })
        .collect()
}

fn store_with(db: &TestDb, n: usize, hosts: usize) -> PgStore {
    let mut s = PgStore::open(&db.url).expect("open");
    let out = s
        .write_batch(vec![WriteOp::AddUrls(urls(n, hosts))])
        .expect("add");
    assert_eq!(out, vec![WriteOutcome::UrlsAdded(n)]);
    s
}

fn claim_all(s: &mut PgStore) -> Vec<i64> {
    s.claim_due_for(i64::MAX / 2, 10_000, &ClaimFilter::default())
        .expect("claim")
        .iter()
        .map(|q| q.id)
        .collect()
}

fn owners(s: &mut PgStore) -> Vec<(String, Option<String>)> {
    s.client()
        .query("SELECT state, leased_by FROM urls ORDER BY id", &[])
        .expect("read")
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect()
}

#[test]
fn concurrent_claimers_never_share_a_url() {
    let db = TestDb::new();
    drop(store_with(&db, 300, 6));
    let claimers: Vec<_> = (0..4)
        .map(|_| {
            let url = db.url.clone();
            std::thread::spawn(move || {
                let mut s = PgStore::open(&url).expect("open");
                let filter = ClaimFilter {
                    per_host: 3,
                    ..ClaimFilter::default()
                };
                let mut mine = Vec::new();
                loop {
                    let got = s.claim_due_for(i64::MAX / 2, 7, &filter).expect("claim");
                    if got.is_empty() {
                        return mine;
                    }
                    mine.extend(got.iter().map(|q| q.id));
                }
            })
        })
        .collect();
    let mut all = Vec::new();
    for c in claimers {
        all.extend(c.join().expect("claimer"));
    }
    let distinct: HashSet<i64> = all.iter().copied().collect();
    assert_eq!(distinct.len(), all.len(), "a URL was claimed twice");
    assert_eq!(all.len(), 300, "every URL claimed once");
}

#[test]
fn a_claim_keeps_the_per_host_cap_and_takes_hosts_round_robin() {
    let db = TestDb::new();
    let mut s = store_with(&db, 40, 4);
    let filter = ClaimFilter {
        per_host: 2,
        skip_hosts: ["h3.test".to_string()].into_iter().collect(),
        ..ClaimFilter::default()
    };
    let got = s.claim_due_for(i64::MAX / 2, 100, &filter).expect("claim");
    let hosts: Vec<&str> = got.iter().map(|q| q.host.as_str()).collect();
    // Round-robin over h0, h1, h2 (each host's best first is its oldest),
    // two each, h3 skipped.
    assert_eq!(
        hosts,
        ["h0.test", "h1.test", "h2.test", "h0.test", "h1.test", "h2.test"]
    );
}

#[test]
fn a_live_lease_is_not_claimable_and_an_expired_one_is() {
    let db = TestDb::new();
    let mut a = store_with(&db, 20, 2);
    let mut b = PgStore::open(&db.url).expect("open b");
    assert_eq!(claim_all(&mut a).len(), 20);
    assert!(claim_all(&mut b).is_empty(), "b took a's live leases");
    assert!(b.held_elsewhere(None).expect("held").is_some());
    assert_eq!(a.held_elsewhere(None).expect("held"), None, "a's own");

    // A process whose lease is zero "dies" at once: its claims end.
    let mut c = store_with(&db, 0, 1);
    c.set_lease(Duration::ZERO);
    c.client()
        .execute("UPDATE urls SET state = 'queued', leased_by = NULL", &[])
        .expect("requeue");
    let taken = claim_all(&mut c);
    assert_eq!(taken.len(), 20);
    std::thread::sleep(Duration::from_millis(5));
    assert_eq!(
        b.next_due_at_for(None).expect("due"),
        Some(0),
        "ended leases are due"
    );
    let retaken = claim_all(&mut b);
    assert_eq!(retaken.len(), 20, "b takes over the ended leases");
    let owner_b = b.owner().to_string();
    assert!(owners(&mut b)
        .iter()
        .all(|(state, by)| state == "fetching" && by.as_deref() == Some(&owner_b)));
}

#[test]
fn reset_in_flight_leaves_other_processes_leases_alone() {
    let db = TestDb::new();
    let mut a = store_with(&db, 10, 1);
    let mut b = PgStore::open(&db.url).expect("open b");
    let one = ClaimFilter::default();
    assert_eq!(a.claim_due_for(i64::MAX / 2, 4, &one).expect("a").len(), 4);
    assert_eq!(b.claim_due_for(i64::MAX / 2, 3, &one).expect("b").len(), 3);
    assert_eq!(a.reset_in_flight().expect("reset"), 4);
    let owner_b = b.owner().to_string();
    let rows = owners(&mut a);
    let fetching: Vec<_> = rows.iter().filter(|(s, _)| s == "fetching").collect();
    assert_eq!(fetching.len(), 3);
    assert!(fetching
        .iter()
        .all(|(_, by)| by.as_deref() == Some(&owner_b)));
    assert_eq!(
        rows.iter()
            .filter(|(s, by)| s == "queued" && by.is_none())
            .count(),
        7
    );
}

#[test]
fn a_fetch_record_ends_the_lease_and_names_the_process() {
    let db = TestDb::new();
    let mut a = store_with(&db, 2, 1);
    let ids = claim_all(&mut a);
    let rec = FetchRecord {
        url_id: ids[0],
        started_at: 1_000,
        status: Some(200),
        error_kind: None,
        bytes: 10,
        elapsed_ms: 3,
        final_url: None,
        content_type: Some("text/html".into()),
        etag: None,
        last_modified: None,
        next: NextState::Done,
        judgement: None,
        refused_under: None,
        note: None,
    };
    a.write_batch(vec![WriteOp::Fetched(rec)]).expect("write");
    let row = a
        .client()
        .query_one(
            "SELECT u.state, u.leased_by, u.lease_until, f.fetched_by
             FROM urls u JOIN fetches f ON f.url_id = u.id WHERE u.id = $1",
            &[&ids[0]],
        )
        .expect("read");
    assert_eq!(row.get::<_, String>(0), "done");
    assert_eq!(row.get::<_, Option<String>>(1), None);
    assert_eq!(row.get::<_, Option<i64>>(2), None);
    assert_eq!(row.get::<_, Option<String>>(3).as_deref(), Some(a.owner()));
}

#[test]
fn the_per_site_url_cap_holds_for_new_urls() {
    let db = TestDb::new();
    let mut a = PgStore::open(&db.url).expect("open");
    a.set_max_urls_per_site(5);
    let out = a
        .write_batch(vec![WriteOp::AddUrls(urls(8, 2))])
        .expect("add");
    assert_eq!(out, vec![WriteOutcome::UrlsAdded(5)]);
    let out = a
        .write_batch(vec![WriteOp::AddUrls(urls(9, 3))])
        .expect("add");
    assert_eq!(out, vec![WriteOutcome::UrlsAdded(0)]);
}

#[test]
fn a_hosts_turn_is_taken_once_for_every_process() {
    let db = TestDb::new();
    let store = PgStore::open(&db.url).expect("open");
    let (at_one, at_two) = (store.host_turns(), store.host_turns());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        let one = at_one.connect().await.expect("connect one");
        let two = at_two.connect().await.expect("connect two");
        let spacing = Duration::from_secs(60);
        assert_eq!(one.take("h:1", spacing).await.expect("take"), Turn::Taken);
        match two.take("h:1", spacing).await.expect("take") {
            Turn::NotFor(wait) => assert!(wait > Duration::from_secs(50), "{wait:?}"),
            Turn::Taken => panic!("two processes took the same turn"),
        }
        // Another host has a turn of its own.
        assert_eq!(two.take("h:2", spacing).await.expect("take"), Turn::Taken);
    });
}

#[test]
fn regression_a_url_in_flight_without_a_lease_was_never_claimed_again() {
    // As `copy` brings it from a SQLite crawl that was stopped mid-way.
    let db = TestDb::new();
    let mut a = store_with(&db, 3, 1);
    a.client()
        .execute("UPDATE urls SET state = 'fetching'", &[])
        .expect("in flight, no lease");
    assert_eq!(a.next_due_at_for(None).expect("due"), Some(0));
    assert_eq!(claim_all(&mut a).len(), 3);
}

#[test]
fn a_page_judgement_is_kept_with_its_fetch() {
    let db = TestDb::new();
    let mut a = store_with(&db, 2, 1);
    let ids = claim_all(&mut a);
    let judged = [
        crate::store::PageJudgement {
            article: false,
            reason: "teaser_list",
            kind: None,
        },
        crate::store::PageJudgement {
            article: true,
            reason: "declared_news_article",
            kind: None,
        },
    ];
    let ops = ids
        .iter()
        .zip(judged)
        .map(|(&url_id, j)| {
            WriteOp::Fetched(FetchRecord {
                url_id,
                started_at: 1_000,
                status: Some(200),
                error_kind: None,
                bytes: 10,
                elapsed_ms: 3,
                final_url: None,
                content_type: Some("text/html".into()),
                etag: None,
                last_modified: None,
                next: NextState::Done,
                judgement: Some(j),
                refused_under: None,
                note: None,
            })
        })
        .collect();
    a.write_batch(ops).expect("write");
    let rows: Vec<(String, String)> = a
        .client()
        .query(
            "SELECT judged, judge_reason FROM fetches ORDER BY url_id",
            &[],
        )
        .expect("read")
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect();
    assert_eq!(
        rows,
        [
            ("not_article".to_string(), "teaser_list".to_string()),
            ("article".to_string(), "declared_news_article".to_string())
        ]
    );
}

/// A failed fetch of `id` refused under `under`.
fn refused(id: i64, reason: &str, under: Option<&str>) -> WriteOp {
    WriteOp::Fetched(FetchRecord {
        url_id: id,
        started_at: 1_000,
        status: None,
        error_kind: Some(reason.into()),
        bytes: 0,
        elapsed_ms: 1,
        final_url: None,
        content_type: None,
        etag: None,
        last_modified: None,
        next: NextState::Failed,
        refused_under: under.map(String::from),
        judgement: None,
        note: None,
    })
}

#[test]
fn refused_urls_come_back_when_the_setting_changed_and_failed_ones_on_request() {
    let db = TestDb::new();
    let mut s = store_with(&db, 4, 1);
    let ids = claim_all(&mut s);
    s.write_batch(vec![
        refused(ids[0], "blocked_address", Some("off")),
        refused(ids[1], "blocked_address", Some("on")),
        refused(ids[2], "blocked_address", None),
        refused(ids[3], "http_4xx", None),
    ])
    .expect("write");
    let sites = ["s".to_string()];
    let today = [("blocked_address".to_string(), "on".to_string())];
    assert_eq!(
        requeue_refused(s.client(), &sites, &today).expect("requeue"),
        2
    );
    let outlook = outlook(s.client(), &sites, 0).expect("outlook");
    let failed: Vec<(String, u64)> = outlook
        .failed
        .iter()
        .map(|r| (r.reason.clone(), r.urls))
        .collect();
    assert_eq!(
        failed,
        [
            ("blocked_address".to_string(), 1),
            ("http_4xx".to_string(), 1)
        ]
    );
    assert_eq!(requeue_failed(s.client(), &sites).expect("retry failed"), 2);
    assert_eq!(claim_all(&mut s).len(), 4);
    // Waits lifted: none wait here, whatever is asked.
    for every in [false, true] {
        assert_eq!(lift_waits(s.client(), &sites, 0, every).expect("lift"), 0);
    }
    let after = crate::store::portable::requeue::outlook(s.client(), &sites, 0);
    assert_eq!(after.expect("outlook").stored["s"], 0);
}

#[test]
fn promote_gives_queued_plain_pages_their_learned_kind_on_postgres() {
    let db = TestDb::new();
    let mut s = PgStore::open(&db.url).expect("open");
    let url = |u: &str, kind, priority| NewUrl {
        url: u.into(),
        site: "s".into(),
        kind,
        depth: 1,
        priority,
    };
    s.write_batch(vec![WriteOp::AddUrls(vec![
        url("http://h.test/a/1", UrlKind::Page, 0),
        url("http://h.test/s/", UrlKind::Page, 0),
        url("http://h.test/p", UrlKind::Page, 5),
    ])])
    .expect("add");
    let out = s
        .write_batch(vec![WriteOp::Promote(vec![
            url("http://h.test/s/", UrlKind::Index, 99),
            url("http://h.test/a/1", UrlKind::Article, 199),
            url("http://h.test/new", UrlKind::Article, 199),
        ])])
        .expect("promote");
    assert_eq!(out, vec![WriteOutcome::UrlsPromoted(2)]);
    let claimed: Vec<(String, UrlKind)> = s
        .claim_due_for(i64::MAX / 2, 10, &ClaimFilter::default())
        .expect("claim")
        .into_iter()
        .map(|q| (q.url, q.kind))
        .collect();
    assert_eq!(
        claimed,
        [
            ("http://h.test/a/1".to_string(), UrlKind::Article),
            ("http://h.test/s/".to_string(), UrlKind::Index),
            ("http://h.test/p".to_string(), UrlKind::Page),
        ]
    );
}
