//! The crawl's writes both stores say in one text: a site's id (created on
//! first use), a fetch's or a skip's log row and its URL's new state,
//! promoted URLs, a `tree` page's use of its site's rule, a batch's shape
//! counts, an import file's progress, and the pages fetched per site.
//!
//! In: the batch's transaction as [`Sql`] and the records of its ops. Out:
//! rows of `sites`, `fetches`, `urls`, `site_rules` and `url_shapes`.
//! Counts are raised in SQL (`count = count + n`), never written back from
//! what was read, so processes sharing a PostgreSQL store add up. What
//! each store does its own way stays there: adding URLs under the per-site
//! cap (PostgreSQL's `unnest` groups), claims and leases.

use std::collections::HashMap;

use crate::store::rules::frontier::{now_ms, state_after};
use crate::store::rules::shapes::summed;
use crate::store::sql::{int, Dialect, Sql, Value};
use crate::store::{
    AnyStore, FetchRecord, NewUrl, Rejudge, ShapeUpdate, SiteRuleUpdate, SkipRecord, StoreError,
    UrlKind, WriteOp, WriteOutcome,
};

/// The id of the named site, created if new. Looked up first, so that a
/// process that waited for another's insert of the same name reads it.
pub(crate) fn site_id_created(sql: &mut dyn Sql, name: &str) -> Result<i64, StoreError> {
    if let Some(id) = super::site_id(sql, name)? {
        return Ok(id);
    }
    let insert = "INSERT INTO sites (name) VALUES (?1) ON CONFLICT (name) DO NOTHING";
    sql.execute(insert, &[name.into()])?;
    let find = "SELECT id FROM sites WHERE name = ?1";
    sql.one(find, &[name.into()], |r| r.int(0))
}

/// [`site_id_created`], remembered in `known` (sites are never deleted).
pub(crate) fn site_id_known(
    sql: &mut dyn Sql,
    known: &mut HashMap<String, i64>,
    name: &str,
) -> Result<i64, StoreError> {
    if let Some(&id) = known.get(name) {
        return Ok(id);
    }
    let id = site_id_created(sql, name)?;
    known.insert(name.to_string(), id);
    Ok(id)
}

/// One op of a batch that both stores write with the statements here (a
/// fetch's or a skip's log, a site rule's use, promotions; shape counts
/// are only gathered into `shapes`, for [`add_shapes`] at the batch's
/// end), and its outcome; `None` for the ops each store writes its own
/// way (new and known URLs, articles). `by` names the process on a shared
/// store.
pub(crate) fn write_op(
    sql: &mut dyn Sql,
    op: &WriteOp,
    by: Option<&str>,
    shapes: &mut Vec<ShapeUpdate>,
) -> Result<Option<WriteOutcome>, StoreError> {
    Ok(Some(match op {
        WriteOp::Fetched(rec) => {
            record_fetch(sql, rec, by)?;
            WriteOutcome::FetchRecorded
        }
        WriteOp::Skipped(rec) => {
            record_skip(sql, rec, by)?;
            WriteOutcome::FetchRecorded
        }
        WriteOp::SiteRule(u) => {
            record_site_rule(sql, u)?;
            WriteOutcome::RuleRecorded
        }
        WriteOp::Shapes(u) => {
            shapes.push(u.clone());
            WriteOutcome::ShapesRecorded
        }
        WriteOp::Promote(urls) => WriteOutcome::UrlsPromoted(promote(sql, urls)?),
        WriteOp::ImportProgress(p) => {
            super::imports::record_progress(sql, p, now_ms())?;
            WriteOutcome::ImportProgressed
        }
        WriteOp::Rejudge(r) => WriteOutcome::UrlsRejudged(rejudge(sql, r)?),
        WriteOp::AddUrls(_) | WriteOp::Known(_) | WriteOp::Article(_) | WriteOp::Refetched(_) => {
            return Ok(None)
        }
    }))
}

