//! Failed and refused URLs queued again, and what waits or failed in the
//! frontier, on SQLite.
//!
//! In: site names, and the refusal fingerprints of today's settings (the
//! crawl's retry rule decides them; this file holds only the SQL). Out:
//! how many URLs were queued again; the frontier's waiting and failed URLs
//! grouped by site and reason ([`Outlook`]).

use rusqlite::params;

use super::{Outlook, OutlookRow, Store, StoreError};

/// Refused URLs of a site under other settings than `?3`, queued again.
const REQUEUE_REFUSED_SQL: &str = "UPDATE urls SET state = 'queued', next_fetch_at = 0,
        attempts = 0, refused_under = NULL
     WHERE site_id = (SELECT id FROM sites WHERE name = ?1)
       AND state IN ('failed', 'skipped') AND last_error = ?2
       AND coalesce(refused_under, '') <> ?3";

const REQUEUE_FAILED_SQL: &str = "UPDATE urls SET state = 'queued', next_fetch_at = 0,
        attempts = 0, refused_under = NULL
     WHERE site_id = (SELECT id FROM sites WHERE name = ?1) AND state IN ('failed', 'skipped')";

/// Queued URLs that wait because something went wrong (a skip or a
/// failure set `last_error`), by site and reason, with the first due time.
const WAITING_SQL: &str = "SELECT s.name, u.last_error, count(*), min(u.next_fetch_at)
     FROM urls u JOIN sites s ON s.id = u.site_id
     WHERE u.state = 'queued' AND u.next_fetch_at > ?1 AND u.last_error IS NOT NULL
     GROUP BY s.name, u.last_error ORDER BY s.name, u.last_error";

/// URLs given up (failed) or set aside (skipped), by site and reason.
const FAILED_SQL: &str = "SELECT s.name, coalesce(u.last_error, 'unknown'), count(*)
     FROM urls u JOIN sites s ON s.id = u.site_id
     WHERE u.state IN ('failed', 'skipped')
     GROUP BY s.name, u.last_error ORDER BY s.name, u.last_error";

impl Store {
    /// Queue again the URLs of `sites` refused for one of `refusals`'
    /// reasons under another fingerprint than the one given (or before
    /// fingerprints were kept). Returns how many.
    pub fn requeue_refused(
        &mut self,
        sites: &[String],
        refusals: &[(String, String)],
    ) -> Result<usize, StoreError> {
        let tx = self.conn.transaction()?;
        let mut n = 0;
        {
            let mut update = tx.prepare_cached(REQUEUE_REFUSED_SQL)?;
            for site in sites {
                for (reason, fingerprint) in refusals {
                    n += update.execute(params![site, reason, fingerprint])?;
                }
            }
        }
        tx.commit()?;
        Ok(n)
    }

    /// Queue again every failed URL of `sites` (`crawl --retry-failed`),
    /// with a fresh count of attempts. Returns how many.
    pub fn requeue_failed(&mut self, sites: &[String]) -> Result<usize, StoreError> {
        let tx = self.conn.transaction()?;
        let mut n = 0;
        {
            let mut update = tx.prepare_cached(REQUEUE_FAILED_SQL)?;
            for site in sites {
                n += update.execute([site])?;
            }
        }
        tx.commit()?;
        Ok(n)
    }

    /// What of `sites` waits (not due at `now_ms`, after a skip or a
    /// failure) and what failed, in the whole frontier.
    pub fn outlook(&self, sites: &[String], now_ms: i64) -> Result<Outlook, StoreError> {
        let wanted = |s: &String| sites.contains(s);
        let waiting = self
            .conn
            .prepare_cached(WAITING_SQL)?
            .query_map([now_ms], |r| {
                Ok(OutlookRow {
                    site: r.get(0)?,
                    reason: r.get(1)?,
                    urls: u64::try_from(r.get::<_, i64>(2)?).unwrap_or(0),
                    until: Some(r.get(3)?),
                })
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        let failed = self
            .conn
            .prepare_cached(FAILED_SQL)?
            .query_map([], |r| {
                Ok(OutlookRow {
                    site: r.get(0)?,
                    reason: r.get(1)?,
                    urls: u64::try_from(r.get::<_, i64>(2)?).unwrap_or(0),
                    until: None,
                })
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(Outlook {
            waiting: waiting.into_iter().filter(|r| wanted(&r.site)).collect(),
            failed: failed.into_iter().filter(|r| wanted(&r.site)).collect(),
        })
    }
}
