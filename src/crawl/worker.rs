//! One frontier URL, start to finish.
//!
//! In: a claimed URL with its host permit ([`Job`]). Out: the writes for it
//! (new URLs, the article, the fetch record with the URL's next state) sent
//! to the store writer, counters updated, and a [`Done`] telling the
//! scheduler when a retry was scheduled.
//!
//! Order: robots.txt (fetched once per host and cached; its `Sitemap:` lines
//! are queued and its `Crawl-delay` applied) → the host's rate limiter →
//! fetch (conditional for revisited feeds and index pages) → on the
//! processing pool ([`super::pool`]): discovery and, for article pages,
//! extraction ([`super::page`]) and the kept page's compression.
//! Every failure is counted by kind and decided here: retry with backoff,
//! revisit later, or give up — one bad URL never stops the crawl.

use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use tokio::sync::{watch, OwnedSemaphorePermit, Semaphore};
use url::Url;

use super::budget::BodyBudget;
use super::fetch::{Expect, Fetched, Fetcher, Validators};
use super::kinds::{CapKind, ErrorKind, SkipKind};
use super::page;
use super::path::record::{self, Learned, Source};
use super::politeness::{HostPermit, Politeness, Sent};
use super::pool::ProcessPool;
use super::retry::refusal;
use super::robots::{RobotsCache, Verdict};
use super::shapes::{self, ExploreBudget, Promoted};
use super::summary::Counters;
use super::writer::Writer;
use crate::config::{Config, SiteSettings};
use crate::extract::ExtractOptions;
use crate::store::{
    FetchRecord, NextState, PageJudgement, QueuedUrl, SkipRecord, UrlKind, WriteOp,
};
use crate::store::{HostTurns, Turn};
use failure_step::failed;
use process_step::process_blocking;
use robots_step::robots_verdict;

mod failure_step;
mod learning_step;
mod probe_step;
mod process_step;
mod robots_step;

pub use learning_step::{as_article, rejudge};
pub use probe_step::Probes;

/// Everything the workers of one run share.
pub struct Ctx {
    pub cfg: Arc<Config>,
    pub fetcher: Fetcher,
    pub politeness: Politeness,
    /// A shared store's turns of every host (global politeness across
    /// crawler processes); `None` on a store of one process.
    pub host_turns: Option<HostTurns>,
    pub robots: RobotsCache,
    pub writer: Writer,
    /// Requests in flight (fetch and processing) over all hosts:
    /// `[crawler] concurrency`. Taken once the host's turn is near and given
    /// back if the turn was lost, so waiting for a slow host never idles a
    /// slot; the turn itself is taken with the slot in hand ([`send_turn`]).
    pub fetch_slots: Arc<Semaphore>,
    pub counters: Arc<Counters>,
    pub extract: ExtractOptions,
    /// Body bytes held at once (`[fetch] max_bytes_in_flight`), in KiB
    /// permits: see [`BodyBudget`].
    pub body_budget: BodyBudget,
    /// Pages larger than [`LARGE_PAGE`] are processed one at a time: parsing
    /// takes several times a body's size, so a few hostile 10 MB pages in
    /// parallel would multiply the peak.
    pub large_pages: Arc<Semaphore>,
    /// Where pages are processed (decoding, discovery, extraction, keeping):
    /// one thread per core ([`super::budget::cpu_slots`]), see [`ProcessPool`].
    pub pages: ProcessPool,
    /// Every site's learned URL shapes and `tree` content rule (loaded
    /// from the store at the start, updated as pages are judged and
    /// extracted).
    pub learned: Learned,
    /// What each href of the crawl's pages came to (see [`page::LinkMemo`]).
    pub link_memo: Arc<page::LinkMemo>,
    /// Links of unknown shape each site without patterns may still queue.
    pub explore: Arc<ExploreBudget>,
    /// When each site's usual feed and sitemap paths were last probed.
    pub probes: Probes,
    /// The URLs asked to be promoted from plain pages (see
    /// [`page::PageOutput::promote`]).
    pub promoted: Promoted,
}

/// A claimed URL ready to go.
pub struct Job {
    pub q: QueuedUrl,
    pub url: Url,
    pub host: String,
    pub site: Arc<SiteSettings>,
    pub permit: HostPermit,
}

/// What the scheduler needs to know afterwards.
#[derive(Debug)]
pub struct Done {
    /// A retry was scheduled at this time (unix ms).
    pub retry_at: Option<i64>,
    /// Stopped before the request was sent; nothing was written.
    pub aborted: bool,
}

pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

fn ms(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

/// Feeds, sitemaps, start and index pages are fetched again on a schedule.
pub fn is_revisited(kind: UrlKind) -> bool {
    matches!(
        kind,
        UrlKind::Seed | UrlKind::Feed | UrlKind::Sitemap | UrlKind::Index
    )
}

/// A claimed URL put back without a fetch (robots, budget, parked host):
/// logged under `kind`, not counted as a failed attempt.
pub fn skipped(q: &QueuedUrl, kind: SkipKind, next: NextState) -> WriteOp {
    WriteOp::Skipped(SkipRecord {
        url_id: q.id,
        at: now_ms(),
        reason: kind.as_str().to_string(),
        next,
        refused_under: None,
    })
}

/// A claimed URL refused by a setting (robots.txt): never fetched under
/// today's settings, tried again when they change (see [`super::retry`]).
fn refused(cfg: &Config, q: &QueuedUrl, kind: SkipKind) -> WriteOp {
    WriteOp::Skipped(SkipRecord {
        url_id: q.id,
        at: now_ms(),
        reason: kind.as_str().to_string(),
        next: NextState::Failed,
        refused_under: refusal(cfg, kind.as_str()),
    })
}

/// Resolves once the crawl is asked to stop.
async fn stopped(mut stop: watch::Receiver<bool>) {
    if stop.wait_for(|s| *s).await.is_err() {
        // The signal's sender is gone only after the run ended.
        std::future::pending::<()>().await;
    }
}

/// Ready to fetch (room for the body, a global slot, the host's turn), or
/// skipped by robots.txt.
enum Prepared {
    Go(OwnedSemaphorePermit, OwnedSemaphorePermit, Sent),
    Skip(Verdict),
}

/// A global fetch slot and the host's turn, the turn taken last: the request
/// leaves right after, so the host's spacing is the spacing it sees. Wait
/// (holding nothing) until the host's turn is due, take a slot, and take the
/// turn if it is still free (another worker of the host may have taken it
/// meanwhile; then give the slot back and wait again). On a shared store the
/// host's turn across all processes is taken too, last ([`shared_turn`]).
async fn send_turn(ctx: &Ctx, host: &str) -> Option<(OwnedSemaphorePermit, Sent)> {
    loop {
        tokio::time::sleep_until(ctx.politeness.send_ready_at(host).into()).await;
        let slot = ctx.fetch_slots.clone().acquire_owned().await.ok()?;
        match ctx.politeness.try_send(host) {
            Ok(sent) => match shared_turn(ctx, host).await {
                None => return Some((slot, sent)),
                Some(wait) => {
                    drop((slot, sent));
                    ctx.politeness.defer(host, std::time::Instant::now() + wait);
                }
            },
            Err(_) => drop(slot),
        }
    }
}

/// Take `host`'s turn in the shared store, if there is one: `None` when the
/// request may leave, else how long to wait (another process had the turn,
/// or the store cannot be asked: politeness holds, the request waits).
async fn shared_turn(ctx: &Ctx, host: &str) -> Option<Duration> {
    let turns = ctx.host_turns.as_ref()?;
    match turns.take(host, ctx.politeness.spacing(host)).await {
        Ok(Turn::Taken) => None,
        Ok(Turn::NotFor(wait)) => Some(wait),
        Err(e) => {
            tracing::warn!("{host}: cannot take the host's shared turn, waiting: {e}");
            Some(SHARED_TURN_RETRY)
        }
    }
}

/// How long a request waits when the shared store cannot give its host's
/// turn.
const SHARED_TURN_RETRY: Duration = Duration::from_secs(1);

/// Everything before the request, all of it waiting: robots.txt, room for
/// the body, then the host's turn with a global fetch slot.
async fn prepare(
    ctx: &Ctx,
    url: &Url,
    host: &str,
    site: &SiteSettings,
    ops: &mut Vec<WriteOp>,
) -> Option<Prepared> {
    if ctx.cfg.politeness.respect_robots {
        let verdict = robots_verdict(ctx, url, host, site, ops).await;
        if verdict != Verdict::Allowed {
            return Some(Prepared::Skip(verdict));
        }
    }
    let body = ctx.body_budget.reserve().await?;
    let (slot, sent) = send_turn(ctx, host).await?;
    Some(Prepared::Go(body, slot, sent))
}

pub async fn work(ctx: Arc<Ctx>, job: Job, stop: watch::Receiver<bool>) -> Done {
    let Job {
        q,
        url,
        host,
        site,
        permit,
    } = job;
    let mut ops = Vec::new();
    let mut done = Done {
        retry_at: None,
        aborted: false,
    };
    // Waiting can be cut short by a stop; the URL then stays claimed and the
    // end-of-run reset queues it again. A fetch that started is finished.
    let prepared = tokio::select! {
        p = prepare(&ctx, &url, &host, &site, &mut ops) => p,
        _ = stopped(stop) => None,
    };
    let (mut body_room, slot, sent) = match prepared {
        Some(Prepared::Go(body_room, slot, sent)) => (body_room, slot, sent),
        Some(Prepared::Skip(Verdict::Unknown)) => {
            ctx.counters.skip(SkipKind::RobotsUnavailable);
            let retry = now_ms() + ms(super::robots::UNAVAILABLE_RETRY);
            ops.push(skipped(
                &q,
                SkipKind::RobotsUnavailable,
                NextState::At(retry),
            ));
            finish(&ctx, ops, permit).await;
            return done;
        }
        Some(Prepared::Skip(_)) => {
            ctx.counters.skip(SkipKind::RobotsDisallowed);
            ops.push(refused(&ctx.cfg, &q, SkipKind::RobotsDisallowed));
            finish(&ctx, ops, permit).await;
            return done;
        }
        None => {
            done.aborted = true;
            return done;
        }
    };
    let started_at = now_ms();
    // A refetched article is asked conditionally too: unchanged is a 304.
    let validators = if is_revisited(q.kind) || q.fetched_before {
        Validators {
            etag: q.etag.clone(),
            last_modified: q.last_modified.clone(),
        }
    } else {
        Validators::default()
    };
    let expect = match q.kind {
        UrlKind::Feed | UrlKind::Sitemap => Expect::Feed,
        _ => Expect::Html,
    };
    let result = ctx.fetcher.fetch(&url, &validators, expect).await;
    // The response has been read: a Crawl-delay counts from here.
    drop(sent);
    let (record, probe_from, hold) = match result {
        Err(e) => {
            let (record, retry_at) = failed(&ctx, &q, &host, started_at, &e);
            done.retry_at = retry_at;
            (record, None, false)
        }
        Ok(fetched) => {
            BodyBudget::shrink(&mut body_room, fetched.body.len());
            succeeded(&ctx, &q, &site, &host, started_at, fetched, &mut ops).await
        }
    };
    // Fetch and processing are done: the slot and the body's room can go.
    drop(slot);
    drop(body_room);
    if let Some(page) = probe_from {
        probe_step::probe_if_due(&ctx, &site, &page, &host, &mut ops).await;
    }
    ops.push(WriteOp::Fetched(record));
    finish(&ctx, ops, permit).await;
    if hold {
        learning_step::hold(&ctx, &site.name, &q.url).await;
    }
    done
}

/// Write, then release the host for the next URL.
async fn finish(ctx: &Ctx, ops: Vec<WriteOp>, permit: HostPermit) {
    // A stopped writer is noticed (and reported) by the scheduler's next claim.
    let _ = ctx.writer.write(ops).await;
    drop(permit);
}

/// When an article fetched for the first time is fetched once more
/// (`[crawler] refetch_articles_after_secs`, 0 = never); `kind` is the
/// URL's kind after its page was judged. A refetch is the last visit:
/// `fetched_before` is set by then.
pub fn refetch_at(cfg: &Config, kind: UrlKind, fetched_before: bool) -> Option<i64> {
    let after = cfg.crawler.refetch_articles_after;
    (!after.is_zero() && kind == UrlKind::Article && !fetched_before).then(|| now_ms() + ms(after))
}

pub fn revisit_ms(cfg: &Config) -> i64 {
    ms(cfg.crawler.revisit)
}

async fn succeeded(
    ctx: &Ctx,
    q: &QueuedUrl,
    site: &Arc<SiteSettings>,
    host: &str,
    started_at: i64,
    mut fetched: Fetched,
    ops: &mut Vec<WriteOp>,
) -> (FetchRecord, Option<Url>, bool) {
    let cfg = &ctx.cfg;
    let bytes = fetched.body.len() as u64;
    ctx.politeness.record_success(host);
    Counters::add(&ctx.counters.pages_fetched, 1);
    let mut completed = true;
    let mut judgement = None;
    // The URL's kind once its page is judged.
    let mut kind = q.kind;
    // What the judged page is for the rest of the crawl.
    let mut after = record::AfterJudgement::default();
    let mut probe_from = None;
    // What the fetch log says was left out.
    let mut note = None;
    if fetched.not_modified() {
        Counters::add(&ctx.counters.not_modified, 1);
    } else {
        let body = std::mem::take(&mut fetched.body);
        let (processed, html) = process_blocking(ctx, q, site, &fetched, body).await;
        if let Some(c) = processed.capped {
            ctx.counters.capped(c);
        }
        if let Some(p) = processed.problem {
            completed &= p != ErrorKind::ProcessPanic;
            ctx.counters.error(p);
        }
        let article = (!matches!(q.kind, UrlKind::Feed | UrlKind::Sitemap))
            .then_some(processed.article.is_some());
        let patterns = !site.article_patterns.is_empty() || !site.index_patterns.is_empty();
        if let Some((_, first)) = processed.unmatched.first() {
            tracing::debug!(
                url = %q.url,
                "{} links match no pattern of site {} (first: {first})",
                processed.unmatched.len(),
                site.name
            );
        }
        ctx.counters.sites.page(
            &site.name,
            patterns,
            article,
            processed.article_links,
            &processed.unmatched,
        );
        let announced = (processed.urls.iter())
            .filter(|u| matches!(u.kind, UrlKind::Feed | UrlKind::Sitemap))
            .count();
        if probe_step::announces_nothing(site, q.kind, announced, 0) {
            probe_from = Some(fetched.final_url.clone());
        }
        // Links the frontier has already still count as discovered.
        let discovered = processed.urls.len() + processed.urls_known;
        Counters::add(&ctx.counters.urls_discovered, discovered as u64);
        Counters::add(&ctx.counters.links_outside, processed.outside as u64);
        if !processed.urls.is_empty() {
            ops.push(WriteOp::AddUrls(processed.urls));
        }
        if !processed.known.is_empty() {
            ops.push(WriteOp::Known(processed.known));
        }
        judgement = processed.judgement.map(|j| {
            if !j.is_article() {
                Counters::add(&ctx.counters.pages_not_articles, 1);
            }
            let changed = PageJudgement::kind_after(j.is_article(), q.kind);
            kind = changed.unwrap_or(kind);
            PageJudgement {
                article: j.is_article(),
                reason: j.reason.as_str(),
                kind: changed,
            }
        });
        learning_step::listed_and_promoted(ctx, processed.listed, processed.promote, ops);
        if let (Some(j), true) = (&processed.judgement, shapes::by_shapes(site)) {
            if !j.is_article() {
                let url = fetched.final_url.as_str();
                (ctx.counters.sites).not_article(&site.name, j.reason.as_str(), url);
            }
        }
        let from = Source {
            site,
            kind: q.kind,
            url: &q.url,
            url_id: Some(q.id),
            page_url: &fetched.final_url,
            fetched_at: fetched.fetched_at,
            refetch: q.fetched_before,
            max_text_bytes: cfg.store.max_text_bytes,
        };
        after = record::writes(
            &from,
            processed.article,
            processed.judgement,
            processed.rule,
            html,
            &ctx.learned,
            ops,
        );
        if let Some((len, kept)) = after.text_cut {
            ctx.counters.capped(CapKind::TextBytes);
            note = Some(format!("text_cut {len} {kept}"));
        }
    }
    // A page of a site without patterns judged a listing is revisited like
    // an index page (it was queued before its shape was known); one judged
    // an article is an article from now on.
    // A page queued by a learned index shape is revisited only if judged
    // a list.
    let revisited = match kind {
        UrlKind::Index if after.judged => after.listing,
        kind => is_revisited(kind) || after.listing,
    };
    let next = if revisited {
        NextState::At(now_ms() + revisit_ms(cfg))
    } else if let Some(at) = refetch_at(cfg, kind, q.fetched_before) {
        NextState::At(at)
    } else {
        NextState::Done
    };
    if completed {
        Counters::add(&ctx.counters.pages_completed, 1);
    }
    let record = FetchRecord {
        url_id: q.id,
        started_at,
        status: Some(fetched.status),
        error_kind: None,
        bytes,
        elapsed_ms: ms(fetched.elapsed).max(0) as u64,
        final_url: (!fetched.redirects.is_empty()).then(|| fetched.final_url.to_string()),
        content_type: fetched.content_type,
        etag: fetched.etag,
        last_modified: fetched.last_modified,
        next,
        judgement,
        refused_under: None,
        note,
    };
    (record, probe_from, after.hold)
}
