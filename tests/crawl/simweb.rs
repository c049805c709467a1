//! End to end: crawl the simulated news web into a temporary database with
//! the library entry point (`crawl::run`), then judge what was stored against
//! what the web knows (true bodies, index pages, template lines, robots
//! rules, its request log). A second run on the same database must fetch no
//! article again.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::time::{Duration, Instant};

use crate::support::{article_paths, crawl_into, max_in_window, start_web, start_web_with, stored};
use newshound::simweb::{Behaviour, RequestRecord, SimWebSpec};
use newshound::store::AnyStore;
use newshound::store::{ArticleRef, Store, StoredArticle};

/// Articles stored before this many per site are judged without the
/// boilerplate table (it has not learned yet).
const LEARNING_PAGES: usize = 5;

fn per_site_times(requests: &[RequestRecord]) -> BTreeMap<String, Vec<Instant>> {
    let mut by_site: BTreeMap<String, Vec<Instant>> = BTreeMap::new();
    for r in requests {
        by_site.entry(r.site.clone()).or_default().push(r.at);
    }
    for times in by_site.values_mut() {
        times.sort();
    }
    by_site
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn crawl_stores_every_article_once_cleanly_and_politely() {
    let spec = SimWebSpec {
        sites: 3,
        articles_per_site: 25,
        seed: 11,
        faults: false,
    };
    let (web, dir, cfg) = start_web(spec).await;
    let db = dir.path().join("crawl.db");

    let first = crawl_into(&cfg, &db).await;
    println!("first run:\n{first}");
    let articles = stored(&db);

    // Every article stored exactly once; nothing else stored.
    let expected: HashSet<String> = web
        .sites()
        .iter()
        .flat_map(|s| s.article_urls.iter().map(|u| u.to_string()))
        .collect();
    assert!(
        expected.len() >= 60,
        "{} articles in the web",
        expected.len()
    );
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for a in &articles {
        *seen.entry(a.url.as_str()).or_default() += 1;
    }
    let missing: Vec<&String> = expected
        .iter()
        .filter(|u| !seen.contains_key(u.as_str()))
        .collect();
    assert!(missing.is_empty(), "articles not stored: {missing:?}");
    let twice: Vec<(&&str, &usize)> = seen.iter().filter(|(_, n)| **n > 1).collect();
    assert!(twice.is_empty(), "stored more than once: {twice:?}");
    let indexes: HashSet<String> = web
        .sites()
        .iter()
        .flat_map(|s| s.index_urls.iter().map(|u| u.to_string()))
        .collect();
    for a in &articles {
        assert!(!indexes.contains(&a.url), "index page stored: {}", a.url);
        assert!(expected.contains(&a.url), "not an article: {}", a.url);
    }
    assert_eq!(articles.len(), expected.len());
    assert_eq!(first.articles_stored as usize, expected.len());
    assert!(first.articles_recleaned > 0, "{first}");

    // Robots.txt-disallowed paths never requested.
    let requests = web.requests();
    for site in web.sites() {
        let bad: Vec<&RequestRecord> = requests
            .iter()
            .filter(|r| r.site == site.name && r.path.starts_with(&site.disallowed_prefix))
            .collect();
        assert!(bad.is_empty(), "disallowed paths requested: {bad:?}");
    }

    // Quality after the boilerplate table has learned: F1 and template lines.
    let mut by_site: BTreeMap<&str, Vec<&StoredArticle>> = BTreeMap::new();
    for a in &articles {
        by_site.entry(a.site.as_str()).or_default().push(a);
    }
    let mut f1_sum = 0.0;
    let mut judged = 0usize;
    for site in web.sites() {
        let mut list = by_site.get(site.name.as_str()).cloned().unwrap_or_default();
        list.sort_by_key(|a| a.id);
        let template: HashSet<&str> = site.template_lines.iter().map(String::as_str).collect();
        // The crawl ends by cleaning every article again with what the table
        // learned: the first pages lose their template lines too.
        for a in &list {
            let leaked: Vec<&str> = a
                .article
                .text
                .lines()
                .map(str::trim)
                .filter(|l| template.contains(l))
                .collect();
            assert!(
                leaked.is_empty(),
                "{}: template lines kept after the closing re-clean: {leaked:?}",
                a.url
            );
        }
        let mut site_f1 = 0.0;
        let mut n = 0usize;
        for a in list.iter().skip(LEARNING_PAGES) {
            let gold = web
                .true_body(&a.url)
                .expect("true body of a stored article");
            let sc = newshound::eval::score(&a.article.text, gold);
            site_f1 += sc.f1;
            n += 1;
        }
        println!(
            "{}: mean F1 {:.4} over {n} articles after the first {LEARNING_PAGES}",
            site.name,
            site_f1 / n.max(1) as f64
        );
        f1_sum += site_f1;
        judged += n;
    }
    let mean_f1 = f1_sum / judged.max(1) as f64;
    println!("mean LCS F1 after learning: {mean_f1:.4} over {judged} articles");

    // Politeness: arrivals per host never beat the configured rate. Requests
    // leave the limiter at least 1/rate apart; arrival jitter can shift one
    // request into a window, hence the +2.
    let rate = cfg.politeness.rate_per_host;
    for (site, times) in per_site_times(&requests) {
        let max = max_in_window(&times, Duration::from_secs(1));
        println!(
            "{site}: {} requests, max {max} in any 1 s (configured {rate}/s)",
            times.len()
        );
        assert!(max as f64 <= rate + 2.0, "{site}: {max} requests in 1 s");
    }

    // A second run on the same database fetches no article again.
    let before = requests.len();
    let second = crawl_into(&cfg, &db).await;
    println!("second run:\n{second}");
    let after = web.requests();
    let mut article_requests: HashMap<(&str, &str), usize> = HashMap::new();
    let paths = article_paths(&web);
    for r in &after {
        if paths.contains(&(r.site.clone(), r.path.clone())) {
            *article_requests
                .entry((r.site.as_str(), r.path.as_str()))
                .or_default() += 1;
        }
    }
    let refetched: Vec<_> = article_requests.iter().filter(|(_, n)| **n > 1).collect();
    assert!(
        refetched.is_empty(),
        "articles fetched twice: {refetched:?}"
    );
    assert_eq!(second.articles_stored, 0);
    assert_eq!(stored(&db).len(), expected.len());
    println!("second run requests: {}", after.len() - before);

    // Last, so a shortfall in extraction quality does not hide the above.
    assert!(mean_f1 >= 0.90, "mean F1 {mean_f1:.4} < 0.90");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn regression_republished_copies_taught_the_line_table_and_later_copies_came_out_empty() {
    // Every story published 5 times, one paragraph changed in each copy.
    let spec = SimWebSpec {
        sites: 3,
        articles_per_site: 12,
        seed: 23,
        faults: false,
    };
    let behaviour = Behaviour {
        republished_copies: 4,
        ..Behaviour::default()
    };
    let (web, dir, cfg) = start_web_with(spec, behaviour).await;
    let db = dir.path().join("copies.db");
    let summary = crawl_into(&cfg, &db).await;
    println!("{summary}");
    let urls: Vec<String> = web
        .sites()
        .iter()
        .flat_map(|s| s.article_urls.iter().map(|u| u.to_string()))
        .collect();
    assert_eq!(urls.len(), 3 * 12 * 5);
    assert_eq!(summary.errors.get("empty_article"), None, "{summary}");

    // Every URL shows an article, none empty, and the stored text of each
    // story scores high against the true body of the URL it was stored from.
    let mut store = AnyStore::from(Store::open(&db).expect("reopen"));
    for url in &urls {
        let shown = store
            .article(ArticleRef::Url(url.clone()))
            .expect("query")
            .unwrap_or_else(|| panic!("{url}: not found"));
        assert!(!shown.article.text.trim().is_empty(), "{url}: empty");
    }
    let articles = stored(&db);
    let mut total = 0.0;
    for a in &articles {
        let gold = web.true_body(&a.url).expect("a simweb article");
        total += newshound::eval::score(&a.article.text, gold).f1;
    }
    let mean = total / articles.len() as f64;
    println!("mean F1 of {} stored articles: {mean:.4}", articles.len());
    assert!(mean >= 0.9, "mean F1 {mean:.4}");
    // One article per story; every other copy a version of it.
    let mut by_title: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for a in &articles {
        let title = a.article.title.clone().unwrap_or_default();
        by_title.entry(title).or_default().push(a.url.clone());
    }
    for (title, list) in by_title.iter().filter(|(_, l)| l.len() > 1) {
        println!("stored {} times: {title}: {list:?}", list.len());
    }
    assert!(summary.articles_stored <= 3 * 12 + 3, "{summary}");
    assert!(summary.near_duplicates >= 3 * 12 * 4 - 3, "{summary}");
}

/// `tree` learns each site's content rule (the id/class path of its story
/// block) on its first article pages, stores it (migration 0008), and
/// extracts the later pages by that rule without running the tree.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tree_site_rules_are_learned_then_reused_on_later_pages() {
    let spec = SimWebSpec {
        sites: 2,
        articles_per_site: 12,
        seed: 5,
        faults: false,
    };
    let (web, dir, mut cfg) = start_web(spec).await;
    cfg.extract.algorithm = newshound::extract::Algorithm::Tree;
    let db = dir.path().join("rules.db");
    crawl_into(&cfg, &db).await;
    let mut store = AnyStore::from(Store::open(&db).expect("reopen store"));
    for site in web.sites() {
        let r = store.site_rule_stats(&site.name).expect("rule stats");
        println!("{}: {r:?}", site.name);
        assert!(r.rule.is_some(), "{}: no rule learned: {r:?}", site.name);
        assert!(
            r.pages_by_rule > r.pages_by_tree,
            "{}: later pages not extracted by rule: {r:?}",
            site.name
        );
    }
    let articles = stored(&db);
    assert!(!articles.is_empty());
    let mut f1 = 0.0;
    for a in &articles {
        let gold = web.true_body(&a.url).expect("true body");
        f1 += newshound::eval::score(&a.article.text, gold).f1;
    }
    let mean = f1 / articles.len() as f64;
    println!(
        "tree with site rules: mean F1 {mean:.4} over {} articles",
        articles.len()
    );
    assert!(mean >= 0.8, "mean F1 {mean:.4}");
}
