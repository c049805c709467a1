//! A fetch that failed: counted, told to politeness (a host's pause or
//! repeated failures), and the URL's next state decided (retry soon, later,
//! at the next revisit, or give up) with the fetch record to write.

use super::{is_revisited, ms, now_ms, revisit_ms, Ctx};
use crate::crawl::fetch::{FetchError, MAX_RETRY_AFTER};
use crate::crawl::retry::{after_failure, refusal, AfterFailure};
use crate::store::{FetchRecord, NextState, QueuedUrl, UrlKind};

/// Count the failure, tell politeness, and decide the URL's next state.
pub(super) fn failed(
    ctx: &Ctx,
    q: &QueuedUrl,
    host: &str,
    started_at: i64,
    e: &FetchError,
) -> (FetchRecord, Option<i64>) {
    let cfg = &ctx.cfg;
    ctx.counters.error(e.kind());
    tracing::debug!(url = %q.url, "fetch failed: {e}");
    if let Some(after) = e.retry_after() {
        // The whole host asked for a pause, not just this URL.
        ctx.politeness.pause(host, after.min(MAX_RETRY_AFTER));
    }
    if e.is_host_failure() {
        if let Some(park) = ctx.politeness.record_failure(host) {
            tracing::warn!("{host}: parked for {park:?} after repeated failures");
        }
    }
    let now = now_ms();
    let mut retry_at = None;
    let backoff = e.retry_delay(q.attempts, &cfg.fetch);
    let next = match after_failure(backoff, q.attempts, cfg.fetch.retries) {
        AfterFailure::RetrySoon(delay) => {
            let at = now + ms(delay);
            retry_at = Some(at);
            NextState::At(at)
        }
        _ if backoff.is_some() && is_revisited(q.kind) => NextState::At(now + revisit_ms(cfg)),
        // A failed refetch leaves the stored article as it is.
        _ if q.fetched_before && q.kind == UrlKind::Article => NextState::Done,
        AfterFailure::RetryLater(delay) => NextState::At(now + ms(delay)),
        AfterFailure::GiveUp => NextState::Failed,
    };
    let refused_under = match next {
        NextState::Failed => refusal(cfg, e.kind().as_str()),
        _ => None,
    };
    let status = match e {
        FetchError::Http { status, .. } => Some(*status),
        _ => None,
    };
    let record = FetchRecord {
        url_id: q.id,
        started_at,
        status,
        error_kind: Some(e.kind().as_str().to_string()),
        bytes: 0,
        elapsed_ms: u64::try_from(now - started_at).unwrap_or(0),
        final_url: None,
        content_type: None,
        etag: None,
        last_modified: None,
        next,
        judgement: None,
        refused_under,
        note: None,
    };
    (record, retry_at)
}
