//! `newshound crawl` on a PostgreSQL server it cannot use: one line naming
//! the database (never its password) and the server's reason.

use std::process::Command;

use crate::pg_testing::TestDb;

const SITE: &str = "[[sites]]\nname = \"s\"\nstart = [\"http://127.0.0.1:9/\"]\n";

/// `crawl --db url`, or with `url` in `[store] url` when `in_config`.
fn crawl_at(url: &str, dir: &std::path::Path, in_config: bool) -> (bool, String) {
    let config = dir.join("crawler.toml");
    let store = if in_config {
        format!("[store]\nurl = \"{url}\"\n")
    } else {
        String::new()
    };
    std::fs::write(&config, format!("{store}{SITE}")).expect("write config");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_newshound"));
    cmd.arg("--config").arg(&config);
    if !in_config {
        cmd.arg("--db").arg(url);
    }
    let out = cmd.arg("crawl").output().expect("run newshound");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn crawl_on(url: &str, dir: &std::path::Path) -> (bool, String) {
    crawl_at(url, dir, false)
}

#[test]
fn an_unreachable_server_is_one_line_naming_the_url_without_its_password() {
    let dir = tempfile::tempdir().expect("tempdir");
    // Port 9 (discard) on loopback: nothing listens there.
    let (ok, err) = crawl_on("postgres://crawler:s3cret@127.0.0.1:9/corpus", dir.path());
    assert!(!ok, "the crawl succeeded");
    assert!(err.contains("127.0.0.1:9/corpus"), "{err}");
    assert!(err.contains("cannot connect"), "{err}");
    assert!(!err.contains("s3cret"), "the password is shown: {err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}

#[test]
fn a_missing_database_is_named_with_the_servers_reason() {
    let db = TestDb::new();
    let mut url = url::Url::parse(&db.url).expect("url");
    url.set_path("nh_test_no_such_db");
    let dir = tempfile::tempdir().expect("tempdir");
    let (ok, err) = crawl_on(url.as_str(), dir.path());
    assert!(!ok, "the crawl succeeded");
    assert!(err.contains("nh_test_no_such_db"), "{err}");
    assert!(err.contains("does not exist"), "{err}");
}

#[test]
fn a_server_in_store_url_is_used_without_db() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (ok, err) = crawl_at(
        "postgres://crawler:s3cret@127.0.0.1:9/corpus",
        dir.path(),
        true,
    );
    assert!(!ok, "the crawl succeeded");
    assert!(err.contains("127.0.0.1:9/corpus"), "{err}");
    assert!(!err.contains("s3cret"), "the password is shown: {err}");
}
