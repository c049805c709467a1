//! SQLite failures that are about the database *file* → a sentence a user
//! can act on.
//!
//! In: a `rusqlite::Error` (from opening or from any query). Out: a
//! [`FileTrouble`] (what is wrong, what to do) when the error is one of the
//! file-level kinds, else `None` (a bug or a constraint, reported as is).
//! SQLite's own texts (`database disk image is malformed: Error code 11`,
//! `disk I/O error: Error code 1034`, `unable to open database file`) name
//! neither the file nor a remedy; [`super::StoreError::File`] names both.

use rusqlite::ffi::ErrorCode;

/// What is wrong with a database file. The display is the user's sentence
/// (after the path): what happened, then what to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum FileTrouble {
    /// SQLITE_CORRUPT: pages or indexes are damaged.
    #[error(
        "the database file is damaged (\"database disk image is malformed\"); \
         restore it from a backup, or try `sqlite3 FILE .recover` into a new file"
    )]
    Damaged,
    /// SQLITE_NOTADB: the file is not SQLite at all.
    #[error("not a newshound database (the file is not SQLite); check the --db path")]
    NotSqlite,
    /// SQLITE_READONLY: a write on a file or directory we may not write.
    #[error(
        "the database is read-only for this user; crawl, demo, reclean and reextract \
         need write access to the file and its directory (search, show, \
         export and stats do not)"
    )]
    ReadOnly,
    /// SQLITE_BUSY / SQLITE_LOCKED after the busy timeout.
    #[error(
        "the database stayed locked by another process (a crawl writing a \
         large batch?); try again in a moment"
    )]
    Locked,
    /// SQLITE_FULL.
    #[error("the disk holding the database is full; free some space and run the command again")]
    DiskFull,
    /// SQLITE_IOERR and its extended codes (fsync, read, write, shm...).
    #[error(
        "disk I/O error while using the database; check the disk (full, \
         failing, removed?) and that the file is not on a network file \
         system without locking"
    )]
    Io,
    /// SQLITE_CANTOPEN.
    #[error(
        "cannot open the database file; check that it and its directory \
         exist and are readable (a database in WAL mode also needs its \
         -wal and -shm files, or a directory where they can be created)"
    )]
    CannotOpen,
    /// SQLITE_PERM / SQLITE_AUTH.
    #[error("permission denied for the database file; check its owner and mode")]
    Permission,
    /// Opening something that is not a regular file (`--db /dev/null`).
    #[error("not a regular file (a device, pipe or socket); a database must be a file")]
    NotAFile,
}

impl FileTrouble {
    /// The trouble an error reports, if it is about the file.
    pub fn of(e: &rusqlite::Error) -> Option<FileTrouble> {
        Some(match e.sqlite_error_code()? {
            ErrorCode::DatabaseCorrupt => FileTrouble::Damaged,
            ErrorCode::NotADatabase => FileTrouble::NotSqlite,
            ErrorCode::ReadOnly => FileTrouble::ReadOnly,
            ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked => FileTrouble::Locked,
            ErrorCode::DiskFull => FileTrouble::DiskFull,
            ErrorCode::SystemIoFailure => FileTrouble::Io,
            ErrorCode::CannotOpen => FileTrouble::CannotOpen,
            ErrorCode::PermissionDenied | ErrorCode::AuthorizationForStatementDenied => {
                FileTrouble::Permission
            }
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sqlite_error(extended_code: i32) -> rusqlite::Error {
        rusqlite::Error::SqliteFailure(rusqlite::ffi::Error::new(extended_code), None)
    }

    #[test]
    fn raw_sqlite_codes_map_to_troubles_with_a_remedy() {
        // The codes users met: 11 malformed, 1034 = SQLITE_IOERR_FSYNC,
        // 14 unable to open, 8 readonly; then the other file-level kinds.
        for (code, trouble, remedy) in [
            (11, FileTrouble::Damaged, "restore it from a backup"),
            (26, FileTrouble::NotSqlite, "check the --db path"),
            (1034, FileTrouble::Io, "check the disk"),
            (266, FileTrouble::Io, "check the disk"),
            (
                14,
                FileTrouble::CannotOpen,
                "check that it and its directory",
            ),
            (8, FileTrouble::ReadOnly, "need write access"),
            (5, FileTrouble::Locked, "try again"),
            (13, FileTrouble::DiskFull, "free some space"),
            (3, FileTrouble::Permission, "owner and mode"),
        ] {
            let got = FileTrouble::of(&sqlite_error(code));
            assert_eq!(got, Some(trouble), "code {code}");
            assert!(trouble.to_string().contains(remedy), "{trouble}");
        }
    }

    #[test]
    fn regression_the_read_only_refusal_left_out_reextract() {
        let said = FileTrouble::ReadOnly.to_string();
        assert!(
            said.contains("reclean and reextract need write access"),
            "{said}"
        );
    }

    #[test]
    fn errors_that_are_not_about_the_file_are_left_alone() {
        assert_eq!(FileTrouble::of(&sqlite_error(19)), None); // constraint
        assert_eq!(FileTrouble::of(&rusqlite::Error::InvalidQuery), None);
    }
}
