//! Databases of their own for tests that need a real PostgreSQL server:
//! test support, compiled into the library's unit tests only
//! (`#[cfg(test)]`) and into the test crates that include this file
//! (`#[path]`), never into the library itself. One file with nothing of
//! the crate in it, so that both can include it.
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
                    reason_of(&e)
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
            reason_of(&e),
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

/// The server's own words for a failure, else the client's.
fn reason_of(e: &postgres::Error) -> String {
    e.as_db_error()
        .map_or_else(|| e.to_string(), |db| db.message().to_string())
}

pub mod cluster {
    //! A throwaway PostgreSQL cluster for one test process, started when
    //! `NEWSHOUND_TEST_PG` is unset so that `cargo test` on a fresh machine
    //! runs the PostgreSQL tests against a real server.
    //!
    //! In: the PostgreSQL server binaries (`initdb`, `pg_ctl`, `postgres`), found
    //! on `PATH`, then under `/usr/lib/postgresql/*/bin`. Out: [`Cluster`], the
    //! URL of the `postgres` database of a new cluster that listens only on a
    //! Unix socket in its own temporary directory (no port to collide with),
    //! trusts every local user, and runs without fsync (a test server loses
    //! nothing worth keeping on a crash).
    //!
    //! initdb and postgres refuse to run as root: when we are root the cluster
    //! is created and run as the `postgres` user, its directory chowned to it.
    //! The test harness has no teardown hook, so a detached watchdog (a shell
    //! in a process group of its own, so Ctrl-C on the tests does not kill it)
    //! waits for this process to disappear, then stops the server with
    //! `pg_ctl stop -m immediate` and removes the directory.

    use std::os::unix::fs::MetadataExt;
    use std::os::unix::process::CommandExt;
    use std::path::{Path, PathBuf};
    use std::process::{Command, Stdio};

    /// How to get PostgreSQL when neither the variable nor the binaries exist.
    pub const INSTALL_HINT: &str = "apt-get install -y postgresql";

    /// Where Debian installs each major version's server binaries (`15/bin`).
    pub const DEBIAN_ROOT: &str = "/usr/lib/postgresql";

    /// A running throwaway cluster (in a temporary directory holding its
    /// data, socket and log, removed by the watchdog).
    pub struct Cluster {
        /// `postgres://postgres@%2F…/postgres`: the superuser's database, over
        /// the cluster's socket (child `newshound` processes can use it too).
        pub admin_url: String,
    }

    /// The directory holding `initdb`, `pg_ctl` and `postgres`: the first of
    /// `path_dirs`, then of the versioned Debian directories (newest first),
    /// that has all three.
    pub fn find_server_bin(path_dirs: &[PathBuf], debian_root: &Path) -> Result<PathBuf, String> {
        let mut versioned: Vec<PathBuf> = std::fs::read_dir(debian_root)
            .map(|entries| {
                entries
                    .filter_map(|e| e.ok())
                    .map(|e| e.path().join("bin"))
                    .collect()
            })
            .unwrap_or_default();
        // Newest major version first: "16" before "15" (numeric, not "9" > "16").
        versioned.sort_by_key(|p| {
            let major = p
                .parent()
                .and_then(|v| v.file_name())
                .and_then(|v| v.to_str())
                .and_then(|v| v.parse::<u32>().ok())
                .unwrap_or(0);
            std::cmp::Reverse(major)
        });
        path_dirs
            .iter()
            .chain(versioned.iter())
            .find(|dir| {
                ["initdb", "pg_ctl", "postgres"]
                    .iter()
                    .all(|b| dir.join(b).is_file())
            })
            .map(|dir| {
                // PATH may hold symlinks (Debian's /usr/local/bin shims): the
                // three must come from one installation.
                std::fs::canonicalize(dir.join("initdb"))
                    .ok()
                    .and_then(|p| p.parent().map(Path::to_path_buf))
                    .unwrap_or_else(|| dir.clone())
            })
            .ok_or_else(|| {
                format!(
                    "no PostgreSQL server binaries (initdb, pg_ctl, postgres) on PATH or under {}/*/bin",
                    debian_root.display()
                )
            })
    }

    /// The directories of `PATH`.
    pub fn path_dirs() -> Vec<PathBuf> {
        std::env::var_os("PATH")
            .map(|p| std::env::split_paths(&p).collect())
            .unwrap_or_default()
    }

