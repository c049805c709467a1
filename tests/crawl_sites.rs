//! Site selection: `crawl --site NAME` crawls only that site; an unknown
//! name stops the crawl before anything is fetched.

use std::path::Path;

use newshound::config::Config;
use newshound::crawl::{self, CrawlError, CrawlOptions};
use newshound::simweb::{SimWeb, SimWebSpec};
use newshound::store::Store;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_selected_sites_are_crawled_and_unknown_ones_are_refused() {
    let spec = SimWebSpec {
        sites: 2,
        articles_per_site: 6,
        seed: 4,
        faults: false,
    };
    let web = SimWeb::start(spec).await.expect("simweb starts");
    let dir = tempfile::tempdir().expect("tempdir");
    let cfg = Config::parse(&web.config_toml(), Path::new("simweb.toml"), dir.path())
        .expect("simweb config parses");
    let db = dir.path().join("sites.db");
    let chosen = web.sites()[1].name.clone();

    let opts = |sites: Vec<String>| CrawlOptions {
        sites,
        ..CrawlOptions::default()
    };
    let err = crawl::run(
        &cfg,
        Store::open(&db).expect("open"),
        opts(vec!["nope".into()]),
        std::future::pending(),
    )
    .await
    .expect_err("unknown site refused");
    assert!(matches!(err, CrawlError::UnknownSite { .. }), "{err}");
    assert!(err.to_string().contains("\"nope\""), "{err}");
    assert!(web.requests().is_empty());

    let summary = crawl::run(
        &cfg,
        Store::open(&db).expect("open"),
        opts(vec![chosen.clone()]),
        std::future::pending(),
    )
    .await
    .expect("crawl runs");
    println!("{summary}");
    assert_eq!(summary.articles_stored, 6);
    assert!(web.requests().iter().all(|r| r.site == chosen));

    // A later full crawl gets the other site, and nothing twice.
    let all = crawl::run(
        &cfg,
        Store::open(&db).expect("open"),
        opts(Vec::new()),
        std::future::pending(),
    )
    .await
    .expect("crawl runs");
    assert_eq!(all.articles_stored, 6, "{all}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_per_site_budget_holds_over_runs() {
    let spec = SimWebSpec {
        sites: 1,
        articles_per_site: 10,
        seed: 8,
        faults: false,
    };
    let web = SimWeb::start(spec).await.expect("simweb starts");
    let dir = tempfile::tempdir().expect("tempdir");
    let mut cfg = Config::parse(&web.config_toml(), Path::new("simweb.toml"), dir.path())
        .expect("simweb config parses");
    cfg.crawler.max_pages_per_site = 6;
    let db = dir.path().join("budget.db");
    let run = |cfg: Config| {
        let db = db.clone();
        async move {
            crawl::run(
                &cfg,
                Store::open(&db).expect("open"),
                CrawlOptions::default(),
                std::future::pending(),
            )
            .await
            .expect("crawl runs")
        }
    };
    let first = run(cfg.clone()).await;
    println!("{first}");
    assert!(first.pages_fetched <= 6, "{first}");
    assert!(
        first.skipped.get("site_budget").copied().unwrap_or(0) > 0,
        "{first}"
    );
    // The budget is over the life of the database: a second run fetches nothing.
    let second = run(cfg.clone()).await;
    assert_eq!(second.pages_fetched, 0, "{second}");
    let pages = web
        .requests()
        .iter()
        .filter(|r| r.path != "/robots.txt")
        .count();
    assert!(pages <= 6, "{pages} pages requested");
}
