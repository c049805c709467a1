//! Batched writes on SQLite: a list of [`WriteOp`]s in, one [`WriteOutcome`]
//! per op out, all in ONE transaction (any failing op rolls the whole batch
//! back).
//!
//! The frontier's ops are SQL here; an article goes to the rules of
//! [`rules::article`] (de-duplication, near-duplicates, learning in the
//! same transaction) over this store's primitives ([`primitives`]). The batch's
//! new articles enter the search indexes together at its end
//! ([`search_index`]).

mod primitives;

use rusqlite::{params, Transaction};

use super::frontier::{add_urls_in, SiteUrlCounts};
use super::rules;
use super::rules::frontier::state_after;
use super::search_index;
use super::NewUrl;
use super::{FetchRecord, SkipRecord, Store, StoreError, UrlKind, WriteOp, WriteOutcome};
pub(crate) use primitives::Sqlite;

impl Store {
    /// Apply a batch of writes in one transaction. On error nothing of the
    /// batch is kept.
    pub fn write_batch(&mut self, ops: Vec<WriteOp>) -> Result<Vec<WriteOutcome>, StoreError> {
        let out = write_batch_in(
            &mut self.conn,
            self.max_urls_per_site,
            &mut self.url_counts,
            ops,
        );
        match out {
            Ok(_) => self.after_commit(),
            // Rolled back: the counts of its URLs are wrong.
            Err(_) => self.url_counts.forget(),
        }
        out
    }
}

fn write_batch_in(
    conn: &mut rusqlite::Connection,
    cap: u64,
    counts: &mut SiteUrlCounts,
    ops: Vec<WriteOp>,
) -> Result<Vec<WriteOutcome>, StoreError> {
    let tx = conn.transaction()?;
    let mut indexed = search_index::last_article_id(&tx)?;
    let mut out = Vec::with_capacity(ops.len());
    // Summed and added last, in one order (see `url_shapes::summed`).
    let mut shapes = Vec::new();
    for op in ops {
        if matches!(op, WriteOp::Refetched(_)) {
            // It may update an article of this batch: index those first.
            indexed = search_index::index_after(&tx, indexed)?;
        }
        out.push(match op {
            WriteOp::AddUrls(urls) => {
                WriteOutcome::UrlsAdded(add_urls_in(&tx, &urls, cap, counts)?)
            }
            WriteOp::Fetched(rec) => {
                record_fetch(&tx, &rec)?;
                WriteOutcome::FetchRecorded
            }
            WriteOp::Known(urls) => WriteOutcome::UrlsAdded(add_known(&tx, &urls, counts)?),
            WriteOp::Skipped(rec) => {
                record_skip(&tx, &rec)?;
                WriteOutcome::FetchRecorded
            }
            WriteOp::Article(a) => rules::article::store(&mut Sqlite(&tx), &a)?,
            WriteOp::Refetched(a) => rules::article::refetched(&mut Sqlite(&tx), &a)?,
            WriteOp::SiteRule(u) => {
                super::site_rules::apply_update(&tx, &u)?;
                WriteOutcome::RuleRecorded
            }
            WriteOp::Shapes(u) => {
                shapes.push(u);
                WriteOutcome::ShapesRecorded
            }
            WriteOp::Promote(urls) => WriteOutcome::UrlsPromoted(promote(&tx, &urls)?),
        });
    }
    super::url_shapes::apply_updates(&tx, &shapes)?;
    search_index::index_after(&tx, indexed)?;
    tx.commit()?;
    Ok(out)
}

