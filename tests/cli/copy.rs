//! `newshound copy` between SQLite and a real PostgreSQL server (the test
//! process's own throwaway cluster, or `NEWSHOUND_TEST_PG`): a crawled
//! corpus round-trips every table byte for byte, an interrupted copy run
//! again ends complete, search finds the same articles, and the refusals.

use std::path::Path;

use crate::pg_testing::TestDb;
use newshound::store::copy::{self, CopyError, CopyOptions, TABLES};
use newshound::store::StoreTarget;
use rusqlite::types::Value;

use crate::support::{assert_clean_failure, demo_db, newshound, stderr, stdout};

/// Every row of every copied table, in key order, as SQLite holds it (every
/// column: both ends are SQLite).
fn dump(db: &Path) -> Vec<(&'static str, Vec<Vec<Value>>)> {
    let conn = rusqlite::Connection::open(db).expect("open");
    TABLES
        .iter()
        .map(|t| {
            let select = format!("SELECT * FROM {} ORDER BY {}", t.name, t.key.join(", "));
            let mut stmt = conn.prepare(&select).expect("prepare");
            let width = stmt.column_count();
            let rows = stmt
                .query_map([], |r| {
                    (0..width)
                        .map(|i| r.get::<_, Value>(i))
                        .collect::<Result<Vec<_>, _>>()
                })
                .expect("query")
                .collect::<Result<Vec<_>, _>>()
                .expect("rows");
            (t.name, rows)
        })
        .collect()
}

fn assert_same_corpus(a: &Path, b: &Path) {
    let (a, b) = (dump(a), dump(b));
    for ((table, rows_a), (_, rows_b)) in a.iter().zip(&b) {
        assert_eq!(rows_a.len(), rows_b.len(), "{table}: row counts");
        for (x, y) in rows_a.iter().zip(rows_b) {
            assert_eq!(x, y, "{table}: a row differs");
        }
    }
    let count = |t: &str| a.iter().find(|(n, _)| *n == t).map_or(0, |(_, r)| r.len());
    // Every table must hold rows, or its equality proves nothing.
    for t in TABLES.iter().map(|t| t.name) {
        assert!(count(t) > 0, "the test corpus has no {t}");
    }
}

/// A row in each table the demo leaves empty (an import's files too), so
/// that every column type (a real, a blob, NULLs) makes the round trip; a
/// URL left `fetching`, as a killed SQLite crawl leaves it (id 2); and a
/// refused URL's settings (id 3), a column the copy once left out.
fn fill_empty_tables(db: &Path) {
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.execute_batch(
        "UPDATE urls SET state = 'fetching' WHERE id = 2;
         UPDATE urls SET refused_under = 'robots:1f2e' WHERE id = 3;
         INSERT INTO article_versions VALUES ('http://x.test/v', 1, 'raw', 'abc', 0.8125, 17);
         INSERT INTO reextract_progress VALUES ('site=a', 3, 1, 2);
         INSERT INTO site_rules VALUES (1, '{\"path\":[]}', 'div#main', 4, 5, 1);
         INSERT INTO site_rules VALUES (2, NULL, NULL, 0, 1, 0);
         INSERT INTO line_changes VALUES (1, x'00ff10', 9);
         INSERT INTO import_files (source, state, resume_at, resume_skip, records, leased_by,
                                   lease_until, error, updated_at)
             VALUES ('/data/a.warc.gz', 'retry', 4096, 1, 12, 'host:1:ab', 99, 'truncated', 7),
                    ('https://x.test/b.warc.gz', 'queued', 0, 0, 0, NULL, NULL, NULL, 8);",
    )
    .unwrap();
}

fn copy_cli(from: &str, to: &str, dir: &Path) {
    let out = newshound(&["copy", "--from", from, "--to", to], dir);
    assert!(out.status.success(), "copy {from} → {to}: {}", stderr(&out));
    assert!(stdout(&out).contains("articles"), "{}", stdout(&out));
}

