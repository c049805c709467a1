//! Failed and refused URLs queued again; what waits and what failed.

use super::*;
use crate::store::portable::requeue::{lift_waits, outlook, requeue_failed, requeue_refused};

/// A store with `n` article URLs of site `a` and one of site `b`, all
/// claimed.
fn claimed(n: usize) -> (Store, Vec<QueuedUrl>) {
    let mut s = Store::open_in_memory().unwrap();
    let mut urls: Vec<NewUrl> = (0..n)
        .map(|i| url(&format!("https://a.test/{i}"), "a", UrlKind::Article, 1))
        .collect();
    urls.push(url("https://b.test/0", "b", UrlKind::Article, 1));
    s.add_urls(&urls).unwrap();
    let q = s.claim_due(0, 100).unwrap();
    (s, q)
}

fn refused(id: i64, reason: &str, under: Option<&str>) -> WriteOp {
    let mut rec = fetched(id, NextState::Failed, Some(reason));
    rec.refused_under = under.map(String::from);
    WriteOp::Fetched(rec)
}

/// A URL put back without a fetch for `reason`.
fn skip(id: i64, reason: &str, next: NextState) -> WriteOp {
    WriteOp::Skipped(SkipRecord {
        url_id: id,
        at: 1,
        reason: reason.into(),
        next,
        refused_under: None,
    })
}

fn id_of(q: &[QueuedUrl], u: &str) -> i64 {
    q.iter().find(|q| q.url == u).unwrap().id
}

#[test]
fn a_url_refused_under_other_settings_is_queued_again_with_fresh_attempts() {
    let (mut s, q) = claimed(3);
    s.write_batch(vec![
        refused(
            id_of(&q, "https://a.test/0"),
            "blocked_address",
            Some("off"),
        ),
        refused(id_of(&q, "https://a.test/1"), "blocked_address", Some("on")),
        // Refused before fingerprints were kept: tried once more.
        refused(id_of(&q, "https://a.test/2"), "blocked_address", None),
        refused(
            id_of(&q, "https://b.test/0"),
            "blocked_address",
            Some("off"),
        ),
    ])
    .unwrap();
    assert_eq!(s.counts().unwrap().failed, 4);
    let today = [("blocked_address".to_string(), "on".to_string())];
    // Only site a is crawled: b's URL stays failed.
    let n = requeue_refused(&mut &s.conn, &["a".into()], &today).unwrap();
    assert_eq!(n, 2);
    let mut again: Vec<QueuedUrl> = s.claim_due(0, 10).unwrap();
    again.sort_by(|x, y| x.url.cmp(&y.url));
    let urls: Vec<&str> = again.iter().map(|q| q.url.as_str()).collect();
    assert_eq!(urls, ["https://a.test/0", "https://a.test/2"]);
    assert!(again.iter().all(|q| q.attempts == 0), "{again:?}");
    // Refused again under today's settings: stays failed next time.
    s.write_batch(vec![refused(again[0].id, "blocked_address", Some("on"))])
        .unwrap();
    assert_eq!(
        requeue_refused(&mut &s.conn, &["a".into()], &today).unwrap(),
        0
    );
}

#[test]
fn other_failures_are_not_queued_again_by_a_settings_change() {
    let (mut s, q) = claimed(1);
    s.write_batch(vec![refused(
        id_of(&q, "https://a.test/0"),
        "http_4xx",
        None,
    )])
    .unwrap();
    let today = [("blocked_address".to_string(), "on".to_string())];
    assert_eq!(
        requeue_refused(&mut &s.conn, &["a".into()], &today).unwrap(),
        0
    );
    assert_eq!(requeue_failed(&mut &s.conn, &["a".into()]).unwrap(), 1);
    assert_eq!(s.claim_due(0, 10).unwrap().len(), 1);
}

