//! The persisted frontier (`urls`, `sites`): URLs in, claimed work out.
//!
//! URLs are added with `INSERT OR IGNORE` on the normalised URL (normalise
//! first, with `urls::normalize`), claimed in priority order by
//! flipping `queued` → `fetching`, and put back by the fetch outcome
//! ([`super::WriteOp::Fetched`]). `reset_in_flight` returns the URLs a killed
//! crawl had claimed to the queue, so a restart resumes without losing any.

use std::collections::HashMap;

use rusqlite::{params, Connection, OptionalExtension};

use super::portable::writes;
use super::rules::frontier::{next_queued_at, now_ms, round_robin, selected_sites, url_host};
pub(super) use super::rules::frontier::{SiteUrlCounts, UrlCaps};
use super::{
    ClaimFilter, DroppedUrls, FrontierCounts, NewUrl, QueuedUrl, Store, StoreError, UrlKind,
};

impl UrlKind {
    /// The name stored in `urls.kind`.
    pub fn as_str(self) -> &'static str {
        match self {
            UrlKind::Seed => "seed",
            UrlKind::Feed => "feed",
            UrlKind::Sitemap => "sitemap",
            UrlKind::Index => "index",
            UrlKind::Article => "article",
            UrlKind::Page => "page",
        }
    }

    /// Inverse of [`UrlKind::as_str`]; unknown names (a newer schema's kinds)
    /// read as `Page`, which is fetched but never stored as an article.
    pub fn parse(s: &str) -> UrlKind {
        match s {
            "seed" => UrlKind::Seed,
            "feed" => UrlKind::Feed,
            "sitemap" => UrlKind::Sitemap,
            "index" => UrlKind::Index,
            "article" => UrlKind::Article,
            _ => UrlKind::Page,
        }
    }
}

/// Skip scan of a claim: the next host of a site with queued URLs.
pub(super) const NEXT_HOST_SQL: &str = "SELECT host FROM urls INDEXED BY urls_claim_host
     WHERE site_id = ?1 AND state = 'queued' AND host > ?2
     ORDER BY host LIMIT 1";

/// A claim's due URLs of one host, best first.
pub(super) const CLAIM_HOST_SQL: &str =
    "SELECT id, url, kind, depth, attempts, etag, last_modified, priority,
            fetched_at IS NOT NULL
     FROM urls INDEXED BY urls_claim_host
     WHERE site_id = ?1 AND host = ?2 AND state = 'queued' AND next_fetch_at <= ?3
     ORDER BY priority DESC, id
     LIMIT ?4";