/// What a store shared by several processes also writes when a URL is
/// done with: who fetched it, and that its lease ends.
fn by_process(by: Option<&str>) -> [&'static str; 3] {
    match by {
        Some(_) => [
            ", fetched_by",
            ", ?12",
            ", leased_by = NULL, lease_until = NULL",
        ],
        None => ["", "", ""],
    }
}

/// Put the URLs left `fetching` by an interrupted run back in the queue:
/// every one on a store of one process; on a shared store only those of
/// process `by` (another live process's end with their lease). How many.
pub(crate) fn put_back_in_flight(sql: &mut dyn Sql, by: Option<&str>) -> Result<usize, StoreError> {
    let [_, _, unlease] = by_process(by);
    let mine = if by.is_some() {
        " AND leased_by = ?1"
    } else {
        ""
    };
    let put_back =
        format!("UPDATE urls SET state = 'queued'{unlease} WHERE state = 'fetching'{mine}");
    let params: Vec<Value> = by.map(Value::from).into_iter().collect();
    let n = sql.execute(&put_back, &params)?;
    Ok(usize::try_from(n).unwrap_or(usize::MAX))
}

/// A fetch: logged (naming the process `by`, on a shared store), the URL
/// moved to its next state. `attempts` counts consecutive failures (the
/// backoff exponent): a success resets it, and records when the page was
/// fetched, which the per-site page budget counts.
pub(crate) fn record_fetch(
    sql: &mut dyn Sql,
    rec: &FetchRecord,
    by: Option<&str>,
) -> Result<(), StoreError> {
    let [by_column, by_value, unlease] = by_process(by);
    let log = format!(
        "INSERT INTO fetches(url_id, started_at, status, error_kind, bytes, elapsed_ms,
                             final_url, content_type, judged, judge_reason, note{by_column})
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11{by_value})"
    );
    let mut params = vec![
        rec.url_id.into(),
        rec.started_at.into(),
        rec.status.map(i64::from).into(),
        rec.error_kind.as_ref().into(),
        int(rec.bytes),
        int(rec.elapsed_ms),
        rec.final_url.as_ref().into(),
        rec.content_type.as_ref().into(),
        rec.judgement.map(|j| j.verdict()).into(),
        rec.judgement.map(|j| j.reason).into(),
        rec.note.as_ref().into(),
    ];
    params.extend(by.map(Value::from));
    sql.execute(&log, &params)?;
    let (state, next_at) = state_after(&rec.next, "failed");
    let update = format!(
        "UPDATE urls SET
            state = ?2,
            next_fetch_at = coalesce(?3, next_fetch_at),
            etag = coalesce(?4, etag),
            last_modified = coalesce(?5, last_modified),
            attempts = CASE WHEN CAST(?6 AS TEXT) IS NULL THEN 0 ELSE attempts + 1 END,
            last_status = ?7,
            last_error = ?6,
            fetched_at = CASE WHEN CAST(?6 AS TEXT) IS NULL THEN ?8 ELSE fetched_at END,
            refused_under = ?9,
            kind = coalesce(?10, kind){unlease}
         WHERE id = ?1"
    );
    let kind = rec.judgement.and_then(|j| j.kind).map(|k| k.as_str());
    let params = [
        rec.url_id.into(),
        state.into(),
        next_at.into(),
        rec.etag.as_ref().into(),
        rec.last_modified.as_ref().into(),
        rec.error_kind.as_ref().into(),
        rec.status.map(i64::from).into(),
        rec.started_at.into(),
        rec.refused_under.as_ref().into(),
        kind.into(),
    ];
    url_changed(sql.execute(&update, &params)?)
}

