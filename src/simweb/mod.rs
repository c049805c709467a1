//! The simulated news web: several news sites served on 127.0.0.1 for the
//! demo, the integration tests and the benches.
//!
//! In: a [`SimWebSpec`] (number of sites, articles per site, seed, faults on
//! or off). Out: running HTTP servers, one per site on its own port, and what
//! a test needs to judge a crawl: every article's true body
//! ([`SimWeb::true_body`]), the log of every request received
//! ([`SimWeb::requests`]) and a complete `crawler.toml` for this web
//! ([`SimWeb::config_toml`]).
//!
//! Sites (cycled when more than four are asked for): `dailyplanet` (English,
//! nested divs), `globe` (French, HTML5 semantic tags), `huaxia-news`
//! (Chinese portal, sitemap index + Google News sitemap), `wire` (English,
//! today's markup: see `modern`). With `faults`, two
//! more: `faults` (every fault mode of [`faults::FAULTS`] plus
//! `duplicate-content` and `tracking-params`, linked from each of its pages)
//! and `faults-robots` (robots.txt answers 500).
//!
//! [`real`] is another web: the corpus's saved real pages served as news
//! sites (for the crawl bench).
//!
//! Content depends only on the seed, never on ports or time: two webs with the
//! same seed serve the same bytes apart from the port numbers.

mod article;
pub mod bare;
mod crawler_toml;
pub mod faults;
mod feeds;
pub mod large;
mod lexicon;
mod modern;
mod pages;
pub mod real;
mod server;
mod site;
mod text;

#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::task::JoinHandle;
use url::Url;

use server::{Log, SiteServer};
use site::{SiteContent, Template};
use text::{Lang, Rng, Writer};

/// The ordinary sites' templates, in the order sites are generated.
const CYCLE: [Template; 4] = [
    Template::Planet,
    Template::Globe,
    Template::Huaxia,
    Template::Wire,
];

/// What to simulate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimWebSpec {
    /// Ordinary news sites (default 3: English, French, Chinese).
    pub sites: usize,
    /// Articles on each ordinary site (default 25).
    pub articles_per_site: usize,
    /// Everything generated (text, ids, dates) follows from this.
    pub seed: u64,
    /// Add the `faults` and `faults-robots` sites.
    pub faults: bool,
}

impl Default for SimWebSpec {
    fn default() -> Self {
        SimWebSpec {
            sites: 3,
            articles_per_site: 25,
            seed: 2026,
            faults: false,
        }
    }
}

/// What a test may know about one site.
#[derive(Debug, Clone)]
pub struct SimSite {
    pub name: String,
    /// `http://127.0.0.1:PORT/`
    pub base_url: Url,
    /// Every article page (newest first). Fault pages are not included.
    pub article_urls: Vec<Url>,
    /// Home page and every section page (with pagination).
    pub index_urls: Vec<Url>,
    /// Disallowed by robots.txt (`/private/`); pages link there anyway and the
    /// config's index patterns match it, so only robots.txt keeps a crawler out.
    pub disallowed_prefix: String,
    /// Exact boilerplate lines, each rendered as its own block on every
    /// article page; none occurs in any true body. In this order: `[0]`
    /// copyright, `[1]` newsletter pitch, `[2..5]` the three share texts, `[5]`
    /// "related stories" heading, `[6]` "most read" heading, `[7]` comments
    /// heading, `[8]` comment policy; on `wire` also `[9]` the cookie banner.
    pub template_lines: Vec<String>,
    /// `en`, `fr` or `zh`.
    pub language: String,
    /// (kind, URL) of each fault page: see [`faults::FAULTS`], plus
    /// `duplicate-content` ([`faults::DUPLICATE_PATH`]), `tracking-params`
    /// (the first article with [`faults::TRACKING_QUERY`]) and `link-farm`
    /// ([`faults::FARM_PATH`], the only one not linked from pages); on
    /// `faults-robots`, `("robots-500", …/robots.txt)`. Empty on ordinary sites.
    pub fault_urls: Vec<(String, Url)>,
}

