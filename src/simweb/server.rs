//! The HTTP side: one axum server per site, each on its own 127.0.0.1 port.
//!
//! In: requests. Out: responses rendered from the site's [`SiteContent`]
//! (pages, feeds, sitemaps, robots.txt, fault pages), and one
//! [`RequestRecord`] per request appended to the web's shared log. Pages
//! carry an `ETag` (articles and feeds also `Last-Modified`) and answer 304 to
//! a matching `If-None-Match` / `If-Modified-Since`, so conditional recrawls
//! can be tested; the French site gzips when the client accepts it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::Response;
use axum::Router;
use chrono::NaiveDateTime;
use tokio::sync::watch;
use url::Url;

use super::article::article_page;
use super::faults::{self, FaultAssets};
use super::feeds;
use super::large;
use super::pages::{index_page, not_found_page, private_page, Ctx};
use super::site::{fnv1a, SiteContent, Template};
use super::{Behaviour, RequestRecord};

/// Shared request log of the whole web.
pub type Log = Arc<Mutex<Vec<RequestRecord>>>;

/// One running site.
pub struct SiteServer {
    pub content: SiteContent,
    pub base: Url,
    /// Article path → index in `content.articles`.
    pub article_index: HashMap<String, usize>,
    /// (kind, path) of the fault pages this site serves and links.
    pub fault_links: Vec<(String, String)>,
    pub faults: Option<FaultAssets>,
    pub log: Log,
    pub shutdown: watch::Receiver<bool>,
    pub behaviour: Behaviour,
}

impl SiteServer {
    pub fn new(
        content: SiteContent,
        base: Url,
        faults: Option<FaultAssets>,
        log: Log,
        shutdown: watch::Receiver<bool>,
        behaviour: Behaviour,
    ) -> SiteServer {
        let article_index = content
            .articles
            .iter()
            .enumerate()
            .map(|(i, a)| (a.path.clone(), i))
            .collect();
        let mut fault_links: Vec<(String, String)> = Vec::new();
        if faults.is_some() {
            fault_links.extend(
                faults::FAULTS
                    .iter()
                    .map(|(k, p)| (k.to_string(), p.to_string())),
            );
            if let Some(first) = content.articles.first() {
                fault_links.push(("duplicate-content".into(), faults::DUPLICATE_PATH.into()));
                let tracked = format!("{}?{}", first.path, faults::TRACKING_QUERY);
                fault_links.push(("tracking-params".into(), tracked));
            }
        }
        SiteServer {
            content,
            base,
            article_index,
            fault_links,
            faults,
            log,
            shutdown,
            behaviour,
        }
    }

    fn ctx(&self) -> Ctx<'_> {
        Ctx {
            site: &self.content,
            base: &self.base,
            fault_links: &self.fault_links,
        }
    }
}

pub fn router(server: Arc<SiteServer>) -> Router {
    Router::new().fallback(handle).with_state(server)
}

async fn handle(State(s): State<Arc<SiteServer>>, req: Request) -> Response {
    let at = Instant::now();
    let path_and_query = req
        .uri()
        .path_and_query()
        .map_or_else(|| "/".to_string(), |p| p.as_str().to_string());
    let response = route(&s, req.uri().path(), req.uri().query(), req.headers());
    let latency = s.behaviour.latency_of(&s.content.name, &path_and_query);
    if !latency.is_zero() {
        tokio::time::sleep_until((at + latency).into()).await;
    }
    let record = RequestRecord {
        site: s.content.name.clone(),
        path: path_and_query,
        at,
        answered: Instant::now(),
        status: response.status().as_u16(),
    };
    s.log
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .push(record);
    response
}

/// A rendered document before HTTP details (ETag, 304, gzip) are applied.
struct Doc {
    status: StatusCode,
    content_type: &'static str,
    body: String,
    /// For `Last-Modified` / `If-Modified-Since`.
    modified: Option<NaiveDateTime>,
}

const HTML: &str = "text/html; charset=utf-8";
const XML: &str = "application/xml; charset=utf-8";

fn doc(content_type: &'static str, body: String, modified: Option<NaiveDateTime>) -> Doc {
    Doc {
        status: StatusCode::OK,
        content_type,
        body,
        modified,
    }
}

fn route(s: &SiteServer, path: &str, query: Option<&str>, headers: &HeaderMap) -> Response {
    if let Some(assets) = &s.faults {
        if let Some(r) = faults::respond(assets, path, query, &s.shutdown) {
            return r;
        }
    }
    // Only the French site compresses, so crawls see both kinds of server.
    let gzip = s.content.template == Template::Globe;
    finish(render_sized(s, path, query), headers, gzip)
}

/// [`render`], with an HTML page's furniture enlarged when the web serves
/// large pages ([`Behaviour::large_pages`]).
fn render_sized(s: &SiteServer, path: &str, query: Option<&str>) -> Doc {
    let mut d = render(s, path, query);
    if s.behaviour.large_pages && d.content_type == HTML && d.status == StatusCode::OK {
        d.body = large::enlarge(&d.body, path, &s.content);
    }
    d
}

