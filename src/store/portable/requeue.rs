//! Failed and refused URLs queued again, judged pages to judge again, and
//! what waits or failed in the frontier.
//!
//! In: site names, the refusal fingerprints of today's settings, whether
//! waits are lifted, the judge reasons new evidence may change (the
//! crawl's retry rule and judgement decide them; this file holds only the
//! SQL). Out: how many URLs were queued again or made due; the pages
//! judged for one of those reasons; the frontier's waiting, failed and
//! refused URLs grouped by site and reason, and each site's stored
//! articles and unfetched URLs ([`Outlook`]).

use super::super::sql::{int, Dialect, Sql, Value};
use super::super::{AnyStore, Outlook, OutlookRow, Requeue, StoreError};

/// The failed or skipped URLs of site `?1` queued again with a fresh count
/// of attempts (on PostgreSQL their lease, if any, ends too).
fn queue_again(dialect: Dialect) -> String {
    let lease = match dialect {
        Dialect::Sqlite => "",
        Dialect::Postgres => ", leased_by = NULL, lease_until = NULL",
    };
    format!(
        "UPDATE urls SET state = 'queued', next_fetch_at = 0, attempts = 0,
            refused_under = NULL{lease}
         WHERE site_id = (SELECT id FROM sites WHERE name = ?1)
           AND state IN ('failed', 'skipped')"
    )
}

/// The condition "the URL (`urls` row `u`)'s last judgement gave one of
/// the `n` reasons bound from `?{first}` on", and its placeholders: a
/// plain or index page (a page judged an article is an article URL), done
/// or queued for a revisit.
pub(crate) fn last_judged_for(u: &str, first: usize, n: usize) -> String {
    let reasons: Vec<String> = (first..first + n).map(|i| format!("?{i}")).collect();
    format!(
        "{u}.state IN ('done', 'queued') AND {u}.kind IN ('page', 'index')
         AND (SELECT f.judge_reason FROM fetches f
              WHERE f.url_id = {u}.id AND f.judged IS NOT NULL
              ORDER BY f.id DESC LIMIT 1) IN ({})",
        reasons.join(", ")
    )
}

/// The pages of `sites` whose last judgement gave one of `reasons`
/// (`last_judged_for`): (site, URL), oldest first, at most `limit` per site.
pub(crate) fn judged_for(
    sql: &mut dyn Sql,
    sites: &[String],
    reasons: &[&str],
    limit: usize,
) -> Result<Vec<(String, String)>, StoreError> {
    if reasons.is_empty() {
        return Ok(Vec::new());
    }
    let query = format!(
        "SELECT s.name, u.url FROM urls u JOIN sites s ON s.id = u.site_id
         WHERE s.name = ?1 AND {} ORDER BY u.id LIMIT ?2",
        last_judged_for("u", 3, reasons.len())
    );
    let mut out = Vec::new();
    for site in sites {
        let mut params: Vec<Value> = vec![site.into(), int(limit)];
        params.extend(reasons.iter().map(|r| Value::from(*r)));
        out.extend(sql.rows(&query, &params, |r| Ok((r.text(0)?, r.text(1)?)))?);
    }
    Ok(out)
}

/// Queued URLs that wait because something went wrong (a skip or a
/// failure set `last_error`), by site and reason, with the first due time.
const WAITING_SQL: &str = "SELECT s.name, u.last_error, count(*), min(u.next_fetch_at)
     FROM urls u JOIN sites s ON s.id = u.site_id
     WHERE u.state = 'queued' AND u.next_fetch_at > ?1 AND u.last_error IS NOT NULL
     GROUP BY s.name, u.last_error ORDER BY s.name, u.last_error";

/// URLs given up (failed) or set aside (skipped: refused by robots.txt),
/// by state, site and reason.
const FAILED_SQL: &str = "SELECT u.state, s.name, coalesce(u.last_error, 'unknown'), count(*)
     FROM urls u JOIN sites s ON s.id = u.site_id
     WHERE u.state IN ('failed', 'skipped')
     GROUP BY u.state, s.name, u.last_error ORDER BY s.name, u.last_error";

/// Of site `?1`: its stored articles, and its URLs queued but never
/// fetched.
const SITE_SQL: &str = "SELECT
       (SELECT count(*) FROM articles a WHERE a.site_id = s.id),
       (SELECT count(*) FROM urls u
        WHERE u.site_id = s.id AND u.state = 'queued' AND u.fetched_at IS NULL)
     FROM sites s WHERE s.name = ?1";

/// The URLs of site `?1` that wait after a skip or a failure (queued, not
/// due at `?2`) made due now, with fresh attempts; with `?3` false only if
/// none of the site's URLs is due at `?2`.
const LIFT_SQL: &str = "UPDATE urls SET next_fetch_at = 0, attempts = 0
     WHERE site_id = (SELECT id FROM sites WHERE name = ?1)
       AND state = 'queued' AND last_error IS NOT NULL AND next_fetch_at > ?2
       AND (?3 OR NOT EXISTS (
           SELECT 1 FROM urls d JOIN sites ds ON ds.id = d.site_id
           WHERE ds.name = ?1 AND d.state = 'queued' AND d.next_fetch_at <= ?2))";

