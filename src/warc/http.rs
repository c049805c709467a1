//! An archived HTTP response (a `response` record's block) → its status,
//! its headers and its payload as the page's bytes (pure).
//!
//! In: the block: a status line, header lines, a blank line, the body as
//! the crawler that wrote the archive received it. Out: [`Response`] (the
//! status and headers), and [`payload`]: the body with the transport's
//! encodings undone — `Transfer-Encoding: chunked`, then `Content-Encoding`
//! gzip, deflate or br — within a size cap, as an HTTP client hands a body
//! to the crawl.
//!
//! Archives disagree on what they store: some keep the body as sent (still
//! chunked, still compressed), others store it decoded but keep the
//! headers that say otherwise. So a chunked body that does not parse as
//! chunks, or a "gzip" body without the gzip magic bytes, is taken as it is.

use std::io::Read;

use flate2::read::{DeflateDecoder, GzDecoder, ZlibDecoder};

/// Header bytes an archived response may have.
pub const MAX_HTTP_HEAD: usize = 64 * 1024;

/// What is wrong with an archived response.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum HttpError {
    #[error("not an HTTP response: {0}")]
    BadHead(String),
    #[error("payload over the cap of {cap} bytes")]
    TooLarge { cap: u64 },
    #[error("Content-Encoding {coding}: {reason}")]
    Encoding { coding: String, reason: String },
}

impl HttpError {
    /// The short name the import's summary counts it under.
    pub fn kind(&self) -> &'static str {
        match self {
            HttpError::BadHead(_) => "bad_http",
            HttpError::TooLarge { .. } => "too_large",
            HttpError::Encoding { .. } => "bad_encoding",
        }
    }
}

/// An archived response's head.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    pub status: u16,
    /// Header fields in order, names as written.
    pub headers: Vec<(String, String)>,
    /// Where the body starts in the block.
    pub body_at: usize,
}

impl Response {
    /// A header's value (names compare without case; the first one).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// The head of the response in `block`: `HTTP/x.y CODE [reason]`, then
/// header lines to a blank line (CRLF or bare LF). Lines that are not
/// headers are left out, as browsers do; a block without a status line or
/// without the blank line is not a response.
pub fn parse_response(block: &[u8]) -> Result<Response, HttpError> {
    let bad = |why: &str| HttpError::BadHead(why.to_string());
    let scan = &block[..block.len().min(MAX_HTTP_HEAD)];
    let mut lines = Vec::new();
    let mut at = 0;
    let body_at = loop {
        let Some(end) = scan[at..].iter().position(|&b| b == b'\n') else {
            return Err(bad(if block.len() > MAX_HTTP_HEAD {
                "header longer than 64 KB"
            } else {
                "no blank line after the header"
            }));
        };
        let line = &scan[at..at + end];
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        at += end + 1;
        if line.is_empty() {
            break at;
        }
        lines.push(line);
    };
    let Some((status_line, header_lines)) = lines.split_first() else {
        return Err(bad("empty header"));
    };
    let status_line = String::from_utf8_lossy(status_line);
    let mut parts = status_line.split_whitespace();
    let version = parts.next().unwrap_or("");
    if !version.starts_with("HTTP/") {
        return Err(bad("no HTTP status line"));
    }
    let status = parts
        .next()
        .filter(|c| c.len() == 3)
        .and_then(|c| c.parse::<u16>().ok())
        .ok_or_else(|| bad("no status code"))?;
    let headers = header_lines
        .iter()
        .filter_map(|line| {
            let line = String::from_utf8_lossy(line);
            let (name, value) = line.split_once(':')?;
            let name = name.trim();
            let token = !name.is_empty() && name.bytes().all(|b| b.is_ascii_graphic());
            token.then(|| (name.to_string(), value.trim().to_string()))
        })
        .collect();
    Ok(Response {
        status,
        headers,
        body_at,
    })
}

/// The body of `block` (whose head is `response`) with its transfer and
/// content encodings undone, at most `cap` bytes.
pub fn payload(block: &[u8], response: &Response, cap: u64) -> Result<Vec<u8>, HttpError> {
    let body = &block[response.body_at.min(block.len())..];
    let chunked = response
        .header("Transfer-Encoding")
        .is_some_and(|t| t.to_ascii_lowercase().contains("chunked"));
    let dechunked = if chunked { dechunk(body) } else { None };
    let body = dechunked.as_deref().unwrap_or(body);
    let coding = response
        .header("Content-Encoding")
        .map(|c| c.trim().to_ascii_lowercase())
        .unwrap_or_default();
    let too_large = HttpError::TooLarge { cap };
    let decoded = match coding.as_str() {
        "" | "identity" | "none" => None,
        "gzip" | "x-gzip" if body.starts_with(&[0x1f, 0x8b]) => {
            Some(bounded(GzDecoder::new(body), cap, &coding)?)
        }
        // Stored decoded under a header that says otherwise.
        "gzip" | "x-gzip" => None,
        // "deflate" is zlib-wrapped by the standard, raw by some servers.
        "deflate" => Some(
            bounded(ZlibDecoder::new(body), cap, &coding)
                .or_else(|_| bounded(DeflateDecoder::new(body), cap, &coding))?,
        ),
        "br" => match bounded(
            brotli_decompressor::Decompressor::new(body, 4096),
            cap,
            &coding,
        ) {
            Ok(bytes) => Some(bytes),
            Err(HttpError::TooLarge { cap }) => return Err(HttpError::TooLarge { cap }),
            // Brotli has no magic bytes: a body that is already text was
            // stored decoded.
            Err(_) if looks_like_text(body) => None,
            Err(e) => return Err(e),
        },
        other => {
            return Err(HttpError::Encoding {
                coding: other.to_string(),
                reason: "not supported (gzip, deflate and br are)".into(),
            })
        }
    };
    let out = match decoded {
        Some(bytes) => bytes,
        None if body.len() as u64 > cap => return Err(too_large),
        None => body.to_vec(),
    };
    Ok(out)
}

/// Read `decoder` to its end, at most `cap` bytes.
fn bounded(decoder: impl Read, cap: u64, coding: &str) -> Result<Vec<u8>, HttpError> {
    let mut out = Vec::new();
    decoder
        .take(cap.saturating_add(1))
        .read_to_end(&mut out)
        .map_err(|e| HttpError::Encoding {
            coding: coding.to_string(),
            reason: e.to_string(),
        })?;
    if out.len() as u64 > cap {
        return Err(HttpError::TooLarge { cap });
    }
    Ok(out)
}

/// Whether bytes start like markup or text (after white space), not like
/// compressed data.
fn looks_like_text(body: &[u8]) -> bool {
    let start = body.iter().position(|b| !b.is_ascii_whitespace());
    start.is_none_or(|i| body[i] == b'<' || body[i..].iter().take(64).all(u8::is_ascii))
}

/// A chunked body's data; `None` when it is not chunked after all (stored
/// de-chunked under its original header).
fn dechunk(mut body: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(body.len());
    loop {
        let line_end = body.iter().position(|&b| b == b'\n')?;
        let line = std::str::from_utf8(&body[..line_end]).ok()?;
        // Chunk extensions (`;name=value`) are ignored.
        let size = line.split(';').next()?.trim();
        let size = usize::from_str_radix(size, 16).ok()?;
        body = &body[line_end + 1..];
        if size == 0 {
            // Trailer fields may follow; they are not the body.
            return Some(out);
        }
        let data = body.get(..size)?;
        out.extend_from_slice(data);
        body = &body[size..];
        body = body.strip_prefix(b"\r\n").or(body.strip_prefix(b"\n"))?;
    }
}
