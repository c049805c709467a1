//! A web archive file over HTTP(S), for `import`: a `warc.paths` list or a
//! WARC file read as a stream, from its start or from a byte offset.
//!
//! In: the file's URL and where to start. Out: an [`ArchiveBody`] whose
//! pieces arrive as the server sends them — a 1 GB file is never held, nor
//! first written to disk — or the [`FetchError`] of the crawl's fetches.
//!
//! The request is the crawl's: its user agent, its address guard on every
//! redirect hop, its connect and read timeouts; not its bound on the whole
//! request (an archive streams for as long as it is read) nor its body cap,
//! and no content encoding is asked for (the offsets are the stored file's).
//! A server that ignores the `Range` request sends the whole file: the bytes
//! before the offset are dropped as they arrive.

use bytes::Bytes;
use reqwest::header;
use reqwest::StatusCode;
use url::Url;

use super::{classify, retry_after, FetchError, Fetcher};
use crate::config::FetchConfig;

/// A web archive file being read.
pub struct ArchiveBody {
    resp: reqwest::Response,
    /// Bytes still to drop before the offset asked for.
    skip: u64,
    /// The whole file's size, when the server says.
    size: Option<u64>,
}

impl Fetcher {
    /// The fetcher of web archives (see the module doc).
    pub fn for_archives(cfg: &FetchConfig, user_agent: &str) -> Result<Fetcher, FetchError> {
        Fetcher::build(cfg, user_agent, None)
    }

    /// Open the archive file at `url` from byte `offset` on.
    pub async fn open_archive(&self, url: &Url, offset: u64) -> Result<ArchiveBody, FetchError> {
        let range = (offset > 0).then(|| format!("bytes={offset}-"));
        let request = |req: reqwest::RequestBuilder| {
            let req = req.header(header::ACCEPT_ENCODING, "identity");
            match &range {
                Some(r) => req.header(header::RANGE, r),
                None => req,
            }
        };
        // The response's head within the crawl's bound on a request.
        let (resp, _, _) = tokio::time::timeout(self.total_timeout, self.follow(url, request))
            .await
            .map_err(|_| FetchError::Timeout)??;
        let status = resp.status();
        let (first, whole) = content_range(resp.headers());
        let size = match status {
            StatusCode::PARTIAL_CONTENT => whole,
            _ => resp.content_length(),
        };
        let skip = match status {
            StatusCode::PARTIAL_CONTENT if first == Some(offset) => 0,
            StatusCode::PARTIAL_CONTENT => {
                return Err(FetchError::Body(format!(
                    "asked for bytes from {offset} on, the server sent another range"
                )))
            }
            StatusCode::OK => offset,
            _ => {
                return Err(FetchError::Http {
                    status: status.as_u16(),
                    retry_after: retry_after(resp.headers()),
                })
            }
        };
        Ok(ArchiveBody { resp, skip, size })
    }
}

/// The first byte and the whole length of a `Content-Range: bytes
/// FIRST-LAST/LENGTH` answer.
fn content_range(headers: &header::HeaderMap) -> (Option<u64>, Option<u64>) {
    let Some(range) = headers
        .get(header::CONTENT_RANGE)
        .and_then(|v| v.to_str().ok())
        .and_then(|r| r.trim().strip_prefix("bytes"))
    else {
        return (None, None);
    };
    let (span, whole) = range.trim_start().split_once('/').unwrap_or((range, ""));
    let first = span.split('-').next().and_then(|f| f.trim().parse().ok());
    (first, whole.trim().parse().ok())
}

impl ArchiveBody {
    /// The whole file's size, when the server says.
    pub fn size(&self) -> Option<u64> {
        self.size
    }

    /// The next piece of the file, `None` at its end.
    pub async fn chunk(&mut self) -> Result<Option<Bytes>, FetchError> {
        loop {
            let Some(piece) = self.resp.chunk().await.map_err(classify)? else {
                return Ok(None);
            };
            if self.skip == 0 {
                return Ok(Some(piece));
            }
            let drop = usize::try_from(self.skip)
                .unwrap_or(usize::MAX)
                .min(piece.len());
            self.skip -= drop as u64;
            if drop < piece.len() {
                return Ok(Some(piece.slice(drop..)));
            }
        }
    }
}
