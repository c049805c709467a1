//! Why a fetch failed, as the crawl counts it (a short kind per failure)
//! and as it retries it (whether and when to try again).

use std::time::Duration;

use super::{backoff, ErrorKind, MAX_RETRY_AFTER};
use crate::config::FetchConfig;

/// Why a fetch failed. [`FetchError::kind`] is the short name counted in the
/// summary and the fetch log.
#[derive(Debug, thiserror::Error)]
pub enum FetchError {
    #[error("cannot build the HTTP client: {0}")]
    Client(String),
    #[error("unsupported URL {0}")]
    BadUrl(String),
    #[error("timed out")]
    Timeout,
    #[error("cannot connect: {0}")]
    Connect(String),
    #[error("connection reset or closed early")]
    Reset,
    #[error("HTTP status {status}")]
    Http {
        status: u16,
        /// From a `Retry-After` header (429, 503).
        retry_after: Option<Duration>,
    },
    #[error("body larger than {limit} bytes")]
    TooLarge { limit: u64 },
    #[error("redirect loop back to {0}")]
    RedirectLoop(String),
    #[error("more than {0} redirects")]
    TooManyRedirects(usize),
    #[error("redirect without a usable Location header")]
    BadRedirect,
    #[error("refused address: {0}")]
    BlockedAddress(String),
    #[error("unexpected content type {0:?}")]
    BadContentType(String),
    #[error("binary content where text was expected")]
    Binary,
    #[error("reading the body failed: {0}")]
    Body(String),
    #[error("request failed: {0}")]
    Request(String),
}

impl FetchError {
    /// The kind it is counted and logged under (`timeout`, `http_5xx`...).
    pub fn kind(&self) -> ErrorKind {
        match self {
            FetchError::Client(_) => ErrorKind::Client,
            FetchError::BadUrl(_) => ErrorKind::BadUrl,
            FetchError::Timeout => ErrorKind::Timeout,
            FetchError::Connect(_) => ErrorKind::Connect,
            FetchError::Reset => ErrorKind::Reset,
            FetchError::Http { status: 429, .. } => ErrorKind::Http429,
            FetchError::Http { status, .. } if *status >= 500 => ErrorKind::Http5xx,
            FetchError::Http { status, .. } if *status >= 400 => ErrorKind::Http4xx,
            FetchError::Http { .. } => ErrorKind::HttpOther,
            FetchError::TooLarge { .. } => ErrorKind::TooLarge,
            FetchError::RedirectLoop(_) => ErrorKind::RedirectLoop,
            FetchError::TooManyRedirects(_) => ErrorKind::TooManyRedirects,
            FetchError::BadRedirect => ErrorKind::BadRedirect,
            FetchError::BlockedAddress(_) => ErrorKind::BlockedAddress,
            FetchError::BadContentType(_) => ErrorKind::BadContentType,
            FetchError::Binary => ErrorKind::Binary,
            FetchError::Body(_) => ErrorKind::Body,
            FetchError::Request(_) => ErrorKind::Request,
        }
    }

    /// Whether the failure is the host's trouble (timeouts, resets, 5xx,
    /// connection failures): these count towards parking the host.
    pub fn is_host_failure(&self) -> bool {
        matches!(
            self,
            FetchError::Timeout | FetchError::Connect(_) | FetchError::Reset
        ) || matches!(self, FetchError::Http { status, .. } if *status >= 500)
    }

    /// Whether this failure of a `/robots.txt` fetch leaves the host's
    /// rules unknown for now (the host is down or says "too many
    /// requests", so its URLs wait), rather than meaning a robots.txt
    /// without rules (a 4xx, or a redirect that leads nowhere: everything
    /// is allowed).
    pub fn leaves_robots_unknown(&self) -> bool {
        self.is_host_failure() || self.kind() == ErrorKind::Http429
    }

    /// The failure in a few words, for a log line: the cause at the end of
    /// the HTTP client's chain of errors ("error sending request for url
    /// (…): client error (Connect): dns error: …: Name or service not known"
    /// is "cannot connect: host name not resolved").
    pub fn brief(&self) -> String {
        match self {
            FetchError::Connect(detail) => format!("cannot connect: {}", cause(detail)),
            FetchError::Body(detail) => format!("reading the body failed: {}", cause(detail)),
            FetchError::Request(detail) => format!("request failed: {}", cause(detail)),
            other => other.to_string(),
        }
    }

    /// `Retry-After` of a 429/503 answer.
    pub fn retry_after(&self) -> Option<Duration> {
        match self {
            FetchError::Http { retry_after, .. } => *retry_after,
            _ => None,
        }
    }

    /// When to try again after attempt number `attempt` (0 = the first) failed
    /// this way: `None` if the failure is permanent. Timeouts, resets,
    /// connection failures, truncated bodies, 429 and 5xx are retried with
    /// exponential backoff capped at `backoff_max_secs`; a `Retry-After` is
    /// obeyed even beyond that cap (up to [`MAX_RETRY_AFTER`]): the server
    /// said when it can take us again. The caller decides how many attempts.
    pub fn retry_delay(&self, attempt: u32, cfg: &FetchConfig) -> Option<Duration> {
        let retryable = match self {
            FetchError::Timeout
            | FetchError::Connect(_)
            | FetchError::Reset
            | FetchError::Body(_) => true,
            FetchError::Http { status, .. } => *status == 429 || *status >= 500,
            _ => false,
        };
        if !retryable {
            return None;
        }
        let backoff = backoff(attempt, cfg);
        Some(match self.retry_after() {
            Some(after) => after.min(MAX_RETRY_AFTER).max(backoff),
            None => backoff,
        })
    }
}

/// The last, most specific link of an error chain in plain words.
fn cause(detail: &str) -> String {
    let lower = detail.to_ascii_lowercase();
    let known = [
        ("dns error", "host name not resolved"),
        ("connection refused", "connection refused"),
        ("network is unreachable", "network unreachable"),
        ("timed out", "timed out"),
        ("certificate", "TLS certificate rejected"),
        ("connection reset", "connection reset"),
    ];
    if let Some((_, plain)) = known.iter().find(|(needle, _)| lower.contains(needle)) {
        return (*plain).to_string();
    }
    let last = detail.rsplit(": ").next().unwrap_or(detail);
    let last = last.split(" (os error").next().unwrap_or(last).trim();
    last.chars().take(80).collect()
}
