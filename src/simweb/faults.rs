//! Fault modes of the simulated web: responses that try to wedge a crawler.
//!
//! In: a request path on the `faults` site (and the shutdown signal). Out: a
//! misbehaving response — a body that drips slower than any read timeout, a
//! connection closed mid-body (8 KiB of a declared 200,000 bytes, then the
//! server drops the connection), a path that always answers 500 or 503, a redirect
//! loop, a 30 MiB page, a gzip bomb (≈1 MiB on the wire, > 1 GiB inflated,
//! streamed from one precomputed segment, never allocated), wrong
//! Content-Types, GBK bytes declared UTF-8, a PDF, and endless link traps.
//! [`FAULTS`] lists every kind with the path a crawl reaches it by.

use std::io;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::{header, StatusCode};
use axum::response::Response;
use chrono::{Months, NaiveDate, TimeDelta};
use futures_util::stream::{self, Stream, StreamExt};
use tokio::sync::watch;

/// (kind, path) of every fault page on the `faults` site. The robots.txt 500
/// fault lives on its own site (`faults-robots`).
pub const FAULTS: &[(&str, &str)] = &[
    ("slow-drip", "/fault/slow-drip.html"),
    ("connection-reset", "/fault/reset.html"),
    ("500-storm", "/fault/storm-1.html"),
    ("500-storm", "/fault/storm-2.html"),
    ("500-storm", "/fault/storm-3.html"),
    ("503-retry-after", "/fault/busy.html"),
    ("redirect-loop", "/fault/loop-a.html"),
    ("huge-page", "/fault/huge.html"),
    ("gzip-bomb", "/fault/bomb.html"),
    ("html-as-png", "/fault/html-as-png.html"),
    ("png-as-html", "/fault/png-as-html.html"),
    ("lying-charset", LYING_CHARSET_PATH),
    ("binary", "/fault/report.pdf"),
    ("link-trap", "/trap/1"),
    ("calendar-trap", "/calendar?date=2026-11-25"),
];

/// Root of the link farm (kind `link-farm` in `SimSite::fault_urls`). Unlike
/// the other faults it is linked from no page — it would crowd every other
/// fault out of a crawl's budget — but the faults site's index patterns match
/// it: add it to the site's `start` to use it.
pub const FARM_PATH: &str = "/farm/0";

/// Children linked from each link-farm page: discovered URLs grow 20× faster
/// than pages fetched (for frontier memory tests: 200,000 URLs from ~10,000 pages).
pub const FARM_FANOUT: u64 = 20;

pub const LYING_CHARSET_PATH: &str = "/fault/gbk-as-utf8.html";

/// Serves the site's first article again, byte for byte (canonical link
/// included): duplicate content under a second article-pattern URL. Listed
/// with kind `duplicate-content` in `SimSite::fault_urls`.
pub const DUPLICATE_PATH: &str = "/fault/copy-of-story.html";

/// Appended to the first article's URL, kind `tracking-params`: the same page
/// behind tracking parameters a crawler should normalise away.
pub const TRACKING_QUERY: &str = "utm_source=newsletter&utm_medium=email&fbclid=IwAR0simweb";

/// Pause between two chunks of the slow drip: longer than the read timeout
/// of [`super::SimWeb::config_toml`] (1 s) so a correct client gives up.
pub const DRIP_INTERVAL: Duration = Duration::from_secs(3);
/// Chunks the drip sends before ending on its own.
const DRIP_CHUNKS: usize = 40;
/// Size of the huge page: 30 MiB.
pub const HUGE_PAGE_BYTES: u64 = 30 * 1024 * 1024;
const HUGE_CHUNK: usize = 64 * 1024;
/// Bytes of zeros one gzip-bomb segment inflates to.
const BOMB_SEGMENT_BYTES: usize = 1024 * 1024;
/// Segments sent: 1088 MiB inflated.
pub const BOMB_SEGMENTS: usize = 1088;

/// Bytes computed once when the faults site starts.
pub(crate) struct FaultAssets {
    /// One full-flushed raw-deflate segment of 1 MiB of zeros, repeated 64 times.
    bomb_block: Bytes,
    bomb_trailer: Bytes,
    bomb_len: u64,
    /// The lying-charset page, GBK-encoded.
    gbk_page: Bytes,
}

