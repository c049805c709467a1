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

/// A running throwaway cluster.
pub struct Cluster {
    /// `postgres://postgres@%2F…/postgres`: the superuser's database, over
    /// the cluster's socket (child `newshound` processes can use it too).
    pub admin_url: String,
    /// The temporary directory holding the data, socket and log.
    pub dir: PathBuf,
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
    let passwd = std::fs::read_to_string("/etc/passwd").map_err(|e| format!("/etc/passwd: {e}"))?;
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
            dir,
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

#[cfg(test)]
mod tests {
    use super::super::{missing, own_cluster};
    use super::*;

    #[test]
    fn without_server_binaries_the_failure_names_the_install_command() {
        let empty = tempfile::tempdir().expect("tempdir");
        let err = own_cluster(&[empty.path().to_path_buf()], &empty.path().join("none"))
            .err()
            .expect("no binaries, no cluster");
        assert!(err.contains(INSTALL_HINT), "{err}");
        assert!(err.contains("initdb"), "{err}");
        assert!(missing().contains(INSTALL_HINT));
    }

    #[test]
    fn the_newest_debian_version_is_found_after_path() {
        let root = tempfile::tempdir().expect("tempdir");
        for v in ["9", "16", "15"] {
            let bin = root.path().join(v).join("bin");
            std::fs::create_dir_all(&bin).expect("mkdir");
            for b in ["initdb", "pg_ctl", "postgres"] {
                std::fs::write(bin.join(b), "").expect("write");
            }
        }
        let found = find_server_bin(&[], root.path()).expect("found");
        assert!(found.ends_with("16/bin"), "{}", found.display());
    }

    /// Needs the server binaries (Debian's postgresql package), whatever
    /// `NEWSHOUND_TEST_PG` says: this is the path a fresh machine takes.
    #[test]
    fn a_database_on_an_auto_started_cluster_works() {
        let cluster =
            own_cluster(&path_dirs(), Path::new(DEBIAN_ROOT)).unwrap_or_else(|e| panic!("{e}"));
        assert!(cluster.admin_url.contains("%2F"), "{}", cluster.admin_url);
        let mut admin = postgres::Client::connect(&cluster.admin_url, postgres::NoTls)
            .unwrap_or_else(|e| panic!("{}: {e}", cluster.admin_url));
        admin
            .batch_execute("CREATE DATABASE nh_test_own")
            .expect("create");
        let (server, _) = cluster.admin_url.rsplit_once('/').expect("a path");
        let url = format!("{server}/nh_test_own");
        let mut store = crate::store::pg::PgStore::open(&url).expect("open and migrate");
        let encoding: String = store
            .client()
            .query_one("SHOW server_encoding", &[])
            .expect("query")
            .get(0);
        assert_eq!(encoding, "UTF8");
    }
}