/// How the servers behave beyond the content of a [`SimWebSpec`]: for the
/// politeness tests (slow answers, a robots.txt `Crawl-delay`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Behaviour {
    /// Every response is sent at least this long after its request arrived.
    pub latency: Duration,
    /// Up to this much longer again, chosen per URL (a hash of the site
    /// and the path, so the same URL always takes the same time; see
    /// [`Behaviour::latency_of`]): a web whose answers take 0.2–0.5 s is
    /// `latency` 0.2 s, `latency_spread` 0.3 s. A process with a bounded
    /// number of requests in flight then crawls as fast as the network
    /// lets it, whatever its CPU.
    pub latency_spread: Duration,
    /// Announced in every site's robots.txt as `Crawl-delay` (seconds).
    pub crawl_delay: Option<f64>,
    /// Every article of the ordinary sites is also published this many more
    /// times under its own URL with one paragraph changed (see
    /// `SiteContent::republish`); the copies are articles like any other
    /// (listed, in sitemaps, with a true body).
    pub republished_copies: usize,
    /// Every HTML page (200) is served with a real news
    /// site's furniture around it (mega navigation, related stories, tag
    /// cloud, teaser cards, footer, inline state script): 60–400 KB and 300+
    /// links a page (see [`large`]), for the crawl bench's large-page web.
    pub large_pages: bool,
}

impl Behaviour {
    /// How long the answer to `path` (path and query) on `site` takes:
    /// `latency` plus a share of `latency_spread` that depends only on the
    /// URL.
    pub fn latency_of(&self, site: &str, path: &str) -> Duration {
        if self.latency_spread.is_zero() {
            return self.latency;
        }
        let key = format!("{site}\n{path}");
        // Thousandths of the spread, spread evenly over the URLs.
        let share = (site::fnv1a(key.as_bytes()) % 1001) as u32;
        self.latency + self.latency_spread * share / 1000
    }
}

/// One request the web received.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestRecord {
    /// Site name.
    pub site: String,
    /// Path and query, as requested.
    pub path: String,
    /// When it arrived.
    pub at: Instant,
    /// When its response was handed to the connection (after any latency).
    pub answered: Instant,
    /// Status answered (200 also for bodies cut off or dripped later).
    pub status: u16,
}

/// Where a true body lives.
enum BodyRef {
    Article(usize, usize),
    Text(String),
}

/// The running simulated web. Dropping it stops the servers too.
pub struct SimWeb {
    spec: SimWebSpec,
    sites: Vec<SimSite>,
    servers: Vec<Arc<SiteServer>>,
    bodies: HashMap<String, BodyRef>,
    log: Log,
    stop: watch::Sender<bool>,
    tasks: Vec<JoinHandle<()>>,
}

/// Serve `app` on `listener` until `stop` says so; a dropped sender (the
/// web dropped) also means stop. Every simulated web's sites run this way.
fn serve_until_stopped(
    listener: TcpListener,
    app: axum::Router,
    mut stop: watch::Receiver<bool>,
) -> JoinHandle<()> {
    tokio::spawn(async move {
        let stopped = async move {
            while !*stop.borrow_and_update() {
                if stop.changed().await.is_err() {
                    break;
                }
            }
        };
        let _ = axum::serve(listener, app)
            .with_graceful_shutdown(stopped)
            .await;
    })
}

/// Tell every server of a web to stop; open connections get a moment to
/// finish, then are dropped.
async fn stop_all(stop: &watch::Sender<bool>, tasks: Vec<JoinHandle<()>>) {
    let _ = stop.send(true);
    for task in tasks {
        let abort = task.abort_handle();
        if tokio::time::timeout(Duration::from_secs(2), task)
            .await
            .is_err()
        {
            abort.abort();
        }
    }
}

impl SimWeb {
    /// Generate the content and start one server per site, each on its own
    /// `127.0.0.1:0` listener. Must run inside a tokio runtime.
    pub async fn start(spec: SimWebSpec) -> std::io::Result<SimWeb> {
        SimWeb::start_with(spec, Behaviour::default()).await
    }

