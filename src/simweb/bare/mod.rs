//! The bare simulated web: news sites known by their address alone.
//!
//! In: a [`BareSpec`] (sites, articles per site, seed). Out: running HTTP
//! servers on 127.0.0.1, one per site, and what a test needs to judge a
//! crawl of them: every article's true body ([`BareWeb::true_body`]), every
//! other page by kind ([`BareSite::other_urls`]), and two `crawler.toml`s:
//! one that names only each site's start page, one that adds hand-written
//! patterns ([`BareWeb::config_toml`]).
//!
//! Each site has one of five URL shapes and markups ([`Shape`]): articles
//! that declare themselves in JSON-LD, with `og:type` only, or not at all
//! (one family not even a date, anywhere); section fronts with later
//! pages, tag and author pages, about, privacy, contact, sign-in and search
//! pages. The feed lives at a path no crawler guesses and is announced only
//! by `<link rel="alternate">` on the home page and section fronts; the
//! news sitemap only by robots.txt. Both list the newest articles only: the
//! rest are found through the sections. A spec may slow the feeds down
//! ([`BareSpec::feed_delay`]), so that a crawl meets a site's stories
//! through its links before their feed lists them.

mod pages;
mod site;

use std::collections::HashMap;
use std::fmt::Write;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Router;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::task::JoinHandle;
use url::Url;

use site::{BareSite as Content, FEED_SIZE, SECTIONS, SITEMAP_SIZE, TAGS};
pub use site::{Shape, SHAPES};

use super::pages::esc;

/// Where a bare site's feed lives (announced only in its pages' heads).
pub const FEED_PATH: &str = "/feeds/latest.xml";
/// Where its news sitemap lives (announced only in robots.txt).
pub const SITEMAP_PATH: &str = "/sitemaps/news-latest.xml";

/// What to simulate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BareSpec {
    /// Sites; their shapes cycle through `shapes`.
    pub sites: usize,
    pub articles_per_site: usize,
    pub seed: u64,
    /// The shapes the sites take in turn (every [`Shape`] by default).
    pub shapes: Vec<Shape>,
    /// How long each site's feed takes to answer (none by default).
    pub feed_delay: Duration,
}

impl Default for BareSpec {
    fn default() -> Self {
        BareSpec {
            sites: 4,
            articles_per_site: 12,
            seed: 2026,
            shapes: SHAPES.to_vec(),
            feed_delay: Duration::ZERO,
        }
    }
}

/// What a test may know about one bare site.
#[derive(Debug, Clone)]
pub struct BareSite {
    pub name: String,
    pub shape: Shape,
    /// `http://127.0.0.1:PORT/`
    pub base_url: Url,
    pub article_urls: Vec<Url>,
    /// Every other HTML page the site serves, with its kind (`home`,
    /// `section`, `tag`, `author`, `about`, `privacy`, `contact`,
    /// `sign-in`, `search`).
    pub other_urls: Vec<(&'static str, Url)>,
}

/// The running bare web. Dropping it stops the servers too.
pub struct BareWeb {
    sites: Vec<BareSite>,
    contents: Vec<Arc<Served>>,
    stop: watch::Sender<bool>,
    tasks: Vec<JoinHandle<()>>,
}

/// One site as its server sees it.
struct Served {
    content: Content,
    base: Url,
    articles: HashMap<String, usize>,
    feed_delay: Duration,
}

impl BareWeb {
    /// Generate the sites and start one server each on `127.0.0.1:0`. Must
    /// run inside a tokio runtime.
    pub async fn start(spec: BareSpec) -> std::io::Result<BareWeb> {
        let (stop, stop_rx) = watch::channel(false);
        let mut web = BareWeb {
            sites: Vec::new(),
            contents: Vec::new(),
            stop,
            tasks: Vec::new(),
        };
        for position in 0..spec.sites {
            let listener = TcpListener::bind(("127.0.0.1", 0)).await?;
            let port = listener.local_addr()?.port();
            let base = Url::parse(&format!("http://127.0.0.1:{port}/"))
                .map_err(|e| std::io::Error::other(e.to_string()))?;
            let shape = match spec.shapes.as_slice() {
                [] => SHAPES[position % SHAPES.len()],
                shapes => shapes[position % shapes.len()],
            };
            let content = Content::generate(spec.seed, position, shape, spec.articles_per_site);
            let join = |p: &str| base.join(p).unwrap_or_else(|_| base.clone());
            web.sites.push(BareSite {
                name: content.name.clone(),
                shape: content.shape,
                base_url: base.clone(),
                article_urls: content.articles.iter().map(|a| join(&a.path)).collect(),
                other_urls: content
                    .other_pages()
                    .into_iter()
                    .map(|(k, p)| (k, join(&p)))
                    .collect(),
            });
            let articles = content
                .articles
                .iter()
                .enumerate()
                .map(|(i, a)| (a.path.clone(), i))
                .collect();
            let served = Arc::new(Served {
                content,
                base,
                articles,
                feed_delay: spec.feed_delay,
            });
            web.contents.push(served.clone());
            let app = Router::new().fallback(handle).with_state(served);
            web.tasks
                .push(super::serve_until_stopped(listener, app, stop_rx.clone()));
        }
        Ok(web)
    }

