//! Learned URL shapes end to end: a crawl counts each judged page's shape
//! in the store, and `sites check` of the same site without patterns then
//! labels its article links by the learned shapes, storing nothing.

use crate::support::start_web;
use newshound::crawl::check::{check_site, LinkLabel, LinkSource};
use newshound::crawl::shapes::{ShapeClass, ShapeTable};
use newshound::crawl::{self, CrawlOptions};
use newshound::simweb::SimWebSpec;
use newshound::store::AnyStore;
use newshound::store::{Selection, ShapeCounts, Store, StoredArticle};

fn table_of(store: &mut AnyStore, site: &str) -> ShapeTable {
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
    crawl::run(
        &cfg,
        AnyStore::from(store),
        CrawlOptions::default(),
        std::future::pending(),
    )
    .await
    .expect("crawl");

    let site = &web.sites()[0];
    let mut store = AnyStore::from(Store::open(&db).expect("open"));
    let table = table_of(&mut store, &site.name);
    // Every article URL of the site has one learned article shape.
    for u in &site.article_urls {
        assert_eq!(table.classify(u), ShapeClass::Article, "{u}");
    }
    // The start page counted once, as a listing: too little to trust.
    let home = table
        .counts("/")
        .map(|c| (c.articles, c.listings, c.others, c.stories));
    assert_eq!(home, Some((0, 1, 0, 0)));
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
    let checked = check_site(&bare, &bare.sites[0], &table, 0)
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
    let mut store = AnyStore::from(Store::open(&db).expect("open"));
    let stats = store.site_stats(50).expect("stats");
    assert_eq!(
        (stats[0].articles, stats[0].urls_known),
        (articles_before, urls_before)
    );

    // Without a database, feed and sitemap entries are articles by source.
    let cold = check_site(&bare, &bare.sites[0], &ShapeTable::default(), 0)
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
    let checked = check_site(&cfg, with_patterns, &ShapeTable::default(), 0)
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
    let checked = check_site(&cfg, &site, &ShapeTable::default(), 0)
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

/// The web's config with every site's patterns removed: `name` and the
/// seeds only.
fn bare(cfg: &newshound::config::Config) -> newshound::config::Config {
    let mut bare = cfg.clone();
    for s in &mut bare.sites {
        s.article_patterns.clear();
        s.index_patterns.clear();
    }
    bare
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_site_without_patterns_learns_its_article_shape_and_explores_within_its_budget() {
    let spec = SimWebSpec {
        sites: 1,
        articles_per_site: 12,
        seed: 24,
        faults: false,
    };
    let (web, dir, cfg) = start_web(spec).await;
    let site = &web.sites()[0];
    let want: std::collections::BTreeSet<String> =
        site.article_urls.iter().map(|u| u.to_string()).collect();
    let mut fetched = Vec::new();
    for budget in [0, 40] {
        // The feed and the sitemap only: every article is an entry, queued
        // as an article before any link of unknown shape is seen.
        let mut cfg = bare(&cfg);
        cfg.sites[0].start_urls.clear();
        cfg.crawler.explore_per_site = budget;
        let db = dir.path().join(format!("bare{budget}.db"));
        crawl::run(
            &cfg,
            AnyStore::from(Store::open(&db).expect("open")),
            CrawlOptions::default(),
            std::future::pending(),
        )
        .await
        .expect("crawl");
        let mut store = AnyStore::from(Store::open(&db).expect("open"));
        let mut stored = std::collections::BTreeSet::new();
        store
            .export(&Selection::site(&site.name), &mut |a: &StoredArticle| {
                stored.insert(a.url.clone());
                Ok(())
            })
            .expect("export");
        assert_eq!(stored, want);
        let table = table_of(&mut store, &site.name);
        for u in &site.article_urls {
            assert_eq!(table.classify(u), ShapeClass::Article, "{u}");
        }
        fetched.push(store.site_stats(50).expect("stats")[0].pages_fetched);
    }
    // No budget: the articles, the feed and the sitemap. With one, the
    // links of unknown shape of the first articles (seen before the
    // article shape was learned) are explored too.
    assert_eq!(fetched[0], 12 + 2, "{fetched:?}");
    assert!(fetched[1] > fetched[0], "{fetched:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn regression_articles_first_linked_from_the_start_page_were_never_stored_without_patterns() {
    // The start page's article links, of a shape not learned yet, were
    // queued as plain pages; the sitemap's entries for the same URLs were
    // then dropped as known, and the articles fetched as plain pages. Now
    // the entries promote the queued plain pages to articles; those the
    // scheduler had claimed already are left to the page judgement.
    let spec = SimWebSpec {
        sites: 1,
        articles_per_site: 12,
        seed: 26,
        faults: false,
    };
    let (web, dir, cfg) = start_web(spec).await;
    let site = &web.sites()[0];
    let db = dir.path().join("bare-start.db");
    crawl::run(
        &bare(&cfg),
        AnyStore::from(Store::open(&db).expect("open")),
        CrawlOptions::default(),
        std::future::pending(),
    )
    .await
    .expect("crawl");
    let mut store = AnyStore::from(Store::open(&db).expect("open"));
    let mut stored = std::collections::BTreeSet::new();
    store
        .export(&Selection::site(&site.name), &mut |a: &StoredArticle| {
            stored.insert(a.url.clone());
            Ok(())
        })
        .expect("export");
    let want: std::collections::BTreeSet<String> =
        site.article_urls.iter().map(|u| u.to_string()).collect();
    assert_eq!(stored, want);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn trap_guards_hold_for_a_site_without_patterns() {
    let spec = SimWebSpec {
        sites: 1,
        articles_per_site: 4,
        seed: 25,
        faults: true,
    };
    let (web, dir, cfg) = start_web(spec).await;
    let mut cfg = bare(&cfg);
    // Exploration is not what bounds the traps here: the guards are.
    cfg.crawler.explore_per_site = 1_000_000;
    cfg.crawler.max_urls_per_site = 120;
    // The link farm (20 links a page, each to a new page) as a start page.
    let faults = (cfg.sites.iter_mut())
        .find(|s| s.name == "faults")
        .expect("faults site");
    let farm = faults.start_urls[0].join("/farm/0").expect("farm URL");
    faults.start_urls.push(farm);
    let db = dir.path().join("traps.db");
    let opts = CrawlOptions {
        sites: vec!["faults".into()],
        ..CrawlOptions::default()
    };
    let run = crawl::run(
        &cfg,
        AnyStore::from(Store::open(&db).expect("open")),
        opts,
        std::future::pending(),
    );
    tokio::time::timeout(std::time::Duration::from_secs(120), run)
        .await
        .expect("the crawl finishes")
        .expect("the crawl runs");
    let known: i64 = rusqlite::Connection::open(&db)
        .expect("open")
        .query_row(
            "SELECT count(*) FROM urls u JOIN sites s ON s.id = u.site_id WHERE s.name = 'faults'",
            [],
            |r| r.get(0),
        )
        .expect("urls");
    assert_eq!(known, 120, "max_urls_per_site holds the farm");
    let requests = web.requests();
    let faults: Vec<&str> = (requests.iter())
        .filter(|r| r.site == "faults")
        .map(|r| r.path.as_str())
        .collect();
    assert!(
        faults.iter().any(|p| p.starts_with("/farm/")),
        "the farm was explored: {faults:?}"
    );
    assert!(
        !faults.iter().any(|p| p.starts_with("/calendar")),
        "the calendar is a trap: {faults:?}"
    );
    assert!(
        faults.iter().any(|p| p.starts_with("/farm/")),
        "the farm was explored: {faults:?}"
    );
    // `/trap/N` links N+1 and N+2: the depth limit (6) cuts it (when the
    // URL cap, filled by the farm, left room for it at all).
    let deepest = (faults.iter())
        .filter_map(|p| p.strip_prefix("/trap/")?.parse::<u32>().ok())
        .max()
        .unwrap_or(0);
    assert!(deepest <= 2 * 6, "/trap/{deepest}");
}
