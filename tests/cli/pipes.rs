//! A closed stdout (`newshound export | head -1`) ends a command quietly with
//! exit code 0; no panic, no "Broken pipe" message. Another write error on
//! stdout (a full disk) is one clean error line.

use std::process::{Output, Stdio};

use crate::support::{assert_clean_failure, bin, demo_db, stderr};

/// Run with stdout a pipe whose reader is already gone: the first write
/// fails with EPIPE every time (no race with the pipe buffer).
fn with_closed_stdout(args: &[&str], dir: &std::path::Path) -> Output {
    let mut child = bin()
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn newshound");
    drop(child.stdout.take());
    child.wait_with_output().expect("wait for newshound")
}

fn assert_quiet_success(out: &Output, what: &str) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(0), "{what}: {err}");
    assert!(!err.contains("panicked"), "{what}: {err}");
    assert!(!err.contains("Broken pipe"), "{what}: {err}");
    assert!(!err.contains("newshound:"), "{what}: {err}");
}

#[test]
fn broken_pipe_is_quiet_for_every_printing_command() {
    let dir = tempfile::tempdir().unwrap();
    demo_db(dir.path(), 4);
    let corpus = dir.path().join("pages");
    std::fs::create_dir(&corpus).unwrap();
    for i in 0..3 {
        std::fs::write(
            corpus.join(format!("p{i}.html")),
            format!("<html><body><article><p>Story {i} has a long enough paragraph of text to keep.</p></article></body></html>"),
        )
        .unwrap();
    }
    let cases: &[&[&str]] = &[
        &["--db", "demo.db", "export"],
        &["--db", "demo.db", "search", "the"],
        &["--db", "demo.db", "search", "the", "--json"],
        &["--db", "demo.db", "show", "1"],
        &["--db", "demo.db", "stats", "--top", "3"],
        &["--db", "demo.db", "reclean"],
        &["extract", "pages"],
        &["extract", "pages/p1.html", "--json"],
        &["--db", "demo2.db", "demo", "--articles", "2"],
        &["--help"],
    ];
    for args in cases {
        let out = with_closed_stdout(args, dir.path());
        assert_quiet_success(&out, &args.join(" "));
    }
}

#[cfg(target_os = "linux")]
#[test]
fn full_disk_on_stdout_is_one_error_line() {
    let dir = tempfile::tempdir().unwrap();
    demo_db(dir.path(), 4);
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = bin()
        .args(["--db", "demo.db", "export"])
        .current_dir(dir.path())
        .stdout(full)
        .output()
        .unwrap();
    assert_clean_failure(&out, "stdout: No space left on device");
}
