//! `newshound serve` on PostgreSQL: a crawled corpus copied to a real
//! server (the test process's own cluster, or `NEWSHOUND_TEST_PG`) answers
//! every API route as the SQLite original does.

use std::collections::BTreeSet;
use std::net::SocketAddr;

use crate::pg_testing::TestDb;
use newshound::store::copy::{self, CopyOptions};
use newshound::store::StoreTarget;
use serde_json::Value;
use tokio::sync::oneshot;

use crate::serve::{a_word, client, crawled, serve};

/// GET a path: (status, body).
async fn get(http: &reqwest::Client, addr: SocketAddr, path: &str) -> (u16, Vec<u8>) {
    let r = http
        .get(format!("http://{addr}{path}"))
        .send()
        .await
        .unwrap();
    (r.status().as_u16(), r.bytes().await.unwrap().to_vec())
}

fn hit_ids(body: &[u8]) -> BTreeSet<i64> {
    let v: Value = serde_json::from_slice(body).unwrap();
    v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["id"].as_i64().unwrap())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_on_postgres_answers_every_route_as_on_sqlite() {
    let c = crawled(23).await;
    // The blocking PostgreSQL client stays off the async workers.
    let sqlite = StoreTarget::Sqlite(c.db.clone());
    let (pg, target) = tokio::task::spawn_blocking(move || {
        let pg = TestDb::new();
        let target = StoreTarget::Postgres(pg.url.clone());
        copy::copy(&sqlite, &target, &CopyOptions::default(), &mut |_| {})
            .unwrap_or_else(|e| panic!("copy: {e}"));
        (pg, target)
    })
    .await
    .unwrap();

    let on_sqlite = serve(&c.db).await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let pg_addr = listener.local_addr().unwrap();
    let (stop, stopped) = oneshot::channel::<()>();
    let pg_task = tokio::spawn(async move {
        let shutdown = async {
            let _ = stopped.await;
        };
        newshound::serve::serve_target(listener, &target, 50, shutdown)
            .await
            .expect("serve on PostgreSQL runs");
    });
    let http = client();

    let en = c
        .articles
        .iter()
        .find(|a| a.article.language.as_deref() == Some("eng"))
        .expect("an English article");
    let word = a_word(en);
    let id = en.id;
    // Byte for byte the same answer.
    for path in [
        "/api/stats".to_string(),
        "/api/search?limit=100".to_string(),
        format!("/api/search?site={}&limit=5&offset=2", en.site),
        format!("/api/articles/{id}"),
        format!("/api/articles/{id}/html"),
        "/api/articles/999999".to_string(),
        "/api/search?q=x&site=nope".to_string(),
        "/api/export?format=jsonl".to_string(),
        format!("/api/export?format=csv&site={}", en.site),
    ] {
        let a = get(&http, on_sqlite.addr, &path).await;
        let b = get(&http, pg_addr, &path).await;
        assert_eq!(a.0, b.0, "{path}: {}", String::from_utf8_lossy(&b.1));
        assert!(!a.1.is_empty(), "{path}: empty");
        assert_eq!(
            String::from_utf8_lossy(&a.1),
            String::from_utf8_lossy(&b.1),
            "{path}"
        );
    }
    // The same articles found (ranked by each store's own measure).
    for q in [word.as_str(), "the", "\"the city\""] {
        let path = format!(
            "/api/search?q={}&limit=100",
            url::form_urlencoded::byte_serialize(q.as_bytes()).collect::<String>()
        );
        let a = get(&http, on_sqlite.addr, &path).await;
        let b = get(&http, pg_addr, &path).await;
        assert_eq!((a.0, hit_ids(&a.1)), (b.0, hit_ids(&b.1)), "{q}");
    }
    assert!(hit_ids(
        &get(&http, pg_addr, &format!("/api/search?q={word}"))
            .await
            .1
    )
    .contains(&id));

    let _ = stop.send(());
    pg_task
        .await
        .expect("serve on PostgreSQL shuts down cleanly");
    on_sqlite.shutdown().await;
    tokio::task::spawn_blocking(move || drop(pg)).await.unwrap();
}
