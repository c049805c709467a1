//! A child process measured by the kernel's own accounting of it (`wait4`),
//! and the child the benches hold their figures against: `newshound
//! extract DIR --jsonl --jobs N`. Shared by the crawl and import benches.
//!
//! In: a command (or the extraction reference's directory and jobs). Out:
//! its wall time, CPU seconds (user + system, its threads included) and
//! peak RSS.

use std::path::Path;

/// What a child process cost, from the kernel's own accounting of it
/// (`wait4`): wall time from spawn to exit, CPU seconds (user + system, its
/// threads included) and peak RSS (`ru_maxrss`).
#[derive(Debug, Clone, Copy)]
pub struct ChildUsage {
    pub wall: f64,
    pub cpu: f64,
    pub peak_rss_kb: u64,
}

/// Run `cmd` to its end and measure it ([`ChildUsage`]); an error names
/// the command when it cannot start or does not exit with 0. Its output
/// goes where `cmd`'s stdio says (files or null: nothing is read while it
/// runs).
pub fn run_measured(cmd: &mut std::process::Command) -> Result<ChildUsage, String> {
    let name = format!("{cmd:?}");
    let t0 = std::time::Instant::now();
    let child = cmd.spawn().map_err(|e| format!("{name}: {e}"))?;
    let pid = child.id() as libc::pid_t;
    let mut status: libc::c_int = 0;
    // SAFETY: `rusage` is plain data, valid when zeroed; `wait4` writes it
    // and `status` for our own child `pid`, which nothing else waits for
    // (`child` is dropped without `wait`).
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let wall = t0.elapsed().as_secs_f64();
    drop(child);
    if waited != pid {
        return Err(format!("{name}: wait4 failed"));
    }
    if !libc::WIFEXITED(status) || libc::WEXITSTATUS(status) != 0 {
        return Err(format!("{name}: exited with status {status:#x}"));
    }
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    Ok(ChildUsage {
        wall,
        cpu: secs(usage.ru_utime) + secs(usage.ru_stime),
        peak_rss_kb: usage.ru_maxrss.max(0) as u64,
    })
}

/// The `newshound` binary the bench runs: `NEWSHOUND_BIN` when set (to
/// measure another build, e.g. the one before a change, with this bench),
/// else the one cargo built beside this bench.
pub fn newshound_exe() -> std::path::PathBuf {
    std::env::var_os("NEWSHOUND_BIN")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| env!("CARGO_BIN_EXE_newshound").into())
}

/// `newshound extract DIR --jsonl --jobs N` (output to null), measured: the
/// reference a crawl's CPU per page is held against.
pub fn extract_dir_jsonl(exe: &Path, dir: &Path, jobs: usize) -> Result<ChildUsage, String> {
    run_measured(
        std::process::Command::new(exe)
            .arg("extract")
            .arg(dir)
            .arg("--jsonl")
            .arg("--jobs")
            .arg(jobs.to_string())
            // No crawler.toml there: extraction with the defaults, as the crawl's.
            .current_dir(dir)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null()),
    )
}

/// `exe --config CONFIG --db DB ARGS…` run in `dir` on a new database (the
/// file and its WAL removed first), measured: its usage and what it printed
/// on stdout (kept in `dir/<stdout_name>`).
pub fn run_on_new_db(
    exe: &Path,
    config: &Path,
    db: &Path,
    args: &[&std::ffi::OsStr],
    dir: &Path,
    stdout_name: &str,
) -> Result<(ChildUsage, String), String> {
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
    let out_path = dir.join(stdout_name);
    let out = std::fs::File::create(&out_path).map_err(|e| e.to_string())?;
    let usage = run_measured(
        std::process::Command::new(exe)
            .arg("--config")
            .arg(config)
            .arg("--db")
            .arg(db)
            .args(args)
            .current_dir(dir)
            .stdout(out)
            .stderr(std::process::Stdio::null()),
    )?;
    let printed = std::fs::read_to_string(&out_path).map_err(|e| e.to_string())?;
    Ok((usage, printed))
}

/// A number after `label` on a line of a command's summary (the line's
/// indentation skipped).
pub fn summary_number(summary: &str, label: &str) -> Option<u64> {
    let line = summary
        .lines()
        .find(|l| l.trim_start().starts_with(label))?;
    let rest = line.trim_start().strip_prefix(label)?;
    rest.split_whitespace().next()?.parse().ok()
}
