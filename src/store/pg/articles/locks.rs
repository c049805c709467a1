//! Sites and their learning locks: the transaction-level advisory lock
//! that makes one site's article writes run one after another across
//! processes; the errors after which a transaction is run again; and
//! [`site_by_site`], which writes a batch's learning in one short
//! transaction per site, so that a lock is held only while its site's
//! lines are counted.
//!
//! In: a transaction (or a connection) and site names or ids. Out: site
//! ids (sites created as needed), locks held until the transaction ends.

use std::collections::{BTreeMap, BTreeSet};

use postgres::types::Type;
use postgres::{Client, Transaction};

use super::sql::Tx;
use crate::store::portable::writes::site_id_created;
use crate::store::{StoreError, WriteOp};

/// First key of the two-key advisory locks that serialise a site's
/// learning ("nh" + 15); the second is the site id.
pub(super) const SITE_LOCK_CLASS: i32 = 0x006e_680f;

/// Wait for and hold (until the transaction ends) the site's learning lock.
/// Taking it again in the same transaction is free.
pub(super) fn lock_site(tx: &mut Tx<'_, '_>, site_id: i64) -> Result<(), postgres::Error> {
    // Ids beyond i32 share locks with smaller ones: more waiting, never less.
    let key = (site_id % i64::from(i32::MAX)) as i32;
    tx.execute_typed(
        "SELECT pg_advisory_xact_lock($1, $2)",
        &[(&SITE_LOCK_CLASS, Type::INT4), (&key, Type::INT4)],
    )?;
    Ok(())
}

/// True for the errors after which a transaction is simply run again: the
/// server chose it as a deadlock's victim, or (under SERIALIZABLE) it lost
/// a serialization conflict.
pub fn is_retryable(e: &StoreError) -> bool {
    use postgres::error::SqlState;
    match e {
        StoreError::Postgres(pg) => matches!(
            pg.code(),
            Some(c) if *c == SqlState::T_R_DEADLOCK_DETECTED
                || *c == SqlState::T_R_SERIALIZATION_FAILURE
        ),
        _ => false,
    }
}

/// The id of the named site (created if new), its learning lock taken: in
/// one statement when the site exists.
pub(super) fn locked_site(tx: &mut Tx<'_, '_>, name: &str) -> Result<i64, StoreError> {
    let row = tx.query_typed_opt(
        "SELECT id, pg_advisory_xact_lock($2, (id % 2147483647)::int) FROM sites WHERE name = $1",
        &[(&name, Type::TEXT), (&SITE_LOCK_CLASS, Type::INT4)],
    )?;
    if let Some(row) = row {
        return Ok(row.get(0));
    }
    let site_id = site_id_created(tx, name)?;
    lock_site(tx, site_id)?;
    Ok(site_id)
}

/// How a site's transaction in [`site_by_site`] commits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::store::pg) enum Commit {
    /// Flushed to disk before the commit returns (the server's setting):
    /// for writes that no later commit follows (the tests' article lists).
    #[cfg(test)]
    Durable,
    /// Without waiting for the flush (`synchronous_commit = off`): for
    /// site transactions that a durable commit on the same connection
    /// follows (the crawl batch's own). The write-ahead log is written in
    /// order, so flushing that commit flushes these; a server crash before
    /// it loses both, which leaves the batch's URLs leased, fetched again
    /// and stored then. Counts and articles share one transaction either
    /// way.
    FlushedByNext,
}

