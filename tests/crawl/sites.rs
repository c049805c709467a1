//! Site selection: `crawl --site NAME` crawls only that site (and claims
//! nothing else from a shared database); an unknown name stops the crawl
//! before anything is fetched. Claims are per-host fair and capped. The
//! per-site budget holds over runs, and an exhausted site is neither
//! claimed nor re-skipped, in one pass or continuously.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::support::start_web;
use newshound::config::Config;
use newshound::crawl::writer::CrawlStore;
use newshound::crawl::{self, CrawlError, CrawlOptions};
use newshound::simweb::SimWebSpec;
use newshound::store::AnyStore;
use newshound::store::{
    ArticleRef, ClaimFilter, NewUrl, QueuedUrl, Store, StoreError, UrlKind, WriteOp, WriteOutcome,
};

/// Every claim: the (site, host) of each URL claimed.
type ClaimLog = Arc<Mutex<Vec<Vec<(String, String)>>>>;

/// The real store, with its claims recorded.
struct Recording {
    store: AnyStore,
    claims: ClaimLog,
}

impl CrawlStore for Recording {
    fn reset_in_flight(&mut self) -> Result<usize, StoreError> {
        self.store.reset_in_flight()
    }
    fn claim_due(
        &mut self,
        now_ms: i64,
        limit: usize,
        filter: &ClaimFilter,
    ) -> Result<Vec<QueuedUrl>, StoreError> {
        let got = self.store.claim_due_for(now_ms, limit, filter)?;
        if !got.is_empty() {
            let log = got
                .iter()
                .map(|q| (q.site.clone(), q.host.clone()))
                .collect();
            self.claims.lock().expect("lock").push(log);
        }
        Ok(got)
    }
    fn next_due_at(&mut self, sites: Option<&[String]>) -> Result<Option<i64>, StoreError> {
        self.store.next_due_at_for(sites)
    }
    fn write_batch(&mut self, ops: Vec<WriteOp>) -> Result<Vec<WriteOutcome>, StoreError> {
        self.store.write_batch(ops)
    }
    fn pages_by_site(&mut self) -> Result<HashMap<String, u64>, StoreError> {
        self.store.pages_by_site()
    }
}

