//! Opening, migrating and refusing files that are not our database.

use std::path::Path;

use super::*;
use crate::store::*;

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
        Err(StoreError::NotADatabase { .. })
    ));
}

#[test]
fn open_creates_the_file_and_reopen_keeps_data_without_remigrating() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sub.db");
    {
        let mut s = Store::open(&path).unwrap();
        assert_eq!(
            s.schema_version().unwrap(),
            crate::store::open::SCHEMA_VERSION
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
