//! Several `newshound crawl` (and `import`) processes on one PostgreSQL
//! database: the real binary, against the simulated web on 127.0.0.1 and
//! the test server (`NEWSHOUND_TEST_PG`, see `src/store/pg/testing.rs`).
//!
//! In: a simulated web and a fresh database per test. Out: failures
//! naming what the request log or the database shows: a URL requested
//! twice, an article never requested or stored twice, a host asked faster
//! than its rate by the processes together.

mod bench;
mod errors;
mod import;
mod kill;
/// A database of its own per test: the library's test support, included
/// by path (it is not part of the library's API).
#[path = "../../src/store/pg/testing.rs"]
mod pg_testing;
mod snapshot;
mod three;
#[path = "../crawl/warc_files.rs"]
mod warc_files;

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::pg_testing::TestDb;
use newshound::simweb::{Behaviour, SimWeb, SimWebSpec};

/// The simulated web on a runtime of its own (so the test's waits never
/// delay its clock readings), a fresh database and a config for both.
pub struct Setup {
    pub web: Option<SimWeb>,
    runtime: Option<tokio::runtime::Runtime>,
    pub db: TestDb,
    pub dir: tempfile::TempDir,
    pub config: PathBuf,
    /// Every host's rate in the config.
    pub rate: f64,
}

impl Setup {
    /// `extra` is appended to the simulated web's own config.
    pub fn new(spec: SimWebSpec, rate: f64, extra: &str) -> Setup {
        Setup::with_behaviour(spec, rate, extra, Behaviour::default())
    }

    /// [`Setup::new`] with servers that behave as `behaviour` says.
    pub fn with_behaviour(spec: SimWebSpec, rate: f64, extra: &str, behaviour: Behaviour) -> Setup {
        let db = TestDb::new();
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("server runtime");
        let web = runtime
            .block_on(SimWeb::start_with(spec, behaviour))
            .expect("simweb starts");
        let dir = tempfile::tempdir().expect("tempdir");
        let toml = web
            .config_toml()
            .replace("rate_per_host = 50.0", &format!("rate_per_host = {rate:?}"));
        assert!(
            toml.contains(&format!("rate_per_host = {rate:?}")),
            "rate not set"
        );
        let config = dir.path().join("crawler.toml");
        std::fs::write(&config, format!("{toml}\n{extra}\n")).expect("write config");
        Setup {
            web: Some(web),
            runtime: Some(runtime),
            db,
            dir,
            config,
            rate,
        }
    }

    pub fn web(&self) -> &SimWeb {
        self.web.as_ref().expect("web is running")
    }

    /// `newshound crawl` on the test database, output captured.
    pub fn crawl(&self) -> Child {
        self.crawl_into(std::path::Path::new(&self.db.url))
    }

    /// `newshound crawl --db db` (a path or a URL), output captured.
    pub fn crawl_into(&self, db: &std::path::Path) -> Child {
        Command::new(env!("CARGO_BIN_EXE_newshound"))
            .arg("--config")
            .arg(&self.config)
            .arg("--db")
            .arg(db)
            .arg("crawl")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn newshound")
    }

    /// Requests by (site, path), robots.txt left out: every process reads
    /// it once for itself, it is not a frontier URL.
    pub fn requests_by_url(&self) -> HashMap<(String, String), usize> {
        let mut by_url: HashMap<(String, String), usize> = HashMap::new();
        for r in self.web().requests() {
            if r.path != "/robots.txt" {
                *by_url.entry((r.site, r.path)).or_default() += 1;
            }
        }
        by_url
    }

    /// Every article as (site, path).
    pub fn article_paths(&self) -> Vec<(String, String)> {
        self.web()
            .sites()
            .iter()
            .flat_map(|s| {
                s.article_urls
                    .iter()
                    .map(|u| (s.name.clone(), u.path().to_string()))
            })
            .collect()
    }

    /// Checks that the processes together kept every host's rate: at most
    /// `rate` + 1 requests arrived in any one second (arrival jitter can
    /// pull one more into a window, as for one process), and the mean over
    /// the crawl is at most the rate.
    pub fn assert_rate_kept(&self) {
        self.assert_rate_kept_at(self.rate);
    }

    /// [`Setup::assert_rate_kept`] for a rate other than the config's (a
    /// Crawl-delay's).
    pub fn assert_rate_kept_at(&self, rate: f64) {
        let mut by_site: BTreeMap<String, Vec<Instant>> = BTreeMap::new();
        for r in self.web().requests() {
            by_site.entry(r.site.clone()).or_default().push(r.at);
        }
        for (site, mut times) in by_site {
            times.sort();
            let most = max_in_window(&times, Duration::from_secs(1));
            let span = (times[times.len() - 1] - times[0]).as_secs_f64();
            println!(
                "{site}: {} requests in {span:.2} s, at most {most} in 1 s (rate {})",
                times.len(),
                rate
            );
            assert!(
                most as f64 <= rate + 1.0,
                "{site}: {most} requests in one second at {}/s",
                rate
            );
            assert!(
                (times.len() - 2) as f64 / span <= rate,
                "{site}: {} requests in {span:.2} s at {}/s",
                times.len(),
                rate
            );
        }
    }

