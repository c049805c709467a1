//! One archive file's records → the pages to import, read on a thread of
//! its own.
//!
//! In: the open file (from its resume point), the import's sites, the body
//! cap. Out: one [`Item`] per record, in file order, on a bounded channel:
//! a page ([`Archived`]: the record as a fetch, with its site), a record
//! left out and why, or a bad record; then how the file ended.
//!
//! What is a page: a `response` record of status 200, or a `resource`
//! record, whose content type is HTML (or none, and the body is not
//! binary), on a host of one of the import's sites. What is decided on the
//! record's header alone (its type, its site) costs no read of its block.
//! `WARC-Target-URI` is the page's URL, `WARC-Date` its fetch time; the
//! archived response's headers give its charset and content encoding,
//! which is undone here ([`crate::warc::http::payload`]), as an HTTP
//! client does before the crawl sees a body.

use std::io::Read;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::mpsc;
use url::Url;

use super::sites::Sites;
use crate::config::SiteSettings;
use crate::crawl::fetch::{content_type_ok, looks_binary, Expect, Fetched};
use crate::warc::http::{parse_response, payload, MAX_HTTP_HEAD};
use crate::warc::{RecordHead, RecordKind, Resume, WarcError, WarcReader};

/// An archived page, as the page path takes a fetched one.
pub struct Archived {
    pub fetched: Fetched,
    pub site: Arc<SiteSettings>,
    /// The record's gzip member as the file stores it, when it holds this
    /// record alone: the page is kept as it ([`crate::store::KeptHtml::of_compressed`]).
    pub member: Option<Vec<u8>>,
}

/// What one record is to the import.
pub enum Item {
    /// A page of one of the import's sites.
    Page { resume: Resume, page: Box<Archived> },
    /// A record left out, and why (`request`, `status`, `not_html`, `site`…).
    Skipped {
        resume: Resume,
        reason: &'static str,
    },
    /// A record that cannot be read (its place, when its head was read).
    Bad {
        resume: Option<Resume>,
        kind: &'static str,
        message: String,
    },
}

/// How the reading of a file ended.
pub enum ReadEnd {
    /// Every record was read.
    Finished,
    /// Stopped on request, or because the file is no longer this
    /// process's.
    Stopped,
    /// The file cannot be read further.
    Failed(WarcError),
}

/// Where the reading is, shared with the progress display.
#[derive(Default)]
pub struct Position {
    /// Offset of the next stored byte not read.
    pub offset: AtomicU64,
}

/// Read `input` (the file from `resume`) and send what each record is.
pub fn read_records(
    input: Box<dyn Read + Send>,
    resume: Resume,
    sites: &Sites,
    cap: u64,
    stopped: &dyn Fn() -> bool,
    items: &mpsc::Sender<Item>,
    position: &Position,
) -> ReadEnd {
    let mut reader = match WarcReader::resume(input, resume) {
        Ok(r) => r,
        Err(e) => return ReadEnd::Failed(e),
    };
    loop {
        if stopped() {
            return ReadEnd::Stopped;
        }
        let item = match reader.next_head() {
            Ok(None) => return ReadEnd::Finished,
            Err(e) if e.is_fatal() => return ReadEnd::Failed(e),
            Err(e) => Item::Bad {
                resume: None,
                kind: e.kind(),
                message: e.to_string(),
            },
            Ok(Some(head)) => match wanted(&head, sites) {
                Err(reason) => Item::Skipped {
                    resume: head.resume,
                    reason,
                },
                Ok((url, site)) => match reader.block(cap.saturating_add(MAX_HTTP_HEAD as u64)) {
                    Err(e) if e.is_fatal() => return ReadEnd::Failed(e),
                    Err(e) => Item::Bad {
                        resume: Some(head.resume),
                        kind: e.kind(),
                        message: format!("{url}: {e}"),
                    },
                    Ok(block) => {
                        let member = reader.member_bytes();
                        page_of(&head, url, site, block, member, cap)
                    }
                },
            },
        };
        position.offset.store(reader.position(), Ordering::Relaxed);
        // Waits while the pages before are processed; fails when nobody
        // takes them any more.
        if items.blocking_send(item).is_err() {
            return ReadEnd::Stopped;
        }
    }
}