    /// [`SimWeb::start`] with servers that behave as `behaviour` says.
    pub async fn start_with(spec: SimWebSpec, behaviour: Behaviour) -> std::io::Result<SimWeb> {
        let (stop, stop_rx) = watch::channel(false);
        let log: Log = Arc::new(Mutex::new(Vec::new()));
        let mut plan: Vec<(Template, usize)> = (0..spec.sites)
            .map(|i| {
                let t = CYCLE[i % CYCLE.len()];
                (t, spec.articles_per_site)
            })
            .collect();
        if spec.faults {
            let n = spec.articles_per_site.min(5);
            plan.push((Template::Faults, n));
            plan.push((Template::RobotsFail, n));
        }
        let mut web = SimWeb {
            spec: spec.clone(),
            sites: Vec::new(),
            servers: Vec::new(),
            bodies: HashMap::new(),
            log: log.clone(),
            stop,
            tasks: Vec::new(),
        };
        for (position, (template, articles)) in plan.into_iter().enumerate() {
            let listener = TcpListener::bind(("127.0.0.1", 0)).await?;
            let port = listener.local_addr()?.port();
            let base = Url::parse(&format!("http://127.0.0.1:{port}/"))
                .map_err(|e| std::io::Error::other(e.to_string()))?;
            let mut content = SiteContent::generate(spec.seed, position, template, articles);
            if matches!(
                template,
                Template::Planet | Template::Globe | Template::Huaxia
            ) {
                content.republish(spec.seed, position, behaviour.republished_copies);
            }
            let mut fault_body = None;
            let assets = match template {
                Template::Faults => {
                    let (html, body) = lying_charset_page(spec.seed);
                    fault_body = Some(body);
                    Some(faults::FaultAssets::new(&html))
                }
                _ => None,
            };
            let server = Arc::new(SiteServer::new(
                content,
                base.clone(),
                assets,
                log.clone(),
                stop_rx.clone(),
                behaviour.clone(),
            ));
            let site = describe(&server, web.servers.len());
            for (i, url) in site.article_urls.iter().enumerate() {
                web.bodies
                    .insert(url.to_string(), BodyRef::Article(web.servers.len(), i));
            }
            if let Some(body) = fault_body {
                let url = join(&base, faults::LYING_CHARSET_PATH);
                web.bodies.insert(url.to_string(), BodyRef::Text(body));
                if !site.article_urls.is_empty() {
                    let url = join(&base, faults::DUPLICATE_PATH);
                    let at = BodyRef::Article(web.servers.len(), 0);
                    web.bodies.insert(url.to_string(), at);
                }
            }
            let app = server::router(server.clone());
            web.tasks
                .push(serve_until_stopped(listener, app, stop_rx.clone()));
            web.sites.push(site);
            web.servers.push(server);
        }
        Ok(web)
    }

    pub fn sites(&self) -> &[SimSite] {
        &self.sites
    }

    /// The spec this web was started with.
    pub fn spec(&self) -> &SimWebSpec {
        &self.spec
    }

    /// The true body of the article at `url` (paragraphs separated by a blank
    /// line; no headline, byline or date), or None for any other URL. A query
    /// or fragment is ignored (article paths have none, and the server ignores
    /// them too). Also knows the lying-charset and duplicate fault pages.
    pub fn true_body(&self, url: &str) -> Option<&str> {
        let found = self.bodies.get(url).or_else(|| {
            let mut normalised = Url::parse(url).ok()?;
            normalised.set_query(None);
            normalised.set_fragment(None);
            self.bodies.get(normalised.as_str())
        })?;
        match found {
            BodyRef::Article(s, i) => self
                .servers
                .get(*s)?
                .content
                .articles
                .get(*i)
                .map(|a| a.body.as_str()),
            BodyRef::Text(t) => Some(t),
        }
    }

    /// The article at `url` and its site (query and fragment ignored).
    fn article_at(&self, url: &str) -> Option<(&SiteContent, &site::Article)> {
        let found = self.bodies.get(url).or_else(|| {
            let mut normalised = Url::parse(url).ok()?;
            normalised.set_query(None);
            normalised.set_fragment(None);
            self.bodies.get(normalised.as_str())
        })?;
        let BodyRef::Article(s, i) = found else {
            return None;
        };
        let content = &self.servers.get(*s)?.content;
        Some((content, content.articles.get(*i)?))
    }

    /// The true (author, published time in RFC 3339 UTC) of the article at `url`.
    pub fn true_byline(&self, url: &str) -> Option<(String, String)> {
        let (_, a) = self.article_at(url)?;
        Some((a.author.clone(), a.published.rfc3339()))
    }

