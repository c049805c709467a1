//! The PostgreSQL store against a real server (see [`super::testing`]).

use std::path::Path;

use super::testing::cluster::{find_server_bin, path_dirs, DEBIAN_ROOT, INSTALL_HINT};
use super::testing::{missing, own_cluster, TestDb};
use super::PgStore;

#[test]
fn open_migrates_once_and_again_is_a_no_op() {
    let db = TestDb::new();
    let mut store = PgStore::open(&db.url).expect("open");
    let version: i64 = store
        .client()
        .query_one("SELECT max(version) FROM schema_migrations", &[])
        .unwrap()
        .get(0);
    assert_eq!(version, super::migrate::SCHEMA_VERSION);
    drop(store);
    let mut again = PgStore::open(&db.url).expect("second open");
    let rows: i64 = again
        .client()
        .query_one("SELECT count(*) FROM schema_migrations", &[])
        .unwrap()
        .get(0);
    assert_eq!(rows, super::migrate::MIGRATIONS.len() as i64);
}

#[test]
fn processes_opening_a_new_database_together_migrate_it_once() {
    let db = TestDb::new();
    let handles: Vec<_> = (0..4)
        .map(|_| {
            let url = db.url.clone();
            std::thread::spawn(move || PgStore::open(&url).map(|_| ()))
        })
        .collect();
    for h in handles {
        h.join().unwrap().expect("concurrent open");
    }
}

#[test]
fn a_missing_database_is_named_with_the_servers_reason() {
    let db = TestDb::new();
    let mut url = url::Url::parse(&db.url).unwrap();
    url.set_path("nh_no_such_database");
    let err = PgStore::open(url.as_str())
        .err()
        .expect("must fail")
        .to_string();
    assert!(err.contains("nh_no_such_database"), "{err}");
    assert!(err.contains("does not exist"), "{err}");
}

#[test]
fn without_server_binaries_the_failure_names_the_install_command() {
    let empty = tempfile::tempdir().expect("tempdir");
    let err = own_cluster(&[empty.path().to_path_buf()], &empty.path().join("none"))
        .err()
        .expect("no binaries, no cluster");
    assert!(err.contains(INSTALL_HINT), "{err}");
    assert!(err.contains("initdb"), "{err}");
    assert!(missing().contains(INSTALL_HINT));
}

#[test]
fn the_newest_debian_version_is_found_after_path() {
    let root = tempfile::tempdir().expect("tempdir");
    for v in ["9", "16", "15"] {
        let bin = root.path().join(v).join("bin");
        std::fs::create_dir_all(&bin).expect("mkdir");
        for b in ["initdb", "pg_ctl", "postgres"] {
            std::fs::write(bin.join(b), "").expect("write");
        }
    }
    let found = find_server_bin(&[], root.path()).expect("found");
    assert!(found.ends_with("16/bin"), "{}", found.display());
}

/// Needs the server binaries (Debian's postgresql package), whatever
/// `NEWSHOUND_TEST_PG` says: this is the path a fresh machine takes.
#[test]
fn a_database_on_an_auto_started_cluster_works() {
    let cluster =
        own_cluster(&path_dirs(), Path::new(DEBIAN_ROOT)).unwrap_or_else(|e| panic!("{e}"));
    assert!(cluster.admin_url.contains("%2F"), "{}", cluster.admin_url);
    let mut admin = postgres::Client::connect(&cluster.admin_url, postgres::NoTls)
        .unwrap_or_else(|e| panic!("{}: {e}", cluster.admin_url));
    admin
        .batch_execute("CREATE DATABASE nh_test_own")
        .expect("create");
    let (server, _) = cluster.admin_url.rsplit_once('/').expect("a path");
    let url = format!("{server}/nh_test_own");
    let mut store = PgStore::open(&url).expect("open and migrate");
    let encoding: String = store
        .client()
        .query_one("SHOW server_encoding", &[])
        .expect("query")
        .get(0);
    assert_eq!(encoding, "UTF8");
}

#[test]
fn regression_a_query_ran_past_any_time_budget() {
    let db = TestDb::new();
    let mut store = PgStore::open(&db.url).expect("open");
    let sleep = |store: &mut PgStore| -> Result<(), super::StoreError> {
        store.client().batch_execute("SELECT pg_sleep(2)")?;
        Ok(())
    };
    store
        .set_query_budget(Some(std::time::Duration::from_millis(50)))
        .unwrap();
    assert!(matches!(
        sleep(&mut store),
        Err(super::StoreError::OverBudget)
    ));
    store.set_query_budget(None).unwrap();
    let shown: String = store
        .client()
        .query_one("SHOW statement_timeout", &[])
        .unwrap()
        .get(0);
    assert_eq!(shown, "0");
}
