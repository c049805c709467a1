//! HTTP fetching with limits.
//!
//! In: a URL, the validators of an earlier fetch (conditional GET) and what
//! kind of document is expected. Out: [`Fetched`] (final URL, status, headers
//! that matter, the raw body, the redirect chain) or a [`FetchError`] whose
//! [`FetchError::kind`] is counted in the crawl summary and whose
//! [`FetchError::retry_delay`] tells the caller whether and when to try again.
//!
//! Limits enforced here: connect/read/total timeouts, at most `max_redirects`
//! hops (followed by hand so every hop is checked: loop detection and the
//! private-address guard of `super::addr`), the body size cap while the body
//! streams in (so a 30 MB page or a gzip bomb stops at the cap, counted after
//! decompression; robots.txt is cut at `robots::rules::MAX_BYTES` instead),
//! and the content-type filter (HTML for pages, XML/JSON for
//! feeds and sitemaps) checked on the headers before any body is read.
//! robots.txt has no filter: any 2xx body is read as robots.txt, whatever
//! its type and bytes, as Google reads it (a rule a server labels
//! `application/octet-stream` or writes after a NUL byte still holds).

use std::collections::HashSet;
use std::time::{Duration, Instant};

use reqwest::header::{self, HeaderMap};
use reqwest::StatusCode;
use url::Url;

use super::addr::{self, GuardedResolver};
use super::kinds::ErrorKind;
use super::robots;
use crate::config::FetchConfig;
use crate::store::KeptHeaders;
use crate::urls::strip_credentials;

/// Longest `Retry-After` honoured; a server asking for more is retried then.
pub const MAX_RETRY_AFTER: Duration = Duration::from_secs(24 * 3600);

/// `backoff_base_secs × 2^attempt`, capped at `backoff_max_secs`.
pub fn backoff(attempt: u32, cfg: &FetchConfig) -> Duration {
    let secs = cfg.backoff_base.as_secs_f64() * 2f64.powi(attempt.min(30) as i32);
    Duration::from_secs_f64(secs.min(cfg.backoff_max.as_secs_f64()).max(0.0))
}

/// What kind of document a URL is expected to be: decides the content-type
/// filter and the `Accept` header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expect {
    Html,
    /// RSS/Atom/JSON feeds, sitemaps.
    Feed,
    /// robots.txt: read up to `robots::rules::MAX_BYTES`, the rest ignored.
    Text,
}

/// Validators of an earlier fetch, sent as `If-None-Match` /
/// `If-Modified-Since`.
#[derive(Debug, Clone, Default)]
pub struct Validators {
    pub etag: Option<String>,
    pub last_modified: Option<String>,
}

/// A successful fetch (2xx, or 304 for a conditional GET).
#[derive(Debug, Clone)]
pub struct Fetched {
    pub final_url: Url,
    pub status: u16,
    pub content_type: Option<String>,
    pub etag: Option<String>,
    pub last_modified: Option<String>,
    /// The `Date` header (kept with article pages).
    pub date: Option<String>,
    /// Decompressed body, at most `max_body_bytes`; empty for 304.
    pub body: Vec<u8>,
    /// The body was cut at its limit (robots.txt, feeds and sitemaps; any
    /// other body over the limit is an error).
    pub cut: bool,
    /// URLs redirected from, in order (the requested URL first).
    pub redirects: Vec<Url>,
    pub elapsed: Duration,
    /// When the response was read (unix ms).
    pub fetched_at: i64,
}

impl Fetched {
    /// The headers kept with an article's page (`[store] keep_html`).
    pub fn kept_headers(&self) -> KeptHeaders {
        KeptHeaders {
            content_type: self.content_type.clone(),
            last_modified: self.last_modified.clone(),
            etag: self.etag.clone(),
            date: self.date.clone(),
        }
    }

    /// 304: the document did not change since the validators were issued.
    pub fn not_modified(&self) -> bool {
        self.status == 304
    }
}

/// The HTTP client with the configured limits. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Fetcher {
    client: reqwest::Client,
    max_body: u64,
    max_redirects: usize,
    total_timeout: Duration,
    allow_private: bool,
}

impl Fetcher {
    pub fn new(cfg: &FetchConfig, user_agent: &str) -> Result<Fetcher, FetchError> {
        Fetcher::build(cfg, user_agent, Some(cfg.timeout))
    }