/// Insert new URLs; known ones are ignored. Returns how many were new.
/// Under `caps`, a site that already knows (or has queued) as many URLs as
/// allowed gets no more (a trap guard: an endless link or query space
/// fills one site's frontier at most this far). `counts` is updated for
/// every insert, capped or not, and counts the URLs dropped.
pub(super) fn add_urls_in(
    conn: &Connection,
    urls: &[NewUrl],
    caps: UrlCaps,
    counts: &mut SiteUrlCounts,
) -> Result<usize, StoreError> {
    let now = now_ms();
    // Site ids of this batch's sites.
    let mut sites = HashMap::new();
    let mut insert = conn.prepare_cached(
        "INSERT OR IGNORE INTO urls(url, site_id, kind, priority, depth, discovered_at, host)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?;
    let mut added = 0;
    for u in urls {
        let site_id = writes::site_id_known(&mut &*conn, &mut sites, &u.site)?;
        if counts.room(&mut &*conn, site_id, caps)? == 0 {
            counts.dropped(1);
            continue;
        }
        let n = insert.execute(params![
            u.url,
            site_id,
            u.kind.as_str(),
            u.priority,
            u.depth,
            now,
            url_host(&u.url)
        ])?;
        counts.add(site_id, n);
        added += n;
    }
    Ok(added)
}

impl Store {
    /// Cap the URLs a site may know (0 = no cap); see `[crawler]
    /// max_urls_per_site`. URLs beyond it are dropped when added.
    pub fn set_max_urls_per_site(&mut self, cap: u64) {
        self.url_caps.known = cap;
    }

    /// Cap the URLs a site may have queued (0 = no cap); see `[crawler]
    /// max_queued_per_site`. URLs beyond it are dropped when added.
    pub fn set_max_queued_per_site(&mut self, cap: u64) {
        self.url_caps.queued = cap;
    }

    /// The new URLs dropped under the caps since asked last.
    pub fn take_dropped_urls(&mut self) -> DroppedUrls {
        self.url_counts.take_dropped()
    }

    /// Claim up to `limit` queued URLs due at `now_ms` that pass `filter`,
    /// marking them `fetching`; their outcome comes back as
    /// [`super::WriteOp::Fetched`] (or `Skipped`).
    ///
    /// Within a host: highest priority first, then oldest, at most
    /// `filter.per_host` of them. Across hosts the claim is interleaved
    /// round-robin (the host with the best head first), so one host's
    /// backlog can neither fill a claim nor make the caller claim deeper to
    /// reach the other hosts. Only the filter's sites are read at all.
    pub fn claim_due_for(
        &mut self,
        now_ms: i64,
        limit: usize,
        filter: &ClaimFilter,
    ) -> Result<Vec<QueuedUrl>, StoreError> {
        if limit == 0 {
            return Ok(Vec::new());
        }
        let per_host = filter.per_host_in(limit);
        let tx = self.conn.transaction()?;
        // (best priority, its id, the host's due URLs in order) per host.
        let mut by_host: Vec<(i64, i64, Vec<QueuedUrl>)> = Vec::new();
        {
            let sites = selected_sites(&mut &*tx, filter.sites.as_deref())?;
            let mut next_host = tx.prepare_cached(NEXT_HOST_SQL)?;
            let mut select = tx.prepare_cached(CLAIM_HOST_SQL)?;
            let sql_limit = i64::try_from(per_host).unwrap_or(i64::MAX);
            for (site_id, site) in &sites {
                let mut after = String::new();
                while let Some(host) = next_host
                    .query_row(params![site_id, after], |r| r.get::<_, String>(0))
                    .optional()?
                {
                    after.clone_from(&host);
                    if filter.skip_hosts.contains(&host) {
                        continue;
                    }
                    let mut best = None;
                    let due = select
                        .query_map(params![site_id, host, now_ms, sql_limit], |r| {
                            if best.is_none() {
                                best = Some((r.get::<_, i64>(7)?, r.get::<_, i64>(0)?));
                            }
                            Ok(QueuedUrl {
                                id: r.get(0)?,
                                url: r.get(1)?,
                                site: site.clone(),
                                host: host.clone(),
                                fetched_before: r.get(8)?,
                                kind: UrlKind::parse(&r.get::<_, String>(2)?),
                                depth: r.get(3)?,
                                attempts: r.get(4)?,
                                etag: r.get(5)?,
                                last_modified: r.get(6)?,
                            })
                        })?
                        .collect::<rusqlite::Result<Vec<_>>>()?;
                    if let Some((priority, id)) = best {
                        by_host.push((priority, id, due));
                    }
                }
            }
        }
        let claimed = round_robin(by_host, limit);
        {
            let mut mark = tx.prepare_cached("UPDATE urls SET state = 'fetching' WHERE id = ?1")?;
            for q in &claimed {
                mark.execute([q.id])?;
            }
        }
        tx.commit()?;
        if !claimed.is_empty() {
            self.url_counts.claimed();
        }
        Ok(claimed)
    }

    /// Put URLs left `fetching` by an interrupted run back in the queue.
    /// Call once at crawl start, before any claim. Returns how many.
    pub fn reset_in_flight(&mut self) -> Result<usize, StoreError> {
        writes::put_back_in_flight(&mut self.conn, None)
    }

    /// When the next queued URL of `sites` (`None` = all) becomes due (unix
    /// ms; `None` if nothing is queued): what a crawl of those sites (the
    /// others not claimable) waits for.
    pub fn next_due_at_for(&self, sites: Option<&[String]>) -> Result<Option<i64>, StoreError> {
        next_queued_at(&mut &self.conn, sites)
    }

    /// URLs per frontier state.
    pub fn counts(&self) -> Result<FrontierCounts, StoreError> {
        let mut c = FrontierCounts::default();
        let mut stmt = self
            .conn
            .prepare_cached("SELECT state, count(*) FROM urls GROUP BY state")?;
        let mut rows = stmt.query([])?;
        while let Some(r) = rows.next()? {
            let n = u64::try_from(r.get::<_, i64>(1)?).unwrap_or(0);
            match r.get::<_, String>(0)?.as_str() {
                "queued" => c.queued = n,
                "fetching" => c.fetching = n,
                "done" => c.done = n,
                "failed" => c.failed = n,
                _ => c.skipped += n,
            }
        }
        Ok(c)
    }
}
