//! `serve`: a read-only HTTP API and one search page over the database.
//!
//! In: a database (a SQLite path or a PostgreSQL URL, [`StoreTarget`]) and
//! a bound listener (127.0.0.1:8080 by default), and a shutdown future.
//! Out: HTTP responses until shutdown. The database is opened for reading
//! ([`Access::Read`](crate::store::Access::Read): a SQLite file read-only,
//! so `serve` runs beside a crawl of the same file, WAL mode letting
//! readers never block the writer) and read through the same
//! [`AnyStore`](crate::store::AnyStore) as the CLI's read commands.
//!
//! Routes: `GET /` (the page), `/app.js`, `/app.css` (its assets, served by
//! the binary: no build step, no CDN), and the JSON API of `api`:
//! `/api/search`, `/api/articles/{id}`, `/api/articles/{id}/html`,
//! `/api/stats`, `/api/export`. Every error is JSON
//! (`{"error": "...", "status": 400}`) with the matching status code.
//!
//! Limits ([`limits`]) are constants, documented in docs/http-api.md and
//! docs/security.md; the query time budget is a setting (`[serve]
//! query_budget_secs`, [`ServeOptions::query_budget`]). Every response goes through `guard`: a `Host`
//! allow-list against DNS rebinding, and `X-Content-Type-Options: nosniff`.

mod api;
mod guard;
mod listen;
mod params;
mod pool;

pub use guard::Hosts;
pub use pool::Pool;

use std::future::Future;
use std::path::Path;
use std::sync::Arc;

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

use crate::store::{StoreError, StoreTarget};

/// Request and result limits of the API.
pub mod limits {
    /// Results per search page when `limit` is not given.
    pub const DEFAULT_LIMIT: usize = 20;
    /// Most results one search request returns (`limit`).
    pub const MAX_LIMIT: usize = 100;
    /// Deepest paging (`offset`); beyond it, narrow the search instead.
    pub const MAX_OFFSET: usize = 10_000;
    /// Longest search text (`q`), in characters.
    pub const MAX_QUERY_CHARS: usize = 256;
    /// Longest query string of any request, in bytes.
    pub const MAX_QUERY_STRING: usize = 4096;
    /// Exports streamed at once; more get 503.
    pub const MAX_EXPORTS: usize = 2;
    /// Queries (searches, articles, stats) run at once, each on its own
    /// database connection: what bounds `serve`'s memory and threads.
    pub const MAX_QUERIES: usize = 4;
    /// How long a connection may take to send a request's headers (and
    /// stay idle between requests) before it is closed.
    pub const HEADER_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);
    /// Connections open at once (well under the usual 1,024 descriptors);
    /// more wait in the listen backlog.
    pub const MAX_CONNECTIONS: usize = 256;
    /// How long a query waits for one of those; then 503.
    pub const QUERY_WAIT: std::time::Duration = std::time::Duration::from_secs(5);
    /// Days shown in the articles-per-day chart.
    pub const CHART_DAYS: usize = 60;
    /// Boilerplate lines listed per site in `/api/stats`.
    pub const TOP_LINES: usize = 10;
}

/// Why `serve` could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("cannot serve: {0}")]
    Io(#[from] std::io::Error),
}

/// An API error: a status and a one-line message, sent as JSON.
#[derive(Debug, Clone)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
}

impl ApiError {
    pub fn bad_request(message: impl Into<String>) -> Self {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
        }
    }

    pub fn busy(message: impl Into<String>) -> Self {
        ApiError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            message: message.into(),
        }
    }

    pub fn not_found(message: impl Into<String>) -> Self {
        ApiError {
            status: StatusCode::NOT_FOUND,
            message: message.into(),
        }
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::UnknownSite(site) => {
                ApiError::bad_request(format!("unknown site {site:?}"))
            }
            // No searchable word, too many terms, a prefix matching too much.
            StoreError::Query(q) => ApiError::bad_request(format!("q: {q}")),
            StoreError::OverBudget => ApiError::busy(
                "the query ran past its time budget ([serve] query_budget_secs) and was \
                 stopped; narrow it (more words, a site, dates) or try again",
            ),
            other => {
                tracing::warn!("serve: {other}");
                ApiError {
                    status: StatusCode::INTERNAL_SERVER_ERROR,
                    // SQLite's errors say "database error" themselves.
                    message: match other {
                        StoreError::Sqlite(_) => other.to_string(),
                        _ => format!("database error: {other}"),
                    },
                }
            }
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({"error": self.message, "status": self.status.as_u16()});
        json_response(self.status, &body)
    }
}

