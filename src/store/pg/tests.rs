//! The PostgreSQL store against a real server (see [`super::testing`]).

use super::testing::TestDb;
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
