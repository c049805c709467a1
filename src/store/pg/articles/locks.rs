//! Sites and their learning locks: the transaction-level advisory lock
//! that makes one site's article writes run one after another across
//! processes, taken in one order by batches of several sites, and the
//! errors after which a transaction is run again.
//!
//! In: a transaction and site names or ids. Out: site ids (sites created
//! as needed), locks held until the transaction ends.

use postgres::types::Type;
use postgres::Transaction;

use super::sql::Tx;
use crate::store::StoreError;

/// First key of the two-key advisory locks that serialise a site's
/// learning ("nh" + 15); the second is the site id.
const SITE_LOCK_CLASS: i32 = 0x006e_680f;

/// Take the learning locks of these sites in id order (creating the sites
/// as needed, in name order): a batch that calls this before its articles
/// cannot deadlock with another batch over them.
pub(in crate::store::pg) fn lock_sites(
    tx: &mut Transaction<'_>,
    sites: &[&str],
) -> Result<(), StoreError> {
    let tx = &mut Tx::plain(tx);
    // Two batches creating the same new sites wait for each other's
    // inserts; in one order, neither waits for the other twice.
    let mut names = sites.to_vec();
    names.sort_unstable();
    names.dedup();
    let mut ids = Vec::with_capacity(names.len());
    for site in names {
        ids.push(site_id_in(tx, site)?);
    }
    ids.sort_unstable();
    ids.dedup();
    for id in ids {
        lock_site(tx, id)?;
    }
    Ok(())
}

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
pub(super) fn locked_site(tx: &mut Tx<'_, '_>, name: &str) -> Result<i64, postgres::Error> {
    let row = tx.query_typed_opt(
        "SELECT id, pg_advisory_xact_lock($2, (id % 2147483647)::int) FROM sites WHERE name = $1",
        &[(&name, Type::TEXT), (&SITE_LOCK_CLASS, Type::INT4)],
    )?;
    if let Some(row) = row {
        return Ok(row.get(0));
    }
    let site_id = site_id_in(tx, name)?;
    lock_site(tx, site_id)?;
    Ok(site_id)
}

/// The id of the named site, created if new. Two statements, so that a
/// process that waited for another's insert of the same name reads it.
pub(super) fn site_id_in(tx: &mut Tx<'_, '_>, name: &str) -> Result<i64, postgres::Error> {
    let find = "SELECT id FROM sites WHERE name = $1";
    if let Some(row) = tx.query_typed_opt(find, &[(&name, Type::TEXT)])? {
        return Ok(row.get(0));
    }
    tx.execute_typed(
        "INSERT INTO sites (name) VALUES ($1) ON CONFLICT (name) DO NOTHING",
        &[(&name, Type::TEXT)],
    )?;
    Ok(tx.query_typed_one(find, &[(&name, Type::TEXT)])?.get(0))
}
