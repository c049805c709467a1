//! The frontier: adding, claiming, requeueing, fetch outcomes, scale.

use super::*;
use crate::store::sqlite::frontier::{CLAIM_HOST_SQL, NEXT_HOST_SQL};
use crate::store::*;

/// The frontier's figures the tests read, on a bare SQLite store.
impl Store {
    /// The id of a site, created if new.
    fn site_id(&mut self, name: &str) -> Result<i64, StoreError> {
        crate::store::portable::writes::site_id_created(&mut &self.conn, name)
    }

    /// When the next queued URL becomes due (unix ms); `None` if nothing is queued.
    fn next_due_at(&self) -> Result<Option<i64>, StoreError> {
        self.next_due_at_for(None)
    }

    /// Pages fetched so far (successfully, at least once) for one site, for
    /// the per-site page budget. 0 for a site not seen yet.
    fn site_pages(&self, site: &str) -> Result<u64, StoreError> {
        let n: i64 = self
            .conn
            .prepare_cached(
                "SELECT count(*) FROM urls u JOIN sites s ON s.id = u.site_id
             WHERE s.name = ?1 AND u.fetched_at IS NOT NULL",
            )?
            .query_row([site], |r| r.get(0))?;
        Ok(u64::try_from(n).unwrap_or(0))
    }

    /// URLs known for a site (any state), for the per-host URL cap.
    pub(super) fn site_urls(&self, site: &str) -> Result<u64, StoreError> {
        let n: i64 = self
            .conn
            .prepare_cached(
                "SELECT count(*) FROM urls u JOIN sites s ON s.id = u.site_id WHERE s.name = ?1",
            )?
            .query_row([site], |r| r.get(0))?;
        Ok(u64::try_from(n).unwrap_or(0))
    }
}

#[test]
fn add_urls_counts_only_new_ones_and_creates_sites() {
    let mut s = Store::open_in_memory().unwrap();
    let n = s
        .add_urls(&[
            url("https://a.test/1", "a", UrlKind::Article, 1),
            url("https://a.test/1", "a", UrlKind::Article, 1),
            url("https://b.test/1", "b", UrlKind::Page, 1),
        ])
        .unwrap();
    assert_eq!(n, 2);
    let a = s.site_id("a").unwrap();
    let b = s.site_id("b").unwrap();
    assert_ne!(a, b);
    assert_eq!(s.site_id("a").unwrap(), a);
    assert_eq!(s.site_urls("a").unwrap(), 1);
}

#[test]
fn claim_due_takes_priority_then_age_and_marks_fetching() {
    let mut s = Store::open_in_memory().unwrap();
    s.add_urls(&[
        url("https://a.test/low", "a", UrlKind::Page, 1),
        url("https://a.test/high1", "a", UrlKind::Article, 9),
        url("https://a.test/high2", "a", UrlKind::Article, 9),
        url("https://a.test/feed", "a", UrlKind::Feed, 20),
    ])
    .unwrap();
    let got: Vec<String> = s
        .claim_due(0, 3)
        .unwrap()
        .into_iter()
        .map(|q| q.url)
        .collect();
    assert_eq!(
        got,
        [
            "https://a.test/feed",
            "https://a.test/high1",
            "https://a.test/high2"
        ]
    );
    let c = s.counts().unwrap();
    assert_eq!((c.queued, c.fetching), (1, 3));
    // Claimed URLs are not handed out twice.
    let rest = s.claim_due(0, 10).unwrap();
    assert_eq!(rest.len(), 1);
    assert_eq!(rest[0].kind, UrlKind::Page);
    assert!(s.claim_due(0, 10).unwrap().is_empty());
}