    /// The client, with the whole request bounded by `total`; `None` for
    /// web archives (see `archive`).
    fn build(
        cfg: &FetchConfig,
        user_agent: &str,
        total: Option<Duration>,
    ) -> Result<Fetcher, FetchError> {
        // reqwest is built without a bundled crypto provider (rustls-no-provider);
        // installing ring is idempotent and fails only if one is installed already.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let mut client = reqwest::Client::builder()
            .user_agent(user_agent)
            .connect_timeout(cfg.connect_timeout)
            .read_timeout(cfg.read_timeout);
        client = match total {
            Some(total) => client.timeout(total),
            // A web archive: its bytes as stored (resumed by offset), never
            // decoded on the way.
            None => client.no_gzip().no_brotli().no_deflate(),
        };
        let client = client
            // Followed by hand, so that every hop is checked.
            .redirect(reqwest::redirect::Policy::none())
            // A system proxy would bypass the address guard (and the tests'
            // loopback-only rule).
            .no_proxy()
            .dns_resolver(GuardedResolver {
                allow_private: cfg.allow_private_addresses,
            })
            .build()
            .map_err(|e| FetchError::Client(e.to_string()))?;
        Ok(Fetcher {
            client,
            max_body: cfg.max_body_bytes,
            max_redirects: cfg.max_redirects,
            total_timeout: cfg.timeout,
            allow_private: cfg.allow_private_addresses,
        })
    }

    /// GET `url`, following redirects, within all limits.
    pub async fn fetch(
        &self,
        url: &Url,
        validators: &Validators,
        expect: Expect,
    ) -> Result<Fetched, FetchError> {
        let started = Instant::now();
        // reqwest's timeout is per request; this bounds the whole redirect chain.
        match tokio::time::timeout(
            self.total_timeout,
            self.fetch_chain(url, validators, expect),
        )
        .await
        {
            Ok(Ok(mut fetched)) => {
                fetched.elapsed = started.elapsed();
                Ok(fetched)
            }
            Ok(Err(e)) => Err(e),
            Err(_) => Err(FetchError::Timeout),
        }
    }

    async fn fetch_chain(
        &self,
        url: &Url,
        validators: &Validators,
        expect: Expect,
    ) -> Result<Fetched, FetchError> {
        let request = |req: reqwest::RequestBuilder| {
            let mut req = req.header(header::ACCEPT, accept(expect));
            if let Some(etag) = &validators.etag {
                req = req.header(header::IF_NONE_MATCH, etag);
            }
            if let Some(lm) = &validators.last_modified {
                req = req.header(header::IF_MODIFIED_SINCE, lm);
            }
            req
        };
        let (resp, current, redirects) = self.follow(url, request).await?;
        let status = resp.status();
        if !status.is_success() && status != StatusCode::NOT_MODIFIED {
            return Err(FetchError::Http {
                status: status.as_u16(),
                retry_after: retry_after(resp.headers()),
            });
        }
        self.read(resp, current, status, redirects, expect).await
    }

    /// GET `url` as `request` makes it, following redirects by hand so that
    /// every hop is checked (scheme, loops, their number, the address
    /// guard): the response that is no redirect, its URL, and the URLs
    /// redirected from.
    async fn follow(
        &self,
        url: &Url,
        request: impl Fn(reqwest::RequestBuilder) -> reqwest::RequestBuilder,
    ) -> Result<(reqwest::Response, Url, Vec<Url>), FetchError> {
        let mut current = url.clone();
        let mut redirects: Vec<Url> = Vec::new();
        let mut seen: HashSet<String> = HashSet::new();
        loop {
            if !matches!(current.scheme(), "http" | "https") {
                return Err(FetchError::BadUrl(current.to_string()));
            }
            // Never sent as Basic auth, never kept in the redirect chain or
            // the final URL (a redirect may name credentials too).
            strip_credentials(&mut current);
            if let Some(host) = addr::url_host_refused(&current, self.allow_private) {
                return Err(FetchError::BlockedAddress(host));
            }
            seen.insert(current.as_str().to_string());
            let resp = request(self.client.get(current.clone()))
                .send()
                .await
                .map_err(classify)?;
            let status = resp.status();
            if status.is_redirection() && status != StatusCode::NOT_MODIFIED {
                let next = resp
                    .headers()
                    .get(header::LOCATION)
                    .and_then(|v| v.to_str().ok())
                    .and_then(|loc| current.join(loc.trim()).ok())
                    .ok_or(FetchError::BadRedirect)?;
                if seen.contains(next.as_str()) {
                    return Err(FetchError::RedirectLoop(next.to_string()));
                }
                if redirects.len() >= self.max_redirects {
                    return Err(FetchError::TooManyRedirects(self.max_redirects));
                }
                redirects.push(std::mem::replace(&mut current, next));
                continue;
            }
            return Ok((resp, current, redirects));
        }
    }

