//! Learned URL shapes end to end: a crawl counts each judged page's shape
//! in the store, and `sites check` of the same site without patterns then
//! labels its article links by the learned shapes, storing nothing.

use crate::support::start_web;
use newshound::crawl::check::{check_site, LinkLabel, LinkSource};
use newshound::crawl::shapes::{ShapeClass, ShapeTable};
use newshound::crawl::{self, CrawlOptions};
use newshound::simweb::SimWebSpec;
use newshound::store::{ShapeCounts, Store};

fn table_of(store: &Store, site: &str) -> ShapeTable {
    let rows: Vec<ShapeCounts> = (store.url_shapes().expect("shapes").into_iter())
        .filter(|(s, _)| s == site)
        .map(|(_, c)| c)
        .collect();
    ShapeTable::from_counts(&rows)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crawl_learns_the_article_shape_that_sites_check_then_uses() {
    let spec = SimWebSpec {
        sites: 1,
        articles_per_site: 12,
        seed: 21,
        faults: false,
    };
    let (web, dir, cfg) = start_web(spec).await;
    let db = dir.path().join("shapes.db");
    let store = Store::open(&db).expect("open");
    crawl::run(&cfg, store, CrawlOptions::default(), std::future::pending())
        .await
        .expect("crawl");

    let site = &web.sites()[0];
    let store = Store::open(&db).expect("open");
    let table = table_of(&store, &site.name);
    // Every article URL of the site has one learned article shape.
    for u in &site.article_urls {
        assert_eq!(table.classify(u), ShapeClass::Article, "{u}");
    }
    // The start page counted once, as a listing: too little to trust.
    assert_eq!(table.counts("/"), Some((0, 1, 0)));
    assert_eq!(table.classify(&site.base_url), ShapeClass::Unknown);
    let stats = store.site_stats(50).expect("stats");
    assert!(
        stats[0].url_shapes.iter().any(|c| c.articles >= 3),
        "{:?}",
        stats[0].url_shapes
    );
    let articles_before = stats[0].articles;
    let urls_before = stats[0].urls_known;
    drop(store);

    // The same site without patterns: the learned shapes label its links.
    let mut bare = cfg.clone();
    bare.sites.retain(|s| s.name == site.name);
    bare.sites[0].article_patterns.clear();
    bare.sites[0].index_patterns.clear();
    let checked = check_site(&bare, &bare.sites[0], &table)
        .await
        .expect("check");
    assert!(
        checked
            .documents
            .iter()
            .any(|d| d.kind == "start" && d.failed.is_none()),
        "{:?}",
        checked.documents
    );
    let article_urls: Vec<String> = site.article_urls.iter().map(|u| u.to_string()).collect();
    let labelled_articles: Vec<_> = (checked.links.iter())
        .filter(|l| article_urls.contains(&l.url))
        .collect();
    assert!(!labelled_articles.is_empty(), "{:?}", checked.links);
    for l in &labelled_articles {
        assert_eq!(l.label, LinkLabel::Article, "{l:?}");
        assert!(l.reason.contains("learned shape"), "{l:?}");
    }
    // Nothing of them is stored.
    let store = Store::open(&db).expect("open");
    let stats = store.site_stats(50).expect("stats");
    assert_eq!(
        (stats[0].articles, stats[0].urls_known),
        (articles_before, urls_before)
    );

    // Without a database, feed and sitemap entries are articles by source.
    let cold = check_site(&bare, &bare.sites[0], &ShapeTable::default())
        .await
        .expect("check");
    for l in cold.links.iter().filter(|l| article_urls.contains(&l.url)) {
        match l.source {
            LinkSource::FeedEntry | LinkSource::SitemapEntry => {
                assert_eq!(l.label, LinkLabel::Article, "{l:?}")
            }
            LinkSource::Page => assert_eq!(l.label, LinkLabel::Other, "{l:?}"),
        }
    }
    // With its patterns, the patterns decide.
    let with_patterns = cfg.site(&site.name).expect("site");
    let checked = check_site(&cfg, with_patterns, &ShapeTable::default())
        .await
        .expect("check");
    for l in checked
        .links
        .iter()
        .filter(|l| article_urls.contains(&l.url))
    {
        assert_eq!(l.label, LinkLabel::Article, "{l:?}");
        assert!(l.reason.contains("article_patterns"), "{l:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sites_check_of_a_start_page_refused_by_the_address_guard_says_so() {
    let spec = SimWebSpec {
        sites: 1,
        articles_per_site: 3,
        seed: 22,
        faults: false,
    };
    let (_web, _dir, mut cfg) = start_web(spec).await;
    cfg.fetch.allow_private_addresses = false;
    let site = cfg.sites[0].clone();
    let checked = check_site(&cfg, &site, &ShapeTable::default())
        .await
        .expect("check");
    assert!(checked.links.is_empty(), "{:?}", checked.links);
    assert!(!checked.documents.is_empty());
    for d in &checked.documents {
        let why = d.failed.as_deref().unwrap_or_default();
        assert!(
            why.contains("blocked_address") && why.contains("allow_private_addresses"),
            "{d:?}"
        );
    }
}
