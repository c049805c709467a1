//! Ctrl-C on the library side: the shutdown future resolving mid-crawl
//! makes `crawl::run` return a summary; every page the web served before the
//! stop is written (a fetch record each, every served article stored), no
//! URL is left in flight, the database is sound, and the next run resumes
//! and finishes without fetching any article twice.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use crate::support::{article_paths, start_web};
use newshound::crawl::{self, CrawlOptions};
use newshound::simweb::{SimWeb, SimWebSpec};
use newshound::store::AnyStore;
use newshound::store::Store;

/// Article requests served so far, as (site, path).
fn served_articles(web: &SimWeb) -> Vec<(String, String)> {
    let articles = article_paths(web);
    web.requests()
        .into_iter()
        .map(|r| (r.site, r.path))
        .filter(|k| articles.contains(k))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_shutdown_mid_crawl_writes_in_flight_pages_and_the_next_run_resumes() {
    let spec = SimWebSpec {
        sites: 2,
        articles_per_site: 40,
        seed: 77,
        faults: false,
    };
    let (web, dir, mut cfg) = start_web(spec).await;
    let web = Arc::new(web);
    crate::support::set_rate_per_host(&mut cfg, 15.0);
    let db = dir.path().join("stop.db");
    let total: usize = web.sites().iter().map(|s| s.article_urls.len()).sum();

    // "Ctrl-C" once a dozen articles have been served: mid-crawl on any machine.
    let watched = web.clone();
    let ctrl_c = async move {
        while served_articles(&watched).len() < 12 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    };
    let first = tokio::time::timeout(
        Duration::from_secs(120),
        crawl::run(
            &cfg,
            AnyStore::from(Store::open(&db).expect("open")),
            CrawlOptions::default(),
            ctrl_c,
        ),
    )
    .await
    .expect("the crawl stops when asked")
    .expect("a stopped crawl still returns its summary");
    println!("run 1 (stopped):\n{first}");
    assert!(first.articles_stored >= 12, "{first}");
    assert!(
        (first.articles_stored as usize) < total,
        "not stopped: {first}"
    );

    // Everything served before the stop was written.
    let requests = web.requests();
    let pages_served = requests.iter().filter(|r| r.path != "/robots.txt").count();
    let articles_served = served_articles(&web);
    {
        let store = Store::open(&db).expect("reopen");
        assert_eq!(store.integrity_check().expect("check"), "ok");
        let counts = store.counts().expect("counts");
        assert_eq!(counts.fetching, 0, "nothing left in flight: {counts:?}");
        let conn = rusqlite::Connection::open(&db).expect("sqlite");
        let fetch_rows: i64 = conn
            .query_row(
                "SELECT count(*) FROM fetches WHERE error_kind IS NULL",
                [],
                |r| r.get(0),
            )
            .expect("query");
        assert_eq!(
            fetch_rows as usize, pages_served,
            "a fetch record per page served"
        );
        assert_eq!(first.pages_fetched as usize, pages_served, "{first}");
        for (site, path) in &articles_served {
            let base = &web
                .sites()
                .iter()
                .find(|s| s.name == *site)
                .expect("site")
                .base_url;
            let url = base.join(path).expect("url");
            let found = AnyStore::from(Store::open(&db).expect("reopen"))
                .article(newshound::store::ArticleRef::Url(url.to_string()))
                .expect("query");
            assert!(found.is_some(), "served but not stored: {url}");
        }
        assert_eq!(articles_served.len(), first.articles_stored as usize);
    }

    // The same command again resumes and finishes.
    let second = crawl::run(
        &cfg,
        AnyStore::from(Store::open(&db).expect("open")),
        CrawlOptions::default(),
        std::future::pending(),
    )
    .await
    .expect("crawl runs");
    println!("run 2 (to the end):\n{second}");
    assert_eq!(
        (first.articles_stored + second.articles_stored) as usize,
        total,
        "{second}"
    );
    let mut per_article: HashMap<(String, String), usize> = HashMap::new();
    for k in served_articles(&web) {
        *per_article.entry(k).or_default() += 1;
    }
    assert_eq!(per_article.len(), total);
    assert!(
        per_article.values().all(|n| *n == 1),
        "an article fetched twice"
    );
    let store = Store::open(&db).expect("reopen");
    assert_eq!(store.integrity_check().expect("check"), "ok");
    assert_eq!(store.counts().expect("counts").fetching, 0);
}
