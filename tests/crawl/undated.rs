//! Sites whose stories carry no date (the bare web's old-CMS family: no
//! date on the story pages, none in the feed, no sitemap) crawled by their
//! address alone, in several fetch orders: all stories are kept and no
//! other page is, whichever pages the crawl meets first. A shape learned
//! "index" from such stories (as an earlier version learned it) flips back
//! when its pages keep looking like stories, and the pages it held back are
//! fetched and judged again.

use std::path::Path;
use std::time::Duration;

use crate::bare::measure;
use crate::support::{crawl_into, stored};
use newshound::config::Config;
use newshound::crawl::shapes::{shape_of, ShapeClass, ShapeTable};
use newshound::simweb::bare::{BareSpec, BareWeb, Shape};
use newshound::store::{
    AnyStore, ClaimFilter, FetchRecord, NewUrl, NextState, PageJudgement, ShapeCounts, ShapeUpdate,
    Store, UrlKind, WriteOp,
};

/// The orders a crawl meets a site in.
#[derive(Debug, Clone, Copy)]
enum Order {
    /// The home page first, four requests per host at once.
    HomeFirst,
    /// The feed answers after a second: every story linked from the home
    /// page and the sections is fetched and judged before the feed lists it.
    FeedLast,
    /// Section pages before the home page, one request per host at a time.
    SectionsFirst,
}

/// The bare web of `spec`, its feeds slowed down for [`Order::FeedLast`].
async fn web_for(order: Order, spec: BareSpec) -> BareWeb {
    let feed_delay = match order {
        Order::FeedLast => Duration::from_millis(1200),
        _ => Duration::ZERO,
    };
    BareWeb::start(BareSpec { feed_delay, ..spec })
        .await
        .expect("bare web starts")
}

/// The bare config of `web` changed for `order`.
fn config_for(web: &BareWeb, order: Order, dir: &Path) -> Config {
    let mut text = web.config_toml(false);
    if let Order::SectionsFirst = order {
        text = text.replace("per_host_concurrency = 4", "per_host_concurrency = 1");
        for site in web.sites() {
            let base = site.base_url.as_str().trim_end_matches('/');
            // The last sections' pages (later pages first), then home.
            let mut start: Vec<String> = (site.other_urls.iter().rev())
                .filter(|(kind, _)| *kind == "section")
                .take(2)
                .map(|(_, u)| format!("\"{u}\""))
                .collect();
            start.push(format!("\"{base}/\""));
            text = text.replace(
                &format!("start = [\"{base}/\"]"),
                &format!("start = [{}]", start.join(", ")),
            );
        }
    }
    Config::parse(&text, Path::new("undated.toml"), dir).expect("config parses")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn regression_stories_without_a_date_were_lost_when_their_shape_was_learned_first() {
    let mut figures = Vec::new();
    for (seed, order) in [
        (35, Order::HomeFirst),
        (35, Order::FeedLast),
        (35, Order::SectionsFirst),
        (36, Order::FeedLast),
        (37, Order::SectionsFirst),
    ] {
        // More stories than the feed lists: the oldest are found only
        // through the sections, tags and authors.
        let web = web_for(
            order,
            BareSpec {
                sites: 2,
                articles_per_site: 14,
                seed,
                shapes: vec![Shape::Plain],
                ..BareSpec::default()
            },
        )
        .await;
        let dir = tempfile::tempdir().expect("tempdir");
        let cfg = config_for(&web, order, dir.path());
        let db = dir.path().join("undated.db");
        let run = crawl_into(&cfg, &db).await;
        let o = measure(&web, &stored(&db));
        println!("seed {seed}, {order:?}:\n{run}");
        figures.push(format!(
            "seed {seed} {order:?}: {} rows, {:.1} % kept, {:.1} % from non-articles",
            o.stored,
            100.0 * o.kept,
            100.0 * o.non_article_share
        ));
        web.shutdown().await;
    }
    println!("{}", figures.join("\n"));
    for f in &figures {
        assert!(
            f.contains("28 rows, 100.0 % kept, 0.0 % from"),
            "{}",
            figures.join("\n")
        );
    }
}

/// The whole bare web (36 sites of every family, ten stories each) in
/// three fetch orders: each run keeps at least 355 of the 360 articles and
/// 9 of each site's 10, stores at most 1 % of its rows from other pages,
/// and the three runs keep the same articles within 1 %.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bare_web_keeps_the_same_articles_whatever_the_fetch_order() {
    let mut kept_sets = Vec::new();
    let mut figures = Vec::new();
    for order in [Order::HomeFirst, Order::FeedLast, Order::SectionsFirst] {
        let web = web_for(
            order,
            BareSpec {
                sites: 36,
                articles_per_site: 10,
                seed: 21,
                ..BareSpec::default()
            },
        )
        .await;
        let dir = tempfile::tempdir().expect("tempdir");
        let cfg = config_for(&web, order, dir.path());
        let db = dir.path().join("bare.db");
        crawl_into(&cfg, &db).await;
        let articles = stored(&db);
        let o = measure(&web, &articles);
        // Per site, the articles kept; and the set kept, by site and path
        // (ports change per run).
        let mut per_site = std::collections::BTreeMap::new();
        let mut kept = std::collections::BTreeSet::new();
        for site in web.sites() {
            let urls: Vec<String> = site.article_urls.iter().map(|u| u.to_string()).collect();
            let n = (articles.iter())
                .filter(|a| urls.contains(&a.url))
                .inspect(|a| {
                    let path = url::Url::parse(&a.url).map(|u| u.path().to_string());
                    kept.insert((site.name.clone(), path.unwrap_or_default()));
                })
                .count();
            per_site.insert(site.name.clone(), n);
        }
        let worst = per_site
            .iter()
            .min_by_key(|(_, n)| **n)
            .map(|(s, n)| (s.clone(), *n));
        figures.push(format!(
            "{order:?}: {} of 360 kept, {} rows, {:.1} % from non-articles, worst site {worst:?}",
            kept.len(),
            o.stored,
            100.0 * o.non_article_share,
        ));
        kept_sets.push((kept, worst, o.non_article_share));
        web.shutdown().await;
    }
    let figures = figures.join("\n");
    println!("{figures}");
    for (kept, worst, non_articles) in &kept_sets {
        assert!(kept.len() >= 355, "{figures}");
        assert!(worst.as_ref().is_some_and(|(_, n)| *n >= 9), "{figures}");
        assert!(*non_articles <= 0.01, "{figures}");
    }
    for (a, _, _) in &kept_sets {
        for (b, _, _) in &kept_sets {
            let differ = a.symmetric_difference(b).count();
            assert!(differ * 100 <= 360, "runs differ by {differ}: {figures}");
        }
    }
}

