//! The real-pages web: pages saved from real news sites (the corpus of
//! `tests/corpus`) served on 127.0.0.1 as news sites, for the crawl bench's
//! measure of the crawl on real pages.
//!
//! In: [`RealPage`]s (a name and the bytes as saved, read from a corpus
//! directory by [`RealPage::load`]) and a [`RealSpec`] (how many sites, how
//! many article links per index page). Out: running HTTP servers, one per
//! site, each serving its share of the pages byte for byte as articles
//! (`/story/N.html`, `Content-Type: text/html` without a charset, so the
//! crawler detects it as `extract` does for a file), index pages that link
//! them (`/` and `/page/K`), and a robots.txt that allows everything;
//! anything else is a 404. [`RealWeb::config_toml`] gives a `crawler.toml`
//! for the web with the politeness limits lifted.
//!
//! A site's pages are consecutive in the corpus's order (set, then file
//! name), so pages of one source, named alike in the corpus, mostly share a
//! site and its boilerplate learning. The pages' own links point at their
//! original hosts or at paths of ours that no pattern matches: they are
//! read and resolved, and not followed.

use std::fmt::Write;
use std::path::Path;
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Router;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::task::JoinHandle;
use url::Url;

/// One saved page.
#[derive(Debug, Clone)]
pub struct RealPage {
    /// `set/file.html`, as in the corpus.
    pub name: String,
    pub bytes: Arc<[u8]>,
}

impl RealPage {
    /// Every `*.html` of `root/SET/html/` for each of `sets`, by set and
    /// then file name. A set without that directory is an error naming it.
    pub fn load(root: &Path, sets: &[&str]) -> std::io::Result<Vec<RealPage>> {
        let mut pages = Vec::new();
        for set in sets {
            let dir = root.join(set).join("html");
            let mut files: Vec<_> = std::fs::read_dir(&dir)
                .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", dir.display())))?
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "html"))
                .collect();
            files.sort();
            for path in files {
                let file = path.file_name().map(|f| f.to_string_lossy().into_owned());
                pages.push(RealPage {
                    name: format!("{set}/{}", file.unwrap_or_default()),
                    bytes: std::fs::read(&path)?.into(),
                });
            }
        }
        Ok(pages)
    }
}

/// How the pages are laid out as sites.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RealSpec {
    /// Sites the pages are shared among (at least one; no site is empty).
    pub sites: usize,
    /// Article links per index page.
    pub per_index: usize,
}

impl Default for RealSpec {
    fn default() -> Self {
        RealSpec {
            sites: 36,
            per_index: 20,
        }
    }
}

/// What a bench or test may know about one site.
#[derive(Debug, Clone)]
pub struct RealSite {
    pub name: String,
    /// `http://127.0.0.1:PORT/`
    pub base_url: Url,
    /// Its article pages, with the corpus page each serves.
    pub articles: Vec<(Url, RealPage)>,
    /// `/` and `/page/2`, … : every article is linked from exactly one.
    pub index_urls: Vec<Url>,
}

/// One site as its server sees it.
struct Served {
    pages: Vec<Arc<[u8]>>,
    per_index: usize,
}

/// The running real-pages web. Dropping it stops the servers too.
pub struct RealWeb {
    sites: Vec<RealSite>,
    stop: watch::Sender<bool>,
    tasks: Vec<JoinHandle<()>>,
}

impl RealWeb {
    /// Share `pages` among `spec.sites` sites (consecutive runs, sizes
    /// differing by one at most) and start one server each on
    /// `127.0.0.1:0`. Must run inside a tokio runtime.
    pub async fn start(pages: Vec<RealPage>, spec: &RealSpec) -> std::io::Result<RealWeb> {
        let (stop, stop_rx) = watch::channel(false);
        let mut web = RealWeb {
            sites: Vec::new(),
            stop,
            tasks: Vec::new(),
        };
        let sites = spec.sites.clamp(1, pages.len().max(1));
        let per_index = spec.per_index.max(1);
        let mut rest = pages.into_iter();
        let total = rest.len();
        for position in 0..sites {
            let share = total / sites + usize::from(position < total % sites);
            let mine: Vec<RealPage> = rest.by_ref().take(share).collect();
            let listener = TcpListener::bind(("127.0.0.1", 0)).await?;
            let port = listener.local_addr()?.port();
            let base = Url::parse(&format!("http://127.0.0.1:{port}/"))
                .map_err(|e| std::io::Error::other(e.to_string()))?;
            let join = |p: &str| base.join(p).unwrap_or_else(|_| base.clone());
            let index_urls = (1..=mine.len().div_ceil(per_index).max(1))
                .map(|k| join(&index_path(k)))
                .collect();
            let articles = (mine.iter().enumerate())
                .map(|(i, p)| (join(&article_path(i)), p.clone()))
                .collect();
            web.sites.push(RealSite {
                name: format!("real{position:02}"),
                base_url: base.clone(),
                articles,
                index_urls,
            });
            let served = Arc::new(Served {
                pages: mine.into_iter().map(|p| p.bytes).collect(),
                per_index,
            });
            let app = Router::new().fallback(handle).with_state(served);
            web.tasks
                .push(super::serve_until_stopped(listener, app, stop_rx.clone()));
        }
        Ok(web)
    }

