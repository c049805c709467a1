//! `reclean`, `reextract` and `export --format markdown` on PostgreSQL
//! against a real server: the demo corpus copied there from SQLite, the
//! same command run on both, prints the same and leaves the same articles.
//! And `demo`, which crawls into SQLite only, refuses a URL in one line.

use std::path::Path;

use crate::pg_testing::TestDb;

use crate::support::{assert_clean_failure, demo_db, newshound, stderr, stdout};

/// The demo corpus in `dir/demo.db` and copied to a new PostgreSQL database.
fn demo_on_both(dir: &Path) -> TestDb {
    demo_db(dir, 6);
    let pg = TestDb::new();
    let out = newshound(&["copy", "--from", "demo.db", "--to", &pg.url], dir);
    assert!(out.status.success(), "copy: {}", stderr(&out));
    pg
}

fn run_ok(args: &[&str], dir: &Path) -> String {
    let out = newshound(args, dir);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    stdout(&out)
}

/// Every article as exported (JSONL, id order).
fn articles(db: &str, dir: &Path) -> String {
    run_ok(&["--db", db, "export"], dir)
}

/// Also the regression test of a bug: with learning off, `reclean` on
/// PostgreSQL put every text back to its raw text where SQLite's leaves
/// the site as it is.
#[test]
fn reclean_on_postgres_prints_and_stores_what_sqlite_does() {
    let dir = tempfile::tempdir().unwrap();
    let pg = demo_on_both(dir.path());
    let db = pg.url.as_str();
    assert_eq!(articles("demo.db", dir.path()), articles(db, dir.path()));
    // Settings other than the last run's judge other lines boilerplate:
    // the texts change, with a window so wide that no line is dropped, back
    // with the crawl's, then with learning off.
    for (name, toml) in [
        ("wide.toml", "[boilerplate]\nline_window = 1\n"),
        ("default.toml", "[boilerplate]\n"),
        ("off.toml", "[boilerplate]\nenabled = false\n"),
    ] {
        std::fs::write(dir.path().join(name), toml).unwrap();
        let mut printed = Vec::new();
        for target in ["demo.db", db] {
            let site = run_ok(
                &[
                    "--config",
                    name,
                    "--db",
                    target,
                    "reclean",
                    "--site",
                    "huaxia-news",
                ],
                dir.path(),
            );
            let all = run_ok(&["--config", name, "--db", target, "reclean"], dir.path());
            printed.push((site, all));
        }
        assert_eq!(printed[0], printed[1], "{name}: printed counts");
        if name != "off.toml" {
            assert_ne!(printed[0].0.trim(), "re-cleaned 0 articles", "{name}");
        }
        assert_eq!(
            articles("demo.db", dir.path()),
            articles(db, dir.path()),
            "{name}: texts"
        );
    }
    let out = newshound(&["--db", db, "reclean", "--site", "nope"], dir.path());
    assert_clean_failure(&out, "unknown site \"nope\"");
}

#[test]
fn reextract_on_postgres_prints_and_stores_what_sqlite_does() {
    let dir = tempfile::tempdir().unwrap();
    let pg = demo_on_both(dir.path());
    let db = pg.url.as_str();
    for args in [
        &["reextract", "--algorithm", "td"][..],
        &["reextract", "--site", "globe", "--algorithm", "ctd"],
        &["reextract"],
        &["reextract"],
    ] {
        let printed: Vec<String> = ["demo.db", db]
            .iter()
            .map(|target| run_ok(&[&["--db", target][..], args].concat(), dir.path()))
            .collect();
        assert_eq!(printed[0], printed[1], "{args:?}: printed");
        assert!(printed[0].starts_with("text changed in "), "{}", printed[0]);
        // Another algorithm changes texts (equal outputs of runs that change
        // nothing would prove little); the second plain run changes none.
        if args.contains(&"td") {
            assert!(
                !printed[0].starts_with("text changed in 0 "),
                "{}",
                printed[0]
            );
        }
        assert_eq!(
            articles("demo.db", dir.path()),
            articles(db, dir.path()),
            "{args:?}: articles"
        );
    }
    let out = newshound(&["--db", db, "reextract", "--site", "nope"], dir.path());
    assert_clean_failure(&out, "unknown site \"nope\"");
}

