//! The crawl's write batches on PostgreSQL: a list of [`WriteOp`]s in, one
//! [`WriteOutcome`] per op out, as the SQLite store's `write_batch`. The
//! articles and what they teach their sites go first, one short
//! transaction per site (`articles::site_by_site`, which says why and how
//! a crash between them stays consistent); the other ops follow in one
//! transaction.
//!
//! New URLs are inserted with `ON CONFLICT (url) DO NOTHING` (several
//! processes discover the same links), in URL order so two batches lock
//! the same keys in the same order. A finished URL (fetched or skipped)
//! leaves its lease; its fetch log row names the process (`fetched_by`).
//! Articles go to [`super::articles`]; fetch logs, promotions, site rules
//! and shape counts are the statements both stores share
//! (`portable::writes`), run prepared through the connection's [`Tx`]
//! cache. A batch that loses a
//! serialization or deadlock race with another process (SQLSTATE 40001,
//! 40P01) is rolled back and run again, a few times.

use std::cell::RefCell;
use std::time::Duration;

use postgres::Transaction;

use super::articles::{self, Prepared, Tx};
use super::frontier::{FrontierCache, COUNTS_FOR};
use super::PgStore;
use crate::store::portable::writes;
use crate::store::rules::frontier::{now_ms, url_host};
use crate::store::{NewUrl, StoreError, UrlCaps, WriteOp, WriteOutcome};

/// Runs of a batch that lost a race before the error is given up.
pub const BATCH_ATTEMPTS: u32 = 5;

impl PgStore {
    /// Apply a batch of writes: its learning site by site, then the rest in
    /// one transaction (each run again when it loses a race with another
    /// process). On error the sites already written stay (written again,
    /// their articles are duplicates) and nothing else of the batch is kept.
    pub fn write_batch(&mut self, ops: Vec<WriteOp>) -> Result<Vec<WriteOutcome>, StoreError> {
        self.renew_leases_if_due()?;
        // Articles (and what they teach their sites) first, one short
        // transaction per site that holds only its learning lock
        // (`articles::site_by_site`: why, and why a crash between the two
        // commits leaves the store consistent); the rest of the batch after.
        let learned = self.write_learning_site_by_site(&ops)?;
        let mut attempt = 1;
        loop {
            let out = self.write_batch_once(&ops, &learned);
            match out {
                Err(e) if articles::is_retryable(&e) && attempt < BATCH_ATTEMPTS => {
                    tracing::debug!("batch lost a race (attempt {attempt}), again: {e}");
                    self.frontier.forget();
                    std::thread::sleep(Duration::from_millis(10 << attempt));
                    attempt += 1;
                }
                Err(e) => {
                    self.frontier.forget();
                    return Err(e);
                }
                Ok(outcomes) => return Ok(outcomes),
            }
        }
    }

    fn write_learning_site_by_site(
        &mut self,
        ops: &[WriteOp],
    ) -> Result<Vec<Option<WriteOutcome>>, StoreError> {
        // Site ids cached in a transaction that was rolled back are
        // forgotten (`forget`), by the closure that is not writing.
        let cache = RefCell::new(&mut self.frontier);
        let article_sql = &mut self.article_sql;
        let write = |tx: &mut Transaction<'_>, i: usize| match ops[i].clone() {
            WriteOp::Article(a) => articles::write_article_prepared(tx, article_sql, a, false),
            WriteOp::Refetched(a) => articles::write_article_prepared(tx, article_sql, a, true),
            WriteOp::SiteRule(u) => {
                writes::record_site_rule(&mut Tx::prepared(tx, article_sql), &u)?;
                Ok(WriteOutcome::RuleRecorded)
            }
            WriteOp::Known(urls) => {
                let added = add_known(tx, &mut cache.borrow_mut(), article_sql, urls)?;
                Ok(WriteOutcome::UrlsAdded(added))
            }
            _ => unreachable!("learning_sites gives a site to no other op"),
        };
        let sites = articles::learning_sites(ops);
        let commit = articles::Commit::FlushedByNext;
        let forget = || cache.borrow_mut().forget();
        articles::site_by_site(&mut self.client, &sites, commit, write, forget)
    }

    /// The batch's ops but those `learned` holds the outcome of, in one
    /// transaction.
    fn write_batch_once(
        &mut self,
        ops: &[WriteOp],
        learned: &[Option<WriteOutcome>],
    ) -> Result<Vec<WriteOutcome>, StoreError> {
        let owner = self.owner.clone();
        let cache = &mut self.frontier;
        let article_sql = &mut self.article_sql;
        cache.url_counts.expire(COUNTS_FOR);
        let mut tx = self.client.transaction()?;
        let mut out = Vec::with_capacity(ops.len());
        // Summed and added last, in one order (see `url_shapes::summed`).
        let mut shapes = Vec::new();
        for (op, learned) in ops.iter().zip(learned) {
            if let Some(outcome) = learned {
                out.push(outcome.clone());
                continue;
            }
            let sql = &mut Tx::prepared(&mut tx, article_sql);
            if let Some(outcome) = writes::write_op(sql, op, Some(&owner), &mut shapes)? {
                out.push(outcome);
                continue;
            }
            out.push(match op.clone() {
                WriteOp::AddUrls(urls) => {
                    let caps = cache.url_caps;
                    WriteOutcome::UrlsAdded(add_urls(&mut tx, cache, article_sql, urls, caps)?)
                }
                WriteOp::Known(urls) => {
                    WriteOutcome::UrlsAdded(add_known(&mut tx, cache, article_sql, urls)?)
                }
                // Written site by site before (`write_learning_site_by_site`);
                // here, should an op come without its site's outcome.
                WriteOp::Article(a) => {
                    articles::write_article_prepared(&mut tx, article_sql, a, false)?
                }
                WriteOp::Refetched(a) => {
                    articles::write_article_prepared(&mut tx, article_sql, a, true)?
                }
                _ => unreachable!("writes::write_op writes the other ops"),
            });
        }
        let sql = &mut Tx::prepared(&mut tx, article_sql);
        writes::add_shapes(sql, &mut cache.sites, &shapes)?;
        tx.commit()?;
        Ok(out)
    }
}

