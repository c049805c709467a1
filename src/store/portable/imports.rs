//! The archive files `import` reads, and how far into each it got, in either
//! store (`import_files`): one list that any number of import processes
//! share, each file claimed by one of them at a time.
//!
//! In: the files of an import (each its absolute path or URL), a process's
//! name and the time. Out: each file's id and state, a claim (with the
//! place to go on from) or none, and — through the crawl's single writer,
//! in the same transaction as the articles of the records before it
//! ([`ImportProgress`], a [`crate::store::WriteOp`]) — how far a file is
//! read: so a stopped import goes on where it stopped, nothing lost and
//! nothing twice.
//!
//! A file is `queued`, then `done`, `retry` (cut short, or its source
//! failed: read again from where it stopped by the next import of it) or
//! `failed` (it cannot be read: not a WARC file, an ARC file). A claim is
//! a lease, as a frontier URL's on a shared store: a process holds the
//! file until its lease ends (each progress write extends it), so a dead
//! process's file is taken over once its lease is over, from its last
//! recorded place.

use crate::store::rows::Cell;
use crate::store::sql::{int, Sql};
use crate::store::{AnyStore, StoreError};

/// What is known of an import file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportFile {
    pub id: i64,
    /// `queued`, `done`, `retry` or `failed`.
    pub state: String,
    /// Where reading goes on: the offset of a record (or of the gzip member
    /// holding it) in the stored file, and the records to skip there.
    pub resume_at: u64,
    pub resume_skip: u64,
    /// Records read from it so far, over every run.
    pub records: u64,
    /// The process holding it and until when (unix ms), if one does.
    pub leased_by: Option<String>,
    pub lease_until: Option<i64>,
    /// Why it is `retry` or `failed`.
    pub error: Option<String>,
}

/// How far a claimed file is read: written by the store writer in the
/// transaction of the articles of the records before that place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportProgress {
    pub file_id: i64,
    /// The process holding the file: a write for a lease that another
    /// process has taken since fails, and the new holder reads those
    /// records again. Their articles are stored once either way: SQLite
    /// keeps nothing of the failed batch, and PostgreSQL, which commits a
    /// batch's articles first (site by site), finds the same URLs stored.
    pub by: String,
    pub resume_at: u64,
    pub resume_skip: u64,
    /// Records read since the last progress.
    pub records: u64,
    /// The lease's new end (unix ms).
    pub lease_until: i64,
    /// The file's end: `done`, `retry` or `failed` (with why), and the
    /// lease given back; `None` while it is still read.
    pub end: Option<(&'static str, Option<String>)>,
}

const COLUMNS: &str = "id, state, resume_at, resume_skip, records, leased_by, lease_until, error";

fn file_row(r: &crate::store::sql::Row<'_>) -> Result<ImportFile, StoreError> {
    Ok(ImportFile {
        id: r.int(0)?,
        state: r.text(1)?,
        resume_at: r.count(2)?,
        resume_skip: r.count(3)?,
        records: r.count(4)?,
        leased_by: r.opt_text(5)?,
        lease_until: match r.cell(6)? {
            Cell::Int(until) => Some(until),
            _ => None,
        },
        error: r.opt_text(7)?,
    })
}

/// Add the files (by source) not listed yet; every file's row, in the
/// order given.
pub(crate) fn register(
    sql: &mut dyn Sql,
    sources: &[String],
    now_ms: i64,
) -> Result<Vec<ImportFile>, StoreError> {
    let insert = "INSERT INTO import_files (source, updated_at) VALUES (?1, ?2)
         ON CONFLICT (source) DO NOTHING";
    let find = format!("SELECT {COLUMNS} FROM import_files WHERE source = ?1");
    let mut rows = Vec::with_capacity(sources.len());
    for source in sources {
        sql.execute(insert, &[source.into(), now_ms.into()])?;
        rows.push(sql.one(&find, &[source.into()], file_row)?);
    }
    Ok(rows)
}

/// A file's row now.
pub(crate) fn file(sql: &mut dyn Sql, id: i64) -> Result<ImportFile, StoreError> {
    let find = format!("SELECT {COLUMNS} FROM import_files WHERE id = ?1");
    sql.one(&find, &[id.into()], file_row)
}

