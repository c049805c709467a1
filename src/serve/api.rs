//! The JSON API's handlers. In: validated requests ([`super::params`]).
//! Out: JSON (or, for kept HTML and exports, text streams); errors as JSON.
//!
//! - `GET /api/search?q=&site=&since=&until=&lang=&limit=&offset=`: hits,
//!   best first; without `q`, the selection's newest articles.
//! - `GET /api/articles/{id}`: one article (the JSONL object).
//! - `GET /api/articles/{id}/html`: the kept page as `text/plain`, so a
//!   browser shows it and never runs it.
//! - `GET /api/stats`: per-site figures, articles per day per site,
//!   languages, kept-HTML sizes, each site's learned boilerplate lines.
//! - `GET /api/export?format=jsonl|csv|parquet&site=&since=&until=&lang=`: the
//!   export stream of `newshound export`, chunked, in constant memory.

use std::io::Write;
use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Path, RawQuery, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use serde::Serialize;
use tokio::sync::mpsc;

use super::limits::{CHART_DAYS, TOP_LINES};
use super::{json_response, params, ApiError, AppState};
use crate::export;
use crate::store::{DayCount, KeptSizes, LanguageCount, SearchHit, SiteStats};

type Shared = State<Arc<AppState>>;

pub fn routes() -> Router<Arc<AppState>> {
    Router::new()
        .route("/api/search", get(search))
        .route("/api/articles/{id}", get(article))
        .route("/api/articles/{id}/html", get(article_html))
        .route("/api/stats", get(stats))
        .route("/api/export", get(export_stream))
}

#[derive(Serialize)]
struct SearchResponse {
    q: String,
    limit: usize,
    offset: usize,
    results: Vec<SearchHit>,
}

async fn search(State(app): Shared, RawQuery(raw): RawQuery) -> Result<Response, ApiError> {
    let req = params::search(raw.as_deref())?;
    let r = req.clone();
    let results = app
        .pool
        .search(move |store| {
            Ok(if r.q.is_empty() {
                store.recent(&r.selection, r.limit, r.offset)?
            } else {
                store.search_page(&r.q, r.limit, r.offset, &r.selection)?
            })
        })
        .await?;
    Ok(json_response(
        StatusCode::OK,
        &SearchResponse {
            q: req.q,
            limit: req.limit,
            offset: req.offset,
            results,
        },
    ))
}

async fn article(State(app): Shared, Path(id): Path<String>) -> Result<Response, ApiError> {
    let id = params::article_id(&id)?;
    let found = app
        .pool
        .run(move |store| Ok(store.article(crate::store::ArticleRef::Id(id))?))
        .await?;
    match found {
        Some(a) => Ok(json_response(StatusCode::OK, &a)),
        None => Err(ApiError::not_found(format!("no article with id {id}"))),
    }
}

async fn article_html(State(app): Shared, Path(id): Path<String>) -> Result<Response, ApiError> {
    let id = params::article_id(&id)?;
    let page = app.pool.run(move |store| Ok(store.kept_html(id)?)).await?;
    let Some(page) = page else {
        return Err(ApiError::not_found(format!(
            "no kept HTML for article {id} (no such article, or stored with [store] keep_html = false)"
        )));
    };
    // The page's own charset, so the text reads right; never text/html.
    let charset = served_charset(page.headers.content_type.as_deref());
    let mut r = (StatusCode::OK, page.body).into_response();
    let h = r.headers_mut();
    if let Ok(v) = HeaderValue::from_str(&format!("text/plain; charset={charset}")) {
        h.insert(header::CONTENT_TYPE, v);
    }
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static("default-src 'none'; sandbox"),
    );
    Ok(r)
}

/// The charset a kept page is served with: the one its site sent, by its
/// WHATWG name (`latin1` → `windows-1252`), or UTF-8 when the site named
/// none, or one no browser decodes (a made-up label, `replacement`). The
/// site's own label is never repeated: it could be anything.
fn served_charset(content_type: Option<&str>) -> &'static str {
    content_type
        .and_then(|ct| {
            ct.split(';').find_map(|p| {
                let (name, value) = p.split_once('=')?;
                name.trim()
                    .eq_ignore_ascii_case("charset")
                    .then(|| value.trim().trim_matches('"'))
            })
        })
        .and_then(|label| encoding_rs::Encoding::for_label(label.as_bytes()))
        .filter(|e| *e != encoding_rs::REPLACEMENT)
        .map_or("utf-8", |e| e.name())
}

#[derive(Serialize)]
struct Boilerplate {
    site: String,
    /// (line, LC: articles it was seen in), most recurring first.
    lines: Vec<BoilerplateLine>,
}

#[derive(Serialize)]
struct BoilerplateLine {
    line: String,
    count: u64,
}

#[derive(Serialize)]
struct Kept {
    pages: u64,
    body_bytes: u64,
    compressed_bytes: u64,
}