#[test]
fn retry_failed_queues_the_failed_and_refused_urls_of_the_chosen_sites_only() {
    let (mut s, q) = claimed(2);
    s.write_batch(vec![
        refused(id_of(&q, "https://a.test/0"), "http_5xx", None),
        WriteOp::Skipped(SkipRecord {
            url_id: id_of(&q, "https://a.test/1"),
            at: 1,
            reason: "robots_disallowed".into(),
            next: NextState::Failed,
            refused_under: Some("x".into()),
        }),
        refused(id_of(&q, "https://b.test/0"), "http_5xx", None),
    ])
    .unwrap();
    assert_eq!(requeue_failed(&mut &s.conn, &["a".into()]).unwrap(), 2);
    let c = s.counts().unwrap();
    assert_eq!((c.queued, c.failed, c.skipped), (2, 1, 0));
}

#[test]
fn the_outlook_says_what_waits_until_when_and_what_failed() {
    let (mut s, q) = claimed(3);
    let wait = |id, at| skip(id, "robots_unavailable", NextState::At(at));
    s.write_batch(vec![
        wait(id_of(&q, "https://a.test/0"), 90_000),
        wait(id_of(&q, "https://a.test/1"), 60_000),
        refused(id_of(&q, "https://a.test/2"), "http_4xx", None),
        refused(id_of(&q, "https://b.test/0"), "http_4xx", None),
    ])
    .unwrap();
    let o = outlook(&mut &s.conn, &["a".into()], 10_000).unwrap();
    assert_eq!(
        o.waiting,
        [OutlookRow {
            site: "a".into(),
            reason: "robots_unavailable".into(),
            urls: 2,
            until: Some(60_000),
        }]
    );
    assert_eq!(
        o.failed,
        [OutlookRow {
            site: "a".into(),
            reason: "http_4xx".into(),
            urls: 1,
            until: None,
        }]
    );
    // Once due, they no longer wait: the crawl takes them.
    assert!(outlook(&mut &s.conn, &["a".into()], 90_000)
        .unwrap()
        .waiting
        .is_empty());
}

#[test]
fn waits_are_lifted_on_a_site_with_nothing_due_or_on_request_and_refusals_listed_apart() {
    let (mut s, q) = claimed(3);
    let waits: Vec<WriteOp> = ["https://a.test/0", "https://b.test/0"]
        .iter()
        .map(|u| skip(id_of(&q, u), "robots_unavailable", NextState::At(90_000)))
        .collect();
    s.write_batch(waits.clone()).unwrap();
    s.write_batch(vec![
        skip(
            id_of(&q, "https://a.test/1"),
            "robots_disallowed",
            NextState::Failed,
        ),
        WriteOp::Fetched(fetched(
            id_of(&q, "https://a.test/2"),
            NextState::At(10_000),
            None,
        )),
    ])
    .unwrap();
    let sites = ["a".to_string(), "b".to_string()];
    let o = outlook(&mut &s.conn, &sites, 20_000).unwrap();
    assert_eq!(o.waiting.len(), 2);
    assert!(o.failed.is_empty(), "{o:?}");
    let refused: Vec<(&str, &str)> = (o.refused.iter())
        .map(|r| (r.site.as_str(), r.reason.as_str()))
        .collect();
    assert_eq!(refused, [("a", "robots_disallowed")]);
    assert_eq!((o.stored["a"], o.queued["a"], o.queued["b"]), (0, 1, 1));
    // At 5 000 nothing of either site is due (a's page waits for 10 000):
    // both sites' waits are lifted.
    assert_eq!(lift_waits(&mut &s.conn, &sites, 5_000, false).unwrap(), 2);
    // Waiting again: at 20 000 site a's page is due, so only b's wait is
    // lifted.
    s.write_batch(waits.clone()).unwrap();
    assert_eq!(lift_waits(&mut &s.conn, &sites, 20_000, false).unwrap(), 1);
    // On request every wait goes.
    assert_eq!(lift_waits(&mut &s.conn, &sites, 20_000, true).unwrap(), 1);
    assert!(outlook(&mut &s.conn, &sites, 20_000)
        .unwrap()
        .waiting
        .is_empty());
}