impl FaultAssets {
    /// `gbk_html` is the lying-charset page's HTML (it declares UTF-8).
    pub(crate) fn new(gbk_html: &str) -> FaultAssets {
        let (segment, trailer) = bomb_parts(BOMB_SEGMENTS);
        let block = segment.repeat(64);
        let blocks = BOMB_SEGMENTS / 64;
        let bomb_len = (GZIP_HEADER.len() + block.len() * blocks + trailer.len()) as u64;
        let (gbk, _, _) = encoding_rs::GBK.encode(gbk_html);
        FaultAssets {
            bomb_block: Bytes::from(block),
            bomb_trailer: Bytes::from(trailer),
            bomb_len,
            gbk_page: Bytes::from(gbk.into_owned()),
        }
    }
}

const GZIP_HEADER: [u8; 10] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff];

/// A raw-deflate segment of `BOMB_SEGMENT_BYTES` zeros ending in a full flush
/// (so copies can follow each other), and the trailer closing a gzip member of
/// `segments` copies: an empty final stored block, CRC32 and ISIZE.
fn bomb_parts(segments: usize) -> (Vec<u8>, Vec<u8>) {
    let zeros = vec![0u8; BOMB_SEGMENT_BYTES];
    let mut c = flate2::Compress::new(flate2::Compression::best(), false);
    let mut segment = Vec::with_capacity(16 * 1024);
    // Output never exceeds a few KiB for zeros; loop until all input is taken.
    while (c.total_in() as usize) < zeros.len() || segment.is_empty() {
        let start = c.total_in() as usize;
        if segment.capacity() - segment.len() < 1024 {
            segment.reserve(16 * 1024);
        }
        if c.compress_vec(&zeros[start..], &mut segment, flate2::FlushCompress::Full)
            .is_err()
        {
            break;
        }
    }
    let mut one = flate2::Crc::new();
    one.update(&zeros);
    let mut crc = flate2::Crc::new();
    for _ in 0..segments {
        crc.combine(&one);
    }
    let mut trailer = vec![0x01, 0x00, 0x00, 0xff, 0xff];
    trailer.extend_from_slice(&crc.sum().to_le_bytes());
    let isize = (segments as u64 * BOMB_SEGMENT_BYTES as u64) as u32;
    trailer.extend_from_slice(&isize.to_le_bytes());
    (segment, trailer)
}

/// A complete small gzip bomb of `segments` MiB, for tests.
#[cfg(test)]
pub fn small_bomb(segments: usize) -> Vec<u8> {
    let (segment, trailer) = bomb_parts(segments);
    let mut out = GZIP_HEADER.to_vec();
    for _ in 0..segments {
        out.extend_from_slice(&segment);
    }
    out.extend_from_slice(&trailer);
    out
}

fn html(status: StatusCode, body: impl Into<Body>) -> Response {
    with_type(status, "text/html; charset=utf-8", body)
}

fn with_type(status: StatusCode, content_type: &str, body: impl Into<Body>) -> Response {
    let mut r = Response::new(body.into());
    *r.status_mut() = status;
    if let Ok(v) = content_type.parse() {
        r.headers_mut().insert(header::CONTENT_TYPE, v);
    }
    r
}

fn set(r: &mut Response, name: header::HeaderName, value: &str) {
    if let Ok(v) = value.parse() {
        r.headers_mut().insert(name, v);
    }
}

/// Ends the stream with an error once shutdown is signalled (or its sender
/// is dropped), so no connection outlives the web.
fn until_shutdown<S>(
    inner: S,
    shutdown: watch::Receiver<bool>,
) -> impl Stream<Item = io::Result<Bytes>> + Send + 'static
where
    S: Stream<Item = io::Result<Bytes>> + Send + Unpin + 'static,
{
    stream::unfold(Some((inner, shutdown)), |state| async move {
        let (mut inner, mut shutdown) = state?;
        if *shutdown.borrow() {
            return None;
        }
        tokio::select! {
            item = inner.next() => item.map(|i| (i, Some((inner, shutdown)))),
            _ = shutdown.changed() => Some((
                Err(io::Error::new(io::ErrorKind::ConnectionAborted, "simweb shut down")),
                None,
            )),
        }
    })
}