    pub fn sites(&self) -> &[BareSite] {
        &self.sites
    }

    /// The true body of the article at `url` (paragraphs separated by a
    /// blank line), or `None` for any other URL.
    pub fn true_body(&self, url: &str) -> Option<&str> {
        let url = Url::parse(url).ok()?;
        let served = self
            .contents
            .iter()
            .find(|s| s.base.port() == url.port() && s.base.host_str() == url.host_str())?;
        let &i = served.articles.get(url.path())?;
        Some(served.content.articles[i].body.as_str())
    }

    /// A `crawler.toml` for this web. Without `patterns`, each site is only
    /// its name and start page; with them, hand-written article and index
    /// patterns for its shape are added.
    pub fn config_toml(&self, patterns: bool) -> String {
        let mut t = String::from(
            "# crawler.toml for the bare simulated web; ports change per run.\n\
             [crawler]\nconcurrency = 8\nmax_pages = 0\nmax_depth = 8\nmax_pages_per_site = 400\n\n\
             [politeness]\nrate_per_host = 200.0\nper_host_concurrency = 4\nrespect_robots = true\n\n\
             [fetch]\nconnect_timeout_secs = 2.0\nread_timeout_secs = 2.0\ntimeout_secs = 5.0\n\
             retries = 1\nbackoff_base_secs = 0.05\nbackoff_max_secs = 0.5\n\
             allow_private_addresses = true\n",
        );
        for site in &self.sites {
            let base = site.base_url.as_str().trim_end_matches('/');
            let _ = write!(
                t,
                "\n[[sites]]\nname = \"{}\"\nstart = [\"{base}/\"]\n",
                site.name
            );
            if patterns {
                let (a, i) = shape_patterns(site.shape, &regex::escape(base));
                let _ = write!(t, "article_patterns = ['{a}']\nindex_patterns = ['{i}']\n");
            }
        }
        t
    }

    /// Stop every server.
    pub async fn shutdown(self) {
        super::stop_all(&self.stop, self.tasks).await;
    }
}

/// Hand-written (article, index) patterns of a shape; `b` is the escaped
/// base URL without its trailing slash.
fn shape_patterns(shape: Shape, b: &str) -> (String, String) {
    let sections = SECTIONS.map(|s| s.0).join("|");
    match shape {
        Shape::Dated => (
            format!(r"^{b}/\d{{4}}/\d{{2}}/\d{{2}}/[a-z0-9-]+\.html$"),
            format!(r"^{b}/(({sections})/(page/\d+/)?)?$"),
        ),
        Shape::NewsId => (
            format!(r"^{b}/news/[a-z0-9-]+-\d+$"),
            format!(r"^{b}/(section/[a-z]+(\?page=\d+)?)?$"),
        ),
        Shape::StoryId => (
            format!(r"^{b}/story/\d+/[a-z0-9-]+$"),
            format!(r"^{b}/(c/[a-z]+/(\d+/)?)?$"),
        ),
        Shape::Blog => (
            format!(r"^{b}/({sections})/[a-z0-9-]+$"),
            format!(r"^{b}/(category/[a-z]+/(page/\d+/)?)?$"),
        ),
        Shape::Plain => (
            format!(r"^{b}/({sections})/[a-z0-9-]+/$"),
            format!(r"^{b}/(({sections})/(page/\d+/)?)?$"),
        ),
    }
}

const HTML: &str = "text/html; charset=utf-8";

async fn handle(State(s): State<Arc<Served>>, req: Request) -> Response {
    let path = req.uri().path().to_string();
    let query = req.uri().query().map(str::to_string);
    if path == FEED_PATH && !s.feed_delay.is_zero() {
        tokio::time::sleep(s.feed_delay).await;
    }
    let (status, ty, body) = route(&s, &path, query.as_deref());
    let mut r = (status, body).into_response();
    r.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(ty));
    r
}

