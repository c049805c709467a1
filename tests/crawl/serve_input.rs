//! `serve` given hostile query strings: control characters, SQL and FTS5
//! syntax, broken percent-encoding, in every parameter of every route, on
//! SQLite and on PostgreSQL. Every answer is an answer (200, 400, 404…),
//! never a 500: a NUL in `q` made FTS5 fail with "unterminated string".

use std::net::SocketAddr;
use std::path::Path;

use newshound::boilerplate::LineSettings;
use newshound::extract::Article;
use newshound::store::copy::{self, CopyOptions};
use newshound::store::{NewArticle, Store, StoreTarget, WriteOp};
use tokio::sync::oneshot;

use crate::pg_testing::TestDb;
use crate::serve::client;

/// Values put in every parameter, as written in the query string (some
/// are percent-encoded on purpose, some broken on purpose).
const VALUES: &[&str] = &[
    "har%00bour",
    "%00",
    "%00harbour",
    "harbour%00",
    "%01%02%1F",
    "%7F",
    "%C2%85",
    "%E2%80%AE",
    "%FF%FE",
    "%E5%8C%97%00%E4%BA%AC",
    "%22",
    "%22%00%22",
    "'",
    "%25",
    "%5C",
    "*",
    "-",
    "NOT",
    "OR",
    "(",
    ")",
    "a:b",
    "%5E",
    "NEAR(a+b)",
    "%EF%BF%BF",
    "%F0%9D%95%B3",
    "harbour*%00",
    "-%00",
];

fn corpus(db: &Path) {
    let mut store = Store::open(db).unwrap();
    let lines = LineSettings {
        enabled: false,
        ..LineSettings::default()
    };
    let ops = [
        (
            "Harbour strike",
            "Dock workers at the harbour returned on Monday.",
        ),
        ("北京", "北京今天有雨。国务院召开会议。"),
    ]
    .iter()
    .enumerate()
    .map(|(i, (title, text))| {
        WriteOp::Article(NewArticle {
            url: format!("http://127.0.0.1:9/2026/11/{i}"),
            url_id: None,
            site: "input".into(),
            fetched_at: 1,
            article: Article {
                title: Some(title.to_string()),
                published_at: Some("2026-11-20T08:00:00Z".into()),
                text: text.to_string(),
                ..Article::default()
            },
            lines,
            html: None,
        })
    })
    .collect();
    store.write_batch(ops).unwrap();
}

async fn serve_target(
    target: StoreTarget,
) -> (SocketAddr, oneshot::Sender<()>, tokio::task::JoinHandle<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(async move {
        let shutdown = async {
            let _ = stopped.await;
        };
        newshound::serve::serve_target(listener, &target, 50, shutdown)
            .await
            .expect("serve runs");
    });
    (addr, stop, task)
}

/// Every request of the sweep that got a 500, with its answer.
async fn five_hundreds(addr: SocketAddr) -> Vec<String> {
    let http = client();
    let mut paths = Vec::new();
    for v in VALUES {
        for param in ["q", "site", "since", "until", "lang", "limit", "offset"] {
            paths.push(format!("/api/search?{param}={v}"));
        }
        paths.push(format!("/api/search?q=harbour&site={v}"));
        paths.push(format!("/api/search?q={v}&lang=eng&since=2026-11-01"));
        paths.push(format!("/api/articles/{v}"));
        paths.push(format!("/api/articles/{v}/html"));
        paths.push(format!("/api/stats?{v}=1"));
        paths.push(format!("/api/export?format={v}"));
        paths.push(format!("/api/export?format=jsonl&site={v}"));
        paths.push(format!("/?q={v}"));
    }
    let mut bad = Vec::new();
    for path in paths {
        let r = http
            .get(format!("http://{addr}{path}"))
            .send()
            .await
            .unwrap();
        let status = r.status().as_u16();
        let body = r.text().await.unwrap_or_default();
        if status >= 500 {
            bad.push(format!("{path} → {status} {body}"));
        }
    }
    bad
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn regression_a_nul_in_a_query_answered_500() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("input.db");
    corpus(&db);
    let sqlite = StoreTarget::Sqlite(db.clone());
    let (pg, pg_target) = tokio::task::spawn_blocking(move || {
        let pg = TestDb::new();
        let target = StoreTarget::Postgres(pg.url.clone());
        copy::copy(&sqlite, &target, &CopyOptions::default(), &mut |_| {})
            .unwrap_or_else(|e| panic!("copy: {e}"));
        (pg, target)
    })
    .await
    .unwrap();
    let mut bad = Vec::new();
    for target in [StoreTarget::Sqlite(db.clone()), pg_target] {
        let shown = target.to_string();
        let (addr, stop, task) = serve_target(target).await;
        bad.extend(
            five_hundreds(addr)
                .await
                .into_iter()
                .map(|b| format!("{shown}: {b}")),
        );
        let _ = stop.send(());
        task.await.unwrap();
    }
    tokio::task::spawn_blocking(move || drop(pg)).await.unwrap();
    assert!(
        bad.is_empty(),
        "{} answers were 500:\n{}",
        bad.len(),
        bad.join("\n")
    );
}
