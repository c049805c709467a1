//! Which store a command works on: a SQLite file (the embedded default) or
//! a PostgreSQL database shared by many crawler processes.
//!
//! In: `--db` or `[store] url` (a path, or a `postgres://` / `postgresql://`
//! URL), else `[crawler] database`. Out: a [`StoreTarget`]. Here, with the
//! configuration, rather than in `store` (which re-exports it): the config
//! resolves `[store] url` to one, and may not import from the layer above.

use std::fmt;
use std::path::{Path, PathBuf};

/// Where the corpus lives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreTarget {
    /// A SQLite database file.
    Sqlite(PathBuf),
    /// A PostgreSQL connection URL (`postgres://user@host:port/dbname`).
    Postgres(String),
}

impl StoreTarget {
    /// A path, or a PostgreSQL URL when it starts with `postgres://` or
    /// `postgresql://`.
    pub fn parse(s: &str) -> StoreTarget {
        if is_postgres_url(s) {
            StoreTarget::Postgres(s.to_string())
        } else {
            StoreTarget::Sqlite(PathBuf::from(s))
        }
    }
}

impl From<&Path> for StoreTarget {
    /// A SQLite file.
    fn from(path: &Path) -> StoreTarget {
        StoreTarget::Sqlite(path.to_path_buf())
    }
}

impl StoreTarget {
    /// The SQLite file, for the checks that only a file needs (a crawl's
    /// lock, a missing directory, an output file that is the database);
    /// `None` for a database on a server.
    pub fn sqlite_file(&self) -> Option<&Path> {
        match self {
            StoreTarget::Sqlite(path) => Some(path),
            StoreTarget::Postgres(_) => None,
        }
    }
}

/// Whether `s` names a PostgreSQL database rather than a file.
pub fn is_postgres_url(s: &str) -> bool {
    let lower = s.get(..13).unwrap_or(s).to_ascii_lowercase();
    lower.starts_with("postgres://") || lower.starts_with("postgresql://")
}

/// Query parameters of a PostgreSQL URL that hold secrets (libpq's names).
const SECRET_PARAMS: [&str; 2] = ["password", "sslpassword"];

/// A PostgreSQL URL without its secrets, for messages and logs: the
/// password of the user part and the values of `?password=` and
/// `?sslpassword=` are shown as `***`.
pub fn redacted(url: &str) -> String {
    let Ok(mut u) = url::Url::parse(url) else {
        return url.to_string();
    };
    if u.password().is_some() {
        let _ = u.set_password(Some("***"));
    }
    let secret = |k: &str| SECRET_PARAMS.iter().any(|s| k.eq_ignore_ascii_case(s));
    if u.query_pairs().any(|(k, _)| secret(&k)) {
        let pairs: Vec<(String, String)> = u
            .query_pairs()
            .map(|(k, v)| {
                let v = if secret(&k) {
                    "***".into()
                } else {
                    v.into_owned()
                };
                (k.into_owned(), v)
            })
            .collect();
        u.query_pairs_mut().clear().extend_pairs(pairs);
    }
    u.to_string()
}

impl fmt::Display for StoreTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreTarget::Sqlite(p) => write!(f, "{}", p.display()),
            StoreTarget::Postgres(u) => f.write_str(&redacted(u)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_and_paths_are_told_apart() {
        assert_eq!(
            StoreTarget::parse("postgres://nh@127.0.0.1/corpus"),
            StoreTarget::Postgres("postgres://nh@127.0.0.1/corpus".into())
        );
        assert!(matches!(
            StoreTarget::parse("PostgreSQL://h/db"),
            StoreTarget::Postgres(_)
        ));
        assert_eq!(
            StoreTarget::parse("newshound.db"),
            StoreTarget::Sqlite("newshound.db".into())
        );
        // A file that merely starts like a scheme is still a file.
        assert!(matches!(
            StoreTarget::parse("postgres.db"),
            StoreTarget::Sqlite(_)
        ));
    }

    #[test]
    fn regression_a_password_given_as_a_url_parameter_was_printed() {
        let url = "postgres://nh@db.example/corpus?sslmode=disable&password=s3cret&SSLPASSWORD=k3y";
        let shown = StoreTarget::parse(url).to_string();
        assert!(
            !shown.contains("s3cret") && !shown.contains("k3y"),
            "{shown}"
        );
        assert!(shown.contains("sslmode=disable"), "{shown}");
        assert!(
            shown.contains("password=***") || shown.contains("password=%2A%2A%2A"),
            "{shown}"
        );
        assert_eq!(
            redacted("postgres://h/db?application_name=x"),
            "postgres://h/db?application_name=x"
        );
    }

    #[test]
    fn passwords_are_left_out_of_messages() {
        let shown = StoreTarget::parse("postgres://nh:secret@db.example:5432/corpus").to_string();
        assert!(!shown.contains("secret"), "{shown}");
        assert!(shown.contains("db.example:5432/corpus"), "{shown}");
    }
}