/// The response for a fault path, or None if `path` is not one.
pub(crate) fn respond(
    assets: &FaultAssets,
    path: &str,
    query: Option<&str>,
    shutdown: &watch::Receiver<bool>,
) -> Option<Response> {
    let rx = shutdown.clone();
    let r = match path {
        "/fault/slow-drip.html" => {
            let first = Bytes::from_static(b"<!DOCTYPE html><html><head><title>Slow</title></head><body><p>Loading");
            let drip = stream::once(async move { Ok(first) }).chain(
                stream::iter(0..DRIP_CHUNKS).then(|_| async {
                    tokio::time::sleep(DRIP_INTERVAL).await;
                    Ok(Bytes::from_static(b"."))
                }),
            );
            html(StatusCode::OK, Body::from_stream(until_shutdown(Box::pin(drip), rx)))
        }
        "/fault/reset.html" => {
            let mut head = String::from("<!DOCTYPE html><html><head><title>Cut</title></head><body>");
            while head.len() < 8 * 1024 {
                head.push_str("<p>This response will be cut off before it ends.</p>\n");
            }
            // The pause lets hyper flush the first chunk before the error
            // makes it drop the connection.
            let parts = stream::iter([Ok(Bytes::from(head))]).chain(stream::once(async {
                tokio::time::sleep(Duration::from_millis(100)).await;
                Err(io::Error::new(
                    io::ErrorKind::ConnectionReset,
                    "simweb: reset mid-body",
                ))
            }));
            let mut r = html(StatusCode::OK, Body::from_stream(parts));
            set(&mut r, header::CONTENT_LENGTH, "200000");
            r
        }
        "/fault/storm-1.html" | "/fault/storm-2.html" | "/fault/storm-3.html" => html(
            StatusCode::INTERNAL_SERVER_ERROR,
            "<!DOCTYPE html><html><body><h1>500 Internal Server Error</h1></body></html>",
        ),
        "/fault/busy.html" => {
            let mut r = html(
                StatusCode::SERVICE_UNAVAILABLE,
                "<!DOCTYPE html><html><body><h1>Busy, come back later</h1></body></html>",
            );
            set(&mut r, header::RETRY_AFTER, "1");
            r
        }
        "/fault/loop-a.html" | "/fault/loop-b.html" => {
            let to = if path.ends_with("a.html") { "/fault/loop-b.html" } else { "/fault/loop-a.html" };
            let mut r = html(StatusCode::FOUND, "");
            set(&mut r, header::LOCATION, to);
            r
        }
        "/fault/huge.html" => {
            let mut chunk = String::from("<!DOCTYPE html><html><head><title>Huge</title></head><body>\n");
            while chunk.len() < HUGE_CHUNK {
                chunk.push_str("<p>This page goes on and on: thirty mebibytes of one paragraph.</p>\n");
            }
            chunk.truncate(HUGE_CHUNK);
            let chunk = Bytes::from(chunk);
            let n = (HUGE_PAGE_BYTES as usize) / HUGE_CHUNK;
            let body = stream::iter((0..n).map(move |_| Ok(chunk.clone())));
            let mut r = html(StatusCode::OK, Body::from_stream(until_shutdown(body, rx)));
            set(&mut r, header::CONTENT_LENGTH, &HUGE_PAGE_BYTES.to_string());
            r
        }
        "/fault/bomb.html" => {
            let block = assets.bomb_block.clone();
            let blocks = BOMB_SEGMENTS / 64;
            let body = stream::iter(
                std::iter::once(Bytes::from_static(&GZIP_HEADER))
                    .chain((0..blocks).map(move |_| block.clone()))
                    .chain(std::iter::once(assets.bomb_trailer.clone()))
                    .map(Ok),
            );
            let mut r = html(StatusCode::OK, Body::from_stream(until_shutdown(body, rx)));
            set(&mut r, header::CONTENT_ENCODING, "gzip");
            set(&mut r, header::CONTENT_LENGTH, &assets.bomb_len.to_string());
            r
        }
        "/fault/html-as-png.html" => with_type(
            StatusCode::OK,
            "image/png",
            "<!DOCTYPE html><html><body><h1>I am HTML</h1><p>But the server says I am a PNG image.</p></body></html>",
        ),
        "/fault/png-as-html.html" => html(StatusCode::OK, png()),
        LYING_CHARSET_PATH => html(StatusCode::OK, assets.gbk_page.clone()),
        "/fault/report.pdf" => with_type(StatusCode::OK, "application/pdf", pdf()),
        _ => return trap(path, query),
    };
    Some(r)
}