/// A JSON body with its content type.
pub fn json_response(status: StatusCode, value: &impl serde::Serialize) -> Response {
    match serde_json::to_vec(value) {
        Ok(body) => (
            status,
            [(header::CONTENT_TYPE, "application/json; charset=utf-8")],
            body,
        )
            .into_response(),
        Err(e) => (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response(),
    }
}

/// What the handlers share.
pub struct AppState {
    pub pool: Arc<Pool>,
    pub exports: Arc<tokio::sync::Semaphore>,
    /// `[boilerplate] line_window`, for the boilerplate lines in stats.
    pub line_window: u64,
}

/// The router: page, assets, API, JSON fallback; every response through
/// the `guard` (`Host` allow-list, `nosniff`).
pub fn router(state: Arc<AppState>, hosts: Hosts) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/app.js", get(app_js))
        .route("/app.css", get(app_css))
        .merge(api::routes())
        .fallback(not_found)
        .with_state(state)
        .layer(axum::middleware::from_fn_with_state(
            Arc::new(hosts),
            guard::guard,
        ))
}

/// How `serve` answers, beyond the database.
#[derive(Debug, Clone)]
pub struct ServeOptions {
    /// `[boilerplate] line_window`, for the boilerplate lines in stats.
    pub line_window: u64,
    /// Host names answered besides the bound address and `localhost`
    /// (`--allow-host`).
    pub allow_hosts: Vec<String>,
    /// How long a connection may take to send a request's headers, and
    /// stay idle between requests.
    pub header_timeout: std::time::Duration,
    /// How long one request's queries may run (`[serve]
    /// query_budget_secs`); `None`: unbounded.
    pub query_budget: Option<std::time::Duration>,
}

impl ServeOptions {
    pub fn new(line_window: u64) -> ServeOptions {
        ServeOptions {
            line_window,
            allow_hosts: Vec::new(),
            header_timeout: limits::HEADER_TIMEOUT,
            query_budget: Some(crate::config::ServeConfig::default().query_budget),
        }
    }
}

/// Serve the SQLite database `db` on `listener` until `shutdown` resolves.
pub async fn serve(
    listener: tokio::net::TcpListener,
    db: &Path,
    line_window: u64,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    let target = StoreTarget::from(db);
    serve_target(listener, &target, line_window, shutdown).await
}

/// [`serve`] for either store.
pub async fn serve_target(
    listener: tokio::net::TcpListener,
    db: &StoreTarget,
    line_window: u64,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    serve_with(listener, db, &ServeOptions::new(line_window), shutdown).await
}

/// [`serve_target`] with every option.
pub async fn serve_with(
    listener: tokio::net::TcpListener,
    db: &StoreTarget,
    options: &ServeOptions,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    // Opening may connect to a server and migrate: not on an async worker.
    let target = db.clone();
    let pool = tokio::task::spawn_blocking(move || Pool::open_target(&target))
        .await
        .map_err(|e| ServeError::Io(std::io::Error::other(e)))??;
    serve_pool(listener, pool, options, shutdown).await
}

/// [`serve_with`] on a pool opened already (the CLI opens it before it
/// says it is serving).
pub async fn serve_pool(
    listener: tokio::net::TcpListener,
    pool: Pool,
    options: &ServeOptions,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    let bound = listener.local_addr()?.ip();
    let mut pool = pool;
    pool.set_query_budget(options.query_budget);
    let pool = Arc::new(pool);
    let state = Arc::new(AppState {
        pool: pool.clone(),
        exports: Arc::new(tokio::sync::Semaphore::new(limits::MAX_EXPORTS)),
        line_window: options.line_window,
    });
    let app = router(state, Hosts::new(bound, &options.allow_hosts));
    let served = listen::run(listener, app, options.header_timeout, shutdown).await;
    // PostgreSQL's blocking client may not be dropped on an async worker
    // (closing it runs a runtime of its own): the idle connections go on
    // the blocking pool, as every use of them did.
    let idle = pool.take_idle();
    let _ = tokio::task::spawn_blocking(move || drop(idle)).await;
    served?;
    Ok(())
}

async fn not_found() -> ApiError {
    ApiError::not_found("no such page or API route (see docs/http-api.md)")
}

/// Nothing the page loads comes from elsewhere, and it is never framed.
const PAGE_POLICY: &str = "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'";

fn asset(content_type: &'static str, body: &'static str) -> Response {
    let mut r = (StatusCode::OK, body).into_response();
    let h = r.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(PAGE_POLICY),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    r
}

async fn page() -> Response {
    asset("text/html; charset=utf-8", include_str!("assets/page.html"))
}

async fn app_js() -> Response {
    asset(
        "text/javascript; charset=utf-8",
        include_str!("assets/app.js"),
    )
}

async fn app_css() -> Response {
    asset("text/css; charset=utf-8", include_str!("assets/app.css"))
}
