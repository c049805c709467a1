//! The store's one error type, for both backends: what a caller can act on
//! (a file that is not a corpus, a schema too new, a lease lost, a query over
//! its budget) apart from the driver's own errors.

use std::path::{Path, PathBuf};

use super::{pg, FileTrouble, QueryError};

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{path}: not a newshound database (file is not SQLite or is corrupt)")]
    NotADatabase { path: PathBuf },
    /// An empty file (or an SQLite file without tables) given to a command
    /// that only reads: left as it was.
    #[error(
        "{path}: empty, not a newshound database yet (a crawl creates one: `newshound crawl --db {path}`)"
    )]
    Empty { path: PathBuf },
    /// A sound SQLite file holding another application's tables.
    #[error("{path}: an SQLite database, but not a newshound corpus (it holds other tables)")]
    NotACorpus { path: PathBuf },
    #[error("{path}: cannot open database: {reason}")]
    Open {
        path: PathBuf,
        /// SQLite's short reason (its full message repeats the path).
        reason: String,
        /// Not a `source`: the reason already says it, once.
        error: rusqlite::Error,
    },
    #[error("{path}: database schema version {found} is newer than this newshound supports ({supported})")]
    TooNew {
        path: PathBuf,
        found: i64,
        supported: i64,
    },
    /// The file cannot be used as it is: damaged, read-only, I/O errors...
    #[error("{path}: {trouble}")]
    File { path: PathBuf, trouble: FileTrouble },
    /// A read-only open of a database whose schema is older than this
    /// build's, on a file this user may not write (so it cannot migrate).
    #[error(
        "{path}: database schema (version {found}) lacks migrations of this build (up to \
         {supported}), which need write access; run `newshound reclean` once as a user who may \
         write it"
    )]
    NeedsUpgrade {
        path: PathBuf,
        found: i64,
        supported: i64,
    },
    /// A command that reads or changes a corpus was given a SQLite path
    /// where there is no file: an error rather than a silently created
    /// empty database.
    #[error("{path}: no such database (run `newshound crawl` first, or pass --db PATH)")]
    NoSuchDatabase { path: PathBuf },
    #[error("{path}: is a directory, not a database")]
    IsADirectory { path: PathBuf },
    #[error("unknown site: {0}")]
    UnknownSite(String),
    #[error("search: {0}")]
    Query(#[from] QueryError),
    /// Raised by the caller's sink in
    /// [`AnyStore::export`](super::AnyStore::export) (e.g. a closed pipe).
    #[error("write failed: {0}")]
    Io(#[from] std::io::Error),
    #[error("database error: {0}")]
    Sqlite(#[source] rusqlite::Error),
    /// A query ran past the time budget the store was given
    /// ([`AnyStore::set_query_budget`](super::AnyStore::set_query_budget))
    /// and was stopped.
    #[error("the query ran past its time budget and was stopped")]
    OverBudget,
    /// The PostgreSQL server cannot be reached or refuses the connection.
    #[error("{url}: cannot connect to PostgreSQL: {reason}")]
    PgConnect { url: String, reason: String },
    /// Applying `migrations/postgres/` failed (nothing of it was applied).
    #[error("{url}: cannot migrate the PostgreSQL schema: {reason}")]
    PgMigrate { url: String, reason: String },
    #[error("PostgreSQL: {}", pg::reason_of(.0))]
    Postgres(#[source] postgres::Error),
    /// A query that always gives a row (an aggregate) gave none.
    #[error("database error: no row from `{0}`")]
    NoRow(String),
    /// A write for a lease another process has taken since (its lease ran
    /// out): nothing of its transaction is kept.
    #[error("{what}: another process holds it now (this one's lease ran out)")]
    LeaseLost { what: String },
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> StoreError {
        // Only the query budget's progress handler interrupts a statement.
        if e.sqlite_error_code() == Some(rusqlite::ErrorCode::OperationInterrupted) {
            return StoreError::OverBudget;
        }
        StoreError::Sqlite(e)
    }
}

impl From<postgres::Error> for StoreError {
    fn from(e: postgres::Error) -> StoreError {
        // Cancelled by `statement_timeout`, the query budget.
        if e.code() == Some(&postgres::error::SqlState::QUERY_CANCELED) {
            return StoreError::OverBudget;
        }
        StoreError::Postgres(e)
    }
}

impl StoreError {
    /// This error with the database file named when SQLite's failure is
    /// about the file (damaged, read-only, I/O...): see [`FileTrouble`].
    pub fn in_file(self, path: &Path) -> StoreError {
        match &self {
            StoreError::Sqlite(e) => match FileTrouble::of(e) {
                Some(trouble) => StoreError::File {
                    path: path.to_path_buf(),
                    trouble,
                },
                None => self,
            },
            _ => self,
        }
    }
}
