//! A strict WARC/1.1 reader for tests, written from the specification
//! (ISO 28500:2017, WARC 1.1 sections 4–6 and annex D on gzip):
//!
//! - the file is a sequence of gzip members, one record each;
//! - a record is `WARC/1.1` CRLF, header fields `Name: value` CRLF, CRLF,
//!   a block of exactly Content-Length bytes, then CRLF CRLF;
//! - mandatory fields: WARC-Record-ID (`<uri>`), Content-Length,
//!   WARC-Date (`YYYY-MM-DDThh:mm:ssZ`), WARC-Type;
//! - a `response` record has WARC-Target-URI and an `application/http`
//!   block; `WARC-Block-Digest` / `WARC-Payload-Digest` given as
//!   `sha1:BASE32` must match the block and the HTTP body.
//!
//! Any deviation is an `Err` naming the record and the rule.

use std::io::{BufRead, BufReader, Read};

use flate2::bufread::GzDecoder;
use sha1::{Digest, Sha1};

pub struct WarcRecord {
    pub fields: Vec<(String, String)>,
    pub block: Vec<u8>,
}

impl WarcRecord {
    pub fn field(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The HTTP body of a response block (after the header's blank line).
    pub fn payload(&self) -> &[u8] {
        let at = find(&self.block, b"\r\n\r\n").expect("HTTP header end");
        &self.block[at + 4..]
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Every record of a `.warc.gz`, each checked to the rules above.
pub fn read_all(bytes: &[u8]) -> Result<Vec<WarcRecord>, String> {
    let mut input = BufReader::new(bytes);
    let mut records = Vec::new();
    while !input.fill_buf().map_err(|e| e.to_string())?.is_empty() {
        // One gzip member: GzDecoder stops at the member's end and leaves
        // the rest of the input unread.
        let mut member = Vec::new();
        GzDecoder::new(&mut input)
            .read_to_end(&mut member)
            .map_err(|e| format!("record {}: bad gzip member: {e}", records.len()))?;
        let record = parse_record(&member).map_err(|e| format!("record {}: {e}", records.len()))?;
        records.push(record);
    }
    Ok(records)
}

fn parse_record(member: &[u8]) -> Result<WarcRecord, String> {
    let head_end = find(member, b"\r\n\r\n").ok_or("no blank line after the header")?;
    let head = std::str::from_utf8(&member[..head_end]).map_err(|_| "header not UTF-8")?;
    let mut lines = head.split("\r\n");
    if lines.next() != Some("WARC/1.1") {
        return Err("first line is not WARC/1.1".into());
    }
    let mut fields = Vec::new();
    for line in lines {
        if line.contains('\n') || line.contains('\r') {
            return Err(format!("bare CR or LF in header line {line:?}"));
        }
        let (name, value) = line
            .split_once(':')
            .ok_or_else(|| format!("header line without a colon: {line:?}"))?;
        if name.is_empty() || name.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(format!("bad field name {name:?}"));
        }
        fields.push((name.to_string(), value.trim().to_string()));
    }
    let get = |n: &str| {
        fields
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(n))
            .map(|(_, v)| v.as_str())
    };
    for required in ["WARC-Record-ID", "Content-Length", "WARC-Date", "WARC-Type"] {
        if get(required).is_none() {
            return Err(format!("missing {required}"));
        }
    }
    let id = get("WARC-Record-ID").unwrap_or_default();
    if !(id.starts_with('<') && id.ends_with('>') && id.contains(':')) {
        return Err(format!("WARC-Record-ID is not <uri>: {id}"));
    }
    let date = get("WARC-Date").unwrap_or_default();
    if chrono::NaiveDateTime::parse_from_str(date, "%Y-%m-%dT%H:%M:%SZ").is_err() {
        return Err(format!("WARC-Date is not YYYY-MM-DDThh:mm:ssZ: {date}"));
    }
    let length: usize = get("Content-Length")
        .unwrap_or_default()
        .parse()
        .map_err(|_| "Content-Length is not a number")?;
    let body_start = head_end + 4;
    let block = member
        .get(body_start..body_start + length)
        .ok_or("block shorter than Content-Length")?
        .to_vec();
    if &member[body_start + length..] != b"\r\n\r\n" {
        return Err("block not followed by exactly CRLF CRLF".into());
    }
    let record = WarcRecord { fields, block };
    if let Some(d) = record.field("WARC-Block-Digest") {
        if d != sha1_base32(&record.block) {
            return Err(format!("WARC-Block-Digest {d} does not match"));
        }
    }
    if record.field("WARC-Type") == Some("response") {
        if record.field("WARC-Target-URI").is_none() {
            return Err("response without WARC-Target-URI".into());
        }
        let ct = record.field("Content-Type").unwrap_or_default();
        if !ct.starts_with("application/http") {
            return Err(format!("response block type {ct}"));
        }
        let status = record.block.split(|&b| b == b'\n').next().unwrap_or(&[]);
        if !status.starts_with(b"HTTP/1.1 ") {
            return Err("response block does not start with an HTTP status line".into());
        }
        let d = record
            .field("WARC-Payload-Digest")
            .ok_or("response without WARC-Payload-Digest")?;
        if d != sha1_base32(record.payload()) {
            return Err(format!("WARC-Payload-Digest {d} does not match"));
        }
    }
    Ok(record)
}

/// `sha1:` + RFC 4648 base32, computed independently of the crate's own.
fn sha1_base32(data: &[u8]) -> String {
    let digest = Sha1::digest(data);
    let mut bits = 0u64;
    let mut n = 0;
    let mut out = String::from("sha1:");
    for &b in digest.iter() {
        bits = (bits << 8) | u64::from(b);
        n += 8;
        while n >= 5 {
            n -= 5;
            let i = ((bits >> n) & 31) as u8;
            out.push(char::from(if i < 26 { b'A' + i } else { b'2' + i - 26 }));
        }
    }
    out
}
