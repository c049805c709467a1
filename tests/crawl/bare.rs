//! A site known by its address alone: the bare simulated web crawled with a
//! config of names and start pages only, and again with hand-written
//! patterns. The bare crawl must keep ≥ 97 % of the articles, store ≤ 2 %
//! of its rows from pages that are not articles, and its stored text must
//! score within 0.005 F1 of the pattern crawl's. Every fetched page's
//! judgement and reason are in the fetch log.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;

use crate::support::{crawl_into, stored};
use newshound::config::Config;
use newshound::crawl::{self, CrawlOptions};
use newshound::simweb::bare::{BareSpec, BareWeb};
use newshound::store::AnyStore;
use newshound::store::StoredArticle;

/// (judged, reason) → fetches, from the fetch log.
fn judgements(db: &Path) -> BTreeMap<(String, String), u64> {
    let conn = rusqlite::Connection::open(db).expect("open db");
    let mut stmt = conn
        .prepare(
            "SELECT judged, judge_reason, count(*) FROM fetches
             WHERE judged IS NOT NULL GROUP BY judged, judge_reason",
        )
        .expect("query");
    stmt.query_map([], |r| {
        Ok(((r.get(0)?, r.get(1)?), r.get::<_, i64>(2)? as u64))
    })
    .expect("rows")
    .map(|r| r.expect("row"))
    .collect()
}

/// URL → verdict (`article` / `not_article`) of its last judged fetch.
fn verdicts(db: &Path) -> BTreeMap<String, String> {
    let conn = rusqlite::Connection::open(db).expect("open db");
    let mut stmt = conn
        .prepare(
            "SELECT u.url, f.judged FROM fetches f JOIN urls u ON u.id = f.url_id
             WHERE f.judged IS NOT NULL ORDER BY f.id",
        )
        .expect("query");
    stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .expect("rows")
        .map(|r| r.expect("row"))
        .collect()
}

/// What a crawl of the bare web kept, against the web's truth.
pub struct Outcome {
    /// Share of the web's articles stored.
    pub kept: f64,
    /// Share of the stored rows that come from pages that are not articles.
    pub non_article_share: f64,
    pub mean_f1: f64,
    pub stored: usize,
}

pub fn measure(web: &BareWeb, articles: &[StoredArticle]) -> Outcome {
    let expected: HashSet<String> = web
        .sites()
        .iter()
        .flat_map(|s| s.article_urls.iter().map(|u| u.to_string()))
        .collect();
    let mut found = HashSet::new();
    let mut strays = Vec::new();
    let mut f1 = 0.0;
    for a in articles {
        match web.true_body(&a.url) {
            Some(gold) => {
                found.insert(a.url.clone());
                f1 += newshound::eval::score(&a.article.text, gold).f1;
            }
            None => strays.push(a.url.as_str()),
        }
    }
    let missing: Vec<&String> = expected.iter().filter(|u| !found.contains(*u)).collect();
    if !missing.is_empty() {
        println!("missing: {missing:?}");
    }
    if !strays.is_empty() {
        println!("stored from non-article pages: {strays:?}");
    }
    Outcome {
        kept: found.len() as f64 / expected.len() as f64,
        non_article_share: strays.len() as f64 / articles.len().max(1) as f64,
        mean_f1: f1 / found.len().max(1) as f64,
        stored: articles.len(),
    }
}

/// A config of names and start pages once stored none of the 360 articles.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn regression_a_config_of_names_and_start_pages_stored_none_of_360_articles() {
    // The web: 36 sites of 10 articles, five URL shapes.
    let web = BareWeb::start(BareSpec {
        sites: 36,
        articles_per_site: 10,
        seed: 21,
        ..BareSpec::default()
    })
    .await
    .expect("bare web starts");
    let dir = tempfile::tempdir().expect("tempdir");
    let parse = |text: String| {
        Config::parse(&text, Path::new("bare.toml"), dir.path()).expect("config parses")
    };
    let bare_cfg = parse(web.config_toml(false));
    assert!(bare_cfg.sites.iter().all(|s| s.article_patterns.is_empty()));
    let pattern_cfg = parse(web.config_toml(true));

    let bare_db = dir.path().join("bare.db");
    let bare_run = crawl_into(&bare_cfg, &bare_db).await;
    println!("bare crawl:\n{bare_run}");
    let pattern_db = dir.path().join("patterns.db");
    let pattern_run = crawl_into(&pattern_cfg, &pattern_db).await;
    println!("pattern crawl:\n{pattern_run}");

    let bare = measure(&web, &stored(&bare_db));
    let patterns = measure(&web, &stored(&pattern_db));
    for (name, o) in [("bare", &bare), ("patterns", &patterns)] {
        println!(
            "{name}: {} rows, {:.1} % of the articles kept, {:.1} % of rows from non-articles, \
             mean F1 {:.4}",
            o.stored,
            100.0 * o.kept,
            100.0 * o.non_article_share,
            o.mean_f1
        );
    }
    let reasons = judgements(&bare_db);
    println!("bare judgements: {reasons:?}");

    // The pattern crawl is the reference: it must be complete itself.
    assert_eq!(patterns.kept, 1.0, "the pattern crawl missed articles");
    assert_eq!(patterns.non_article_share, 0.0);
    assert!(bare.kept >= 0.97, "bare crawl kept {:.3}", bare.kept);
    assert!(
        bare.non_article_share <= 0.02,
        "bare crawl: {:.3} of rows from non-article pages",
        bare.non_article_share
    );
    assert!(
        (bare.mean_f1 - patterns.mean_f1).abs() <= 0.005,
        "F1 bare {:.4} vs patterns {:.4}",
        bare.mean_f1,
        patterns.mean_f1
    );
    // Every kind of page was judged, for a reason, and the count of pages
    // judged not to be articles is in the summary.
    let not_articles: u64 = reasons
        .iter()
        .filter(|((j, _), _)| j == "not_article")
        .map(|(_, n)| n)
        .sum();
    assert_eq!(bare_run.pages_not_articles, not_articles);
    let by_reason: HashMap<&str, u64> =
        reasons
            .iter()
            .map(|((_, r), n)| (r.as_str(), *n))
            .fold(HashMap::new(), |mut m, (r, n)| {
                *m.entry(r).or_default() += n;
                m
            });
    for reason in ["teaser_list", "form_page", "undated"] {
        assert!(
            by_reason.contains_key(reason),
            "no page judged {reason}: {reasons:?}"
        );
    }
    assert!(!by_reason.contains_key("pattern"), "{reasons:?}");
    let pattern_reasons = judgements(&pattern_db);
    assert!(
        pattern_reasons.keys().all(|(_, r)| r == "pattern"),
        "{pattern_reasons:?}"
    );
    web.shutdown().await;
}

