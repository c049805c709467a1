//! Kill -9 at several moments, restart the same command: the crawl resumes
//! where it stopped. Checked at the end: every article stored exactly once,
//! `PRAGMA integrity_check` is `ok`, and articles fetched again only for the
//! batches that were in flight at the kills.
//!
//! The simulated web runs in this test process; the real `newshound` binary
//! crawls it as a child process.

use std::collections::HashMap;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use newshound::simweb::{SimWeb, SimWebSpec};
use newshound::store::Store;

fn crawl_command(config: &Path, db: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_newshound"));
    cmd.arg("--config")
        .arg(config)
        .arg("--db")
        .arg(db)
        .arg("crawl")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    cmd
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killed_crawls_resume_and_store_every_article_once() {
    let spec = SimWebSpec {
        sites: 2,
        articles_per_site: 25,
        seed: 13,
        faults: false,
    };
    let web = SimWeb::start(spec).await.expect("simweb starts");
    let dir = tempfile::tempdir().expect("tempdir");
    // Slow enough that each kill lands mid-crawl.
    let toml = web
        .config_toml()
        .replace("rate_per_host = 50.0", "rate_per_host = 10.0");
    assert!(
        toml.contains("rate_per_host = 10.0"),
        "rate not found in simweb config"
    );
    let config = dir.path().join("crawler.toml");
    std::fs::write(&config, toml).expect("write config");
    let db = dir.path().join("kill.db");

    let kills = [700u64, 1200, 900];
    for (i, after_ms) in kills.iter().enumerate() {
        let mut child = crawl_command(&config, &db)
            .spawn()
            .expect("spawn newshound");
        tokio::time::sleep(Duration::from_millis(*after_ms)).await;
        // SIGKILL: no chance to flush.
        child.kill().expect("kill -9");
        let _ = child.wait();
        println!("kill {} after {after_ms} ms", i + 1);
    }
    let out = tokio::task::spawn_blocking({
        let (config, db) = (config.clone(), db.clone());
        move || crawl_command(&config, &db).output()
    })
    .await
    .expect("join")
    .expect("final run");
    println!("{}", String::from_utf8_lossy(&out.stdout));
    assert!(
        out.status.success(),
        "final run failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );

    let conn = rusqlite::Connection::open(&db).expect("open db");
    let check: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .expect("integrity_check");
    assert_eq!(check, "ok");
    drop(conn);

    let mut store = newshound::store::AnyStore::from(Store::open(&db).expect("reopen"));
    let mut stored: HashMap<String, usize> = HashMap::new();
    store
        .export(&newshound::store::Selection::default(), &mut |a| {
            *stored.entry(a.url.clone()).or_default() += 1;
            Ok(())
        })
        .expect("export");
    let expected: Vec<String> = web
        .sites()
        .iter()
        .flat_map(|s| s.article_urls.iter().map(|u| u.to_string()))
        .collect();
    for url in &expected {
        assert_eq!(
            stored.get(url),
            Some(&1),
            "{url} stored {:?} times",
            stored.get(url)
        );
    }
    assert_eq!(stored.len(), expected.len());

    let mut fetched: HashMap<(String, String), usize> = HashMap::new();
    for s in web.sites() {
        for u in &s.article_urls {
            fetched.insert((s.name.clone(), u.path().to_string()), 0);
        }
    }
    for r in web.requests() {
        if let Some(n) = fetched.get_mut(&(r.site.clone(), r.path.clone())) {
            *n += 1;
        }
    }
    let refetched: usize = fetched.values().map(|n| n.saturating_sub(1)).sum();
    println!("articles fetched again after kills: {refetched}");
    // At a kill, at most the pages in flight plus one uncommitted batch are
    // lost; with `concurrency` 8 that is far below this bound per kill.
    assert!(refetched <= kills.len() * 16, "{refetched} refetches");
    assert!(fetched.values().all(|n| *n >= 1));
}