/// A store as an earlier version left it: the shapes of the site's
/// `stories` learned as index shapes, and the `held` ones fetched and
/// judged `index_shape`.
fn learned_index_from_stories(db: &Path, site: &str, stories: &[url::Url], held: &[url::Url]) {
    let mut store = AnyStore::from(Store::open(db).expect("open"));
    let new = |u: &url::Url| NewUrl {
        url: u.to_string(),
        site: site.into(),
        kind: UrlKind::Page,
        depth: 1,
        priority: 0,
    };
    let mut keys = std::collections::BTreeSet::new();
    for u in stories {
        keys.extend(shape_of(u).keys().map(String::from));
    }
    let counts = (keys.into_iter())
        .map(|shape| ShapeCounts {
            shape,
            articles: 0,
            listings: 6,
            others: 0,
            stories: 0,
        })
        .collect();
    let shapes = WriteOp::Shapes(ShapeUpdate {
        site: site.into(),
        counts,
        revised: Vec::new(),
    });
    let add = WriteOp::AddUrls(held.iter().map(new).collect());
    store.write_batch(vec![add, shapes]).expect("seed");
    let claimed = (store.claim_due_for(i64::MAX, 100, &ClaimFilter::default())).expect("claim");
    let fetched = (claimed.iter())
        .map(|q| {
            WriteOp::Fetched(FetchRecord {
                url_id: q.id,
                started_at: 1,
                status: Some(200),
                error_kind: None,
                bytes: 1,
                elapsed_ms: 1,
                final_url: None,
                content_type: Some("text/html".into()),
                etag: None,
                last_modified: None,
                next: NextState::Done,
                judgement: Some(PageJudgement {
                    article: false,
                    reason: "index_shape",
                    kind: None,
                }),
                refused_under: None,
                note: None,
            })
        })
        .collect();
    store.write_batch(fetched).expect("seed fetches");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_shape_learned_index_flips_back_and_the_pages_it_held_are_judged_again() {
    let web = BareWeb::start(BareSpec {
        sites: 1,
        articles_per_site: 14,
        seed: 38,
        shapes: vec![Shape::Plain],
        feed_delay: Duration::ZERO,
    })
    .await
    .expect("bare web starts");
    let site = &web.sites()[0];
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("flip.db");
    // The oldest stories: in no feed, found only through the sections.
    let held: Vec<url::Url> = site.article_urls[10..].to_vec();
    learned_index_from_stories(&db, &site.name, &site.article_urls, &held);
    let before = table_of(&db, &site.name);
    for u in &site.article_urls {
        assert_eq!(before.classify(u), ShapeClass::Index, "{u}");
    }

    let cfg = config_for(&web, Order::HomeFirst, dir.path());
    let run = crawl_into(&cfg, &db).await;
    println!("{run}");
    let o = measure(&web, &stored(&db));
    assert_eq!((o.stored, o.kept, o.non_article_share), (14, 1.0, 0.0));
    let after = table_of(&db, &site.name);
    for u in &site.article_urls {
        assert_eq!(after.classify(u), ShapeClass::Article, "{u}");
    }
    // The pages the index shape held were fetched and judged again.
    let conn = rusqlite::Connection::open(&db).expect("open");
    for u in &held {
        let verdicts: Vec<(String, String)> = conn
            .prepare(
                "SELECT f.judged, f.judge_reason FROM fetches f JOIN urls u ON u.id = f.url_id
                 WHERE u.url = ?1 AND f.judged IS NOT NULL ORDER BY f.id",
            )
            .and_then(|mut s| {
                s.query_map([u.as_str()], |r| Ok((r.get(0)?, r.get(1)?)))?
                    .collect()
            })
            .expect("fetches");
        assert_eq!(
            verdicts.first().map(|v| v.1.as_str()),
            Some("index_shape"),
            "{u}"
        );
        assert_eq!(
            verdicts.last().map(|v| v.0.as_str()),
            Some("article"),
            "{u}: {verdicts:?}"
        );
    }
    web.shutdown().await;
}

fn table_of(db: &Path, site: &str) -> ShapeTable {
    let mut store = AnyStore::from(Store::open(db).expect("open"));
    let rows: Vec<ShapeCounts> = (store.url_shapes().expect("shapes").into_iter())
        .filter(|(s, _)| s == site)
        .map(|(_, c)| c)
        .collect();
    ShapeTable::from_counts(&rows)
}