    async fn read(
        &self,
        mut resp: reqwest::Response,
        final_url: Url,
        status: StatusCode,
        redirects: Vec<Url>,
        expect: Expect,
    ) -> Result<Fetched, FetchError> {
        let headers = resp.headers();
        let text = |name: header::HeaderName| {
            headers
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_string)
        };
        let content_type = text(header::CONTENT_TYPE);
        let etag = text(header::ETAG);
        let last_modified = text(header::LAST_MODIFIED);
        let date = text(header::DATE);
        let mut body = Vec::new();
        let mut cut_short = false;
        if status != StatusCode::NOT_MODIFIED {
            if let Some(ct) = &content_type {
                if !content_type_ok(ct, expect) {
                    return Err(FetchError::BadContentType(ct.clone()));
                }
            }
            // robots.txt is read up to its limit and the rest ignored (RFC
            // 9309 §2.5); a feed or sitemap up to the body limit, its whole
            // entries before the cut read (a feed of 100,000 entries was
            // dropped whole); any other body over the limit is refused.
            let cut_at = match expect {
                Expect::Text => Some(robots::rules::MAX_BYTES as u64),
                Expect::Feed => Some(u64::MAX),
                Expect::Html => None,
            };
            // Content-Length is of the compressed body when encoded; the
            // streaming check below is the real limit.
            let encoded = headers.contains_key(header::CONTENT_ENCODING);
            if let (false, Some(len)) = (encoded, resp.content_length()) {
                if len > self.max_body && cut_at.is_none() {
                    return Err(FetchError::TooLarge {
                        limit: self.max_body,
                    });
                }
                // The whole body in one allocation: growing it chunk by
                // chunk copied a large page several times over.
                let len = len.min(cut_at.unwrap_or(u64::MAX)).min(self.max_body);
                body.reserve_exact(usize::try_from(len).unwrap_or(0));
            }
            while let Some(chunk) = resp.chunk().await.map_err(classify)? {
                if let Some(cut) = cut_at.map(|c| c.min(self.max_body)) {
                    let room = usize::try_from(cut).unwrap_or(usize::MAX) - body.len();
                    body.extend_from_slice(&chunk[..chunk.len().min(room)]);
                    if body.len() as u64 >= cut {
                        cut_short =
                            chunk.len() > room || resp.chunk().await.ok().flatten().is_some();
                        break;
                    }
                    continue;
                }
                if (body.len() + chunk.len()) as u64 > self.max_body {
                    return Err(FetchError::TooLarge {
                        limit: self.max_body,
                    });
                }
                body.extend_from_slice(&chunk);
            }
            // Feeds may be gzipped, and robots.txt is parsed line by line
            // whatever bytes it holds (its parser skips what is no rule).
            if expect == Expect::Html && looks_binary(&body) {
                return Err(FetchError::Binary);
            }
        }
        Ok(Fetched {
            cut: cut_short,
            final_url,
            status: status.as_u16(),
            content_type,
            etag,
            last_modified,
            date,
            body,
            redirects,
            elapsed: Duration::ZERO,
            fetched_at: chrono::Utc::now().timestamp_millis(),
        })
    }
}

fn accept(expect: Expect) -> &'static str {
    match expect {
        Expect::Html => "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1",
        Expect::Feed => {
            "application/rss+xml,application/atom+xml,application/feed+json,application/xml;q=0.9,text/xml;q=0.9,application/json;q=0.8,*/*;q=0.1"
        }
        Expect::Text => "text/plain,*/*;q=0.1",
    }
}

/// Whether a `Content-Type` fits what is expected. Missing types are let
/// through (extraction and feed parsing judge the bytes), and so is every
/// type of robots.txt.
pub fn content_type_ok(content_type: &str, expect: Expect) -> bool {
    let mime = content_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    if mime.is_empty() {
        return true;
    }
    match expect {
        Expect::Html => mime == "text/html" || mime == "application/xhtml+xml",
        Expect::Feed => {
            mime.contains("xml")
                || mime.contains("json")
                || mime.contains("rss")
                || mime.contains("atom")
                || mime == "text/plain"
                // Gzipped sitemaps (`sitemap.xml.gz`) come as these.
                || mime.contains("gzip")
                || mime == "application/octet-stream"
        }
        Expect::Text => true,
    }
}

/// Whether a body that should be text is an image, archive, PDF or other
/// binary (servers label them `text/html` often enough); UTF-16 text, with
/// or without a byte order mark, is text. See `crate::extract::sniff`.
pub fn looks_binary(body: &[u8]) -> bool {
    matches!(
        crate::extract::sniff::sniff(body),
        crate::extract::sniff::Sniffed::Binary(_)
    )
}

/// `Retry-After`: delta-seconds or an HTTP date.
fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    let value = headers.get(header::RETRY_AFTER)?.to_str().ok()?.trim();
    if let Ok(secs) = value.parse::<u64>() {
        return Some(Duration::from_secs(secs));
    }
    let when = chrono::DateTime::parse_from_rfc2822(value).ok()?;
    let delta = when.timestamp() - chrono::Utc::now().timestamp();
    Some(Duration::from_secs(delta.max(0) as u64))
}

mod archive;
mod classify;
mod error;
pub use archive::ArchiveBody;
use classify::classify;
pub use error::FetchError;

#[cfg(test)]
mod tests;