/// Record URLs as known without fetching them (canonical aliases: never
/// capped, as they are not fetched); returns how many were new.
fn add_known(
    tx: &mut Transaction<'_>,
    cache: &mut FrontierCache,
    prepared: &mut Prepared,
    urls: Vec<NewUrl>,
) -> Result<usize, StoreError> {
    let added = add_urls(tx, cache, prepared, urls.clone(), UrlCaps::NONE)?;
    writes::known_done(&mut Tx::prepared(tx, prepared), &urls)?;
    Ok(added)
}

/// Insert new URLs (known ones are ignored), site by site; returns how
/// many were new. Under `caps` a site that knows (or has queued) as many
/// URLs as allowed gets no more; those left out are counted as dropped.
fn add_urls(
    tx: &mut Transaction<'_>,
    cache: &mut FrontierCache,
    prepared: &mut Prepared,
    mut urls: Vec<NewUrl>,
    caps: UrlCaps,
) -> Result<usize, StoreError> {
    urls.sort_unstable_by(|a, b| a.site.cmp(&b.site).then_with(|| a.url.cmp(&b.url)));
    let now = now_ms();
    let mut added = 0;
    for group in urls.chunk_by(|a, b| a.site == b.site) {
        let site = writes::site_id_known(&mut Tx::plain(tx), &mut cache.sites, &group[0].site)?;
        let room = cache.url_counts.room(&mut Tx::plain(tx), site, caps)?;
        let n = if group.len() <= room {
            insert_all(tx, prepared, site, group, now)?
        } else {
            // One URL at a time until `room` of them were new (the cap).
            let mut n = 0;
            let mut tried = 0;
            for u in group {
                if n >= room {
                    break;
                }
                tried += 1;
                n += insert_all(tx, prepared, site, std::slice::from_ref(u), now)?;
            }
            cache.url_counts.dropped(group.len() - tried);
            n
        };
        cache.url_counts.add(site, n);
        added += n;
    }
    Ok(added)
}

/// New URLs of one site, known ones left alone.
const INSERT_URLS_SQL: &str =
    "INSERT INTO urls(url, site_id, host, kind, priority, depth, discovered_at)
         SELECT u, $2, h, k, p, d, $7
         FROM unnest($1::TEXT[], $3::TEXT[], $4::TEXT[], $5::INTEGER[], $6::INTEGER[])
              AS t(u, h, k, p, d)
         ON CONFLICT (url) DO NOTHING";

/// One statement for the whole group.
fn insert_all(
    tx: &mut Transaction<'_>,
    prepared: &mut Prepared,
    site: i64,
    group: &[NewUrl],
    now: i64,
) -> Result<usize, postgres::Error> {
    let urls: Vec<&str> = group.iter().map(|u| u.url.as_str()).collect();
    let hosts: Vec<&str> = group.iter().map(|u| url_host(&u.url)).collect();
    let kinds: Vec<&str> = group.iter().map(|u| u.kind.as_str()).collect();
    let priorities: Vec<i32> = group.iter().map(|u| u.priority).collect();
    let depths: Vec<i32> = group
        .iter()
        .map(|u| i32::try_from(u.depth).unwrap_or(i32::MAX))
        .collect();
    let insert = Tx::prepared(tx, prepared).shared(INSERT_URLS_SQL)?;
    let n = tx.execute(
        &insert,
        &[&urls, &site, &hosts, &kinds, &priorities, &depths, &now],
    )?;
    Ok(usize::try_from(n).unwrap_or(usize::MAX))
}
