//! Opening the database: a path (or memory) in, a migrated [`Store`] out.
//!
//! Connection settings (WAL, `synchronous=NORMAL`, foreign keys, busy timeout)
//! are applied first; the first statement is also where SQLite notices that the
//! file is not a database, so that error is mapped to
//! [`StoreError::NotADatabase`]. Migrations are the numbered files of
//! `migrations/`, embedded at build time and applied in order, each in its own
//! transaction together with the `PRAGMA user_version` bump, so a crash during
//! a migration leaves the previous version intact.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{ffi::ErrorCode, Connection};

use super::{Store, StoreError};

/// Schema migrations: `(version, sql)`, version = the file's number. Append
/// new files here; never edit a landed one.
const MIGRATIONS: &[(i64, &str)] = &[
    (1, include_str!("../../migrations/0001_init.sql")),
    (2, include_str!("../../migrations/0002_claim_index.sql")),
    (
        3,
        include_str!("../../migrations/0003_cjk_index_only_cjk.sql"),
    ),
    (4, include_str!("../../migrations/0004_claim_per_host.sql")),
    (5, include_str!("../../migrations/0005_fetch_skips.sql")),
    (7, include_str!("../../migrations/0007_kept_html.sql")),
    (8, include_str!("../../migrations/0008_site_rules.sql")),
];

/// The schema version this build writes.
pub(super) const SCHEMA_VERSION: i64 = MIGRATIONS[MIGRATIONS.len() - 1].0;

/// How long a statement waits for another connection's lock (a reader during
/// a checkpoint, `stats` run while crawling) before failing with BUSY.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

const STATEMENT_CACHE: usize = 64;

impl Store {
    /// Open (creating the file if needed) and migrate.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let conn = Connection::open(path).map_err(|e| classify(path, e))?;
        Self::init(conn, path.to_path_buf())
    }

    /// Open an existing database read-only (`serve`, beside a crawl of the
    /// same file): nothing is created or migrated; a database written by an
    /// older newshound must be opened for writing once first.
    pub fn open_read_only(path: &Path) -> Result<Store, StoreError> {
        use rusqlite::OpenFlags;
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY
            | OpenFlags::SQLITE_OPEN_NO_MUTEX
            | OpenFlags::SQLITE_OPEN_URI;
        let conn = Connection::open_with_flags(path, flags).map_err(|e| classify(path, e))?;
        conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
        conn.busy_timeout(BUSY_TIMEOUT)
            .map_err(|e| classify(path, e))?;
        let store = Store {
            conn,
            path: path.to_path_buf(),
            max_urls_per_site: 0,
        };
        // The first read of the header: a non-SQLite file fails here.
        let found = store.schema_version().map_err(|e| match e {
            StoreError::Sqlite(e) => classify(path, e),
            other => other,
        })?;
        if found != SCHEMA_VERSION {
            return Err(StoreError::Version {
                path: path.to_path_buf(),
                found,
                supported: SCHEMA_VERSION,
            });
        }
        Ok(store)
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
            max_urls_per_site: 0,
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
            return Err(StoreError::NotADatabase {
                path: self.path.clone(),
            });
        }
        for &(version, sql) in MIGRATIONS.iter().filter(|(v, _)| *v > found) {
            let tx = self.conn.transaction()?;
            tx.execute_batch(sql)?;
            tx.pragma_update(None, "user_version", version)?;
            tx.commit()?;
        }
        Ok(())
    }
}

impl Drop for Store {
    fn drop(&mut self) {
        // Refresh the planner's statistics where they went stale (SQLite's
        // advice for every connection that wrote); failure costs nothing.
        let _ = self.conn.execute_batch("PRAGMA optimize");
    }
}

fn configure(conn: &Connection) -> rusqlite::Result<()> {
    // The writer cycles through ~30 distinct statements (frontier, fetch log,
    // articles, line table); the default cache of 16 would re-prepare them.
    conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
    conn.busy_timeout(BUSY_TIMEOUT)?;
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

fn classify(path: &Path, e: rusqlite::Error) -> StoreError {
    match e.sqlite_error_code() {
        Some(ErrorCode::NotADatabase | ErrorCode::DatabaseCorrupt) => StoreError::NotADatabase {
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
