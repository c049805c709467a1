//! The writer against a fake store that records its calls.

use std::sync::{Arc, Mutex};

use super::*;
use crate::store::{FetchRecord, NewUrl, NextState, UrlKind};

#[derive(Default)]
struct Log {
    calls: Vec<String>,
    /// Upkeep switches, with the number of calls before each.
    upkeep: Vec<String>,
}

struct Fake {
    log: Arc<Mutex<Log>>,
    /// Batches containing a URL with this text fail.
    poison: Option<String>,
}

impl CrawlStore for Fake {
    fn reset_in_flight(&mut self) -> Result<usize, StoreError> {
        self.log.lock().unwrap().calls.push("reset".into());
        Ok(3)
    }
    fn claim_due(
        &mut self,
        _now_ms: i64,
        limit: usize,
        _filter: &ClaimFilter,
    ) -> Result<Vec<QueuedUrl>, StoreError> {
        self.log
            .lock()
            .unwrap()
            .calls
            .push(format!("claim {limit}"));
        Ok(Vec::new())
    }
    fn next_due_at(&mut self, _sites: Option<&[String]>) -> Result<Option<i64>, StoreError> {
        Ok(Some(42))
    }
    fn pages_by_site(&mut self) -> Result<std::collections::HashMap<String, u64>, StoreError> {
        Ok(Default::default())
    }
    fn upkeep_in_background(&mut self) -> Result<(), StoreError> {
        let mut log = self.log.lock().unwrap();
        let n = log.calls.len();
        log.upkeep.push(format!("background after {n}"));
        Ok(())
    }
    fn upkeep_in_foreground(&mut self) -> Result<(), StoreError> {
        let mut log = self.log.lock().unwrap();
        let n = log.calls.len();
        log.upkeep.push(format!("foreground after {n}"));
        Ok(())
    }
    fn write_batch(&mut self, ops: Vec<WriteOp>) -> Result<Vec<WriteOutcome>, StoreError> {
        let urls: Vec<String> = ops
            .iter()
            .filter_map(|op| match op {
                WriteOp::AddUrls(u) => Some(u.iter().map(|n| n.url.clone()).collect::<Vec<_>>()),
                _ => None,
            })
            .flatten()
            .collect();
        if let Some(p) = &self.poison {
            if urls.iter().any(|u| u.contains(p.as_str())) {
                return Err(StoreError::Sqlite(rusqlite::Error::InvalidQuery));
            }
        }
        self.log
            .lock()
            .unwrap()
            .calls
            .push(format!("batch {}", urls.join(",")));
        Ok(ops
            .iter()
            .map(|op| match op {
                WriteOp::AddUrls(u) => WriteOutcome::UrlsAdded(u.len()),
                WriteOp::Fetched(_) | WriteOp::Skipped(_) => WriteOutcome::FetchRecorded,
                WriteOp::Known(u) => WriteOutcome::UrlsAdded(u.len()),
                WriteOp::Article(_) | WriteOp::Refetched(_) => WriteOutcome::ArticleStored {
                    id: 1,
                    lines_dropped: 2,
                },
                WriteOp::SiteRule(_) => WriteOutcome::RuleRecorded,
                WriteOp::Shapes(_) => WriteOutcome::ShapesRecorded,
                WriteOp::Promote(_) => WriteOutcome::UrlsPromoted(0),
                WriteOp::ImportProgress(_) => WriteOutcome::ImportProgressed,
                WriteOp::Rejudge(_) => WriteOutcome::UrlsRejudged(0),
            })
            .collect())
    }
}

fn add(url: &str) -> Vec<WriteOp> {
    vec![WriteOp::AddUrls(vec![NewUrl {
        url: url.into(),
        site: "s".into(),
        kind: UrlKind::Page,
        depth: 1,
        priority: 0,
    }])]
}

fn fake(poison: Option<&str>) -> (Fake, Arc<Mutex<Log>>) {
    let log = Arc::new(Mutex::new(Log::default()));
    let f = Fake {
        log: log.clone(),
        poison: poison.map(String::from),
    };
    (f, log)
}

#[tokio::test]
async fn writes_are_batched_and_flushed_before_a_claim() {
    let (store, log) = fake(None);
    let counters = Arc::new(Counters::default());
    let (w, task) = Writer::spawn(store, counters.clone());
    w.write(add("a")).await.unwrap();
    w.write(add("b")).await.unwrap();
    w.claim(0, 5, ClaimFilter::default()).await.unwrap();
    assert_eq!(w.next_due(None).await.unwrap(), Some(42));
    w.write(add("c")).await.unwrap();
    drop(w);
    task.await.unwrap().unwrap();
    let calls = log.lock().unwrap().calls.clone();
    assert_eq!(calls, ["batch a,b", "claim 5", "batch c"]);
}

