//! Failed and refused URLs queued again, and what waits or failed in the
//! frontier, on PostgreSQL: the SQL of `store::requeue`'s twin.
//!
//! In: site names, and the refusal fingerprints of today's settings (the
//! crawl's retry rule decides them). Out: how many URLs were queued again;
//! the frontier's waiting and failed URLs by site and reason ([`Outlook`]).

use super::PgStore;
use crate::store::{Outlook, OutlookRow, StoreError};

const REQUEUE_REFUSED_SQL: &str = "UPDATE urls SET state = 'queued', next_fetch_at = 0,
        attempts = 0, refused_under = NULL, leased_by = NULL, lease_until = NULL
     WHERE site_id IN (SELECT id FROM sites WHERE name = ANY($1))
       AND state IN ('failed', 'skipped') AND last_error = $2
       AND coalesce(refused_under, '') <> $3";

const REQUEUE_FAILED_SQL: &str = "UPDATE urls SET state = 'queued', next_fetch_at = 0,
        attempts = 0, refused_under = NULL, leased_by = NULL, lease_until = NULL
     WHERE site_id IN (SELECT id FROM sites WHERE name = ANY($1)) AND state IN ('failed', 'skipped')";

const WAITING_SQL: &str = "SELECT s.name, u.last_error, count(*), min(u.next_fetch_at)
     FROM urls u JOIN sites s ON s.id = u.site_id
     WHERE s.name = ANY($1) AND u.state = 'queued' AND u.next_fetch_at > $2
       AND u.last_error IS NOT NULL
     GROUP BY s.name, u.last_error ORDER BY s.name, u.last_error";

const FAILED_SQL: &str = "SELECT s.name, coalesce(u.last_error, 'unknown'), count(*)
     FROM urls u JOIN sites s ON s.id = u.site_id
     WHERE s.name = ANY($1) AND u.state IN ('failed', 'skipped')
     GROUP BY s.name, u.last_error ORDER BY s.name, u.last_error";

impl PgStore {
    /// As [`crate::store::Store::requeue_refused`].
    pub fn requeue_refused(
        &mut self,
        sites: &[String],
        refusals: &[(String, String)],
    ) -> Result<usize, StoreError> {
        let mut tx = self.client.transaction()?;
        let mut n = 0;
        for (reason, fingerprint) in refusals {
            n += tx.execute(REQUEUE_REFUSED_SQL, &[&sites, reason, fingerprint])?;
        }
        tx.commit()?;
        Ok(usize::try_from(n).unwrap_or(usize::MAX))
    }

    /// As [`crate::store::Store::requeue_failed`].
    pub fn requeue_failed(&mut self, sites: &[String]) -> Result<usize, StoreError> {
        let n = self.client.execute(REQUEUE_FAILED_SQL, &[&sites])?;
        Ok(usize::try_from(n).unwrap_or(usize::MAX))
    }

    /// As [`crate::store::Store::outlook`].
    pub fn outlook(&mut self, sites: &[String], now_ms: i64) -> Result<Outlook, StoreError> {
        let row = |r: &postgres::Row, until: Option<i64>| OutlookRow {
            site: r.get(0),
            reason: r.get(1),
            urls: u64::try_from(r.get::<_, i64>(2)).unwrap_or(0),
            until,
        };
        let waiting = self
            .client
            .query(WAITING_SQL, &[&sites, &now_ms])?
            .iter()
            .map(|r| row(r, Some(r.get(3))))
            .collect();
        let failed = self
            .client
            .query(FAILED_SQL, &[&sites])?
            .iter()
            .map(|r| row(r, None))
            .collect();
        Ok(Outlook { waiting, failed })
    }
}
