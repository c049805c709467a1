//! Shared by the CLI tests: run the real binary, judge its stderr, and
//! build a small database with `newshound demo` (the simulated web, 127.0.0.1).

use std::path::Path;
use std::process::{Command, Output, Stdio};

pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_newshound"))
}

pub fn newshound(args: &[&str], dir: &Path) -> Output {
    bin()
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("run newshound")
}

/// Run with `input` piped to stdin (a page given as `-`, or no input).
pub fn newshound_piped(args: &[&str], dir: &Path, input: &[u8]) -> Output {
    use std::io::Write;
    let mut child = bin()
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run newshound");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input)
        .expect("write stdin");
    child.wait_with_output().expect("wait for newshound")
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Exit code 1, one line starting with `newshound: ` that contains `needle`,
/// and no panic message.
pub fn assert_clean_failure(out: &Output, needle: &str) {
    let stderr = stderr(out);
    assert_eq!(out.status.code(), Some(1), "stderr: {stderr}");
    assert!(!stderr.contains("panicked"), "panic: {stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "expected one line, got: {stderr}");
    assert!(lines[0].starts_with("newshound: "), "{stderr}");
    assert!(lines[0].contains(needle), "{needle:?} not in {stderr}");
}

/// A usage error from clap: exit code 2 and the message.
pub fn assert_usage_error(out: &Output, needle: &str) {
    let stderr = stderr(out);
    assert_eq!(out.status.code(), Some(2), "stderr: {stderr}");
    assert!(!stderr.contains("panicked"), "panic: {stderr}");
    assert!(stderr.contains(needle), "{needle:?} not in {stderr}");
}

/// `dir/demo.db`: the simulated web (3 sites × `articles`) crawled by `demo`.
pub fn demo_db(dir: &Path, articles: usize) {
    let out = newshound(
        &[
            "--db",
            "demo.db",
            "demo",
            "--articles",
            &articles.to_string(),
        ],
        dir,
    );
    assert!(out.status.success(), "demo failed: {}", stderr(&out));
}