#[test]
fn copy_sqlite_to_postgres_and_back_keeps_every_row_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    demo_db(dir.path(), 6);
    fill_empty_tables(&dir.path().join("demo.db"));
    let pg = TestDb::new();
    copy_cli("demo.db", &pg.url, dir.path());
    copy_cli(&pg.url, "back.db", dir.path());
    assert_same_corpus(&dir.path().join("demo.db"), &dir.path().join("back.db"));

    // The copied SQLite's FTS5 indexes were filled: search (alphabetic and
    // CJK) finds what it finds on the original, in the same order.
    for q in ["the", "council", "市政府", "\"the city\""] {
        let search = |db: &str| {
            let out = newshound(&["--db", db, "search", q, "--limit", "50"], dir.path());
            assert!(out.status.success(), "{}", stderr(&out));
            stdout(&out)
        };
        assert_eq!(search("demo.db"), search("back.db"), "search {q:?}");
    }
    let hits = newshound(&["--db", "back.db", "search", "市政府"], dir.path());
    assert!(!stdout(&hits).is_empty(), "no CJK hit: {}", stderr(&hits));

    // The sequences continue after the copied ids: a new row gets a new id.
    let mut client = postgres::Client::connect(&pg.url, postgres::NoTls).unwrap();
    let max: i64 = client
        .query_one("SELECT max(id) FROM urls", &[])
        .unwrap()
        .get(0);
    let next: i64 = client
        .query_one("SELECT nextval(pg_get_serial_sequence('urls', 'id'))", &[])
        .unwrap()
        .get(0);
    assert_eq!(next, max + 1);
    // The claimed URL's lease has ended there: the next claim takes it.
    let lease: Option<i64> = client
        .query_one("SELECT lease_until FROM urls WHERE id = 2", &[])
        .unwrap()
        .get(0);
    assert_eq!(lease, Some(0));
}

#[test]
fn an_interrupted_copy_run_again_ends_complete_and_equal() {
    let dir = tempfile::tempdir().unwrap();
    demo_db(dir.path(), 4);
    fill_empty_tables(&dir.path().join("demo.db"));
    let pg = TestDb::new();
    let (sqlite, postgres) = (
        StoreTarget::Sqlite(dir.path().join("demo.db")),
        StoreTarget::Postgres(pg.url.clone()),
    );
    let back = StoreTarget::Sqlite(dir.path().join("back.db"));
    let small = CopyOptions {
        batch_rows: 7,
        stop_after_batches: Some(5),
    };
    for (from, to) in [(&sqlite, &postgres), (&postgres, &back)] {
        let err = copy::copy(from, to, &small, &mut |_| {}).expect_err("stopped");
        assert!(matches!(err, CopyError::Interrupted(5)), "{err}");
        // Again, stopped later: batches already committed are not lost.
        let later = CopyOptions {
            stop_after_batches: Some(40),
            ..small.clone()
        };
        let _ = copy::copy(from, to, &later, &mut |_| {});
        let report = copy::copy(from, to, &CopyOptions::default(), &mut |_| {})
            .unwrap_or_else(|e| panic!("resumed copy: {e}"));
        assert_eq!(report.tables.len(), TABLES.len());
    }
    assert_same_corpus(&dir.path().join("demo.db"), &dir.path().join("back.db"));
}

#[test]
fn regression_copy_onto_a_hard_link_of_the_source_gave_disk_io_error() {
    let dir = tempfile::tempdir().unwrap();
    demo_db(dir.path(), 2);
    std::fs::hard_link(dir.path().join("demo.db"), dir.path().join("link.db")).unwrap();
    let out = newshound(
        &["copy", "--from", "demo.db", "--to", "link.db"],
        dir.path(),
    );
    assert_clean_failure(&out, "the source and the destination are the same");
    // Nothing was opened under the other name.
    assert!(!dir.path().join("link.db-wal").exists());
}

#[test]
fn copy_refuses_a_missing_source_the_same_database_and_another_corpus() {
    let dir = tempfile::tempdir().unwrap();
    let out = newshound(&["copy", "--from", "nope.db", "--to", "x.db"], dir.path());
    assert_clean_failure(&out, "nope.db: no such database");
    assert!(!dir.path().join("x.db").exists(), "created the destination");

    demo_db(dir.path(), 2);
    let out = newshound(
        &["copy", "--from", "demo.db", "--to", "no/dir/x.db"],
        dir.path(),
    );
    assert_clean_failure(&out, "directory no/dir does not exist");
    let out = newshound(
        &["copy", "--from", "demo.db", "--to", "./demo.db"],
        dir.path(),
    );
    assert_clean_failure(&out, "the source and the destination are the same");

    let pg = TestDb::new();
    let out = newshound(&["copy", "--from", &pg.url, "--to", &pg.url], dir.path());
    assert_clean_failure(&out, "the source and the destination are the same");
    // An empty PostgreSQL database is not a corpus to copy from.
    let out = newshound(&["copy", "--from", &pg.url, "--to", "y.db"], dir.path());
    assert_clean_failure(&out, "holds no newshound corpus");

    copy_cli("demo.db", "other.db", dir.path());
    let conn = rusqlite::Connection::open(dir.path().join("other.db")).unwrap();
    conn.execute("UPDATE sites SET name = 'elsewhere' WHERE id = 1", [])
        .unwrap();
    drop(conn);
    let out = newshound(
        &["copy", "--from", "demo.db", "--to", "other.db"],
        dir.path(),
    );
    assert_clean_failure(&out, "holds a different corpus");
    assert!(stderr(&out).contains("elsewhere"), "{}", stderr(&out));
}