/// The HTML of the page at `path` (and `query`) as it is served (before
/// any gzip), or `None` when it is not an HTML page answered 200.
pub fn page_html(s: &SiteServer, path: &str, query: Option<&str>) -> Option<String> {
    let d = render_sized(s, path, query);
    (d.content_type == HTML && d.status == StatusCode::OK).then_some(d.body)
}

fn render(s: &SiteServer, path: &str, query: Option<&str>) -> Doc {
    let site = &s.content;
    let ctx = s.ctx();
    let newest = site.articles.first().map(|a| a.published.0);
    match path {
        "/robots.txt" if site.template == Template::RobotsFail => {
            return Doc {
                status: StatusCode::INTERNAL_SERVER_ERROR,
                ..doc(HTML, "<h1>500 Internal Server Error</h1>".into(), None)
            };
        }
        "/robots.txt" => {
            return doc(
                "text/plain; charset=utf-8",
                feeds::robots(site, &s.base, s.behaviour.crawl_delay),
                None,
            )
        }
        "/rss.xml" => {
            let rss = feeds::rss(site, &s.base);
            return doc("application/rss+xml; charset=utf-8", rss, newest);
        }
        feeds::SITEMAP => return doc(XML, feeds::sitemap(site, &s.base), newest),
        feeds::NEWS_SITEMAP if site.template == Template::Huaxia => {
            return doc(XML, feeds::news_sitemap(site, &s.base), newest)
        }
        feeds::ARCHIVE_SITEMAP if site.template == Template::Huaxia => {
            return doc(XML, feeds::archive_sitemap(site, &s.base), newest)
        }
        "/" if query.is_none() => return doc(HTML, index_page(&ctx, None, 1), None),
        _ => {}
    }
    if path.starts_with("/private/") {
        return doc(HTML, private_page(&ctx), None);
    }
    let full = match query {
        Some(q) => format!("{path}?{q}"),
        None => path.to_string(),
    };
    if let Some((section, page)) = site.parse_section_path(&full) {
        return doc(HTML, index_page(&ctx, Some(section), page), None);
    }
    // The duplicate fault: article 0 again under another URL (same canonical).
    let path = match path {
        faults::DUPLICATE_PATH if s.faults.is_some() => {
            site.articles.first().map_or(path, |a| &a.path)
        }
        p => p,
    };
    if let Some(&i) = s.article_index.get(path) {
        let modified = site.articles.get(i).map(|a| a.published.0);
        return doc(HTML, article_page(&ctx, i), modified);
    }
    Doc {
        status: StatusCode::NOT_FOUND,
        ..doc(HTML, not_found_page(&ctx), None)
    }
}

/// HTTP date format (RFC 9110 IMF-fixdate).
const HTTP_DATE: &str = "%a, %d %b %Y %H:%M:%S GMT";

/// The response for a document: `ETag` and `Last-Modified` on 200s, 304 when
/// `If-None-Match` or `If-Modified-Since` shows the client has it, gzip when
/// `gzip` and the client accepts it.
fn finish(d: Doc, headers: &HeaderMap, gzip: bool) -> Response {
    let ok = d.status == StatusCode::OK;
    let etag = format!("\"{:016x}\"", fnv1a(d.body.as_bytes()));
    let header = |name| {
        headers
            .get(name)
            .and_then(|v: &HeaderValue| v.to_str().ok())
    };
    let etag_match = header(header::IF_NONE_MATCH)
        .is_some_and(|v| v.split(',').any(|t| t.trim() == etag || t.trim() == "*"));
    let not_modified_since = match (d.modified, header(header::IF_MODIFIED_SINCE)) {
        (Some(m), Some(since)) if header(header::IF_NONE_MATCH).is_none() => {
            NaiveDateTime::parse_from_str(since, HTTP_DATE).is_ok_and(|since| m <= since)
        }
        _ => false,
    };
    let mut r = if ok && (etag_match || not_modified_since) {
        let mut r = Response::new(Body::empty());
        *r.status_mut() = StatusCode::NOT_MODIFIED;
        r
    } else {
        let accepts_gzip = header(header::ACCEPT_ENCODING).is_some_and(|v| v.contains("gzip"));
        let mut r = match gzip_bytes(&d.body).filter(|_| gzip && accepts_gzip) {
            Some(bytes) => {
                let mut r = Response::new(Body::from(bytes));
                r.headers_mut()
                    .insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
                r
            }
            None => Response::new(Body::from(d.body)),
        };
        *r.status_mut() = d.status;
        r.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static(d.content_type),
        );
        r
    };
    if gzip {
        r.headers_mut()
            .insert(header::VARY, HeaderValue::from_static("Accept-Encoding"));
    }
    if ok {
        if let Ok(v) = HeaderValue::from_str(&etag) {
            r.headers_mut().insert(header::ETAG, v);
        }
        if let Some(m) = d.modified {
            if let Ok(v) = HeaderValue::from_str(&m.format(HTTP_DATE).to_string()) {
                r.headers_mut().insert(header::LAST_MODIFIED, v);
            }
        }
    }
    r
}

fn gzip_bytes(text: &str) -> Option<Vec<u8>> {
    use std::io::Write;
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    enc.write_all(text.as_bytes()).ok()?;
    enc.finish().ok()
}
