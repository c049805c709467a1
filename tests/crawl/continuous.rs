//! `crawl --continuous`: feeds, sitemaps and index pages are revisited on
//! schedule with conditional GETs (answered 304 when unchanged), articles are
//! fetched once, and the shutdown future ends the run with a summary.

use std::collections::HashMap;
use std::time::Duration;

use crate::support::start_web;
use newshound::crawl::{self, CrawlOptions};
use newshound::simweb::SimWebSpec;
use newshound::store::AnyStore;
use newshound::store::Store;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn continuous_mode_revisits_feeds_conditionally_and_articles_never() {
    let spec = SimWebSpec {
        sites: 1,
        articles_per_site: 8,
        seed: 9,
        faults: false,
    };
    let (web, dir, mut cfg) = start_web(spec).await;
    cfg.crawler.revisit = Duration::from_secs(1);
    let store = Store::open(&dir.path().join("cont.db")).expect("open store");
    let opts = CrawlOptions {
        continuous: true,
        ..CrawlOptions::default()
    };
    let stop = tokio::time::sleep(Duration::from_millis(3500));
    let summary = tokio::time::timeout(
        Duration::from_secs(60),
        crawl::run(&cfg, AnyStore::from(store), opts, stop),
    )
    .await
    .expect("the crawl stops when asked")
    .expect("crawl runs");
    println!("{summary}");

    let requests = web.requests();
    let feed: Vec<u16> = requests
        .iter()
        .filter(|r| r.path == "/rss.xml")
        .map(|r| r.status)
        .collect();
    println!("feed statuses: {feed:?}");
    assert!(feed.len() >= 2, "feed fetched {} times", feed.len());
    assert_eq!(feed[0], 200);
    assert!(feed[1..].iter().all(|s| *s == 304), "{feed:?}");
    assert!(summary.not_modified >= 1, "{summary}");

    let mut per_article: HashMap<&str, usize> = HashMap::new();
    let site = &web.sites()[0];
    for r in &requests {
        if site.article_urls.iter().any(|u| u.path() == r.path) {
            *per_article.entry(r.path.as_str()).or_default() += 1;
        }
    }
    assert_eq!(per_article.len(), site.article_urls.len());
    assert!(per_article.values().all(|n| *n == 1), "{per_article:?}");
    assert_eq!(summary.articles_stored as usize, site.article_urls.len());
}
