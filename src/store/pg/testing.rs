//! Databases of their own for tests that need a real PostgreSQL server.
//!
//! The server is the one `NEWSHOUND_TEST_PG` names: a URL of a database on
//! it whose user may create databases (`.ci/run` starts a throwaway cluster
//! and sets it). Each [`TestDb`] is a new database, dropped at the end, so
//! tests run in parallel without seeing each other's rows. Without a server
//! the test fails with a message saying how to get one: it never passes
//! silently.

use std::sync::atomic::{AtomicU64, Ordering};

/// The variable naming the test server.
pub const TEST_SERVER_VAR: &str = "NEWSHOUND_TEST_PG";

/// A database of its own on the test server, dropped with this value.
pub struct TestDb {
    /// The URL of the new database.
    pub url: String,
    name: String,
    /// The URL the database was created from (to drop it).
    admin: String,
}

impl TestDb {
    /// Create an empty database. Panics, naming what to install or set,
    /// when no server can be reached.
    pub fn new() -> TestDb {
        let admin = std::env::var(TEST_SERVER_VAR).unwrap_or_else(|_| panic!("{}", missing()));
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let name = format!(
            "nh_test_{}_{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let mut client = connect(&admin);
        // Two statements: CREATE DATABASE cannot run in the implicit
        // transaction of a multi-statement batch.
        for sql in [
            format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"),
            format!("CREATE DATABASE {name}"),
        ] {
            client.batch_execute(&sql).unwrap_or_else(|e| {
                panic!(
                    "{TEST_SERVER_VAR}={admin}: cannot create a test database: {}",
                    super::reason_of(&e)
                )
            });
        }
        let mut url = url::Url::parse(&admin)
            .unwrap_or_else(|e| panic!("{TEST_SERVER_VAR}={admin}: not a URL: {e}"));
        url.set_path(&name);
        TestDb {
            url: url.to_string(),
            name,
            admin,
        }
    }
}

impl Default for TestDb {
    fn default() -> Self {
        TestDb::new()
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        if let Ok(mut client) = postgres::Client::connect(&self.admin, postgres::NoTls) {
            let _ = client.batch_execute(&format!(
                "DROP DATABASE IF EXISTS {} WITH (FORCE)",
                self.name
            ));
        }
    }
}

fn connect(admin: &str) -> postgres::Client {
    postgres::Client::connect(admin, postgres::NoTls).unwrap_or_else(|e| {
        panic!(
            "{TEST_SERVER_VAR}={admin}: cannot connect: {}\n{}",
            super::reason_of(&e),
            missing()
        )
    })
}

fn missing() -> String {
    format!(
        "PostgreSQL tests need a server. Install it (Debian: `apt-get install -y postgresql`) and \
         start a throwaway cluster, or point {TEST_SERVER_VAR} at a database whose user may \
         create databases, e.g. {TEST_SERVER_VAR}=postgres://newshound@127.0.0.1:55432/postgres"
    )
}