    /// Visible lines of a `wire` article page that are not its body, as
    /// (kind, line): `headline`, `caption`, `credit`, `related`, `comment`;
    /// empty for other URLs. None of them belongs in the article's text.
    pub fn page_furniture(&self, url: &str) -> Vec<(&'static str, String)> {
        match self.article_at(url) {
            Some((site, a)) if site.template == Template::Wire => modern::furniture(site, a),
            _ => Vec::new(),
        }
    }

    /// Every request received so far, in arrival order.
    pub fn requests(&self) -> Vec<RequestRecord> {
        self.log
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clone()
    }

    /// The most requests `site` received within any `window` (sliding, by
    /// arrival time): for asserting that a crawl kept its per-host rate
    /// (at `r` req/s with burst 1, a 1 s window holds at most ⌈r⌉ + 1).
    pub fn max_requests_in_window(&self, site: &str, window: Duration) -> usize {
        let times: Vec<Instant> = self
            .requests()
            .into_iter()
            .filter(|r| r.site == site)
            .map(|r| r.at)
            .collect();
        let mut best = 0;
        let mut start = 0;
        for end in 0..times.len() {
            while start <= end && times[end].duration_since(times[start]) >= window {
                start += 1;
            }
            best = best.max(end + 1 - start);
        }
        best
    }

    /// The HTML served at `url` (before any gzip): what a crawler fetching
    /// it receives, for benches that extract the same pages without
    /// crawling. `None` for other sites, feeds, sitemaps and non-200 pages.
    pub fn page_html(&self, url: &Url) -> Option<String> {
        let server = self
            .servers
            .iter()
            .find(|s| s.base.host_str() == url.host_str() && s.base.port() == url.port())?;
        server::page_html(server, url.path(), url.query())
    }

    /// A complete `crawler.toml` that crawls this web (see `crawler_toml`).
    pub fn config_toml(&self) -> String {
        crawler_toml::render(self)
    }

    /// Stop every server: open connections get a moment to finish, then
    /// are dropped.
    pub async fn shutdown(self) {
        stop_all(&self.stop, self.tasks).await;
    }
}

fn join(base: &Url, path: &str) -> Url {
    base.join(path).unwrap_or_else(|_| base.clone())
}

fn describe(server: &SiteServer, _position: usize) -> SimSite {
    let c = &server.content;
    let base = &server.base;
    let mut fault_urls: Vec<(String, Url)> = server
        .fault_links
        .iter()
        .map(|(k, p)| (k.clone(), join(base, p)))
        .collect();
    if c.template == Template::RobotsFail {
        fault_urls.push(("robots-500".into(), join(base, "/robots.txt")));
    }
    if server.faults.is_some() {
        fault_urls.push(("link-farm".into(), join(base, faults::FARM_PATH)));
    }
    SimSite {
        name: c.name.clone(),
        base_url: base.clone(),
        article_urls: c.articles.iter().map(|a| join(base, &a.path)).collect(),
        index_urls: c.index_paths().iter().map(|p| join(base, p)).collect(),
        disallowed_prefix: "/private/".into(),
        template_lines: c.template_lines(),
        language: c.lang.code().into(),
        fault_urls,
    }
}

/// The lying-charset fault page: a Chinese article whose HTML (to be encoded
/// as GBK) declares UTF-8. Returns (html, true body).
fn lying_charset_page(seed: u64) -> (String, String) {
    let mut rng = Rng::derive(seed, &[0xfa17]);
    let mut w = Writer::new(&mut rng, Lang::Zh);
    let title = w.headline();
    let paragraphs: Vec<String> = (0..5).map(|_| w.paragraph()).collect();
    let mut html = format!(
        "<!DOCTYPE html>\n<html lang=\"zh\">\n<head>\n<meta charset=\"utf-8\">\n<title>{t}</title>\n</head>\n\
         <body>\n<div class=\"nav\"><a href=\"/\">首页</a></div>\n<h1>{t}</h1>\n<div class=\"content\">\n",
        t = pages::esc(&title)
    );
    for p in &paragraphs {
        html.push_str(&format!("<p>{}</p>\n", pages::esc(p)));
    }
    html.push_str("</div>\n<div class=\"footer\">版权所有</div>\n</body>\n</html>\n");
    (html, paragraphs.join("\n\n"))
}