#[test]
fn claim_due_interleaves_sites_so_a_backlog_cannot_starve_others() {
    let mut s = Store::open_in_memory().unwrap();
    let mut urls: Vec<NewUrl> = (0..50)
        .map(|i| url(&format!("https://big.test/{i}"), "big", UrlKind::Article, 5))
        .collect();
    urls.push(url("https://small.test/feed", "small", UrlKind::Feed, 9));
    urls.push(url("https://small.test/a", "small", UrlKind::Article, 5));
    urls.push(url("https://small.test/b", "small", UrlKind::Article, 5));
    urls.push(url(
        "https://other.test/later",
        "other",
        UrlKind::Article,
        99,
    ));
    s.add_urls(&urls).unwrap();
    // "other" is not due yet.
    let id_later = s.claim_due(0, 100).unwrap();
    s.reset_in_flight().unwrap();
    assert_eq!(id_later.len(), 54);
    let later = id_later.iter().find(|q| q.site == "other").unwrap().id;
    s.write_batch(vec![WriteOp::Fetched(fetched(
        later,
        NextState::At(10),
        None,
    ))])
    .unwrap();
    let got: Vec<String> = s
        .claim_due(5, 6)
        .unwrap()
        .into_iter()
        .map(|q| q.url)
        .collect();
    // Small's feed has the best priority, so small leads every round.
    assert_eq!(
        got,
        [
            "https://small.test/feed",
            "https://big.test/0",
            "https://small.test/a",
            "https://big.test/1",
            "https://small.test/b",
            "https://big.test/2",
        ]
    );
}

#[test]
fn reset_in_flight_requeues_claimed_urls() {
    let mut s = Store::open_in_memory().unwrap();
    s.add_urls(&[
        url("https://a.test/1", "a", UrlKind::Article, 1),
        url("https://a.test/2", "a", UrlKind::Article, 1),
    ])
    .unwrap();
    let claimed = s.claim_due(0, 10).unwrap();
    s.write_batch(vec![WriteOp::Fetched(fetched(
        claimed[0].id,
        NextState::Done,
        None,
    ))])
    .unwrap();
    // Simulated crash: the second claim never came back.
    assert_eq!(s.reset_in_flight().unwrap(), 1);
    let again = s.claim_due(0, 10).unwrap();
    assert_eq!(again.len(), 1);
    assert_eq!(again[0].id, claimed[1].id);
    let c = s.counts().unwrap();
    assert_eq!((c.done, c.fetching, c.queued), (1, 1, 0));
}

#[test]
fn fetch_outcome_schedules_retries_and_records_validators() {
    let mut s = Store::open_in_memory().unwrap();
    s.add_urls(&[url("https://a.test/feed", "a", UrlKind::Feed, 1)])
        .unwrap();
    let id = s.claim_due(0, 1).unwrap()[0].id;
    assert_eq!(s.next_due_at().unwrap(), None);
    s.write_batch(vec![WriteOp::Fetched(fetched(
        id,
        NextState::At(60_000),
        Some("http_5xx"),
    ))])
    .unwrap();
    assert_eq!(s.next_due_at().unwrap(), Some(60_000));
    assert!(s.claim_due(59_999, 10).unwrap().is_empty());
    let q = s.claim_due(60_000, 10).unwrap();
    assert_eq!(q.len(), 1);
    assert_eq!(q[0].attempts, 1);
    assert_eq!(q[0].etag.as_deref(), Some("\"v1\""));
    assert_eq!(s.site_pages("a").unwrap(), 0);
    s.write_batch(vec![WriteOp::Fetched(fetched(
        id,
        NextState::At(120_000),
        None,
    ))])
    .unwrap();
    assert_eq!(s.site_pages("a").unwrap(), 1);
    assert_eq!(s.pages_by_site().unwrap().get("a"), Some(&1));
    let q = s.claim_due(200_000, 10).unwrap();
    assert_eq!(q[0].attempts, 0, "a success resets the failure count");
    let stats = s.site_stats(50).unwrap();
    assert_eq!(stats[0].pages_fetched, 1);
    assert_eq!(stats[0].errors, vec![("http_5xx".to_string(), 1)]);
}