#[tokio::test]
async fn upkeep_goes_to_the_background_before_the_first_write_and_back_after_the_last() {
    let (store, log) = fake(None);
    let (w, task) = Writer::spawn(store, Arc::new(Counters::default()));
    w.write(add("a")).await.unwrap();
    w.claim(0, 5, ClaimFilter::default()).await.unwrap();
    w.write(add("b")).await.unwrap();
    drop(w);
    task.await.unwrap().unwrap();
    let log = log.lock().unwrap();
    assert_eq!(log.calls, ["batch a", "claim 5", "batch b"]);
    assert_eq!(log.upkeep, ["background after 0", "foreground after 3"]);
}

#[tokio::test]
async fn a_failing_batch_is_retried_page_by_page() {
    let (store, log) = fake(Some("bad"));
    let counters = Arc::new(Counters::default());
    let (w, task) = Writer::spawn(store, counters.clone());
    w.write(add("a")).await.unwrap();
    w.write(add("bad")).await.unwrap();
    w.write(vec![WriteOp::Fetched(FetchRecord {
        url_id: 1,
        started_at: 0,
        status: Some(200),
        error_kind: None,
        bytes: 0,
        elapsed_ms: 0,
        final_url: None,
        content_type: None,
        etag: None,
        last_modified: None,
        next: NextState::Done,
        judgement: None,
        refused_under: None,
        note: None,
    })])
    .await
    .unwrap();
    assert_eq!(w.reset_in_flight().await.unwrap(), 3);
    drop(w);
    task.await.unwrap().unwrap();
    let calls = log.lock().unwrap().calls.clone();
    assert_eq!(calls, ["batch a", "batch ", "reset"]);
    assert_eq!(counters.errors().get("store_write"), Some(&1));
}

#[tokio::test]
async fn the_writer_gives_up_when_nothing_can_be_written() {
    let (store, _log) = fake(Some("x"));
    let (w, task) = Writer::spawn(store, Arc::new(Counters::default()));
    w.write(add("x1")).await.unwrap();
    let err = w.claim(0, 1, ClaimFilter::default()).await.unwrap_err();
    assert!(matches!(err, WriterError::Gone), "{err}");
    assert!(matches!(task.await.unwrap(), Err(WriterError::Store(_))));
}

#[tokio::test]
async fn urls_the_frontier_has_are_not_sent_again_and_new_ones_always_are() {
    let (store, log) = fake(None);
    let counters = Arc::new(Counters::default());
    let (w, task) = Writer::spawn(store, counters);
    w.write(add("a")).await.unwrap();
    w.claim(0, 1, ClaimFilter::default()).await.unwrap();
    // `a` is committed: only the new `b` goes to the store.
    let mut both = add("a");
    both.extend(add("b"));
    w.write(both).await.unwrap();
    w.claim(0, 1, ClaimFilter::default()).await.unwrap();
    // Nothing new: no batch at all.
    w.write(add("b")).await.unwrap();
    w.claim(0, 1, ClaimFilter::default()).await.unwrap();
    drop(w);
    task.await.unwrap().unwrap();
    let calls = log.lock().unwrap().calls.clone();
    assert_eq!(
        calls,
        ["batch a", "claim 1", "batch b", "claim 1", "claim 1"]
    );
}

#[tokio::test]
async fn regression_a_url_of_a_failed_write_is_not_remembered_as_known() {
    // The batch with `bad` fails, page by page too: `x` of that page was
    // never committed, so it must reach the store when found again.
    let (store, log) = fake(Some("bad"));
    let counters = Arc::new(Counters::default());
    let (w, task) = Writer::spawn(store, counters);
    let mut page = add("x");
    page.extend(add("bad"));
    w.write(page).await.unwrap();
    w.write(add("ok")).await.unwrap();
    w.claim(0, 1, ClaimFilter::default()).await.unwrap();
    w.write(add("x")).await.unwrap();
    w.write(add("ok")).await.unwrap();
    w.claim(0, 1, ClaimFilter::default()).await.unwrap();
    drop(w);
    task.await.unwrap().unwrap();
    let calls = log.lock().unwrap().calls.clone();
    assert_eq!(calls, ["batch ok", "claim 1", "batch x", "claim 1"]);
}

#[tokio::test]
async fn regression_pages_never_leave_out_a_url_of_a_failed_write() {
    // What pages may leave out (the shared committed set) is what the store
    // committed: not `x` of the page whose batch failed, nor anything not
    // yet flushed.
    let (store, _log) = fake(Some("bad"));
    let (w, task) = Writer::spawn(store, Arc::new(Counters::default()));
    let committed = w.committed();
    let known = |url: &str| committed.known(&[crate::crawl::seen::fingerprint(url)])[0];
    let mut page = add("x");
    page.extend(add("bad"));
    w.write(page).await.unwrap();
    w.write(add("ok")).await.unwrap();
    assert!(!known("ok"), "buffered is not committed");
    w.claim(0, 1, ClaimFilter::default()).await.unwrap();
    assert!(known("ok"));
    assert!(!known("x") && !known("bad"));
    drop(w);
    task.await.unwrap().unwrap();
}
