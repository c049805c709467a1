//! `reclean`, `reextract` and `export --format markdown` on PostgreSQL
//! against a real server: the demo corpus copied there from SQLite, the
//! same command run on both, prints the same and leaves the same articles.

use std::path::Path;

use newshound::store::pg::testing::TestDb;

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
                    "--config", name, "--db", target, "reclean", "--site", "globe",
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