fn route(s: &Served, path: &str, query: Option<&str>) -> (StatusCode, &'static str, String) {
    let site = &s.content;
    let ok = |body: String| (StatusCode::OK, HTML, body);
    match path {
        "/robots.txt" => {
            let mut robots = String::from("User-agent: *\nDisallow: /private/\n");
            // The old CMS has no sitemap: its feed is its only list.
            if site.shape != Shape::Plain {
                let map = s.base.join(SITEMAP_PATH).map(String::from);
                let _ = write!(robots, "\nSitemap: {}\n", map.unwrap_or_default());
            }
            return (StatusCode::OK, "text/plain; charset=utf-8", robots);
        }
        FEED_PATH => return (StatusCode::OK, "application/rss+xml", feed(s)),
        SITEMAP_PATH => return (StatusCode::OK, "application/xml", sitemap(s)),
        "/" => return ok(pages::home(site, &s.base)),
        "/about/" => return ok(pages::text_page(site, "About us", &site.about, false)),
        "/privacy-policy/" => {
            return ok(pages::text_page(
                site,
                "Privacy policy",
                &site.privacy,
                true,
            ))
        }
        "/contact/" => return ok(pages::contact(site)),
        "/account/sign-in" => return ok(pages::sign_in(site)),
        "/search" => return ok(pages::search(site)),
        _ => {}
    }
    if let Some(&i) = s.articles.get(path) {
        return ok(pages::article(site, &s.base, i));
    }
    for sec in 0..SECTIONS.len() {
        for p in 1..=Content::pages(site.in_section(sec).len()) {
            let at = site.section_path(sec, p);
            let (at_path, at_query) = at.split_once('?').unwrap_or((&at, ""));
            if at_path == path && query.unwrap_or("") == at_query {
                if let Some(html) = pages::section(site, &s.base, sec, p) {
                    return ok(html);
                }
            }
        }
    }
    for t in 0..TAGS.len() {
        if site.tag_path(t) == path {
            return ok(pages::tag(site, &s.base, t));
        }
    }
    for a in 0..site.authors.len() {
        if site.author_path(a) == path {
            return ok(pages::author(site, &s.base, a));
        }
    }
    (
        StatusCode::NOT_FOUND,
        HTML,
        "<html><body><h1>Not found</h1></body></html>".into(),
    )
}

fn feed(s: &Served) -> String {
    let site = &s.content;
    let mut x = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\"><channel>\n\
         <title>{}</title><link>{}</link>\n",
        esc(&site.display),
        esc(s.base.as_str())
    );
    for a in site.articles.iter().take(FEED_SIZE) {
        let url = s.base.join(&a.path).map(String::from).unwrap_or_default();
        let date = if site.shape.dates() {
            format!("<pubDate>{}</pubDate>", a.published.rfc2822())
        } else {
            String::new()
        };
        let _ = writeln!(
            x,
            "<item><title>{}</title><link>{}</link>{date}<description>{}</description></item>",
            esc(&a.title),
            esc(&url),
            esc(&a.teaser)
        );
    }
    x.push_str("</channel></rss>\n");
    x
}

fn sitemap(s: &Served) -> String {
    let site = &s.content;
    let mut x = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" \
         xmlns:news=\"http://www.google.com/schemas/sitemap-news/0.9\">\n",
    );
    for a in site.articles.iter().take(SITEMAP_SIZE) {
        let url = s.base.join(&a.path).map(String::from).unwrap_or_default();
        let _ = writeln!(
            x,
            "<url><loc>{}</loc><news:news><news:publication><news:name>{}</news:name>\
             <news:language>{}</news:language></news:publication>\
             <news:publication_date>{}</news:publication_date><news:title>{}</news:title></news:news></url>",
            esc(&url),
            esc(&site.display),
            site.lang.code(),
            a.published.rfc3339(),
            esc(&a.title)
        );
    }
    x.push_str("</urlset>\n");
    x
}

#[cfg(test)]
mod tests;