/// Scale check, run by hand: `cargo test --lib frontier_scale -- --ignored --nocapture`.
/// Prints timings; asserts only correctness (timings are not asserted).
#[test]
#[ignore]
fn frontier_scale_200k() {
    use std::time::Instant;
    let dir = tempfile::tempdir().unwrap();
    let mut s = Store::open(&dir.path().join("scale.db")).unwrap();
    let t = Instant::now();
    for batch in 0..200 {
        let urls: Vec<NewUrl> = (0..1000)
            .map(|i| {
                let n = batch * 1000 + i;
                url(
                    &format!("https://site{}.test/2026/11/{n}.html", n % 7),
                    &format!("site{}", n % 7),
                    if n % 5 == 0 {
                        UrlKind::Index
                    } else {
                        UrlKind::Article
                    },
                    n % 13,
                )
            })
            .collect();
        s.write_batch(vec![WriteOp::AddUrls(urls)]).unwrap();
    }
    println!("add 200k urls in 200 batches: {:?}", t.elapsed());
    let t = Instant::now();
    let mut claimed = 0;
    for _ in 0..200 {
        let q = s.claim_due(1, 64).unwrap();
        claimed += q.len();
        let ops = q
            .iter()
            .map(|u| WriteOp::Fetched(fetched(u.id, NextState::Done, None)))
            .collect();
        s.write_batch(ops).unwrap();
    }
    println!("200 × (claim 64 + record 64 fetches): {:?}", t.elapsed());
    assert_eq!(claimed, 200 * 64);
    let t = Instant::now();
    let c = s.counts().unwrap();
    println!("counts {:?}: {:?}", c, t.elapsed());
    assert_eq!(c.done, 200 * 64);
    let t = Instant::now();
    let _ = s.next_due_at().unwrap();
    println!("next_due_at: {:?}", t.elapsed());
    let t = Instant::now();
    let _ = s.site_stats(50).unwrap();
    println!("site_stats: {:?}", t.elapsed());
}

#[test]
fn claims_are_fair_per_host_within_a_site_and_capped_per_host() {
    let mut s = Store::open_in_memory().unwrap();
    // One site, two hosts: www has a big high-priority backlog, feeds one URL.
    let mut urls: Vec<NewUrl> = (0..500)
        .map(|i| url(&format!("https://www.a.test/{i}"), "a", UrlKind::Article, 9))
        .collect();
    urls.push(url("https://feeds.a.test/rss", "a", UrlKind::Feed, 1));
    urls.push(url("http://127.0.0.1:8080/x", "a", UrlKind::Page, 0));
    s.add_urls(&urls).unwrap();
    let filter = ClaimFilter {
        per_host: 3,
        ..ClaimFilter::default()
    };
    let got = s.claim_due_for(0, 100, &filter).unwrap();
    let hosts: Vec<&str> = got.iter().map(|q| q.host.as_str()).collect();
    // Round-robin by best head, 3 of www at most: no digging through www's
    // backlog to reach the other hosts.
    assert_eq!(
        hosts,
        [
            "www.a.test",
            "feeds.a.test",
            "127.0.0.1:8080",
            "www.a.test",
            "www.a.test"
        ]
    );
    assert_eq!(s.counts().unwrap().fetching, 5);
    // A host the caller holds enough of is skipped altogether.
    let filter = ClaimFilter {
        per_host: 3,
        skip_hosts: ["www.a.test".to_string()].into(),
        ..ClaimFilter::default()
    };
    assert!(s.claim_due_for(0, 100, &filter).unwrap().is_empty());
    // Without a cap, a limit still applies.
    assert_eq!(s.claim_due(0, 10).unwrap().len(), 10);
    assert_eq!(url_host("https://www.a.test/1?x"), "www.a.test");
    assert_eq!(url_host("http://127.0.0.1:8080/x"), "127.0.0.1:8080");
}

#[test]
fn claims_and_due_times_only_read_the_selected_sites() {
    let mut s = Store::open_in_memory().unwrap();
    let mut urls: Vec<NewUrl> = (0..20)
        .map(|i| {
            url(
                &format!("https://other.test/{i}"),
                "other",
                UrlKind::Feed,
                99,
            )
        })
        .collect();
    urls.push(url("https://mine.test/1", "mine", UrlKind::Article, 1));
    urls.push(url("https://mine.test/2", "mine", UrlKind::Article, 1));
    s.add_urls(&urls).unwrap();
    let mine = ClaimFilter {
        sites: Some(vec!["mine".into()]),
        ..ClaimFilter::default()
    };
    let got = s.claim_due_for(0, 5, &mine).unwrap();
    assert_eq!(got.len(), 2);
    assert!(got.iter().all(|q| q.site == "mine"), "{got:?}");
    // The other site's URLs were never touched.
    let c = s.counts().unwrap();
    assert_eq!((c.fetching, c.queued), (2, 20));
    assert_eq!(s.next_due_at_for(Some(&["mine".into()])).unwrap(), None);
    assert_eq!(s.next_due_at_for(Some(&["other".into()])).unwrap(), Some(0));
    assert_eq!(s.next_due_at_for(Some(&["nope".into()])).unwrap(), None);
    let none = ClaimFilter {
        sites: Some(Vec::new()),
        ..ClaimFilter::default()
    };
    assert!(s.claim_due_for(0, 5, &none).unwrap().is_empty());
}

