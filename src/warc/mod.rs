//! Web archives read back: a stored WARC file → its records, one at a time,
//! and an archived HTTP response → its status, headers and payload (pure:
//! any [`std::io::Read`] in, no I/O of its own).
//!
//! In: the bytes of a `.warc` or `.warc.gz` file (WARC 1.0 or 1.1; gzip as
//! one member per record, as Common Crawl writes it, or as one member for
//! the whole file), from its start or from a [`Resume`] point. Out: each
//! record's [`RecordHead`] and, when asked, its block within a size cap
//! ([`WarcReader`]); a response block's parsed HTTP head and decoded
//! payload ([`http`]).
//!
//! The reader streams: a 1 GB file is read in 64 KB pieces, and a block
//! nobody asks for is skipped without being held. Where each record can
//! be found again is given with it ([`RecordHead::resume`]), so an import
//! stopped half-way goes on at the record after the last one it finished.
//!
//! The parts: `input` (the stored bytes → the uncompressed stream, member
//! by member), `record` (the stream → record heads and blocks), [`http`]
//! (a response block → status, headers, payload).

pub mod http;
mod input;
mod record;

pub use record::{WarcReader, MAX_HEAD};

use chrono::DateTime;

/// Where a record can be read again: seek the stored file to `offset` (a
/// gzip member's start, or a plain file's record start), then skip `skip`
/// records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Resume {
    pub offset: u64,
    pub skip: u64,
}

impl Resume {
    /// The place just after this record.
    pub fn after(self) -> Resume {
        Resume {
            offset: self.offset,
            skip: self.skip + 1,
        }
    }
}

/// What a file or a record is not.
#[derive(Debug, thiserror::Error)]
pub enum WarcError {
    #[error("empty file")]
    Empty,
    #[error(
        "an ARC file (the web archive format before WARC): not supported; convert it to WARC \
         first (e.g. `warcio recompress` or JWAT's arc2warc)"
    )]
    Arc,
    #[error("not a WARC file (it starts with \"{0}\")")]
    NotWarc(String),
    #[error("WARC version {0:?}: not supported (1.0 and 1.1 are)")]
    Version(String),
    #[error("byte {at}: broken gzip data ({reason}); the rest of the file cannot be read")]
    Gzip { at: u64, reason: String },
    #[error("byte {at}: the file ends inside a record (truncated)")]
    Truncated { at: u64 },
    /// A plain file whose record cannot be framed: nothing after it can.
    #[error("byte {at}: bad record: {reason}; the rest of the file cannot be framed")]
    Framing { at: u64, reason: String },
    /// One bad record of a gzip file: the next member is read.
    #[error("byte {at}: bad record: {reason}")]
    Record { at: u64, reason: String },
    #[error("byte {at}: a record of {length} bytes, over the cap of {cap} (skipped)")]
    TooLarge { at: u64, length: u64, cap: u64 },
    #[error("byte {at}: reading failed: {source}")]
    Io {
        at: u64,
        #[source]
        source: std::io::Error,
    },
}

impl WarcError {
    /// Nothing more can be read from the file after this error (the other
    /// errors cost one record).
    pub fn is_fatal(&self) -> bool {
        !matches!(self, WarcError::Record { .. } | WarcError::TooLarge { .. })
    }

    /// Reading the file again later may go further: it was cut short
    /// (still being written or downloaded) or its source failed.
    pub fn is_retryable(&self) -> bool {
        matches!(
            self,
            WarcError::Gzip { .. } | WarcError::Truncated { .. } | WarcError::Io { .. }
        )
    }

    /// The short name the import's summary counts it under.
    pub fn kind(&self) -> &'static str {
        match self {
            WarcError::Empty => "empty_file",
            WarcError::Arc => "arc_file",
            WarcError::NotWarc(_) => "not_warc",
            WarcError::Version(_) => "warc_version",
            WarcError::Gzip { .. } => "bad_gzip",
            WarcError::Truncated { .. } => "truncated",
            WarcError::Framing { .. } | WarcError::Record { .. } => "bad_record",
            WarcError::TooLarge { .. } => "too_large",
            WarcError::Io { .. } => "read_failed",
        }
    }
}