/// A skip: logged, the URL rescheduled or set aside, its failure count and
/// last status untouched.
pub(crate) fn record_skip(
    sql: &mut dyn Sql,
    rec: &SkipRecord,
    by: Option<&str>,
) -> Result<(), StoreError> {
    let [by_column, _, unlease] = by_process(by);
    let by_value = if by.is_some() { ", ?5" } else { "" };
    let log = format!(
        "INSERT INTO fetches(url_id, started_at, error_kind, bytes, elapsed_ms, skipped{by_column})
         VALUES (?1, ?2, ?3, 0, 0, ?4{by_value})"
    );
    let mut params = vec![
        rec.url_id.into(),
        rec.at.into(),
        rec.reason.as_str().into(),
        true.into(),
    ];
    params.extend(by.map(Value::from));
    sql.execute(&log, &params)?;
    let (state, next_at) = state_after(&rec.next, "skipped");
    let update = format!(
        "UPDATE urls SET state = ?2, next_fetch_at = coalesce(?3, next_fetch_at),
            last_error = ?4, refused_under = ?5{unlease}
         WHERE id = ?1"
    );
    let params = [
        rec.url_id.into(),
        state.into(),
        next_at.into(),
        rec.reason.as_str().into(),
        rec.refused_under.as_ref().into(),
    ];
    url_changed(sql.execute(&update, &params)?)
}

/// A fetch's URL must exist: the log's foreign key already says so; kept
/// explicit so the batch fails even with foreign keys off.
fn url_changed(changed: u64) -> Result<(), StoreError> {
    match changed {
        0 => Err(StoreError::NoRow("UPDATE urls ... WHERE id = ?1".into())),
        _ => Ok(()),
    }
}

/// URLs known without a fetch (canonical aliases, just added): a queued
/// one is set `done`, so no claim hands it out (in URL order, so two
/// batches lock their rows in one order). `fetched_at` stays empty, so
/// they cost no page budget.
pub(crate) fn known_done(sql: &mut dyn Sql, urls: &[NewUrl]) -> Result<(), StoreError> {
    let done = "UPDATE urls SET state = 'done' WHERE url = ?1 AND state = 'queued'";
    let mut urls: Vec<&NewUrl> = urls.iter().collect();
    urls.sort_unstable_by(|a, b| a.url.cmp(&b.url));
    for u in urls {
        sql.execute(done, &[u.url.as_str().into()])?;
    }
    Ok(())
}

/// Queued plain pages among `urls` given their kind and priority (see
/// [`crate::store::WriteOp::Promote`]), in URL order so two batches lock
/// their rows in one order; returns how many changed.
pub(crate) fn promote(sql: &mut dyn Sql, urls: &[NewUrl]) -> Result<usize, StoreError> {
    let mut urls: Vec<&NewUrl> = urls.iter().filter(|u| u.kind != UrlKind::Page).collect();
    urls.sort_unstable_by(|a, b| a.url.cmp(&b.url));
    let greater = match sql.dialect() {
        Dialect::Sqlite => "max",
        Dialect::Postgres => "GREATEST",
    };
    let update = format!(
        "UPDATE urls SET kind = ?2, priority = {greater}(priority, ?3)
         WHERE url = ?1 AND kind = 'page' AND state = 'queued'"
    );
    let mut changed = 0;
    for u in urls {
        let params = [
            u.url.as_str().into(),
            u.kind.as_str().into(),
            i64::from(u.priority).into(),
        ];
        changed += sql.execute(&update, &params)?;
    }
    Ok(usize::try_from(changed).unwrap_or(usize::MAX))
}

/// Judged pages among `rejudge.urls` queued again (see
/// [`crate::store::WriteOp::Rejudge`]): a plain or index page, done or
/// waiting for a revisit, whose last judgement gave one of the reasons
/// (`requeue::last_judged_for`), due now, with the given kind
/// and priority (in URL order, so two batches lock their rows in one
/// order); returns how many.
pub(crate) fn rejudge(sql: &mut dyn Sql, rejudge: &Rejudge) -> Result<usize, StoreError> {
    if rejudge.reasons.is_empty() {
        return Ok(0);
    }
    let mut urls: Vec<&NewUrl> = rejudge.urls.iter().collect();
    urls.sort_unstable_by(|a, b| a.url.cmp(&b.url));
    let update = format!(
        "UPDATE urls SET kind = ?2, priority = ?3, state = 'queued', next_fetch_at = 0
         WHERE url = ?1 AND {}",
        super::requeue::last_judged_for("urls", 4, rejudge.reasons.len())
    );
    let mut changed = 0;
    for u in urls {
        let mut params = vec![
            u.url.as_str().into(),
            u.kind.as_str().into(),
            i64::from(u.priority).into(),
        ];
        params.extend(rejudge.reasons.iter().map(|r| Value::from(*r)));
        changed += sql.execute(&update, &params)?;
    }
    Ok(usize::try_from(changed).unwrap_or(usize::MAX))
}

