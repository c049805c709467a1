//! `newshound copy`: a whole corpus from one store to another (SQLite ⇄
//! PostgreSQL, or to another file or database of the same kind), ids kept.
//!
//! In: the source and destination [`StoreTarget`]s and [`CopyOptions`].
//! Out: the destination holding every row of every table of [`TABLES`]
//! (a [`CopyReport`] of the counts), or a [`CopyError`] naming what stopped
//! the copy.
//!
//! How, and why so:
//! 1. Refuse a source that does not exist, a destination that is the
//!    source, and a destination holding another corpus (its sites or its
//!    first and last articles differ from the source's): copying into it
//!    would mix two corpora under clashing ids.
//! 2. Tables in dependency order ([`TABLES`]); each is read in key order and
//!    written in batches of [`CopyOptions::batch_rows`], each batch its own
//!    transaction with `INSERT OR IGNORE` / `ON CONFLICT DO NOTHING`. A copy
//!    interrupted at any point, run again, skips the tables already whole
//!    (same count), re-offers the rest (rows present are ignored) and ends
//!    complete.
//! 3. Then the destination's own bookkeeping: PostgreSQL's id sequences set
//!    past the copied ids (so the next crawl's rows do not collide), SQLite's
//!    FTS5 indexes filled from the copied articles.
//! 4. Verified: every table's count in the destination equals the source's,
//!    else an error naming the table and both counts.

mod end;
mod tables;

pub use tables::{Table, TABLES};

use super::rows::Cell;
use super::target::{redacted, StoreTarget};
use super::{open, Access, StoreError};
use end::End;

/// How a copy runs.
#[derive(Debug, Clone)]
pub struct CopyOptions {
    /// Rows per write transaction.
    pub batch_rows: usize,
    /// Test hook: stop with [`CopyError::Interrupted`] after this many
    /// committed batches, as a killed copy would.
    pub stop_after_batches: Option<u64>,
}

impl Default for CopyOptions {
    fn default() -> Self {
        CopyOptions {
            batch_rows: 2_000,
            stop_after_batches: None,
        }
    }
}

/// Where a copy is, for a progress display.
#[derive(Debug, Clone, Copy)]
pub struct CopyProgress {
    pub table: &'static str,
    /// Rows of the table read from the source so far.
    pub done: u64,
    /// Rows the table holds in the source.
    pub total: u64,
}