/// A too-wide pattern (`'.'`) is the user's word and stores `/about/`; a
/// bare site does not.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn regression_a_too_wide_pattern_stored_the_about_page_but_a_bare_site_does_not() {
    let web = BareWeb::start(BareSpec {
        sites: 1,
        articles_per_site: 8,
        seed: 3,
        ..BareSpec::default()
    })
    .await
    .expect("bare web starts");
    let dir = tempfile::tempdir().expect("tempdir");
    let about = web.sites()[0].base_url.join("/about/").unwrap().to_string();
    let privacy = web.sites()[0]
        .base_url
        .join("/privacy-policy/")
        .unwrap()
        .to_string();
    let bare_text = web.config_toml(false);
    let wide_text = format!("{bare_text}article_patterns = ['.']\n");
    for (name, text, stores_about) in [("wide", wide_text, true), ("bare", bare_text, false)] {
        let cfg = Config::parse(&text, Path::new("c.toml"), dir.path()).expect("parses");
        let db = dir.path().join(format!("{name}.db"));
        crawl_into(&cfg, &db).await;
        let urls: HashSet<String> = stored(&db).into_iter().map(|a| a.url).collect();
        assert_eq!(urls.contains(&about), stores_about, "{name}: {urls:?}");
        if !stores_about {
            assert!(!urls.contains(&privacy), "{name}: {urls:?}");
        }
    }
    web.shutdown().await;
}

/// The same bare crawl on PostgreSQL (`crawl::run` over an `AnyStore`) stores the same
/// articles and keeps the same judgements as on SQLite.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bare_crawl_judges_the_same_on_postgresql_as_on_sqlite() {
    use crate::pg_testing::TestDb;
    use newshound::store::pg::PgStore;
    let web = BareWeb::start(BareSpec {
        sites: 4,
        articles_per_site: 8,
        seed: 9,
        ..BareSpec::default()
    })
    .await
    .expect("bare web starts");
    let dir = tempfile::tempdir().expect("tempdir");
    let cfg =
        Config::parse(&web.config_toml(false), Path::new("c.toml"), dir.path()).expect("parses");
    let db = dir.path().join("bare.db");
    crawl_into(&cfg, &db).await;
    let on_sqlite: HashSet<String> = stored(&db).into_iter().map(|a| a.url).collect();
    let judged_sqlite = verdicts(&db);

    let (pg, store) = tokio::task::spawn_blocking(|| {
        let pg = TestDb::new();
        let store = PgStore::open(&pg.url).expect("open PostgreSQL");
        (pg, store)
    })
    .await
    .expect("PostgreSQL starts");
    crawl::run(
        &cfg,
        AnyStore::from(store),
        CrawlOptions::default(),
        std::future::pending(),
    )
    .await
    .expect("crawl on PostgreSQL runs");
    let (on_pg, judged_pg) = tokio::task::spawn_blocking(move || {
        let mut store = PgStore::open(&pg.url).expect("reopen");
        let c = store.client();
        let urls: HashSet<String> = c
            .query("SELECT url FROM articles", &[])
            .expect("articles")
            .iter()
            .map(|r| r.get(0))
            .collect();
        let judged: BTreeMap<String, String> = c
            .query(
                "SELECT u.url, f.judged FROM fetches f JOIN urls u ON u.id = f.url_id
                 WHERE f.judged IS NOT NULL ORDER BY f.id",
                &[],
            )
            .expect("fetches")
            .iter()
            .map(|r| (r.get(0), r.get(1)))
            .collect();
        drop(pg);
        (urls, judged)
    })
    .await
    .expect("read PostgreSQL");
    assert_eq!(on_sqlite.len(), 32, "{on_sqlite:?}");
    assert_eq!(on_pg, on_sqlite);
    // Which pages a crawl explores, and whether a shape was trusted yet
    // when a page was judged (so the reason), depend on the order pages
    // come back in; a page fetched by both crawls gets the same verdict.
    let both: Vec<&String> = judged_pg
        .keys()
        .filter(|u| judged_sqlite.contains_key(*u))
        .collect();
    assert!(
        both.len() >= on_sqlite.len(),
        "few pages judged by both: {}",
        both.len()
    );
    for url in both {
        assert_eq!(judged_pg[url], judged_sqlite[url], "{url}");
    }
    web.shutdown().await;
}