/// Record a `tree` article page's use of its site's rule.
pub(crate) fn record_site_rule(sql: &mut dyn Sql, u: &SiteRuleUpdate) -> Result<(), StoreError> {
    let site_id = site_id_created(sql, &u.site)?;
    let counts = "INSERT INTO site_rules AS r (site_id, pages_by_rule, pages_by_tree, dropped)
         VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (site_id) DO UPDATE SET
             pages_by_rule = r.pages_by_rule + excluded.pages_by_rule,
             pages_by_tree = r.pages_by_tree + excluded.pages_by_tree,
             dropped = r.dropped + excluded.dropped";
    let used = [u.by_rule, !u.by_rule, u.dropped].map(i64::from);
    sql.execute(
        counts,
        &[
            site_id.into(),
            used[0].into(),
            used[1].into(),
            used[2].into(),
        ],
    )?;
    if u.dropped {
        let drop = "UPDATE site_rules SET rule = NULL, display = NULL WHERE site_id = ?1";
        sql.execute(drop, &[site_id.into()])?;
    }
    if let Some((json, display)) = &u.learned {
        let learned = "UPDATE site_rules SET rule = ?2, display = ?3 WHERE site_id = ?1";
        sql.execute(learned, &[site_id.into(), json.into(), display.into()])?;
    }
    Ok(())
}

/// Add a batch's shape counts (summed, in (site, shape) order, so two
/// batches never wait for each other in a circle), a revised shape's
/// listings and others dropped first; site ids from `known` or created.
pub(crate) fn add_shapes(
    sql: &mut dyn Sql,
    known: &mut HashMap<String, i64>,
    updates: &[ShapeUpdate],
) -> Result<(), StoreError> {
    let upsert = "INSERT INTO url_shapes AS u (site_id, shape, articles, listings, others, stories)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)
         ON CONFLICT (site_id, shape) DO UPDATE SET
            articles = u.articles + excluded.articles,
            listings = CASE WHEN ?7 THEN 0 ELSE u.listings END + excluded.listings,
            others = CASE WHEN ?7 THEN 0 ELSE u.others END + excluded.others,
            stories = u.stories + excluded.stories";
    for ((site, shape), sum) in summed(updates) {
        let id = site_id_known(sql, known, site)?;
        let [a, l, o, s] = sum.add;
        let params = [
            id.into(),
            shape.into(),
            a.into(),
            l.into(),
            o.into(),
            s.into(),
            sum.revised.into(),
        ];
        sql.execute(upsert, &params)?;
    }
    Ok(())
}

/// Pages fetched so far per site (database lifetime, for budgets).
pub(crate) fn pages_by_site(sql: &mut dyn Sql) -> Result<HashMap<String, u64>, StoreError> {
    let query = "SELECT s.name, count(u.id) FROM sites s
         LEFT JOIN urls u ON u.site_id = s.id AND u.fetched_at IS NOT NULL
         GROUP BY s.id, s.name";
    let rows = sql.rows(query, &[], |r| Ok((r.text(0)?, r.count(1)?)))?;
    Ok(rows.into_iter().collect())
}

impl AnyStore {
    /// Pages fetched so far per site (database lifetime, for budgets).
    pub fn pages_by_site(&mut self) -> Result<HashMap<String, u64>, StoreError> {
        pages_by_site(self.sql())
    }
}

#[cfg(test)]
mod tests;
