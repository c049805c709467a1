//! Opening, migrating and refusing files that are not our database.

use std::path::Path;

use super::*;

#[test]
fn open_on_a_text_file_is_not_a_database() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("notes.db");
    std::fs::write(&path, "these are my notes, not a database\n".repeat(100)).unwrap();
    match Store::open(&path) {
        Err(StoreError::NotADatabase { path: p }) => assert_eq!(p, path),
        other => panic!("expected NotADatabase, got {:?}", other.map(|_| ())),
    }
}

#[test]
fn open_on_another_apps_sqlite_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("other.db");
    let c = rusqlite::Connection::open(&path).unwrap();
    c.execute_batch("CREATE TABLE contacts(name TEXT)").unwrap();
    drop(c);
    assert!(matches!(
        Store::open(&path),
        Err(StoreError::NotACorpus { .. })
    ));
}

#[test]
fn regression_another_apps_sqlite_file_was_called_not_sqlite_or_corrupt() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("other.db");
    let c = rusqlite::Connection::open(&path).unwrap();
    c.execute_batch("CREATE TABLE contacts(name TEXT)").unwrap();
    drop(c);
    for err in [Store::open(&path).err(), Store::open_read_only(&path).err()] {
        let message = err.expect("refused").to_string();
        assert!(message.contains("not a newshound corpus"), "{message}");
        assert!(!message.contains("corrupt"), "{message}");
    }
}

#[test]
fn regression_reading_an_empty_file_wrote_a_schema_into_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("empty.db");
    std::fs::write(&path, b"").unwrap();
    match Store::open_read_only(&path) {
        Err(e @ StoreError::Empty { .. }) => {
            assert!(e.to_string().contains("empty"), "{e}");
        }
        other => panic!("expected Empty, got {:?}", other.map(|_| ())),
    }
    assert_eq!(std::fs::metadata(&path).unwrap().len(), 0);
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["empty.db"]);
}

#[test]
fn open_creates_the_file_and_reopen_keeps_data_without_remigrating() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sub.db");
    {
        let mut s = Store::open(&path).unwrap();
        assert_eq!(
            s.schema_version().unwrap(),
            crate::store::sqlite::migrate::SCHEMA_VERSION
        );
        s.add_urls(&[url("https://a.test/1", "a", UrlKind::Article, 1)])
            .unwrap();
        store_one(&mut s, article("https://a.test/1", "a", "T", "body one"));
    }
    assert!(path.exists());
    // Re-running migration 1 would fail with "table sites already exists".
    let mut s = Store::open(&path).unwrap();
    assert_eq!(s.counts().unwrap().queued, 1);
    assert_eq!(
        s.export(&crate::store::Selection::default(), |_| Ok(()))
            .unwrap(),
        1
    );
    let mode: String = s
        .conn
        .pragma_query_value(None, "journal_mode", |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
    assert_eq!(s.integrity_check().unwrap(), "ok");
    assert_eq!(
        s.add_urls(&[url("https://a.test/1", "a", UrlKind::Article, 1)])
            .unwrap(),
        0
    );
}

#[test]
fn open_refuses_a_newer_schema() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("new.db");
    drop(Store::open(&path).unwrap());
    let c = rusqlite::Connection::open(&path).unwrap();
    c.pragma_update(None, "user_version", 999).unwrap();
    drop(c);
    match Store::open(&path) {
        Err(StoreError::TooNew { found, .. }) => assert_eq!(found, 999),
        other => panic!("expected TooNew, got {:?}", other.map(|_| ())),
    }
}

#[test]
fn open_on_a_directory_is_an_open_error() {
    let dir = tempfile::tempdir().unwrap();
    assert!(Store::open(Path::new(dir.path())).is_err());
}

/// A database file with the given migrations applied by hand, `user_version`
/// set to the highest, and (when `ledger`) those versions in the ledger.
fn database_with(path: &Path, versions: &[i64], ledger: bool) {
    let c = rusqlite::Connection::open(path).unwrap();
    for &(v, sql) in crate::store::sqlite::migrate::MIGRATIONS {
        if versions.contains(&v) {
            c.execute_batch(sql).unwrap();
        }
    }
    if ledger {
        for v in versions {
            c.execute("INSERT INTO schema_migrations(version) VALUES (?1)", [v])
                .unwrap();
        }
    }
    let highest = versions.iter().max().copied().unwrap_or(0);
    c.pragma_update(None, "user_version", highest).unwrap();
}

/// The newest migration of this build (the ledger's last row once open).
const LATEST: i64 = crate::store::sqlite::migrate::SCHEMA_VERSION;

/// Every migration's version, in order (numbers are given out per branch,
/// so a build may lack one between others).
fn versions() -> impl Iterator<Item = i64> {
    crate::store::sqlite::migrate::MIGRATIONS
        .iter()
        .map(|&(v, _)| v)
}

fn table_names(s: &Store) -> Vec<String> {
    s.conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap()
}

fn ledger(s: &Store) -> Vec<(i64, bool)> {
    s.conn
        .prepare("SELECT version, applied_at IS NOT NULL FROM schema_migrations ORDER BY version")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap()
}

#[test]
fn regression_migrations_below_the_highest_recorded_one_are_applied() {
    // 0008 was written on a branch before 0006 and 0007 landed: a database
    // recording 1–5 and 8 (and the ledger, 9) lacked their tables for good.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("gap.db");
    database_with(&path, &[1, 2, 3, 4, 5, 8, 9], true);
    let s = Store::open(&path).unwrap();
    let tables = table_names(&s);
    for t in [
        "article_versions",
        "article_lines",
        "article_html",
        "site_rules",
    ] {
        assert!(tables.iter().any(|n| n == t), "{t} missing: {tables:?}");
    }
    let recorded: Vec<i64> = ledger(&s).into_iter().map(|(v, _)| v).collect();
    assert_eq!(recorded, versions().collect::<Vec<_>>());
    assert_eq!(s.schema_version().unwrap(), LATEST);
    assert_eq!(s.integrity_check().unwrap(), "ok");
    drop(s);
    // Opening again applies nothing (it would fail: the tables exist).
    Store::open(&path).unwrap();
}

#[test]
fn regression_a_database_recording_8_in_user_version_gets_6_and_7() {
    // Before the ledger only `user_version` recorded migrations: 8 there, and
    // the tables of 0006 and 0007 missing, means they never ran.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("legacy.db");
    database_with(&path, &[1, 2, 3, 4, 5, 8], false);
    // A read-only open of a writable file migrates it too.
    let s = Store::open_read_only(&path).unwrap();
    assert!(table_names(&s).iter().any(|t| t == "article_html"));
    drop(s);
    let s = Store::open(&path).unwrap();
    // Applied now (time recorded): 6, 7 and 9 on; known from user_version:
    // the rest.
    let want: Vec<(i64, bool)> = versions()
        .map(|v| (v, matches!(v, 6 | 7) || v >= 9))
        .collect();
    assert_eq!(ledger(&s), want);
    assert_eq!(s.schema_version().unwrap(), LATEST);
}

#[test]
fn a_legacy_database_with_every_migration_is_not_migrated_again() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("legacy8.db");
    database_with(&path, &[1, 2, 3, 4, 5, 6, 7, 8], false);
    let s = Store::open(&path).unwrap();
    let want: Vec<(i64, bool)> = versions().map(|v| (v, v >= 9)).collect();
    assert_eq!(ledger(&s), want);
}