/// The site whose learning each op of a crawl batch touches, at its
/// index: an article or refetch (its lines counted, dedup against the
/// site's articles), a site rule's use (counts), and the canonical URLs
/// recorded as known (`Known`) of those sites, because storing an article
/// checks whether its canonical URL is one of them: they must commit no
/// later than the article, and batch order puts them before it. Other ops
/// (`None`) learn nothing and stay in the batch's transaction.
pub(in crate::store::pg) fn learning_sites(ops: &[WriteOp]) -> Vec<Option<&str>> {
    let mut sites: Vec<Option<&str>> = ops
        .iter()
        .map(|op| match op {
            WriteOp::Article(a) | WriteOp::Refetched(a) => Some(a.site.as_str()),
            WriteOp::SiteRule(u) => Some(u.site.as_str()),
            _ => None,
        })
        .collect();
    let learning: BTreeSet<&str> = sites.iter().flatten().copied().collect();
    for (op, site) in ops.iter().zip(&mut sites) {
        if let WriteOp::Known(urls) = op {
            *site = (urls.first())
                .map(|u| u.site.as_str())
                .filter(|s| learning.contains(s));
        }
    }
    sites
}

/// Write a batch's learning ops site by site: one short transaction per
/// site (in name order) that takes that site's learning lock, runs
/// `write` on the site's ops (by index, in batch order) and commits. The
/// result of each op is at its index (`None` for ops of no site).
///
/// Why: a site's learning lock orders the transactions that read and raise
/// its counts (and find its duplicates), so that processes together count
/// as one would. Held by a whole batch, over all of its sites and until
/// its commit, it made the batches of different processes run one after
/// another; the counts' row locks (held to the commit, whatever the
/// advisory lock) would too. In a transaction of its own, a site's lock
/// and rows are held only while its lines are counted and its articles
/// written; and as one transaction holds one site's lock (but for a
/// refetch of an article filed under a renamed site's old name), these do
/// not wait for each other in a circle.
///
/// Crash safety: the counts a transaction raises and the articles they
/// come from commit together, so a process killed at any point leaves
/// them agreeing. What a kill can leave behind is a site's articles
/// stored while the batch's frontier rows (fetch log, URL done) are not:
/// those URLs stay leased, another process fetches them again when the
/// lease ends, and their articles are then duplicates by URL, counted
/// nothing. A transaction that loses a deadlock or serialization race is
/// run again alone (`rolled_back` is called first, to forget what the
/// caller cached from it); any other error stops the batch, with the sites
/// before it committed (run again, their articles are duplicates).
pub(in crate::store::pg) fn site_by_site<T>(
    client: &mut Client,
    sites: &[Option<&str>],
    commit: Commit,
    mut write: impl FnMut(&mut Transaction<'_>, usize) -> Result<T, StoreError>,
    mut rolled_back: impl FnMut(),
) -> Result<Vec<Option<T>>, StoreError> {
    let mut groups: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, site) in sites.iter().enumerate() {
        if let Some(site) = site {
            groups.entry(*site).or_default().push(i);
        }
    }
    let mut out: Vec<Option<T>> = std::iter::repeat_with(|| None).take(sites.len()).collect();
    for (site, ops) in groups {
        let mut attempt = 1;
        let done = loop {
            match site_once(client, site, &ops, commit, &mut write) {
                Err(e) if attempt < SITE_ATTEMPTS && is_retryable(&e) => {
                    tracing::debug!("site {site} lost a race (attempt {attempt}), again: {e}");
                    rolled_back();
                    attempt += 1;
                }
                Err(e) => {
                    rolled_back();
                    return Err(e);
                }
                Ok(done) => break done,
            }
        };
        for (i, result) in ops.into_iter().zip(done) {
            out[i] = Some(result);
        }
    }
    Ok(out)
}

/// Runs of one site's transaction before its race is given up.
const SITE_ATTEMPTS: usize = 5;

fn site_once<T>(
    client: &mut Client,
    site: &str,
    ops: &[usize],
    commit: Commit,
    write: &mut impl FnMut(&mut Transaction<'_>, usize) -> Result<T, StoreError>,
) -> Result<Vec<T>, StoreError> {
    let mut tx = client.transaction()?;
    if commit == Commit::FlushedByNext {
        tx.batch_execute("SET LOCAL synchronous_commit = off")?;
    }
    locked_site(&mut Tx::plain(&mut tx), site)?;
    let mut done = Vec::with_capacity(ops.len());
    for &i in ops {
        done.push(write(&mut tx, i)?);
    }
    tx.commit()?;
    Ok(done)
}