    /// Every URL requested more than once (robots.txt apart) was so for a
    /// reason the fetch log shows: each request has its row there (a
    /// failed attempt retried), except at most one per URL that a killed
    /// process made and never recorded (`lost` = such a process exists);
    /// and none was fetched successfully twice.
    pub fn assert_requested_twice_only_for_retries(&self, lost: bool) {
        let mut client = postgres::Client::connect(&self.db.url, postgres::NoTls).expect("connect");
        let bases: HashMap<String, String> = self
            .web()
            .sites()
            .iter()
            .map(|s| {
                let base = s.base_url.as_str().trim_end_matches('/').to_string();
                (s.name.clone(), base)
            })
            .collect();
        for ((site, path), requests) in self.requests_by_url() {
            if requests < 2 {
                continue;
            }
            let url = format!("{}{path}", bases[&site]);
            let rows: Vec<(String, Option<String>)> = client
                .query(
                    "SELECT f.fetched_by, f.error_kind FROM fetches f
                     JOIN urls u ON u.id = f.url_id
                     WHERE u.url = $1 AND NOT f.skipped",
                    &[&url],
                )
                .expect("fetch log")
                .iter()
                .map(|r| (r.get(0), r.get(1)))
                .collect();
            println!("{url}: {requests} requests, fetch log {rows:?}");
            let unrecorded = requests.saturating_sub(rows.len());
            assert!(
                unrecorded <= usize::from(lost),
                "{url}: {requests} requests, fetch log {rows:?}"
            );
            let ok = rows.iter().filter(|(_, error)| error.is_none()).count();
            assert!(ok <= 1, "{url}: fetched {ok} times: {rows:?}");
        }
    }

    /// Stored articles per URL, and URLs per frontier state.
    pub fn stored(&self) -> (HashMap<String, i64>, BTreeMap<String, i64>) {
        let mut client = postgres::Client::connect(&self.db.url, postgres::NoTls).expect("connect");
        let articles = client
            .query("SELECT url, count(*) FROM articles GROUP BY url", &[])
            .expect("articles")
            .iter()
            .map(|r| (r.get(0), r.get(1)))
            .collect();
        // A revisited page (start page, feed, sitemap, section) fetched in
        // this pass is queued again for its next visit: `revisit`.
        let states = client
            .query(
                "SELECT CASE WHEN state = 'queued' AND fetched_at IS NOT NULL
                             THEN 'revisit' ELSE state END,
                        count(*)
                 FROM urls GROUP BY 1",
                &[],
            )
            .expect("states")
            .iter()
            .map(|r| (r.get(0), r.get(1)))
            .collect();
        (articles, states)
    }

    /// Every site's learning counted each of its stored articles once (RC
    /// = articles; learning is on for all of them): no batch left counts
    /// without their articles, or articles without their counts.
    pub fn assert_counts_agree_with_articles(&self) {
        let mut client = postgres::Client::connect(&self.db.url, postgres::NoTls).expect("connect");
        let rows = client
            .query(
                "SELECT s.name, coalesce(t.articles_processed, 0),
                        (SELECT count(*) FROM articles a WHERE a.site_id = s.id)
                 FROM sites s LEFT JOIN site_stats t ON t.site_id = s.id",
                &[],
            )
            .expect("counts");
        assert!(!rows.is_empty(), "no sites");
        for r in rows {
            let (site, rc, stored): (String, i64, i64) = (r.get(0), r.get(1), r.get(2));
            println!("{site}: RC {rc}, {stored} articles");
            assert_eq!(rc, stored, "{site}: RC {rc} but {stored} articles stored");
        }
    }

    /// Every article of the web stored exactly once.
    pub fn assert_articles_stored_once(&self) {
        let (stored, _) = self.stored();
        for s in self.web().sites() {
            for u in &s.article_urls {
                assert_eq!(
                    stored.get(u.as_str()),
                    Some(&1),
                    "{u} stored {:?} times",
                    stored.get(u.as_str())
                );
            }
        }
    }
}

impl Drop for Setup {
    fn drop(&mut self) {
        drop(self.web.take());
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

/// Wait for a crawl process; its output, printed.
pub fn finish(child: Child) -> Output {
    let out = child.wait_with_output().expect("wait for newshound");
    println!("{}", String::from_utf8_lossy(&out.stdout));
    eprintln!("{}", String::from_utf8_lossy(&out.stderr));
    out
}

/// Most requests in any window of `window` (times sorted).
fn max_in_window(times: &[Instant], window: Duration) -> usize {
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