/// Claim the file for `by` until `lease_until`, if it is to be read
/// (`queued` or `retry`) and no other process's lease holds it: its row,
/// or `None`. One statement, so two processes never both get it.
pub(crate) fn claim(
    sql: &mut dyn Sql,
    id: i64,
    by: &str,
    now_ms: i64,
    lease_until: i64,
) -> Result<Option<ImportFile>, StoreError> {
    let claim = format!(
        "UPDATE import_files SET leased_by = ?2, lease_until = ?3, updated_at = ?4
         WHERE id = ?1 AND state IN ('queued', 'retry')
           AND (leased_by IS NULL OR lease_until < ?4 OR leased_by = ?2)
         RETURNING {COLUMNS}"
    );
    let params = [id.into(), by.into(), lease_until.into(), now_ms.into()];
    sql.first(&claim, &params, file_row)
}

/// Extend `by`'s lease of the file; `false` when it holds it no longer.
pub(crate) fn renew(
    sql: &mut dyn Sql,
    id: i64,
    by: &str,
    lease_until: i64,
) -> Result<bool, StoreError> {
    let renew = "UPDATE import_files SET lease_until = ?3
         WHERE id = ?1 AND leased_by = ?2 AND state IN ('queued', 'retry')";
    Ok(sql.execute(renew, &[id.into(), by.into(), lease_until.into()])? > 0)
}

/// Give up every lease: a store only one import uses at a time (a SQLite
/// file, locked) holds none of a process still running.
pub(crate) fn release_all(sql: &mut dyn Sql) -> Result<u64, StoreError> {
    sql.execute(
        "UPDATE import_files SET leased_by = NULL, lease_until = NULL
         WHERE leased_by IS NOT NULL",
        &[],
    )
}

/// Record a claimed file's progress (see [`ImportProgress`]).
pub(crate) fn record_progress(
    sql: &mut dyn Sql,
    p: &ImportProgress,
    now_ms: i64,
) -> Result<(), StoreError> {
    let (state, error) = match &p.end {
        Some((state, error)) => (Some(*state), error.as_deref()),
        None => (None, None),
    };
    // At the file's end (`?7` set) the lease is given back.
    let update = "UPDATE import_files SET resume_at = ?3, resume_skip = ?4,
             records = records + ?5,
             lease_until = CASE WHEN CAST(?7 AS TEXT) IS NULL THEN CAST(?6 AS BIGINT) END,
             leased_by = CASE WHEN CAST(?7 AS TEXT) IS NULL THEN leased_by END,
             state = coalesce(CAST(?7 AS TEXT), state), error = CAST(?8 AS TEXT),
             updated_at = ?9
         WHERE id = ?1 AND leased_by = ?2";
    let params = [
        p.file_id.into(),
        p.by.as_str().into(),
        int(p.resume_at),
        int(p.resume_skip),
        int(p.records),
        p.lease_until.into(),
        state.into(),
        error.into(),
        now_ms.into(),
    ];
    match sql.execute(update, &params)? {
        0 => Err(StoreError::LeaseLost {
            what: format!("import file {}", p.file_id),
        }),
        _ => Ok(()),
    }
}

impl AnyStore {
    /// See `register`.
    pub fn register_import_files(
        &mut self,
        sources: &[String],
        now_ms: i64,
    ) -> Result<Vec<ImportFile>, StoreError> {
        self.in_transaction(|sql| register(sql, sources, now_ms))
    }

    /// See [`file`].
    pub fn import_file(&mut self, id: i64) -> Result<ImportFile, StoreError> {
        file(self.sql(), id)
    }

    /// See `claim`.
    pub fn claim_import_file(
        &mut self,
        id: i64,
        by: &str,
        now_ms: i64,
        lease_until: i64,
    ) -> Result<Option<ImportFile>, StoreError> {
        claim(self.sql(), id, by, now_ms, lease_until)
    }

    /// See `renew`.
    pub fn renew_import_lease(
        &mut self,
        id: i64,
        by: &str,
        lease_until: i64,
    ) -> Result<bool, StoreError> {
        renew(self.sql(), id, by, lease_until)
    }

    /// See `release_all`.
    pub fn release_import_leases(&mut self) -> Result<u64, StoreError> {
        release_all(self.sql())
    }
}

#[cfg(test)]
mod tests;