fn record_fetch(tx: &Transaction<'_>, rec: &FetchRecord) -> rusqlite::Result<()> {
    tx.prepare_cached(
        "INSERT INTO fetches(url_id, started_at, status, error_kind, bytes, elapsed_ms,
                             final_url, content_type, judged, judge_reason)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
    )?
    .execute(params![
        rec.url_id,
        rec.started_at,
        rec.status,
        rec.error_kind,
        i64::try_from(rec.bytes).unwrap_or(i64::MAX),
        i64::try_from(rec.elapsed_ms).unwrap_or(i64::MAX),
        rec.final_url,
        rec.content_type,
        rec.judgement.map(|j| j.verdict()),
        rec.judgement.map(|j| j.reason),
    ])?;
    let (state, next_at) = state_after(&rec.next, "failed");
    // `attempts` counts consecutive failures (the backoff exponent): a
    // success resets it. A success also records when the page was fetched,
    // which the per-site page budget counts.
    let changed = tx
        .prepare_cached(
            "UPDATE urls SET
                state = ?2,
                next_fetch_at = coalesce(?3, next_fetch_at),
                etag = coalesce(?4, etag),
                last_modified = coalesce(?5, last_modified),
                attempts = CASE WHEN ?6 IS NULL THEN 0 ELSE attempts + 1 END,
                last_status = ?7,
                last_error = ?6,
                fetched_at = CASE WHEN ?6 IS NULL THEN ?8 ELSE fetched_at END,
                refused_under = ?9
             WHERE id = ?1",
        )?
        .execute(params![
            rec.url_id,
            state,
            next_at,
            rec.etag,
            rec.last_modified,
            rec.error_kind,
            rec.status,
            rec.started_at,
            rec.refused_under,
        ])?;
    if changed == 0 {
        // The fetch log insert already enforces this through the foreign key;
        // kept explicit so the batch fails even with foreign keys off.
        return Err(rusqlite::Error::QueryReturnedNoRows);
    }
    Ok(())
}

/// URLs known without a fetch: inserted as `done` (or a queued one set
/// `done`). `fetched_at` stays empty, so they cost no page budget.
fn add_known(
    tx: &Transaction<'_>,
    urls: &[NewUrl],
    counts: &mut SiteUrlCounts,
) -> rusqlite::Result<usize> {
    // Known URLs (canonical aliases) are never capped: they are not fetched.
    let added = add_urls_in(tx, urls, 0, counts)?;
    let mut done =
        tx.prepare_cached("UPDATE urls SET state = 'done' WHERE url = ?1 AND state = 'queued'")?;
    for u in urls {
        done.execute([&u.url])?;
    }
    Ok(added)
}

/// Queued plain pages among `urls` given their kind and priority (see
/// [`WriteOp::Promote`]); returns how many changed.
fn promote(tx: &Transaction<'_>, urls: &[NewUrl]) -> rusqlite::Result<usize> {
    let mut update = tx.prepare_cached(
        "UPDATE urls SET kind = ?2, priority = max(priority, ?3)
         WHERE url = ?1 AND kind = 'page' AND state = 'queued'",
    )?;
    let mut changed = 0;
    for u in urls.iter().filter(|u| u.kind != UrlKind::Page) {
        changed += update.execute(params![u.url, u.kind.as_str(), u.priority])?;
    }
    Ok(changed)
}

/// A skip: logged, the URL rescheduled or set aside, its failure count and
/// last status untouched.
fn record_skip(tx: &Transaction<'_>, rec: &SkipRecord) -> rusqlite::Result<()> {
    tx.prepare_cached(
        "INSERT INTO fetches(url_id, started_at, error_kind, bytes, elapsed_ms, skipped)
         VALUES (?1, ?2, ?3, 0, 0, 1)",
    )?
    .execute(params![rec.url_id, rec.at, rec.reason])?;
    let (state, next_at) = state_after(&rec.next, "skipped");
    let changed = tx
        .prepare_cached(
            "UPDATE urls SET state = ?2, next_fetch_at = coalesce(?3, next_fetch_at),
                last_error = ?4, refused_under = ?5
             WHERE id = ?1",
        )?
        .execute(params![
            rec.url_id,
            state,
            next_at,
            rec.reason,
            rec.refused_under
        ])?;
    if changed == 0 {
        return Err(rusqlite::Error::QueryReturnedNoRows);
    }
    Ok(())
}