/// What a record is (`WARC-Type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordKind {
    Warcinfo,
    Response,
    Resource,
    Request,
    Metadata,
    Revisit,
    Conversion,
    Continuation,
    Other,
}

impl RecordKind {
    /// The block is the document itself (a `resource` record), not an HTTP
    /// message whose payload is (a `response`).
    pub fn block_is_document(self) -> bool {
        self == RecordKind::Resource
    }

    pub fn as_str(self) -> &'static str {
        match self {
            RecordKind::Warcinfo => "warcinfo",
            RecordKind::Response => "response",
            RecordKind::Resource => "resource",
            RecordKind::Request => "request",
            RecordKind::Metadata => "metadata",
            RecordKind::Revisit => "revisit",
            RecordKind::Conversion => "conversion",
            RecordKind::Continuation => "continuation",
            RecordKind::Other => "other",
        }
    }
}

/// A record's header: its version, its named fields as written, its block's
/// length, and where it can be read again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordHead {
    /// `1.0` or `1.1`.
    pub version: String,
    pub fields: Vec<(String, String)>,
    /// `Content-Length`: the block's bytes.
    pub length: u64,
    pub resume: Resume,
}

impl RecordHead {
    /// A field's value (names compare without case).
    pub fn field(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub fn kind(&self) -> RecordKind {
        match self
            .field("WARC-Type")
            .map(str::to_ascii_lowercase)
            .as_deref()
        {
            Some("warcinfo") => RecordKind::Warcinfo,
            Some("response") => RecordKind::Response,
            Some("resource") => RecordKind::Resource,
            Some("request") => RecordKind::Request,
            Some("metadata") => RecordKind::Metadata,
            Some("revisit") => RecordKind::Revisit,
            Some("conversion") => RecordKind::Conversion,
            Some("continuation") => RecordKind::Continuation,
            _ => RecordKind::Other,
        }
    }

    /// `WARC-Target-URI`, without the angle brackets WARC 1.0's examples
    /// put around it.
    pub fn target_uri(&self) -> Option<&str> {
        let uri = self.field("WARC-Target-URI")?.trim();
        Some(
            uri.strip_prefix('<')
                .and_then(|u| u.strip_suffix('>'))
                .unwrap_or(uri),
        )
    }

    /// `WARC-Date` (W3C-ISO8601, seconds or finer, UTC) in unix ms.
    pub fn date_ms(&self) -> Option<i64> {
        let date = self.field("WARC-Date")?.trim();
        DateTime::parse_from_rfc3339(date)
            .ok()
            .map(|d| d.timestamp_millis())
    }
}

/// The payload of the one record a stored gzip member holds (as
/// [`WarcReader::member_bytes`] gave it): a response's body with its
/// transfer and content codings undone, as the import reads it; a
/// resource's block, which is the document itself. `cap`: the payload's
/// largest length.
pub fn member_payload(member: &[u8], cap: u64) -> std::io::Result<Vec<u8>> {
    let bad = |why: String| std::io::Error::new(std::io::ErrorKind::InvalidData, why);
    let mut reader = WarcReader::new(member, 0).map_err(|e| bad(e.to_string()))?;
    let head = reader
        .next_head()
        .map_err(|e| bad(e.to_string()))?
        .ok_or_else(|| bad("a gzip member without a record".into()))?;
    let block = reader
        .block(cap.saturating_add(http::MAX_HTTP_HEAD as u64))
        .map_err(|e| bad(e.to_string()))?;
    if head.kind().block_is_document() {
        return Ok(block);
    }
    let response = http::parse_response(&block).map_err(|e| bad(e.to_string()))?;
    http::payload(&block, &response, cap).map_err(|e| bad(e.to_string()))
}

#[cfg(test)]
mod member_tests;
#[cfg(test)]
mod skip_tests;
#[cfg(test)]
mod tests;