/// Queue again the URLs of `sites` refused for one of `refusals`' reasons
/// under another fingerprint than the one given (or before fingerprints
/// were kept); how many.
pub(crate) fn requeue_refused(
    sql: &mut dyn Sql,
    sites: &[String],
    refusals: &[(String, String)],
) -> Result<usize, StoreError> {
    let update = format!(
        "{} AND last_error = ?2 AND coalesce(refused_under, '') <> ?3",
        queue_again(sql.dialect())
    );
    let mut n = 0;
    for site in sites {
        for (reason, fingerprint) in refusals {
            n += sql.execute(&update, &[site.into(), reason.into(), fingerprint.into()])?;
        }
    }
    Ok(usize::try_from(n).unwrap_or(usize::MAX))
}

/// Queue again every failed URL of `sites` (`crawl --retry-failed`), with
/// a fresh count of attempts; how many.
pub(crate) fn requeue_failed(sql: &mut dyn Sql, sites: &[String]) -> Result<usize, StoreError> {
    let update = queue_again(sql.dialect());
    let mut n = 0;
    for site in sites {
        n += sql.execute(&update, &[site.into()])?;
    }
    Ok(usize::try_from(n).unwrap_or(usize::MAX))
}

/// Make due now the URLs of `sites` that wait after a skip or a failure:
/// every site's with `every`, else only a site none of whose URLs is due
/// at `now_ms` (the crawl's retry rule decides which); how many.
pub(crate) fn lift_waits(
    sql: &mut dyn Sql,
    sites: &[String],
    now_ms: i64,
    every: bool,
) -> Result<usize, StoreError> {
    let mut n = 0;
    for site in sites {
        n += sql.execute(LIFT_SQL, &[site.into(), now_ms.into(), every.into()])?;
    }
    Ok(usize::try_from(n).unwrap_or(usize::MAX))
}

/// What a crawl queues again before it starts: URLs refused under other
/// settings, with `requeue.failed` every failed one, and the waits
/// [`lift_waits`] lifts; (queued again, waits lifted).
pub(crate) fn requeue(
    sql: &mut dyn Sql,
    sites: &[String],
    requeue: &Requeue,
) -> Result<(usize, usize), StoreError> {
    let mut again = requeue_refused(sql, sites, &requeue.refusals)?;
    if requeue.failed {
        again += requeue_failed(sql, sites)?;
    }
    let lifted = lift_waits(sql, sites, requeue.now_ms, requeue.failed)?;
    Ok((again, lifted))
}

/// What of `sites` waits (not due at `now_ms`, after a skip or a failure),
/// what failed or was refused, in the whole frontier, and what each has
/// stored and left queued.
pub(crate) fn outlook(
    sql: &mut dyn Sql,
    sites: &[String],
    now_ms: i64,
) -> Result<Outlook, StoreError> {
    let mut waiting = sql.rows(WAITING_SQL, &[now_ms.into()], |r| {
        Ok(OutlookRow {
            site: r.text(0)?,
            reason: r.text(1)?,
            urls: r.count(2)?,
            until: Some(r.int(3)?),
        })
    })?;
    let given_up = sql.rows(FAILED_SQL, &[], |r| {
        let row = OutlookRow {
            site: r.text(1)?,
            reason: r.text(2)?,
            urls: r.count(3)?,
            until: None,
        };
        Ok((r.text(0)? == "skipped", row))
    })?;
    waiting.retain(|r| sites.contains(&r.site));
    let mut out = Outlook {
        waiting,
        ..Outlook::default()
    };
    for (skipped, row) in given_up
        .into_iter()
        .filter(|(_, r)| sites.contains(&r.site))
    {
        match skipped {
            true => out.refused.push(row),
            false => out.failed.push(row),
        }
    }
    for site in sites {
        let counts = sql.first(SITE_SQL, &[site.into()], |r| Ok((r.count(0)?, r.count(1)?)))?;
        let (stored, queued) = counts.unwrap_or_default();
        out.stored.insert(site.clone(), stored);
        out.queued.insert(site.clone(), queued);
    }
    Ok(out)
}

impl AnyStore {
    /// What a crawl of `sites` queues again before it starts (see
    /// [`Requeue`]); (queued again, waits lifted). One transaction.
    pub fn requeue(
        &mut self,
        sites: &[String],
        plan: &Requeue,
    ) -> Result<(usize, usize), StoreError> {
        self.in_transaction(|sql| requeue(sql, sites, plan))
    }

    /// The pages of `sites` whose last judgement gave one of `reasons`:
    /// (site, URL), at most `limit` per site.
    pub fn judged_for(
        &mut self,
        sites: &[String],
        reasons: &[&str],
        limit: usize,
    ) -> Result<Vec<(String, String)>, StoreError> {
        judged_for(self.sql(), sites, reasons, limit)
    }

    /// What of `sites` waits or failed in the frontier.
    pub fn outlook(&mut self, sites: &[String], now_ms: i64) -> Result<Outlook, StoreError> {
        outlook(self.sql(), sites, now_ms)
    }
}
