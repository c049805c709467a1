//! Migrations that rewrite old rows: a database an older newshound left
//! at an earlier version, opened by this one, reads as if it had been
//! written by it.

use super::*;
use crate::store::*;

#[test]
fn migration_4_backfills_hosts_of_existing_urls() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v3.db");
    {
        let c = database_at_version(&path, 3);
        c.execute_batch(
            "INSERT INTO sites(id, name) VALUES (1, 'a');
             INSERT INTO urls(url, site_id, kind, discovered_at) VALUES
               ('https://www.a.test/x/y?q=1', 1, 'article', 0),
               ('http://127.0.0.1:8080/', 1, 'seed', 0),
               ('https://a.test?x', 1, 'page', 0);",
        )
        .unwrap();
    }
    let mut s = Store::open(&path).unwrap();
    let mut hosts: Vec<String> = s
        .claim_due(0, 10)
        .unwrap()
        .into_iter()
        .map(|q| {
            assert_eq!(q.host, url_host(&q.url));
            q.host
        })
        .collect();
    hosts.sort();
    assert_eq!(hosts, ["127.0.0.1:8080", "a.test", "www.a.test"]);
}

#[test]
fn migration_5_marks_old_skip_rows_as_skips() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v4.db");
    {
        let c = database_at_version(&path, 4);
        c.execute_batch(
            "INSERT INTO sites(id, name) VALUES (1, 'a');
             INSERT INTO urls(id, url, site_id, kind, discovered_at, host) VALUES
               (1, 'https://a.test/1', 1, 'article', 0, 'a.test');
             INSERT INTO fetches(url_id, started_at, status, error_kind, bytes, elapsed_ms) VALUES
               (1, 0, NULL, 'robots_disallowed', 0, 0),
               (1, 1, NULL, 'timeout', 0, 20000),
               (1, 2, 200, NULL, 5000, 30);",
        )
        .unwrap();
    }
    let s = Store::open(&path).unwrap();
    let st = s.site_stats(50).unwrap();
    assert_eq!(st[0].pages_fetched, 1);
    assert_eq!(st[0].errors, [("timeout".to_string(), 1)]);
    assert_eq!(st[0].skipped, [("robots_disallowed".to_string(), 1)]);
}

/// A database built by this version's first `version` migrations, as an
/// older newshound left it.
fn database_at_version(path: &std::path::Path, version: usize) -> rusqlite::Connection {
    let c = rusqlite::Connection::open(path).unwrap();
    let all = [
        include_str!("../../../../migrations/0001_init.sql"),
        include_str!("../../../../migrations/0002_claim_index.sql"),
        include_str!("../../../../migrations/0003_cjk_index_only_cjk.sql"),
        include_str!("../../../../migrations/0004_claim_per_host.sql"),
    ];
    for sql in &all[..version] {
        c.execute_batch(sql).unwrap();
    }
    c.pragma_update(None, "user_version", version as i64)
        .unwrap();
    c
}