/// The page's URL and site when the record may be a page of the import,
/// from its header alone; else why it is left out.
fn wanted(head: &RecordHead, sites: &Sites) -> Result<(Url, Arc<SiteSettings>), &'static str> {
    match head.kind() {
        RecordKind::Response | RecordKind::Resource => {}
        RecordKind::Request => return Err("request"),
        RecordKind::Metadata => return Err("metadata"),
        RecordKind::Warcinfo => return Err("warcinfo"),
        RecordKind::Revisit => return Err("revisit"),
        RecordKind::Conversion | RecordKind::Continuation | RecordKind::Other => {
            return Err("other_record")
        }
    }
    let url = head
        .target_uri()
        .and_then(|u| Url::parse(u).ok())
        .filter(|u| matches!(u.scheme(), "http" | "https"))
        .ok_or("no_http_uri")?;
    let site = sites.site_of(&url).ok_or("site")?;
    Ok((url, site))
}

/// What the block of a wanted record is: a page, or why not.
fn page_of(
    head: &RecordHead,
    url: Url,
    site: Arc<SiteSettings>,
    block: Vec<u8>,
    member: Option<Vec<u8>>,
    cap: u64,
) -> Item {
    let resume = head.resume;
    let bad = |kind: &'static str, message: String| Item::Bad {
        resume: Some(resume),
        kind,
        message,
    };
    let skipped = |reason| Item::Skipped { resume, reason };
    let fetched_at = head
        .date_ms()
        .unwrap_or_else(|| chrono::Utc::now().timestamp_millis());
    let (status, headers, body) = if head.kind().block_is_document() {
        // The block is the document itself, typed by the record.
        let content_type = head.field("Content-Type").map(str::to_string);
        let headers = Headers {
            content_type,
            ..Headers::default()
        };
        if block.len() as u64 > cap {
            return bad("too_large", format!("{url}: over the cap of {cap} bytes"));
        }
        (200, headers, block)
    } else {
        let response = match parse_response(&block) {
            Ok(r) => r,
            Err(e) => return bad(e.kind(), format!("{url}: {e}")),
        };
        if response.status != 200 {
            return skipped("status");
        }
        let text = |name: &str| response.header(name).map(str::to_string);
        let headers = Headers {
            content_type: text("Content-Type"),
            etag: text("ETag"),
            last_modified: text("Last-Modified"),
            date: text("Date"),
        };
        if !html(&headers) {
            return skipped("not_html");
        }
        match payload(&block, &response, cap) {
            Ok(body) => (response.status, headers, body),
            Err(e) => return bad(e.kind(), format!("{url}: {e}")),
        }
    };
    if !html(&headers) || looks_binary(&body) {
        return skipped("not_html");
    }
    let fetched = Fetched {
        final_url: url,
        status,
        content_type: headers.content_type,
        etag: headers.etag,
        last_modified: headers.last_modified,
        date: headers.date,
        body,
        // An archived body over the cap is refused above, never cut.
        cut: false,
        redirects: Vec::new(),
        elapsed: Duration::ZERO,
        fetched_at,
    };
    Item::Page {
        resume,
        page: Box::new(Archived {
            fetched,
            site,
            member,
        }),
    }
}

/// The archived response's headers that the page keeps.
#[derive(Default)]
struct Headers {
    content_type: Option<String>,
    etag: Option<String>,
    last_modified: Option<String>,
    date: Option<String>,
}

/// HTML by its content type, as the crawl accepts a page (a missing type
/// is let through: the bytes are judged).
fn html(headers: &Headers) -> bool {
    headers
        .content_type
        .as_deref()
        .is_none_or(|ct| content_type_ok(ct, Expect::Html))
}