/// Endless link spaces: `/trap/N` links to N+1 and N+2; the calendar links to
/// the previous and next day and month of any date; `/farm/N` links to its
/// [`FARM_FANOUT`] children `/farm/N·20+1 ..= N·20+20`.
fn trap(path: &str, query: Option<&str>) -> Option<Response> {
    if let Some(n) = path.strip_prefix("/farm/") {
        let n: u64 = n.parse().ok()?;
        let mut body = format!(
            "<!DOCTYPE html><html><head><title>Directory {n}</title></head><body><h1>Directory {n}</h1><ul>"
        );
        for k in 1..=FARM_FANOUT {
            let child = n.saturating_mul(FARM_FANOUT).saturating_add(k);
            body.push_str(&format!(
                "<li><a href=\"/farm/{child}\">Entry {child}</a></li>"
            ));
        }
        body.push_str("</ul></body></html>");
        return Some(html(StatusCode::OK, body));
    }
    if let Some(n) = path.strip_prefix("/trap/") {
        let n: u64 = n.parse().ok()?;
        let body = format!(
            "<!DOCTYPE html><html><head><title>Archive page {n}</title></head><body><h1>Archive page {n}</h1>\
             <p><a href=\"/trap/{a}\">Next page</a> <a href=\"/trap/{b}\">Skip ahead</a> \
             <a href=\"/calendar?date=2026-11-{d:02}\">Calendar</a></p></body></html>",
            a = n.saturating_add(1),
            b = n.saturating_add(2),
            d = 1 + n % 28,
        );
        return Some(html(StatusCode::OK, body));
    }
    if path == "/calendar" {
        let date = query?.strip_prefix("date=")?;
        let day = NaiveDate::parse_from_str(date, "%Y-%m-%d").ok()?;
        let links = [
            ("Previous day", day - TimeDelta::days(1)),
            ("Next day", day + TimeDelta::days(1)),
            (
                "Previous month",
                day.checked_sub_months(Months::new(1)).unwrap_or(day),
            ),
            (
                "Next month",
                day.checked_add_months(Months::new(1)).unwrap_or(day),
            ),
        ];
        let mut body = format!(
            "<!DOCTYPE html><html><head><title>Events on {day}</title></head><body><h1>Events on {day}</h1><p>No events.</p><ul>"
        );
        for (label, d) in links {
            body.push_str(&format!(
                "<li><a href=\"/calendar?date={}\">{label}</a></li>",
                d.format("%Y-%m-%d")
            ));
        }
        body.push_str("</ul></body></html>");
        return Some(html(StatusCode::OK, body));
    }
    None
}

/// A valid 1×1 PNG followed by padding (a real image, served as text/html).
fn png() -> Vec<u8> {
    let mut v: Vec<u8> = vec![
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44,
        0x52, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F,
        0x15, 0xC4, 0x89, 0x00, 0x00, 0x00, 0x0A, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x00,
        0x01, 0x00, 0x00, 0x05, 0x00, 0x01, 0x0D, 0x0A, 0x2D, 0xB4, 0x00, 0x00, 0x00, 0x00, 0x49,
        0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
    ];
    v.extend((0..4096u32).map(|i| (i.wrapping_mul(2654435761) >> 24) as u8));
    v
}

/// A PDF header and 64 KiB of binary noise.
fn pdf() -> Vec<u8> {
    let mut v = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n".to_vec();
    let mut x: u32 = 0x1234_5678;
    v.extend((0..64 * 1024).map(|_| {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        (x >> 24) as u8
    }));
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn gzip_bomb_segments_inflate_to_exact_size_with_valid_crc() {
        let bomb = small_bomb(3);
        assert!(bomb.len() < 16 * 1024, "{}", bomb.len());
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(&bomb[..])
            .read_to_end(&mut out)
            .expect("valid gzip with correct CRC and size");
        assert_eq!(out.len(), 3 * BOMB_SEGMENT_BYTES);
        assert!(out.iter().all(|&b| b == 0));
    }

    #[test]
    fn full_bomb_is_small_on_the_wire_and_over_a_gibibyte_inflated() {
        let assets = FaultAssets::new("<p>x</p>");
        assert!(assets.bomb_len < 2 * 1024 * 1024, "{}", assets.bomb_len);
        assert!((BOMB_SEGMENTS * BOMB_SEGMENT_BYTES) as u64 > 1 << 30);
    }

    #[test]
    fn calendar_trap_links_onwards_and_rejects_bad_dates() {
        assert!(trap("/calendar", Some("date=2026-13-45")).is_none());
        assert!(trap("/trap/x", None).is_none());
        assert!(trap("/calendar", Some("date=2026-01-31")).is_some());
    }
}