#[test]
fn skips_are_logged_but_are_not_failed_attempts() {
    let mut s = Store::open_in_memory().unwrap();
    s.add_urls(&[
        url("https://a.test/1", "a", UrlKind::Article, 1),
        url("https://a.test/2", "a", UrlKind::Article, 1),
    ])
    .unwrap();
    let q = s.claim_due(0, 10).unwrap();
    // One real failure first: attempts = 1.
    s.write_batch(vec![WriteOp::Fetched(fetched(
        q[0].id,
        NextState::At(0),
        Some("http_5xx"),
    ))])
    .unwrap();
    let skip = |id, reason: &str, next| {
        WriteOp::Skipped(SkipRecord {
            url_id: id,
            at: 6_000,
            reason: reason.into(),
            next,
            refused_under: None,
        })
    };
    s.write_batch(vec![skip(q[1].id, "robots_disallowed", NextState::Failed)])
        .unwrap();
    let again = s.claim_due(0, 10).unwrap();
    assert_eq!(again.len(), 1);
    s.write_batch(vec![skip(again[0].id, "host_parked", NextState::At(50))])
        .unwrap();
    let again = s.claim_due(50, 10).unwrap();
    assert_eq!(again.len(), 1);
    assert_eq!(again[0].attempts, 1, "the parked skip did not count");
    let c = s.counts().unwrap();
    assert_eq!((c.skipped, c.failed), (1, 0));
    // `stats` reports skips apart from real failures.
    let st = s.site_stats(50).unwrap();
    let kinds = |v: &[(String, u64)]| v.iter().map(|(k, _)| k.clone()).collect::<Vec<_>>();
    assert_eq!(kinds(&st[0].errors), ["http_5xx"]);
    let skipped = kinds(&st[0].skipped);
    assert!(
        skipped.contains(&"robots_disallowed".to_string()),
        "{skipped:?}"
    );
    assert!(skipped.contains(&"host_parked".to_string()), "{skipped:?}");
}

/// The claims of a crawl of three sites on two hosts each, in rounds of 5:
/// the claimed URLs, in order, and how often SQLite re-prepared the claim's
/// two statements.
fn claims_in_rounds(analyzed: bool) -> (Vec<String>, i64) {
    let mut s = Store::open_in_memory().unwrap();
    let mut urls = Vec::new();
    for site in ["a", "b", "c"] {
        for host in ["www", "news"] {
            for i in 0..40 {
                let u = format!("https://{host}.{site}.test/{i}");
                urls.push(url(&u, site, UrlKind::Article, i % 3));
            }
        }
    }
    s.add_urls(&urls).unwrap();
    if analyzed {
        // What `PRAGMA optimize` does on a crawl's database sooner or later:
        // STAT4 samples of `urls_claim_host`.
        s.conn.execute_batch("ANALYZE").unwrap();
    }
    let filter = ClaimFilter {
        per_host: 2,
        ..ClaimFilter::default()
    };
    let mut claimed = Vec::new();
    for round in 0..10 {
        let q = s.claim_due_for(1_000 + round, 5, &filter).unwrap();
        claimed.extend(q.into_iter().map(|q| q.url));
    }
    let reprepared: i64 = [NEXT_HOST_SQL, CLAIM_HOST_SQL]
        .iter()
        .map(|sql| {
            let stmt = s.conn.prepare_cached(sql).unwrap();
            i64::from(stmt.get_status(rusqlite::StatementStatus::RePrepare))
        })
        .sum();
    (claimed, reprepared)
}

