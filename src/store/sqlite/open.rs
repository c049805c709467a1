//! Opening the database: a path (or memory) in, a migrated [`Store`] out.
//!
//! Two ways in: [`Store::open`] for the commands that write (crawl, demo,
//! reclean), which creates and migrates; [`Store::open_read_only`] for the
//! commands that only read (search, show, export, stats), which never
//! writes, so they work on a file this user may only read (a shared corpus,
//! a backup, a read-only mount), and leave an empty file empty
//! ([`StoreError::Empty`]). An SQLite file of another application is
//! [`StoreError::NotACorpus`] to both.
//!
//! Connection settings (WAL, `synchronous=NORMAL`, foreign keys, busy timeout)
//! are applied first; the first statement is also where SQLite notices that the
//! file is not a database, so that error is mapped to
//! [`StoreError::NotADatabase`] (and a damaged one, or one it cannot read, to
//! [`StoreError::File`]). Migrations ([`super::migrate`]): every numbered
//! file of `migrations/` the database does not record is applied, in
//! number order, each in its own transaction.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::config::DbConfig;
use rusqlite::{ffi::ErrorCode, Connection, OpenFlags};

use super::migrate::{self, SCHEMA_VERSION};
use super::{FileTrouble, Store, StoreError};

/// How long a statement waits for another connection's lock (a reader during
/// a checkpoint, `stats` run while crawling) before failing with BUSY.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

const STATEMENT_CACHE: usize = 64;

impl Store {
    /// Open (creating the file if needed) and migrate.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        refuse_non_file(path)?;
        let conn = Connection::open(path).map_err(|e| classify(path, e))?;
        Self::init(conn, path.to_path_buf())
    }

    /// Open an existing database for reading only: nothing is written
    /// (journal mode, migrations, planner statistics). A database in an
    /// older schema is migrated first when the file is writable; otherwise
    /// that is [`StoreError::NeedsUpgrade`].
    pub fn open_read_only(path: &Path) -> Result<Store, StoreError> {
        refuse_non_file(path)?;
        let store = Self::connect_read_only(path)?;
        let found = store
            .schema_version()
            .map_err(|e| e.in_file(path))
            .map_err(|e| match e {
                StoreError::File {
                    trouble: FileTrouble::NotSqlite,
                    ..
                } => StoreError::NotADatabase {
                    path: path.to_path_buf(),
                },
                other => other,
            })?;
        if found > SCHEMA_VERSION {
            return Err(StoreError::TooNew {
                path: path.to_path_buf(),
                found,
                supported: SCHEMA_VERSION,
            });
        }
        if found == 0 {
            // None of our schema: a command that reads must not write one
            // into an empty file (nor report a missing migration).
            let path = path.to_path_buf();
            return Err(if has_foreign_tables(&store.conn)? {
                StoreError::NotACorpus { path }
            } else {
                StoreError::Empty { path }
            });
        }
        if migrate::pending(&store.conn)?.is_empty() {
            return Ok(store);
        }
        drop(store);
        match Store::open(path) {
            Ok(migrated) => drop(migrated),
            Err(StoreError::File {
                trouble: FileTrouble::ReadOnly | FileTrouble::CannotOpen,
                ..
            }) => {
                return Err(StoreError::NeedsUpgrade {
                    path: path.to_path_buf(),
                    found,
                    supported: SCHEMA_VERSION,
                })
            }
            Err(e) => return Err(e),
        }
        Self::connect_read_only(path)
    }

    /// A read-only connection. A WAL database needs its `-shm` file; when
    /// it is absent and cannot be created (a read-only directory), no
    /// writer can be active, and the file is opened as immutable.
    fn connect_read_only(path: &Path) -> Result<Store, StoreError> {
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(path, flags).map_err(|e| classify(path, e))?;
        let store = Self::read_only_store(conn, path)?;
        match store.schema_version() {
            // SQLITE_CANTOPEN, or SQLITE_READONLY_CANTINIT when it may not
            // create the -shm file.
            Err(StoreError::Sqlite(e))
                if matches!(
                    FileTrouble::of(&e),
                    Some(FileTrouble::CannotOpen | FileTrouble::ReadOnly)
                ) =>
            {
                drop(store);
                let uri = immutable_uri(path);
                let conn = Connection::open_with_flags(&uri, flags | OpenFlags::SQLITE_OPEN_URI)
                    .map_err(|e| classify(path, e))?;
                Self::read_only_store(conn, path)
            }
            _ => Ok(store),
        }
    }

    fn read_only_store(conn: Connection, path: &Path) -> Result<Store, StoreError> {
        conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
        conn.busy_timeout(BUSY_TIMEOUT)
            .map_err(|e| classify(path, e))?;
        Ok(Store {
            conn,
            path: path.to_path_buf(),
            url_caps: Default::default(),
            url_counts: Default::default(),
            read_only: true,
            checkpoints: None,
        })
    }

    /// A private in-memory database (tests, `extract` dry runs).
    pub fn open_in_memory() -> Result<Store, StoreError> {
        let path = PathBuf::from(":memory:");
        let conn = Connection::open_in_memory().map_err(|e| classify(&path, e))?;
        Self::init(conn, path)
    }

    fn init(conn: Connection, path: PathBuf) -> Result<Store, StoreError> {
        configure(&conn).map_err(|e| classify(&path, e))?;
        let mut store = Store {
            conn,
            path,
            url_caps: Default::default(),
            url_counts: Default::default(),
            read_only: false,
            checkpoints: None,
        };
        store.migrate()?;
        Ok(store)
    }

    /// The schema version of the open database (`PRAGMA user_version`).
    pub fn schema_version(&self) -> Result<i64, StoreError> {
        Ok(self
            .conn
            .pragma_query_value(None, "user_version", |r| r.get(0))?)
    }

    /// `PRAGMA integrity_check`: `"ok"` for a sound database, otherwise
    /// SQLite's list of problems (one per line).
    pub fn integrity_check(&self) -> Result<String, StoreError> {
        let mut stmt = self.conn.prepare("PRAGMA integrity_check")?;
        let lines = stmt
            .query_map([], |r| r.get::<_, String>(0))?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(lines.join("\n"))
    }

    fn migrate(&mut self) -> Result<(), StoreError> {
        let found = self.schema_version()?;
        if found > SCHEMA_VERSION {
            return Err(StoreError::TooNew {
                path: self.path.clone(),
                found,
                supported: SCHEMA_VERSION,
            });
        }
        if found == 0 && has_foreign_tables(&self.conn)? {
            // Version 0 with tables in it is some other application's SQLite
            // file: running our schema over it would fail half-way or mix data.
            return Err(StoreError::NotACorpus {
                path: self.path.clone(),
            });
        }
        migrate::apply_pending(&mut self.conn)?;
        Ok(())
    }
}

