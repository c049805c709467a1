//! Kept HTML → WARC/1.1 (ISO 28500:2017), the archive format of Common
//! Crawl, StormCrawler and the web archives.
//!
//! In: the selected articles' kept pages
//! ([`AnyStore::export_html`](crate::store::AnyStore::export_html)). Out: one
//! `warcinfo` record, then one `response` record per kept page, each record
//! its own gzip member (so readers can seek to a record, as `.warc.gz` tools
//! expect). Articles without kept HTML are skipped and counted.
//!
//! A response record's block is the HTTP response as kept: a status line,
//! the kept headers (Content-Type, Last-Modified, ETag, Date) and a
//! Content-Length for the body, which is stored as received after HTTP
//! content decoding (so no Content-Encoding is written). Fields written:
//! `WARC-Type`, `WARC-Record-ID` (a name-based UUID of the article id, URL
//! and fetch time: the same article exports to the same id),
//! `WARC-Date` (fetch time, UTC), `WARC-Target-URI`, `Content-Type:
//! application/http;msgtype=response`, `WARC-Payload-Digest` and
//! `WARC-Block-Digest` (`sha1:` + base32 of the SHA-1, as wget and
//! warcio write them), `Content-Length`.

use std::io::Write;

use chrono::{DateTime, SecondsFormat, Utc};
use flate2::write::GzEncoder;
use flate2::Compression;
use sha1::{Digest, Sha1};

use crate::store::StoredHtml;

/// One record (header fields, block) as its own gzip member.
pub fn write_record(out: &mut dyn Write, record: &Record) -> std::io::Result<()> {
    let mut gz = GzEncoder::new(&mut *out, Compression::default());
    gz.write_all(b"WARC/1.1\r\n")?;
    for (name, value) in &record.fields {
        write!(gz, "{name}: {value}\r\n")?;
    }
    write!(gz, "Content-Length: {}\r\n\r\n", record.block.len())?;
    gz.write_all(&record.block)?;
    gz.write_all(b"\r\n\r\n")?;
    gz.finish()?;
    Ok(())
}

