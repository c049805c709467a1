//! The HTTP side: one axum server per site, each on its own 127.0.0.1 port.
//!
//! In: requests. Out: responses rendered from the site's [`SiteContent`]
//! (pages, feeds, sitemaps, robots.txt, fault pages), and one
//! [`RequestRecord`] per request appended to the web's shared log. Text
//! responses carry an `ETag` and honour `If-None-Match` with 304, so
//! conditional recrawls can be tested.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::Response;
use axum::Router;
use tokio::sync::watch;
use url::Url;

use super::article::article_page;
use super::faults::{self, FaultAssets};
use super::feeds;
use super::pages::{index_page, not_found_page, private_page, Ctx};
use super::site::{fnv1a, SiteContent, Template};
use super::RequestRecord;

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
}

impl SiteServer {
    pub fn new(
        content: SiteContent,
        base: Url,
        faults: Option<FaultAssets>,
        log: Log,
        shutdown: watch::Receiver<bool>,
    ) -> SiteServer {
        let article_index = content
            .articles
            .iter()
            .enumerate()
            .map(|(i, a)| (a.path.clone(), i))
            .collect();
        let fault_links = if faults.is_some() {
            faults::FAULTS
                .iter()
                .map(|(k, p)| (k.to_string(), p.to_string()))
                .collect()
        } else {
            Vec::new()
        };
        SiteServer {
            content,
            base,
            article_index,
            fault_links,
            faults,
            log,
            shutdown,
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
    let record = RequestRecord {
        site: s.content.name.clone(),
        path: path_and_query,
        at,
        status: response.status().as_u16(),
    };
    s.log
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .push(record);
    response
}

fn route(s: &SiteServer, path: &str, query: Option<&str>, headers: &HeaderMap) -> Response {
    let site = &s.content;
    let ctx = s.ctx();
    let full = match query {
        Some(q) => format!("{path}?{q}"),
        None => path.to_string(),
    };
    const HTML: &str = "text/html; charset=utf-8";
    const XML: &str = "application/xml; charset=utf-8";
    match path {
        "/robots.txt" if site.template == Template::RobotsFail => {
            return text(
                StatusCode::INTERNAL_SERVER_ERROR,
                HTML,
                "<h1>500 Internal Server Error</h1>".into(),
                headers,
            );
        }
        "/robots.txt" => {
            return text(
                StatusCode::OK,
                "text/plain; charset=utf-8",
                feeds::robots(site, &s.base),
                headers,
            )
        }
        "/rss.xml" => {
            return text(
                StatusCode::OK,
                "application/rss+xml; charset=utf-8",
                feeds::rss(site, &s.base),
                headers,
            )
        }
        feeds::SITEMAP => return text(StatusCode::OK, XML, feeds::sitemap(site, &s.base), headers),
        feeds::NEWS_SITEMAP if site.template == Template::Huaxia => {
            return text(
                StatusCode::OK,
                XML,
                feeds::news_sitemap(site, &s.base),
                headers,
            )
        }
        feeds::ARCHIVE_SITEMAP if site.template == Template::Huaxia => {
            return text(
                StatusCode::OK,
                XML,
                feeds::archive_sitemap(site, &s.base),
                headers,
            )
        }
        "/" if query.is_none() => {
            return text(StatusCode::OK, HTML, index_page(&ctx, None, 1), headers)
        }
        _ => {}
    }
    if path.starts_with("/private/") {
        return text(StatusCode::OK, HTML, private_page(&ctx), headers);
    }
    if let Some((section, page)) = site.parse_section_path(&full) {
        return text(
            StatusCode::OK,
            HTML,
            index_page(&ctx, Some(section), page),
            headers,
        );
    }
    if let Some(&i) = s.article_index.get(path) {
        return text(StatusCode::OK, HTML, article_page(&ctx, i), headers);
    }
    if let Some(assets) = &s.faults {
        if let Some(r) = faults::respond(assets, path, query, &s.shutdown) {
            return r;
        }
    }
    text(StatusCode::NOT_FOUND, HTML, not_found_page(&ctx), headers)
}

/// A complete text response with an ETag; 304 when the client already has it.
fn text(status: StatusCode, content_type: &str, body: String, headers: &HeaderMap) -> Response {
    let etag = format!("\"{:016x}\"", fnv1a(body.as_bytes()));
    let fresh = status == StatusCode::OK
        && headers
            .get(header::IF_NONE_MATCH)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.split(',').any(|t| t.trim() == etag));
    let mut r = if fresh {
        let mut r = Response::new(Body::empty());
        *r.status_mut() = StatusCode::NOT_MODIFIED;
        r
    } else {
        let mut r = Response::new(Body::from(body));
        *r.status_mut() = status;
        if let Ok(v) = content_type.parse() {
            r.headers_mut().insert(header::CONTENT_TYPE, v);
        }
        r
    };
    if status == StatusCode::OK {
        if let Ok(v) = etag.parse() {
            r.headers_mut().insert(header::ETAG, v);
        }
    }
    r
}