impl From<KeptSizes> for Kept {
    fn from(k: KeptSizes) -> Self {
        Kept {
            pages: k.pages,
            body_bytes: k.body_bytes,
            compressed_bytes: k.compressed_bytes,
        }
    }
}

#[derive(Serialize)]
struct StatsResponse {
    articles: u64,
    sites: Vec<SiteStats>,
    per_day: Vec<DayCount>,
    languages: Vec<LanguageCount>,
    kept_html: Kept,
    boilerplate: Vec<Boilerplate>,
}

async fn stats(State(app): Shared, RawQuery(raw): RawQuery) -> Result<Response, ApiError> {
    params::pairs(raw.as_deref(), &[])?;
    let window = app.line_window;
    let stats = app
        .pool
        .run(move |store| {
            let sites = store.site_stats(window)?;
            let mut boilerplate = Vec::new();
            for s in &sites {
                let lines = store
                    .top_lines(&s.site, TOP_LINES)?
                    .into_iter()
                    .map(|(line, count)| BoilerplateLine { line, count })
                    .collect();
                boilerplate.push(Boilerplate {
                    site: s.site.clone(),
                    lines,
                });
            }
            Ok(StatsResponse {
                articles: sites.iter().map(|s| s.articles).sum(),
                per_day: store.articles_per_day(CHART_DAYS)?,
                languages: store.languages()?,
                kept_html: store.kept_sizes()?.into(),
                boilerplate,
                sites,
            })
        })
        .await?;
    Ok(json_response(StatusCode::OK, &stats))
}

/// Bytes buffered before a chunk goes to the client.
const EXPORT_CHUNK: usize = 64 * 1024;
/// Chunks queued between the database thread and the connection.
const EXPORT_QUEUE: usize = 4;

/// A blocking writer feeding the response body: full chunks are sent over a
/// bounded channel, so a slow client slows the export down instead of
/// filling memory; a client gone away ends the export as a broken pipe.
struct ChunkSender {
    tx: mpsc::Sender<std::io::Result<Vec<u8>>>,
    buf: Vec<u8>,
}

impl ChunkSender {
    fn send_buf(&mut self) -> std::io::Result<()> {
        if self.buf.is_empty() {
            return Ok(());
        }
        let chunk = std::mem::replace(&mut self.buf, Vec::with_capacity(EXPORT_CHUNK));
        self.tx
            .blocking_send(Ok(chunk))
            .map_err(|_| std::io::Error::from(std::io::ErrorKind::BrokenPipe))
    }
}

impl Write for ChunkSender {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        self.buf.extend_from_slice(data);
        if self.buf.len() >= EXPORT_CHUNK {
            self.send_buf()?;
        }
        Ok(data.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.send_buf()
    }
}

async fn export_stream(State(app): Shared, RawQuery(raw): RawQuery) -> Result<Response, ApiError> {
    let (format, sel) = params::export(raw.as_deref())?;
    let Ok(permit) = app.exports.clone().try_acquire_owned() else {
        return Err(ApiError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            message: "too many exports running; try again when one has finished".into(),
        });
    };
    // An unknown site is a 400 before the stream starts, not a cut stream.
    if let Some(site) = sel.site.clone() {
        let known = app.pool.run(move |s| Ok(s.site_known(&site)?)).await?;
        if !known {
            return Err(ApiError::bad_request(format!(
                "unknown site {:?}",
                sel.site.as_deref().unwrap_or("")
            )));
        }
    }
    let (tx, mut rx) = mpsc::channel(EXPORT_QUEUE);
    let pool = app.pool.clone();
    tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let mut out = ChunkSender {
            tx: tx.clone(),
            buf: Vec::with_capacity(EXPORT_CHUNK),
        };
        // An export streams the whole corpus: no time budget.
        let result = pool.with(None, |store| {
            export::write(store, &sel, format, &mut out).map_err(|e| ApiError {
                status: StatusCode::INTERNAL_SERVER_ERROR,
                message: e.to_string(),
            })
        });
        if let Err(e) = result {
            // Headers are gone already: the stream ends with an error, which
            // the client sees as a truncated (not a complete) response.
            let _ = tx.blocking_send(Err(std::io::Error::other(e.message)));
        }
    });
    let stream = futures_util::stream::poll_fn(move |cx| rx.poll_recv(cx));
    let mut r = Response::new(Body::from_stream(stream));
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(format.content_type()),
    );
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regression_kept_html_route_repeated_the_sites_charset_label() {
        assert_eq!(
            served_charset(Some("text/html; charset=latin1")),
            "windows-1252"
        );
        assert_eq!(served_charset(Some("text/html; Charset=\"GBK\"")), "GBK");
        assert_eq!(served_charset(Some("text/html; charset=UTF-8")), "UTF-8");
        assert_eq!(served_charset(Some("text/html; charset=x-evil-7")), "utf-8");
        assert_eq!(
            served_charset(Some("text/html; charset=iso-2022-kr")),
            "utf-8"
        );
        assert_eq!(served_charset(Some("text/html")), "utf-8");
        assert_eq!(served_charset(None), "utf-8");
    }
}