#[test]
fn regression_claim_due_for_was_re_planned_for_every_site_and_host() {
    let (plain, _) = claims_in_rounds(false);
    let (analyzed, reprepared) = claims_in_rounds(true);
    assert_eq!(plain.len(), 50);
    // Round robin over the six hosts, best priority first (i % 3 == 2).
    assert_eq!(
        plain[..2],
        ["https://www.a.test/2", "https://news.a.test/2"]
    );
    // The statistics change no claim...
    assert_eq!(analyzed, plain);
    // ...and make SQLite plan the statements again for no one.
    assert_eq!(reprepared, 0, "claim statements re-prepared");
}

#[test]
fn a_page_judgement_is_kept_with_its_fetch() {
    let mut s = Store::open_in_memory().unwrap();
    s.add_urls(&[
        url("https://a.test/", "a", UrlKind::Seed, 1),
        url("https://a.test/story", "a", UrlKind::Page, 1),
        url("https://a.test/feed", "a", UrlKind::Feed, 1),
    ])
    .unwrap();
    let q = s.claim_due(0, 10).unwrap();
    let judged = |url: &str| match url {
        "https://a.test/" => Some(PageJudgement {
            article: false,
            reason: "teaser_list",
            kind: None,
        }),
        "https://a.test/story" => Some(PageJudgement {
            article: true,
            reason: "body_headline_date",
            kind: None,
        }),
        _ => None,
    };
    let ops = q
        .iter()
        .map(|u| {
            WriteOp::Fetched(FetchRecord {
                judgement: judged(&u.url),
                ..fetched(u.id, NextState::Done, None)
            })
        })
        .collect();
    s.write_batch(ops).unwrap();
    let rows: Vec<(String, Option<String>, Option<String>)> = s
        .conn
        .prepare(
            "SELECT u.url, f.judged, f.judge_reason FROM fetches f JOIN urls u ON u.id = f.url_id
             ORDER BY u.url",
        )
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let s = |v: &str| Some(v.to_string());
    assert_eq!(
        rows,
        [
            ("https://a.test/".into(), s("not_article"), s("teaser_list")),
            ("https://a.test/feed".into(), None, None),
            (
                "https://a.test/story".into(),
                s("article"),
                s("body_headline_date")
            ),
        ]
    );
}

#[test]
fn promote_gives_queued_plain_pages_their_learned_kind_and_adds_nothing() {
    let mut s = Store::open_in_memory().unwrap();
    s.add_urls(&[
        url(
            "https://a.test/2026/11/26/x-y-z.html",
            "a",
            UrlKind::Page,
            0,
        ),
        url("https://a.test/world/", "a", UrlKind::Page, 0),
        url("https://a.test/other", "a", UrlKind::Page, 5),
    ])
    .unwrap();
    let out = s
        .write_batch(vec![WriteOp::Promote(vec![
            url(
                "https://a.test/2026/11/26/x-y-z.html",
                "a",
                UrlKind::Article,
                199,
            ),
            url("https://a.test/world/", "a", UrlKind::Index, 99),
            url("https://a.test/never-queued", "a", UrlKind::Article, 199),
            url("https://a.test/other", "a", UrlKind::Page, 300),
        ])])
        .unwrap();
    assert_eq!(out, [WriteOutcome::UrlsPromoted(2)]);
    assert_eq!(s.site_urls("a").unwrap(), 3, "nothing added");
    let claimed: Vec<(String, UrlKind)> = s
        .claim_due(i64::MAX / 2, 10)
        .unwrap()
        .into_iter()
        .map(|q| (q.url, q.kind))
        .collect();
    assert_eq!(
        claimed,
        [
            (
                "https://a.test/2026/11/26/x-y-z.html".to_string(),
                UrlKind::Article
            ),
            ("https://a.test/world/".to_string(), UrlKind::Index),
            ("https://a.test/other".to_string(), UrlKind::Page),
        ]
    );
    // Claimed (in flight): no longer promoted.
    let out = s
        .write_batch(vec![WriteOp::Promote(vec![url(
            "https://a.test/other",
            "a",
            UrlKind::Article,
            199,
        )])])
        .unwrap();
    assert_eq!(out, [WriteOutcome::UrlsPromoted(0)]);
}
