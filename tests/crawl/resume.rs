//! Stopping and resuming: a crawl cut short by `max_pages`, then one stopped
//! by its shutdown future mid-crawl, then one run to the end, all on the same
//! database. Together they store every article exactly once and never fetch
//! an article twice.

use std::collections::HashMap;
use std::path::Path;
use std::time::Duration;

use crate::support::start_web;
use newshound::config::Config;
use newshound::crawl::{self, CrawlOptions, CrawlSummary};
use newshound::simweb::SimWebSpec;
use newshound::store::AnyStore;
use newshound::store::Store;

async fn crawl(
    cfg: &Config,
    db: &Path,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> CrawlSummary {
    let store = Store::open(db).expect("open store");
    crawl::run(
        cfg,
        AnyStore::from(store),
        CrawlOptions::default(),
        shutdown,
    )
    .await
    .expect("crawl runs")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn interrupted_crawls_resume_without_refetching_articles() {
    let spec = SimWebSpec {
        sites: 2,
        articles_per_site: 30,
        seed: 21,
        faults: false,
    };
    let (web, dir, mut cfg) = start_web(spec).await;
    crate::support::set_rate_per_host(&mut cfg, 10.0);
    let db = dir.path().join("resume.db");
    let total: usize = web.sites().iter().map(|s| s.article_urls.len()).sum();

    let mut limited = cfg.clone();
    limited.crawler.max_pages = 10;
    let first = crawl(&limited, &db, std::future::pending()).await;
    println!("run 1 (max_pages 10):\n{first}");
    assert!(first.pages_fetched <= 10, "{first}");

    let second = crawl(&cfg, &db, tokio::time::sleep(Duration::from_millis(800))).await;
    println!("run 2 (stopped after 0.8 s):\n{second}");
    let so_far = (first.articles_stored + second.articles_stored) as usize;
    assert!(
        so_far < total,
        "run 2 was not interrupted: {so_far} of {total}"
    );

    let third = crawl(&cfg, &db, std::future::pending()).await;
    println!("run 3 (to the end):\n{third}");

    let stored_total = first.articles_stored + second.articles_stored + third.articles_stored;
    assert_eq!(
        stored_total as usize, total,
        "articles stored over the three runs"
    );
    let mut store = AnyStore::from(Store::open(&db).expect("reopen"));
    let mut urls: HashMap<String, usize> = HashMap::new();
    store
        .export(&newshound::store::Selection::default(), &mut |a| {
            *urls.entry(a.url.clone()).or_default() += 1;
            Ok(())
        })
        .expect("export");
    assert_eq!(urls.len(), total);
    assert!(urls.values().all(|n| *n == 1));

    let articles: HashMap<(String, String), usize> = web
        .sites()
        .iter()
        .flat_map(|s| {
            s.article_urls
                .iter()
                .map(|u| ((s.name.clone(), u.path().to_string()), 0))
        })
        .collect();
    let mut fetched = articles;
    for r in web.requests() {
        if let Some(n) = fetched.get_mut(&(r.site.clone(), r.path.clone())) {
            *n += 1;
        }
    }
    let twice: Vec<_> = fetched.iter().filter(|(_, n)| **n > 1).collect();
    assert!(
        twice.is_empty(),
        "articles fetched more than once: {twice:?}"
    );
    assert!(fetched.values().all(|n| *n == 1));
}