    pub fn sites(&self) -> &[RealSite] {
        &self.sites
    }

    /// The corpus page served at `url`, if it is an article of this web.
    pub fn page_at(&self, url: &Url) -> Option<&RealPage> {
        let site = (self.sites.iter())
            .find(|s| s.base_url.port() == url.port() && s.base_url.host() == url.host())?;
        let (_, page) = site.articles.iter().find(|(u, _)| u == url)?;
        Some(page)
    }

    /// A `crawler.toml` that crawls this web from each site's home page, as
    /// a user would a web of news sites on a fast network: `concurrency`
    /// connections, the per-host rate lifted, robots.txt obeyed, anchored
    /// article and index patterns, boilerplate learning `learning`.
    pub fn config_toml(&self, concurrency: usize, learning: bool) -> String {
        let per_host = concurrency.div_ceil(self.sites.len().max(1)).max(4);
        let mut t = format!(
            "# crawler.toml for the real-pages web; ports change per run.\n\
             [crawler]\nconcurrency = {concurrency}\nmax_pages = 0\nmax_depth = 4\n\n\
             [politeness]\nrate_per_host = 10000.0\nper_host_concurrency = {per_host}\n\
             respect_robots = true\n\n\
             [fetch]\nconnect_timeout_secs = 10.0\nread_timeout_secs = 30.0\ntimeout_secs = 60.0\n\
             retries = 1\nallow_private_addresses = true\n\n\
             [boilerplate]\nenabled = {learning}\n",
        );
        for site in &self.sites {
            let base = site.base_url.as_str().trim_end_matches('/');
            let b = regex::escape(base);
            let _ = write!(
                t,
                "\n[[sites]]\nname = \"{}\"\nstart = [\"{base}/\"]\n\
                 article_patterns = ['^{b}/story/\\d+\\.html$']\n\
                 index_patterns = ['^{b}/(page/\\d+)?$']\n",
                site.name
            );
        }
        t
    }

    /// Stop every server.
    pub async fn shutdown(self) {
        super::stop_all(&self.stop, self.tasks).await;
    }
}

fn article_path(i: usize) -> String {
    format!("/story/{i}.html")
}

/// Index page `k` (1 is the home page).
fn index_path(k: usize) -> String {
    if k <= 1 {
        "/".into()
    } else {
        format!("/page/{k}")
    }
}

async fn handle(State(s): State<Arc<Served>>, req: Request) -> Response {
    let path = req.uri().path();
    let (status, ty, body): (StatusCode, &'static str, axum::body::Body) = match route(&s, path) {
        Some(Route::Robots) => (
            StatusCode::OK,
            "text/plain; charset=utf-8",
            "User-agent: *\nDisallow:\n".into(),
        ),
        Some(Route::Index(k)) => (
            StatusCode::OK,
            "text/html; charset=utf-8",
            index_page(&s, k).into(),
        ),
        Some(Route::Article(i)) => (StatusCode::OK, "text/html", s.pages[i].to_vec().into()),
        None => (
            StatusCode::NOT_FOUND,
            "text/html; charset=utf-8",
            "<html><body><h1>Not found</h1></body></html>".into(),
        ),
    };
    let mut r = (status, body).into_response();
    r.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(ty));
    r
}

enum Route {
    Robots,
    Index(usize),
    Article(usize),
}

fn route(s: &Served, path: &str) -> Option<Route> {
    let pages = s.pages.len().div_ceil(s.per_index).max(1);
    match path {
        "/robots.txt" => Some(Route::Robots),
        "/" => Some(Route::Index(1)),
        _ => {
            if let Some(k) = path.strip_prefix("/page/") {
                let k: usize = k.parse().ok()?;
                return (2..=pages).contains(&k).then_some(Route::Index(k));
            }
            let i = path.strip_prefix("/story/")?.strip_suffix(".html")?;
            let i: usize = i.parse().ok()?;
            (i < s.pages.len() && article_path(i) == path).then_some(Route::Article(i))
        }
    }
}

/// Index page `k`: its share of the article links, and the next page's.
fn index_page(s: &Served, k: usize) -> String {
    let from = (k - 1) * s.per_index;
    let to = (from + s.per_index).min(s.pages.len());
    let mut html = String::from(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Latest stories</title></head>\n<body>\n<h1>Latest stories</h1>\n<ul>\n",
    );
    for i in from..to {
        let _ = writeln!(
            html,
            "<li><a href=\"{}\">Story {i}</a></li>",
            article_path(i)
        );
    }
    html.push_str("</ul>\n");
    if to < s.pages.len() {
        let _ = writeln!(html, "<a href=\"{}\">More stories</a>", index_path(k + 1));
    }
    html.push_str("</body></html>\n");
    html
}

#[cfg(test)]
mod tests;