impl Drop for Store {
    fn drop(&mut self) {
        if self.read_only {
            return;
        }
        // The checkpointing thread's connection closes first, so that this
        // one, the last, checkpoints and removes the WAL as it closes.
        let _ = self.checkpoint_in_foreground();
        // Refresh the planner's statistics where they went stale (SQLite's
        // advice for every connection that wrote); failure costs nothing.
        let _ = self.conn.execute_batch("PRAGMA optimize");
    }
}

/// Apply every migration to a bare connection, for tests of one store
/// file that work on a `Connection`.
#[cfg(test)]
pub(super) fn migrate_bare(conn: &Connection) -> rusqlite::Result<()> {
    for (_, sql) in migrate::MIGRATIONS {
        conn.execute_batch(sql)?;
    }
    Ok(())
}

fn configure(conn: &Connection) -> rusqlite::Result<()> {
    // The writer cycles through ~30 distinct statements (frontier, fetch log,
    // articles, line table); the default cache of 16 would re-prepare them.
    conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
    conn.busy_timeout(BUSY_TIMEOUT)?;
    // Plans made once per statement. Without this, once `PRAGMA optimize`
    // has written STAT4 samples, every bound value an indexed column is
    // compared with (`site_id = ?1`, `host > ?2`) marks the statement for a
    // new plan whenever that value changes: the claim's two statements
    // were planned again for every site and host of every claim (4 % of
    // the crawl's CPU on small pages). The writer's statements name their
    // index or have one obvious plan, so per-value plans bought nothing;
    // reads are planned with the ANALYZE statistics all the same.
    conn.set_db_config(DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG, true)?;
    // The first statement reads the header: a non-SQLite file fails here.
    let _mode: String = conn.pragma_update_and_check(None, "journal_mode", "WAL", |r| r.get(0))?;
    // NORMAL is safe in WAL mode: a power cut can lose the last commits, never
    // corrupt the file; kill -9 loses nothing committed.
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.pragma_update(None, "foreign_keys", true)?;
    Ok(())
}

fn has_foreign_tables(conn: &Connection) -> rusqlite::Result<bool> {
    let n: i64 = conn.query_row(
        "SELECT count(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'",
        [],
        |r| r.get(0),
    )?;
    Ok(n > 0)
}

/// `--db /dev/null` opened the device and failed later with "invalid utf-8
/// sequence"; a FIFO would block. Only regular files (or nothing yet) pass.
fn refuse_non_file(path: &Path) -> Result<(), StoreError> {
    match std::fs::metadata(path) {
        Ok(m) if !m.is_file() && !m.is_dir() => Err(StoreError::File {
            path: path.to_path_buf(),
            trouble: FileTrouble::NotAFile,
        }),
        _ => Ok(()),
    }
}

/// `file:PATH?immutable=1`, with the characters URIs reserve escaped.
fn immutable_uri(path: &Path) -> String {
    let mut uri = String::from("file:");
    for c in path.to_string_lossy().chars() {
        match c {
            '%' | '?' | '#' => uri.push_str(&format!("%{:02X}", c as u32)),
            c => uri.push(c),
        }
    }
    uri.push_str("?immutable=1");
    uri
}

fn classify(path: &Path, e: rusqlite::Error) -> StoreError {
    if let Some(trouble) = FileTrouble::of(&e).filter(|t| *t != FileTrouble::NotSqlite) {
        return StoreError::File {
            path: path.to_path_buf(),
            trouble,
        };
    }
    match e.sqlite_error_code() {
        Some(ErrorCode::NotADatabase) => StoreError::NotADatabase {
            path: path.to_path_buf(),
        },
        _ => StoreError::Open {
            path: path.to_path_buf(),
            reason: match &e {
                rusqlite::Error::SqliteFailure(code, _) => code.to_string(),
                other => other.to_string(),
            },
            error: e,
        },
    }
}