/// The tables copied and their row counts (equal at both ends).
#[derive(Debug, Clone, Default)]
pub struct CopyReport {
    pub tables: Vec<(&'static str, u64)>,
    /// Rows offered to the destination by this run (0 when everything was
    /// already there).
    pub rows_offered: u64,
}

#[derive(Debug, thiserror::Error)]
pub enum CopyError {
    #[error("{0}: no such database")]
    SourceMissing(String),
    #[error("{0}: holds no newshound corpus")]
    SourceEmpty(String),
    #[error("{0}: the source and the destination are the same database")]
    Same(String),
    /// The destination already holds rows of another corpus.
    #[error("{dst}: holds a different corpus ({detail}); copy into a new database")]
    DifferentCorpus { dst: String, detail: String },
    /// The verification at the end found a table short (or long).
    #[error("{table}: {src} rows in the source, {dst} in the destination after the copy")]
    CountMismatch { table: String, src: u64, dst: u64 },
    /// A cell the destination cannot take (not UTF-8, out of range).
    #[error("{table}.{column}: {reason}")]
    Cell {
        table: &'static str,
        column: String,
        reason: String,
    },
    #[error("copy interrupted after {0} batches (run it again to finish)")]
    Interrupted(u64),
    #[error("{0}")]
    Store(#[from] StoreError),
}

/// Copy the corpus at `from` into `to`; `progress` hears about each batch.
pub fn copy(
    from: &StoreTarget,
    to: &StoreTarget,
    options: &CopyOptions,
    progress: &mut dyn FnMut(CopyProgress),
) -> Result<CopyReport, CopyError> {
    refuse_same(from, to)?;
    let mut src = open_source(from)?;
    let mut dst = End(open(to, Access::Create)?);
    same_corpus(&mut src, &mut dst)?;
    let mut report = CopyReport::default();
    let mut batches = 0u64;
    for table in TABLES {
        let total = src.count(table)?;
        if dst.count(table)? == total {
            progress(CopyProgress {
                table: table.name,
                done: total,
                total,
            });
            continue;
        }
        let columns = tables::shared(&src.columns(table)?, dst.columns(table)?);
        let mut batch: Vec<Vec<Cell>> = Vec::with_capacity(options.batch_rows);
        let mut done = 0u64;
        let mut flush = |batch: &mut Vec<Vec<Cell>>, done: u64| -> Result<(), CopyError> {
            dst.write(table, &columns, batch)?;
            report.rows_offered += batch.len() as u64;
            batch.clear();
            batches += 1;
            progress(CopyProgress {
                table: table.name,
                done,
                total,
            });
            match options.stop_after_batches {
                Some(n) if batches >= n => Err(CopyError::Interrupted(batches)),
                _ => Ok(()),
            }
        };
        src.read(table, &columns, &mut |row| {
            batch.push(row);
            done += 1;
            if batch.len() >= options.batch_rows.max(1) {
                flush(&mut batch, done)?;
            }
            Ok(())
        })?;
        if !batch.is_empty() {
            flush(&mut batch, done)?;
        }
    }
    dst.finish()?;
    for table in TABLES {
        let (s, d) = (src.count(table)?, dst.count(table)?);
        if s != d {
            return Err(CopyError::CountMismatch {
                table: table.name.to_string(),
                src: s,
                dst: d,
            });
        }
        report.tables.push((table.name, s));
    }
    Ok(report)
}

fn open_source(target: &StoreTarget) -> Result<End, CopyError> {
    match target {
        StoreTarget::Sqlite(path) if !path.is_file() => {
            return Err(CopyError::SourceMissing(path.display().to_string()))
        }
        StoreTarget::Sqlite(_) => {}
        StoreTarget::Postgres(url) => require_schema(url)?,
    }
    Ok(End(open(target, Access::Read)?))
}

/// A PostgreSQL source must already be a newshound database: opening it
/// would otherwise create an empty schema in someone's database and copy
/// nothing.
fn require_schema(url: &str) -> Result<(), CopyError> {
    let shown = redacted(url);
    let mut client = postgres::Client::connect(url, postgres::NoTls).map_err(|e| {
        CopyError::Store(StoreError::PgConnect {
            url: shown.clone(),
            reason: super::pg::reason_of(&e),
        })
    })?;
    let has: bool = client
        .query_one("SELECT to_regclass('articles') IS NOT NULL", &[])
        .map_err(StoreError::from)?
        .get(0);
    if has {
        Ok(())
    } else {
        Err(CopyError::SourceEmpty(shown))
    }
}

/// Whether two PostgreSQL URLs name one database: same hosts, ports and
/// name.
fn same_database(a: &str, b: &str) -> bool {
    let (Ok(a), Ok(b)) = (a.parse::<postgres::Config>(), b.parse::<postgres::Config>()) else {
        return a == b;
    };
    let ports = |c: &postgres::Config| match c.get_ports() {
        [] => vec![5432],
        p => p.to_vec(),
    };
    a.get_hosts() == b.get_hosts() && ports(&a) == ports(&b) && a.get_dbname() == b.get_dbname()
}

/// The same file (through any path, a hard link included) or the same
/// database on the same server.
fn refuse_same(from: &StoreTarget, to: &StoreTarget) -> Result<(), CopyError> {
    let same = match (from, to) {
        (StoreTarget::Sqlite(a), StoreTarget::Sqlite(b)) => same_file(a, b),
        (StoreTarget::Postgres(a), StoreTarget::Postgres(b)) => same_database(a, b),
        _ => false,
    };
    if same {
        return Err(CopyError::Same(from.to_string()));
    }
    Ok(())
}

/// Whether two paths name one file: the same path, or (both existing) the
/// same device and inode, which a hard link shares and a path comparison
/// misses.
fn same_file(a: &std::path::Path, b: &std::path::Path) -> bool {
    if a == b {
        return true;
    }
    let (Ok(x), Ok(y)) = (std::fs::metadata(a), std::fs::metadata(b)) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        x.dev() == y.dev() && x.ino() == y.ino()
    }
    #[cfg(not(unix))]
    {
        let _ = (x, y);
        matches!((a.canonicalize(), b.canonicalize()), (Ok(x), Ok(y)) if x == y)
    }
}

/// The destination is empty, or holds a part of this very corpus (an
/// interrupted copy): its sites are the source's, and its first and last
/// articles are the source's articles of those ids.
fn same_corpus(src: &mut End, dst: &mut End) -> Result<(), CopyError> {
    let shown = dst.0.shown();
    let differ = |detail: String| CopyError::DifferentCorpus {
        dst: shown.clone(),
        detail,
    };
    let ours = src.pairs("SELECT id, name FROM sites ORDER BY id")?;
    for (id, name) in dst.pairs("SELECT id, name FROM sites ORDER BY id")? {
        match ours.iter().find(|(i, _)| *i == id) {
            Some((_, n)) if *n == name => {}
            Some((_, n)) => {
                return Err(differ(format!(
                    "site {id} is {name:?} there, {n:?} in the source"
                )))
            }
            None => return Err(differ(format!("site {id} ({name:?}) is not in the source"))),
        }
    }
    let ends = "SELECT id, url FROM articles WHERE id = (SELECT min(id) FROM articles) \
                OR id = (SELECT max(id) FROM articles)";
    for (id, url) in dst.pairs(ends)? {
        let theirs = src.pairs(&format!("SELECT id, url FROM articles WHERE id = {id}"))?;
        if theirs.first().map(|(_, u)| u) != Some(&url) {
            return Err(differ(format!(
                "article {id} ({url}) is not the source's article {id}"
            )));
        }
    }
    Ok(())
}