fn recording(db: &Path) -> (Recording, ClaimLog) {
    let claims = ClaimLog::default();
    let store = AnyStore::from(Store::open(db).expect("open"));
    (
        Recording {
            store,
            claims: claims.clone(),
        },
        claims,
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_site_crawl_on_a_shared_database_claims_only_its_own_urls_fairly() {
    let spec = SimWebSpec {
        sites: 2,
        articles_per_site: 12,
        seed: 5,
        faults: false,
    };
    let (web, dir, mut cfg) = start_web(spec).await;
    crate::support::set_rate_per_host(&mut cfg, 20.0);
    let db = dir.path().join("shared.db");
    let (mine, other) = (web.sites()[0].name.clone(), web.sites()[1].name.clone());
    // The other site has a big backlog of high-priority URLs due now.
    let backlog: Vec<NewUrl> = (0..300)
        .map(|i| NewUrl {
            url: web.sites()[1]
                .base_url
                .join(&format!("backlog/{i}"))
                .expect("url")
                .into(),
            site: other.clone(),
            kind: UrlKind::Feed,
            depth: 0,
            priority: 1_000,
        })
        .collect();
    Store::open(&db)
        .expect("open")
        .write_batch(vec![WriteOp::AddUrls(backlog)])
        .expect("add");

    let (store, claims) = recording(&db);
    let opts = CrawlOptions {
        sites: vec![mine.clone()],
        ..CrawlOptions::default()
    };
    let summary = crawl::run(&cfg, store, opts, std::future::pending())
        .await
        .expect("crawl runs");
    println!("{summary}");
    assert_eq!(summary.articles_stored, 12, "{summary}");
    let claims = claims.lock().expect("lock").clone();
    assert!(!claims.is_empty());
    let per_host_cap = cfg.politeness.per_host_concurrency * 4;
    for claim in &claims {
        assert!(claim.iter().all(|(site, _)| *site == mine), "{claim:?}");
        let mut per_host: HashMap<&str, usize> = HashMap::new();
        for (_, host) in claim {
            *per_host.entry(host).or_default() += 1;
        }
        assert!(
            per_host.values().all(|n| *n <= per_host_cap),
            "claim over the per-host cap: {per_host:?}"
        );
    }
    let claimed: usize = claims.iter().map(Vec::len).sum();
    println!("{} claims, {claimed} URLs", claims.len());
    assert!(web.requests().iter().all(|r| r.site == mine));
    // The backlog was never claimed: still queued, never attempted.
    let conn = rusqlite::Connection::open(&db).expect("sqlite");
    let (queued, attempts): (i64, i64) = conn
        .query_row(
            "SELECT count(*), coalesce(sum(attempts), 0) FROM urls u JOIN sites s ON s.id = u.site_id
             WHERE s.name = ?1 AND u.state = 'queued'",
            [&other],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("query");
    assert_eq!((queued, attempts), (300, 0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_selected_sites_are_crawled_and_unknown_ones_are_refused() {
    let spec = SimWebSpec {
        sites: 2,
        articles_per_site: 6,
        seed: 4,
        faults: false,
    };
    let (web, dir, cfg) = start_web(spec).await;
    let db = dir.path().join("sites.db");
    let chosen = web.sites()[1].name.clone();

    let opts = |sites: Vec<String>| CrawlOptions {
        sites,
        ..CrawlOptions::default()
    };
    let err = crawl::run(
        &cfg,
        AnyStore::from(Store::open(&db).expect("open")),
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
        AnyStore::from(Store::open(&db).expect("open")),
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
        AnyStore::from(Store::open(&db).expect("open")),
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
    let (web, dir, mut cfg) = start_web(spec).await;
    cfg.crawler.max_pages_per_site = 6;
    let db = dir.path().join("budget.db");
    let run = |cfg: Config| {
        let db = db.clone();
        async move {
            crawl::run(
                &cfg,
                AnyStore::from(Store::open(&db).expect("open")),
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
    // The budget is over the life of the database: a second run claims and
    // fetches nothing, and skips nothing again.
    let (store, claims) = recording(&db);
    let second = crawl::run(&cfg, store, CrawlOptions::default(), std::future::pending())
        .await
        .expect("crawl runs");
    assert_eq!(second.pages_fetched, 0, "{second}");
    assert!(second.skipped.is_empty(), "{second}");
    assert!(claims.lock().expect("lock").is_empty());
    let pages = web
        .requests()
        .iter()
        .filter(|r| r.path != "/robots.txt")
        .count();
    assert!(pages <= 6, "{pages} pages requested");

    // Continuous mode with a short revisit interval: the exhausted site is
    // not claimed, so its URLs are not re-skipped every interval.
    cfg.crawler.revisit = Duration::from_millis(200);
    let (store, claims) = recording(&db);
    let opts = CrawlOptions {
        continuous: true,
        ..CrawlOptions::default()
    };
    let stop = tokio::time::sleep(Duration::from_millis(1500));
    let third = tokio::time::timeout(Duration::from_secs(30), crawl::run(&cfg, store, opts, stop))
        .await
        .expect("the crawl stops when asked")
        .expect("crawl runs");
    assert_eq!(third.pages_fetched, 0, "{third}");
    assert!(third.skipped.is_empty(), "{third}");
    assert!(claims.lock().expect("lock").is_empty());

    // Skipped URLs were not failed attempts; a larger budget picks them up.
    let conn = rusqlite::Connection::open(&db).expect("sqlite");
    let (skipped_urls, attempts): (i64, i64) = conn
        .query_row(
            "SELECT count(*), coalesce(sum(attempts), 0) FROM urls
             WHERE last_error = 'site_budget'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("query");
    println!("{skipped_urls} URLs skipped for the budget");
    assert_eq!(attempts, 0);
    drop(conn);
    cfg.crawler.max_pages_per_site = 8;
    let (store, claims) = recording(&db);
    let fourth = crawl::run(&cfg, store, CrawlOptions::default(), std::future::pending())
        .await
        .expect("crawl runs");
    println!("{fourth}");
    assert!(
        fourth.pages_fetched >= 1 && fourth.pages_fetched <= 2,
        "{fourth}"
    );
    let hosts: HashSet<String> = claims
        .lock()
        .expect("lock")
        .iter()
        .flatten()
        .map(|(_, h)| h.clone())
        .collect();
    assert!(!hosts.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn regression_an_article_url_given_in_start_was_crawled_for_links_but_never_stored() {
    let spec = SimWebSpec {
        sites: 1,
        articles_per_site: 3,
        seed: 21,
        faults: false,
    };
    let (web, dir, mut cfg) = start_web(spec).await;
    let article = web.sites()[0].article_urls[1].clone();
    let site = &mut cfg.sites[0];
    site.start_urls = vec![article.clone()];
    site.feeds.clear();
    site.sitemaps.clear();
    cfg.politeness.respect_robots = false;
    // Only the start URL itself: none of its links.
    cfg.crawler.max_depth = 0;
    let store = Store::open(&dir.path().join("start.db")).expect("open");
    let summary = crawl::run(
        &cfg,
        AnyStore::from(store),
        CrawlOptions::default(),
        std::future::pending(),
    )
    .await
    .expect("crawl runs");
    assert_eq!(summary.pages_fetched, 1, "{summary}");
    assert_eq!(summary.articles_stored, 1, "{summary}");
    let mut store = AnyStore::from(Store::open(&dir.path().join("start.db")).expect("open"));
    let stored = store
        .article(ArticleRef::Url(article.to_string()))
        .expect("query")
        .expect("the start article is stored");
    let body = web.true_body(article.as_str()).expect("true body");
    let first = body.split("\n\n").next().unwrap_or_default();
    assert!(
        stored.article.text.contains(first),
        "{}",
        stored.article.text
    );
}
