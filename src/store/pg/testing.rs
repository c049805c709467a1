//! Databases of their own for tests that need a real PostgreSQL server.
//!
//! In: `NEWSHOUND_TEST_PG`, a URL of a database whose user may create
//! databases; when it is unset, the first [`TestDb`] of the test process
//! starts a throwaway cluster of its own ([`cluster`]: initdb into a
//! temporary directory, a Unix socket, removed when the process ends), so
//! `cargo test` on a machine with Debian's `postgresql` package needs no
//! setup. Out: [`TestDb`], a new database on that server, dropped at the
//! end, so tests run in parallel without seeing each other's rows. Without
//! either the test fails with a message saying how to install PostgreSQL:
//! it never passes silently.

pub mod cluster;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

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
        let admin = server_url().unwrap_or_else(|e| panic!("{e}"));
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
        let (admin, name) = (self.admin.clone(), self.name.clone());
        let drop_database = move || {
            if let Ok(mut client) = postgres::Client::connect(&admin, postgres::NoTls) {
                let _ =
                    client.batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"));
            }
        };
        // The blocking client cannot run on an async worker (an async test
        // that panics drops its TestDb there): then on a thread of its own.
        if tokio::runtime::Handle::try_current().is_ok() {
            let _ = std::thread::spawn(drop_database).join();
        } else {
            drop_database();
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

/// The admin URL of the test server: `NEWSHOUND_TEST_PG`, else this
/// process's own cluster (started once, by the first caller; the threads
/// of parallel tests wait for it).
pub fn server_url() -> Result<String, String> {
    if let Ok(url) = std::env::var(TEST_SERVER_VAR) {
        return Ok(url);
    }
    static OWN: OnceLock<Result<String, String>> = OnceLock::new();
    OWN.get_or_init(|| {
        own_cluster(&cluster::path_dirs(), Path::new(cluster::DEBIAN_ROOT)).map(|c| c.admin_url)
    })
    .clone()
}

/// Start a cluster from the binaries found in `path_dirs` or under
/// `debian_root`; the error says how to install them when there are none.
pub fn own_cluster(path_dirs: &[PathBuf], debian_root: &Path) -> Result<cluster::Cluster, String> {
    let bin = cluster::find_server_bin(path_dirs, debian_root)
        .map_err(|e| format!("{e}.\n{}", missing()))?;
    cluster::Cluster::start(&bin)
        .map_err(|e| format!("cannot start a throwaway PostgreSQL cluster: {e}"))
}

/// What to do when there is no server: install one, or name one.
pub fn missing() -> String {
    format!(
        "PostgreSQL tests need a server. Install it (Debian: `{}`, or run .ci/run): the tests then start a \
         throwaway cluster of their own; or point {TEST_SERVER_VAR} at a database whose user \
         may create databases, e.g. {TEST_SERVER_VAR}=postgres://newshound@127.0.0.1:55432/postgres",
        cluster::INSTALL_HINT
    )
}
