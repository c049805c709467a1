//! `newshound import` as a user types it: what it refuses in one line, the
//! summary it prints, and its exit code when no file could be read; a demo
//! corpus exported as WARC and imported into a new database with
//! `--any-site`.

use crate::support::{
    assert_clean_failure, assert_usage_error, demo_db, newshound, stderr, stdout,
};

const SITE: &str = "[[sites]]\nname = \"news\"\nstart = [\"https://news.test/\"]\n";

#[test]
fn bad_requests_are_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("crawler.toml"), SITE).unwrap();
    let out = newshound(&["--db", "x.db", "import"], dir.path());
    assert_clean_failure(
        &out,
        "give WARC files, directories of them, or --paths LIST",
    );
    let out = newshound(&["--db", "x.db", "import", "missing.warc.gz"], dir.path());
    assert_clean_failure(&out, "missing.warc.gz: No such file");
    let out = newshound(
        &["--db", "x.db", "import", "a.warc", "--lang", "en"],
        dir.path(),
    );
    assert_usage_error(&out, "eng, not en");
    let out = newshound(
        &["--db", "x.db", "import", "a.warc", "--site", "nope"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let out = newshound(
        &[
            "--db",
            "x.db",
            "import",
            "a.warc",
            "--site",
            "news",
            "--any-site",
        ],
        dir.path(),
    );
    assert_usage_error(&out, "cannot be used with");
    std::fs::write(dir.path().join("a.warc"), b"WARC/1.1\r\n").unwrap();
    let out = newshound(
        &[
            "--db",
            "x.db",
            "import",
            "a.warc",
            "--since",
            "2026-12-01",
            "--until",
            "2026-11-01",
        ],
        dir.path(),
    );
    assert_clean_failure(&out, "is after --until");
    let out = newshound(
        &["--db", "x.db", "import", "a.warc", "--site", "nope"],
        dir.path(),
    );
    assert_clean_failure(&out, "unknown site \"nope\" (configured: news)");
    let out = newshound(
        &["--db", "x.db", "import", "--base", "https://x.test/"],
        dir.path(),
    );
    assert_usage_error(&out, "--paths");
}

#[test]
fn an_import_of_files_that_cannot_be_read_prints_why_and_exits_with_1() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("crawler.toml"), SITE).unwrap();
    std::fs::write(dir.path().join("page.warc"), "<html>not an archive</html>").unwrap();
    std::fs::write(
        dir.path().join("old.arc"),
        "filedesc://x.arc 0.0.0.0 20001102 text/plain 1\n",
    )
    .unwrap();
    let out = newshound(
        &["--db", "x.db", "import", "page.warc", "old.arc"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("2 files"), "{text}");
    assert!(text.contains("files failed:"), "{text}");
    assert!(text.contains("page.warc: not a WARC file"), "{text}");
    assert!(text.contains("old.arc: an ARC file"), "{text}");
    assert!(stderr(&out).contains("newshound: import: no file could be read"));
}

#[test]
fn a_demo_corpus_exported_as_warc_imports_with_any_site() {
    let dir = tempfile::tempdir().unwrap();
    demo_db(dir.path(), 4);
    let out = newshound(
        &[
            "--db",
            "demo.db",
            "export",
            "--format",
            "warc",
            "--out",
            "demo.warc.gz",
        ],
        dir.path(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    // No crawler.toml here: every host is a site of its own.
    let out = newshound(
        &["--db", "new.db", "import", "demo.warc.gz", "--any-site"],
        dir.path(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("1 file in"), "{text}");
    assert!(text.contains("articles stored:     12"), "{text}");
    assert!(text.contains("left out:            warcinfo 1"), "{text}");
    let out = newshound(&["--db", "new.db", "search", "the"], dir.path());
    assert!(out.status.success(), "{}", stderr(&out));
    // Without --any-site and without sites, nothing to do: said so.
    let out = newshound(&["--db", "new.db", "import", "demo.warc.gz"], dir.path());
    assert_clean_failure(&out, "the config names no site");
}
