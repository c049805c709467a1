//! Shared by the crawl tests: a simulated news web on 127.0.0.1 with its
//! crawler config, and the request-rate measure of the politeness checks.

use std::collections::HashSet;
use std::path::Path;
use std::time::{Duration, Instant};

use newshound::config::Config;
use newshound::crawl::{self, CrawlOptions, CrawlSummary};
use newshound::simweb::{Behaviour, SimWeb, SimWebSpec};
use newshound::store::{AnyStore, Selection, Store, StoredArticle};

/// The simulated web, a temporary directory, and the web's own config
/// (seed files resolved in the directory; change fields before crawling).
pub async fn start_web(spec: SimWebSpec) -> (SimWeb, tempfile::TempDir, Config) {
    start_web_with(spec, Behaviour::default()).await
}

/// [`start_web`] with servers that behave as `behaviour` says.
pub async fn start_web_with(
    spec: SimWebSpec,
    behaviour: Behaviour,
) -> (SimWeb, tempfile::TempDir, Config) {
    let web = SimWeb::start_with(spec, behaviour)
        .await
        .expect("simweb starts");
    let dir = tempfile::tempdir().expect("tempdir");
    let cfg = Config::parse(&web.config_toml(), Path::new("simweb.toml"), dir.path())
        .expect("simweb config parses");
    (web, dir, cfg)
}

/// Every host's rate: `[politeness] rate_per_host` and each site's rate,
/// which the config resolved from it at load.
pub fn set_rate_per_host(cfg: &mut Config, rate: f64) {
    cfg.politeness.rate_per_host = rate;
    for site in &mut cfg.sites {
        site.rate = rate;
    }
}

/// Most requests in any window of `window` (times sorted).
pub fn max_in_window(times: &[Instant], window: Duration) -> usize {
    let mut best = 0;
    let mut start = 0;
    for end in 0..times.len() {
        while times[end] - times[start] > window {
            start += 1;
        }
        best = best.max(end - start + 1);
    }
    best
}

/// Every article of the web as (site, path), the key of its request log.
pub fn article_paths(web: &SimWeb) -> HashSet<(String, String)> {
    web.sites()
        .iter()
        .flat_map(|s| {
            s.article_urls
                .iter()
                .map(|u| (s.name.clone(), u.path().to_string()))
        })
        .collect()
}

/// Crawl `cfg` into a new SQLite store at `db`, with the default options,
/// to the end.
pub async fn crawl_into(cfg: &Config, db: &Path) -> CrawlSummary {
    let store = Store::open(db).expect("open store");
    crawl::run(
        cfg,
        AnyStore::from(store),
        CrawlOptions::default(),
        std::future::pending(),
    )
    .await
    .expect("crawl runs")
}

/// Every article of `store`, in id order.
pub fn stored_in(store: &mut AnyStore) -> Vec<StoredArticle> {
    let mut all = Vec::new();
    store
        .export(&Selection::default(), &mut |a| {
            all.push(a.clone());
            Ok(())
        })
        .expect("export");
    all
}

/// Every article of the SQLite store at `db`, in id order.
pub fn stored(db: &Path) -> Vec<StoredArticle> {
    stored_in(&mut AnyStore::from(Store::open(db).expect("reopen store")))
}