#[test]
fn reextract_on_postgres_resumes_an_interrupted_run_as_sqlite_does() {
    use newshound::config::Config;
    use newshound::extract::{Algorithm, ExtractOptions};
    use newshound::reextract::{self, ReextractLimits};
    use newshound::store::{self, Access, Selection, StoreTarget};

    let dir = tempfile::tempdir().unwrap();
    let pg = demo_on_both(dir.path());
    let config = Config::parse("", Path::new("<defaults>"), dir.path()).unwrap();
    let td = ExtractOptions {
        algorithm: Algorithm::Td,
        ..ExtractOptions::default()
    };
    let step = ReextractLimits {
        batch: 4,
        max_batches: Some(1),
    };
    let all = Selection::default();
    let open = |db: &str| store::open(&StoreTarget::parse(db), Access::Write).unwrap();
    let mut sqlite = open(&dir.path().join("demo.db").to_string_lossy());
    let mut postgres = open(&pg.url);
    let mut firsts = Vec::new();
    for store in [&mut sqlite, &mut postgres] {
        let first = reextract::reextract(store, &config, &td, &all, step).unwrap();
        assert!(!first.finished);
        assert_eq!(first.counts.seen, 4);
        firsts.push(first);
    }
    assert_eq!(firsts[0], firsts[1]);
    drop((sqlite, postgres));
    let printed: Vec<String> = ["demo.db", pg.url.as_str()]
        .iter()
        .map(|db| run_ok(&["--db", db, "reextract", "--algorithm", "td"], dir.path()))
        .collect();
    assert_eq!(printed[0], printed[1]);
    assert!(
        printed[0].contains("resuming a run that had done 4"),
        "{}",
        printed[0]
    );
    assert_eq!(
        articles("demo.db", dir.path()),
        articles(&pg.url, dir.path())
    );
    // Finished: the next run starts afresh.
    let again = run_ok(
        &["--db", &pg.url, "reextract", "--algorithm", "td"],
        dir.path(),
    );
    assert!(!again.contains("resuming"), "{again}");
}

#[test]
fn markdown_export_on_postgres_is_the_sqlite_one_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let pg = demo_on_both(dir.path());
    let db = pg.url.as_str();
    // A wider line window than the crawl's (one that keeps a line of every
    // article): the judgement of lines (read from each store's line table)
    // shapes what is written.
    std::fs::write(
        dir.path().join("wide.toml"),
        "[boilerplate]\nline_window = 1\n",
    )
    .unwrap();
    for args in [
        &["export", "--format", "markdown"][..],
        &["export", "--format", "markdown", "--site", "huaxia-news"],
        &["--config", "wide.toml", "export", "--format", "markdown"],
    ] {
        let outs: Vec<_> = ["demo.db", db]
            .iter()
            .map(|target| newshound(&[&["--db", target][..], args].concat(), dir.path()))
            .collect();
        for out in &outs {
            assert!(out.status.success(), "{args:?}: {}", stderr(out));
        }
        assert_eq!(outs[0].stdout, outs[1].stdout, "{args:?}: the Markdown");
        assert_eq!(stderr(&outs[0]), stderr(&outs[1]), "{args:?}: the summary");
        // Rendered from the kept pages, not from the stored texts.
        assert!(
            stderr(&outs[1]).contains("(0 from their stored text"),
            "{}",
            stderr(&outs[1])
        );
        assert!(stdout(&outs[1]).starts_with("# "), "{}", stdout(&outs[1]));
    }
    // With the default window the boilerplate line of `huaxia-news` is dropped
    // from the Markdown: the two windows give different files.
    let md = |args: &[&str]| run_ok(&[&["--db", db][..], args].concat(), dir.path());
    assert_ne!(
        md(&["export", "--format", "markdown"]),
        md(&["--config", "wide.toml", "export", "--format", "markdown"])
    );
    let out = newshound(
        &[
            "--db", db, "export", "--format", "markdown", "--site", "nope",
        ],
        dir.path(),
    );
    assert_clean_failure(&out, "unknown site \"nope\"");
}

#[test]
fn regression_demo_with_a_postgres_url_blamed_a_missing_directory() {
    // `demo --db postgres://…` said "directory postgres://… does not exist".
    let dir = tempfile::tempdir().unwrap();
    let out = newshound(
        &["--db", "postgres://nh:secret@127.0.0.1:9/none", "demo"],
        dir.path(),
    );
    assert_clean_failure(
        &out,
        "demo keeps its corpus in a SQLite file; pass a path to --db",
    );
    assert!(!stderr(&out).contains("secret"), "{}", stderr(&out));
}