/// A record before serialisation (Content-Length is added on writing).
pub struct Record {
    pub fields: Vec<(&'static str, String)>,
    pub block: Vec<u8>,
}

pub(super) fn warcinfo_record(now: DateTime<Utc>) -> Record {
    let block = format!(
        "software: newshound/{}\r\nformat: WARC File Format 1.1\r\n\
         conformsTo: https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/\r\n",
        env!("CARGO_PKG_VERSION")
    )
    .into_bytes();
    let date = now.to_rfc3339_opts(SecondsFormat::Secs, true);
    Record {
        fields: vec![
            ("WARC-Type", "warcinfo".into()),
            ("WARC-Record-ID", record_id(&["warcinfo", &date])),
            ("WARC-Date", date),
            ("Content-Type", "application/warc-fields".into()),
        ],
        block,
    }
}

/// The `response` record of one kept page.
pub fn response_record(page: &StoredHtml) -> Record {
    let mut head = format!(
        "HTTP/1.1 {} {}\r\n",
        page.status,
        reason_phrase(page.status)
    );
    let h = &page.headers;
    for (name, value) in [
        ("Content-Type", &h.content_type),
        ("Last-Modified", &h.last_modified),
        ("ETag", &h.etag),
        ("Date", &h.date),
    ] {
        if let Some(v) = value {
            // Header values came from the wire; CR/LF cannot be in them, but a
            // record must never be broken by one.
            head.push_str(&format!("{name}: {}\r\n", v.replace(['\r', '\n'], " ")));
        }
    }
    head.push_str(&format!("Content-Length: {}\r\n\r\n", page.body.len()));
    let mut block = head.into_bytes();
    block.extend_from_slice(&page.body);
    let date = warc_date(page.fetched_at);
    Record {
        fields: vec![
            ("WARC-Type", "response".into()),
            (
                "WARC-Record-ID",
                record_id(&[&page.article_id.to_string(), &page.url, &date]),
            ),
            ("WARC-Date", date),
            ("WARC-Target-URI", page.url.clone()),
            ("Content-Type", "application/http;msgtype=response".into()),
            ("WARC-Payload-Digest", sha1_base32(&page.body)),
            ("WARC-Block-Digest", sha1_base32(&block)),
        ],
        block,
    }
}

/// Unix milliseconds → `2026-11-26T09:15:00Z`.
fn warc_date(ms: i64) -> String {
    DateTime::<Utc>::from_timestamp_millis(ms)
        .unwrap_or_default()
        .to_rfc3339_opts(SecondsFormat::Secs, true)
}

/// `<urn:uuid:…>`: a version-5-style UUID from the SHA-1 of the parts.
fn record_id(parts: &[&str]) -> String {
    let mut h = Sha1::new();
    for p in parts {
        h.update(p.as_bytes());
        h.update([0]);
    }
    let d = h.finalize();
    let mut b = [0u8; 16];
    b.copy_from_slice(&d[..16]);
    b[6] = (b[6] & 0x0f) | 0x50;
    b[8] = (b[8] & 0x3f) | 0x80;
    let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
    format!(
        "<urn:uuid:{}-{}-{}-{}-{}>",
        &hex[0..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
    )
}

/// `sha1:` and the RFC 4648 base32 of the SHA-1 (32 characters, no padding
/// needed for 20 bytes).
pub fn sha1_base32(data: &[u8]) -> String {
    format!("sha1:{}", base32(&Sha1::digest(data)))
}

/// RFC 4648 base32 (upper case, `=` padding).
pub fn base32(data: &[u8]) -> String {
    const ALPHABET: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    let mut out = String::with_capacity(data.len().div_ceil(5) * 8);
    for chunk in data.chunks(5) {
        let mut buf = [0u8; 5];
        buf[..chunk.len()].copy_from_slice(chunk);
        let bits = u64::from_be_bytes([0, 0, 0, buf[0], buf[1], buf[2], buf[3], buf[4]]);
        let chars = (chunk.len() * 8).div_ceil(5);
        for i in 0..8 {
            if i < chars {
                let idx = ((bits >> (35 - 5 * i)) & 31) as usize;
                out.push(char::from(ALPHABET[idx]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn reason_phrase(status: u16) -> &'static str {
    match status {
        200 => "OK",
        203 => "Non-Authoritative Information",
        206 => "Partial Content",
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base32_matches_rfc_4648_test_vectors() {
        // RFC 4648 section 10.
        assert_eq!(base32(b""), "");
        assert_eq!(base32(b"f"), "MY======");
        assert_eq!(base32(b"fo"), "MZXQ====");
        assert_eq!(base32(b"foo"), "MZXW6===");
        assert_eq!(base32(b"foob"), "MZXW6YQ=");
        assert_eq!(base32(b"fooba"), "MZXW6YTB");
        assert_eq!(base32(b"foobar"), "MZXW6YTBOI======");
    }

    #[test]
    fn payload_digest_is_sha1_in_base32() {
        // SHA-1("abc") = a9993e364706816aba3e25717850c26c9cd0d89d.
        assert_eq!(sha1_base32(b"abc"), "sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5");
    }

    #[test]
    fn record_ids_are_uuid_urns_and_stable() {
        let a = record_id(&["1", "http://x/", "2026-11-26T00:00:00Z"]);
        assert_eq!(a, record_id(&["1", "http://x/", "2026-11-26T00:00:00Z"]));
        assert_ne!(a, record_id(&["2", "http://x/", "2026-11-26T00:00:00Z"]));
        assert!(a.starts_with("<urn:uuid:") && a.ends_with('>'), "{a}");
        assert_eq!(a.len(), "<urn:uuid:>".len() + 36);
        assert_eq!(&a[24..25], "5", "version nibble: {a}");
    }
}
