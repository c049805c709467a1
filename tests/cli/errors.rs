//! Bad input gets one clear line on stderr and a non-zero exit, never a panic.

use crate::support::{assert_clean_failure, newshound};

#[test]
fn missing_config_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let out = newshound(&["--config", "nope.toml", "crawl"], dir.path());
    assert_clean_failure(&out, "nope.toml");
}

#[test]
fn invalid_config_names_file_and_field() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = "[politeness]\nrate_per_host = -1\n";
    std::fs::write(dir.path().join("bad.toml"), cfg).unwrap();
    let out = newshound(&["--config", "bad.toml", "crawl"], dir.path());
    assert_clean_failure(&out, "bad.toml: politeness.rate_per_host: must be > 0");
}

#[test]
fn config_syntax_error_is_one_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad.toml"), "[crawler\nx=").unwrap();
    let out = newshound(&["--config", "bad.toml", "crawl"], dir.path());
    assert_clean_failure(&out, "bad.toml");
}

#[test]
fn unreadable_file_for_extract_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let out = newshound(&["extract", "missing.html"], dir.path());
    assert_clean_failure(&out, "missing.html");
}

#[test]
fn unknown_site_is_named_with_the_known_ones() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = "[[sites]]\nname = \"alpha\"\nstart = [\"http://127.0.0.1:9/\"]\n";
    std::fs::write(dir.path().join("c.toml"), cfg).unwrap();
    let out = newshound(
        &["--config", "c.toml", "crawl", "--site", "beta"],
        dir.path(),
    );
    assert_clean_failure(&out, "unknown site \"beta\"");
    assert!(String::from_utf8_lossy(&out.stderr).contains("alpha"));
}

#[test]
fn database_that_is_not_sqlite_is_rejected() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("notes.db"),
        "these are my notes, not a database\n".repeat(200),
    )
    .unwrap();
    let out = newshound(&["--db", "notes.db", "stats"], dir.path());
    assert_clean_failure(&out, "notes.db: not a newshound database");
    // The file must be left as it was.
    let text = std::fs::read_to_string(dir.path().join("notes.db")).unwrap();
    assert!(text.starts_with("these are my notes"));
}

#[test]
fn missing_database_for_search_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let out = newshound(&["--db", "none.db", "search", "x"], dir.path());
    assert_clean_failure(&out, "none.db: no such database");
    assert!(!dir.path().join("none.db").exists());
}

#[test]
fn extract_of_binary_input_is_refused_in_one_line() {
    // `extract /bin/ls` exited 0 and printed ELF bytes as text (language fra).
    let dir = tempfile::tempdir().unwrap();
    let bin: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2654435761) >> 7) as u8)
        .collect();
    std::fs::write(dir.path().join("bin.html"), bin).unwrap();
    let mut elf = b"\x7fELF\x02\x01\x01\x00".to_vec();
    elf.extend_from_slice(&[0u8; 256]);
    std::fs::write(dir.path().join("ls"), elf).unwrap();
    let out = newshound(&["extract", "bin.html", "--json"], dir.path());
    assert_clean_failure(&out, "bin.html: binary file (NUL bytes), not HTML");
    let out = newshound(&["extract", "ls"], dir.path());
    assert_clean_failure(&out, "ls: binary file (ELF executable), not HTML");
    assert!(out.stdout.is_empty());
    #[cfg(target_os = "linux")]
    if std::path::Path::new("/bin/ls").exists() {
        let out = newshound(&["extract", "/bin/ls"], dir.path());
        assert_clean_failure(&out, "/bin/ls: binary file (ELF executable)");
    }
}

#[test]
fn empty_input_extracts_without_panic() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("empty.html"), "").unwrap();
    let out = newshound(&["extract", "empty.html", "--json"], dir.path());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v.get("text").is_some());
}

#[test]
fn regression_read_commands_wrote_a_schema_into_an_empty_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("empty.db"), b"").unwrap();
    for args in [
        &["--db", "empty.db", "stats"][..],
        &["--db", "empty.db", "search", "x"],
        &["--db", "empty.db", "show", "1"],
        &["--db", "empty.db", "export"],
        &["--db", "empty.db", "serve", "--addr", "127.0.0.1:0"],
    ] {
        let out = newshound(args, dir.path());
        assert_clean_failure(&out, "empty.db: empty, not a newshound database yet");
        let len = std::fs::metadata(dir.path().join("empty.db"))
            .unwrap()
            .len();
        assert_eq!(len, 0, "{args:?} wrote into the empty file");
    }
}

#[test]
fn regression_serve_on_a_directory_said_no_such_database() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("corpus")).unwrap();
    let out = newshound(
        &["--db", "corpus", "serve", "--addr", "127.0.0.1:0"],
        dir.path(),
    );
    assert_clean_failure(&out, "corpus: is a directory, not a database");
}

#[test]
fn regression_serve_on_unreachable_postgres_announced_serving_first() {
    let dir = tempfile::tempdir().unwrap();
    let url = "postgres://nh@127.0.0.1:1/corpus";
    let out = newshound(&["--db", url, "serve", "--addr", "127.0.0.1:0"], dir.path());
    // One line (no "serving …" before it), naming the URL once.
    assert_clean_failure(&out, "cannot connect to PostgreSQL");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.matches("127.0.0.1:1/corpus").count(), 1, "{stderr}");
}

#[test]
fn regression_another_apps_sqlite_file_was_called_corrupt() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("contacts.db");
    let c = rusqlite::Connection::open(&path).unwrap();
    c.execute_batch("CREATE TABLE contacts(name TEXT)").unwrap();
    drop(c);
    let out = newshound(&["--db", "contacts.db", "stats"], dir.path());
    assert_clean_failure(
        &out,
        "contacts.db: an SQLite database, but not a newshound corpus",
    );
}