    /// Who runs the server: ourselves, or `postgres` (uid, gid) when we are root.
    fn server_user() -> Result<Option<(u32, u32)>, String> {
        let me = std::fs::metadata("/proc/self")
            .map_err(|e| format!("/proc/self: {e}"))?
            .uid();
        if me != 0 {
            return Ok(None);
        }
        let passwd =
            std::fs::read_to_string("/etc/passwd").map_err(|e| format!("/etc/passwd: {e}"))?;
        passwd
            .lines()
            .map(|l| l.split(':').collect::<Vec<_>>())
            .find(|f| f.len() > 3 && f[0] == "postgres")
            .and_then(|f| Some((f[2].parse().ok()?, f[3].parse().ok()?)))
            .map(Some)
            .ok_or_else(|| {
                "running as root, and initdb refuses root, but there is no `postgres` user \
                 to run the cluster as (Debian's postgresql package creates it)"
                    .to_string()
            })
    }

    /// A command run as the server's user, in a directory it may enter.
    fn as_server_user(program: PathBuf, user: Option<(u32, u32)>, cwd: &Path) -> Command {
        let mut cmd = Command::new(program);
        cmd.current_dir(cwd);
        if let Some((uid, gid)) = user {
            cmd.uid(uid).gid(gid);
        }
        cmd
    }

    /// Run `cmd`; its stderr (and the log, when given) in the error.
    fn run(cmd: &mut Command, what: &str, log: Option<&Path>) -> Result<(), String> {
        let out = cmd
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("{what}: cannot start: {e}"))?;
        if out.status.success() {
            return Ok(());
        }
        let log_text = log
            .and_then(|l| std::fs::read_to_string(l).ok())
            .unwrap_or_default();
        Err(format!(
            "{what} failed ({}): {}{}{log_text}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim(),
            String::from_utf8_lossy(&out.stdout).trim()
        ))
    }

    impl Cluster {
        /// initdb a new cluster into a temporary directory, start it and arm
        /// the watchdog that removes it once this process is gone.
        pub fn start(bin: &Path) -> Result<Cluster, String> {
            let user = server_user()?;
            // Short: a Unix socket path must fit in 107 bytes.
            let dir = tempfile::Builder::new()
                .prefix("nhpg-")
                .tempdir()
                .map_err(|e| format!("temporary directory: {e}"))?
                .keep();
            if let Some((uid, gid)) = user {
                std::os::unix::fs::chown(&dir, Some(uid), Some(gid))
                    .map_err(|e| format!("{}: chown to postgres: {e}", dir.display()))?;
            }
            let data = dir.join("data");
            let log = dir.join("server.log");
            run(
                as_server_user(bin.join("initdb"), user, &dir)
                    .arg("-D")
                    .arg(&data)
                    .args([
                        "-U",
                        "postgres",
                        "--auth=trust",
                        "--encoding=UTF8",
                        "--locale=C.UTF-8",
                        "--no-sync",
                    ]),
                "initdb",
                None,
            )?;
            // The watchdog first: if starting fails half-way it still cleans up.
            arm_watchdog(bin, &dir, &data, user)?;
            let options = format!(
                "-k {} -c listen_addresses='' -c fsync=off -c synchronous_commit=off \
                 -c full_page_writes=off -c max_connections=200",
                dir.display()
            );
            run(
                as_server_user(bin.join("pg_ctl"), user, &dir)
                    .arg("-D")
                    .arg(&data)
                    .arg("-l")
                    .arg(&log)
                    .args(["-w", "-t", "60", "-o", &options, "start"])
                    .stdout(Stdio::null()),
                "pg_ctl start",
                Some(&log),
            )?;
            let host: String =
                url::form_urlencoded::byte_serialize(dir.to_string_lossy().as_bytes()).collect();
            Ok(Cluster {
                admin_url: format!("postgres://postgres@{host}/postgres"),
            })
        }
    }

    /// A shell, detached in its own process group, that polls for this
    /// process and, once it is gone, stops the server and removes `dir`.
    fn arm_watchdog(
        bin: &Path,
        dir: &Path,
        data: &Path,
        user: Option<(u32, u32)>,
    ) -> Result<(), String> {
        // `[ -d /proc/PID ]`, not `kill -0`: as the postgres user, kill -0 on a
        // root process fails with EPERM while it is alive.
        let script = format!(
            "while [ -d /proc/{pid} ]; do sleep 1; done; \
             '{pg_ctl}' -D '{data}' stop -m immediate >/dev/null 2>&1; rm -rf '{dir}'",
            pid = std::process::id(),
            pg_ctl = bin.join("pg_ctl").display(),
            data = data.display(),
            dir = dir.display(),
        );
        as_server_user(PathBuf::from("/bin/sh"), user, dir)
            .args(["-c", &script])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .map(|_| ())
            .map_err(|e| format!("watchdog: cannot start /bin/sh: {e}"))
    }
}
