//! An archive file opened for reading from a place in it: a local file
//! seeked there, or a remote one asked for from there (the crawl's fetcher:
//! its user agent and address guard), retried with backoff when the server
//! cannot be reached.
//!
//! In: a [`Source`], a byte offset, the fetch settings. Out: a blocking
//! [`Read`] of the file's bytes from that offset (a remote file streams:
//! nothing is first downloaded to disk) and the file's size when known,
//! or why it cannot be opened.

use std::io::{self, Read, Seek, SeekFrom};
use std::time::Duration;

use bytes::Bytes;

use super::sources::Source;
use crate::config::FetchConfig;
use crate::crawl::fetch::{ArchiveBody, FetchError, Fetcher};

/// A file open for reading.
pub struct Opened {
    pub reader: Box<dyn Read + Send>,
    /// Its size in bytes, when known (for the progress bar).
    pub size: Option<u64>,
}

/// Why a file cannot be opened.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    #[error("{0}")]
    Local(#[from] io::Error),
    #[error("{}", .0.brief())]
    Remote(#[from] FetchError),
}

impl OpenError {
    /// Whether opening it later may work (a server down, a file missing
    /// now): the file is kept for the next import.
    pub fn is_retryable(&self) -> bool {
        match self {
            OpenError::Local(e) => e.kind() != io::ErrorKind::InvalidInput,
            OpenError::Remote(FetchError::BlockedAddress(_) | FetchError::BadUrl(_)) => false,
            OpenError::Remote(_) => true,
        }
    }

    /// The short name the import's summary counts it under.
    pub fn kind(&self) -> &'static str {
        match self {
            OpenError::Local(_) => "unreadable",
            OpenError::Remote(FetchError::BlockedAddress(_)) => "blocked_address",
            OpenError::Remote(_) => "unreachable",
        }
    }
}

/// Open `source` at byte `offset`; a remote file is tried again with the
/// crawl's backoff (`[fetch] retries`, `backoff_*`) while its failure is
/// one that passes.
pub async fn open(
    source: &Source,
    offset: u64,
    fetcher: &Fetcher,
    cfg: &FetchConfig,
) -> Result<Opened, OpenError> {
    match source {
        Source::Local(path) => {
            let mut file = std::fs::File::open(path)?;
            let size = file.metadata()?.len();
            file.seek(SeekFrom::Start(offset))?;
            Ok(Opened {
                reader: Box::new(file),
                size: Some(size),
            })
        }
        Source::Remote(url) => {
            let body = open_remote(url, offset, fetcher, cfg).await?;
            let size = body.size();
            Ok(Opened {
                reader: Box::new(RemoteRead::new(body)),
                size,
            })
        }
    }
}

/// [`Fetcher::open_archive`], tried again with the crawl's backoff while
/// its failure is one that passes.
async fn open_remote(
    url: &url::Url,
    offset: u64,
    fetcher: &Fetcher,
    cfg: &FetchConfig,
) -> Result<ArchiveBody, FetchError> {
    let mut attempt = 0;
    loop {
        match fetcher.open_archive(url, offset).await {
            Ok(body) => return Ok(body),
            Err(e) => match e.retry_delay(attempt, cfg) {
                Some(delay) if attempt < cfg.retries => {
                    tracing::info!("{url}: {}; trying again in {delay:?}", e.brief());
                    tokio::time::sleep(delay.min(MAX_OPEN_DELAY)).await;
                    attempt += 1;
                }
                _ => return Err(e),
            },
        }
    }
}

/// The longest wait between two tries of a remote file.
const MAX_OPEN_DELAY: Duration = Duration::from_secs(60);

/// The whole of a small file (a paths list), at most `cap` bytes.
pub async fn read_small(
    source: &Source,
    fetcher: &Fetcher,
    cfg: &FetchConfig,
    cap: u64,
) -> Result<Vec<u8>, OpenError> {
    let too_large = || {
        OpenError::Local(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("larger than {cap} bytes"),
        ))
    };
    let mut out = Vec::new();
    match source {
        Source::Local(path) => {
            std::fs::File::open(path)?
                .take(cap + 1)
                .read_to_end(&mut out)?;
        }
        Source::Remote(url) => {
            let mut body = open_remote(url, 0, fetcher, cfg).await?;
            while let Some(piece) = body.chunk().await? {
                out.extend_from_slice(&piece);
                if out.len() as u64 > cap {
                    return Err(too_large());
                }
            }
        }
    }
    if out.len() as u64 > cap {
        return Err(too_large());
    }
    Ok(out)
}

/// A remote file's body as a blocking [`Read`], for the reading thread:
/// each piece is awaited on the runtime that opened it.
struct RemoteRead {
    body: ArchiveBody,
    runtime: tokio::runtime::Handle,
    piece: Bytes,
}

impl RemoteRead {
    /// Made on the runtime (in the async code that opened the body).
    fn new(body: ArchiveBody) -> RemoteRead {
        RemoteRead {
            body,
            runtime: tokio::runtime::Handle::current(),
            piece: Bytes::new(),
        }
    }
}

impl Read for RemoteRead {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.piece.is_empty() {
            let next = self.runtime.block_on(self.body.chunk());
            match next {
                Ok(Some(piece)) => self.piece = piece,
                Ok(None) => return Ok(0),
                Err(e) => return Err(io::Error::other(e.brief())),
            }
        }
        let n = buf.len().min(self.piece.len());
        buf[..n].copy_from_slice(&self.piece[..n]);
        self.piece = self.piece.slice(n..);
        Ok(n)
    }
}
