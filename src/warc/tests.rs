//! The reader on small archives built here: plain, gzip per record and
//! whole-file gzip, WARC 1.0 and 1.1, resumed at every record, and each bad
//! input an archive can bring.

use std::io::Write;

use flate2::write::GzEncoder;
use flate2::Compression;

use super::http::{parse_response, payload, HttpError};
use super::*;

/// One record's bytes: version line, fields, Content-Length, block, CRLF CRLF.
pub(super) fn record(version: &str, kind: &str, uri: &str, block: &[u8]) -> Vec<u8> {
    let mut out = format!(
        "WARC/{version}\r\nWARC-Type: {kind}\r\nWARC-Target-URI: {uri}\r\n\
         WARC-Date: 2026-11-20T08:30:00Z\r\nContent-Length: {}\r\n\r\n",
        block.len()
    )
    .into_bytes();
    out.extend_from_slice(block);
    out.extend_from_slice(b"\r\n\r\n");
    out
}

pub(super) fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut gz = GzEncoder::new(Vec::new(), Compression::fast());
    gz.write_all(bytes).unwrap();
    gz.finish().unwrap()
}

pub(super) fn response_block(body: &str) -> Vec<u8> {
    format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// Three records: a warcinfo, a request, a response.
fn records(version: &str) -> Vec<Vec<u8>> {
    vec![
        record(version, "warcinfo", "", b"software: test\r\n"),
        record(
            version,
            "request",
            "<http://news.test/a/1>",
            b"GET /a/1 HTTP/1.1\r\n\r\n",
        ),
        record(
            version,
            "response",
            "http://news.test/a/1",
            &response_block("<html><p>Storm</p></html>"),
        ),
    ]
}

pub(super) enum Layout {
    Plain,
    GzipPerRecord,
    GzipWhole,
}

pub(super) fn file(records: &[Vec<u8>], layout: Layout) -> Vec<u8> {
    match layout {
        Layout::Plain => records.concat(),
        Layout::GzipPerRecord => records.iter().flat_map(|r| gzip(r)).collect(),
        Layout::GzipWhole => gzip(&records.concat()),
    }
}

/// A record read as (type, target URI, block), or an error's kind.
pub(super) type Read = Result<(String, String, Vec<u8>), &'static str>;

/// Every record of `bytes`, read to the end.
pub(super) fn read_all(bytes: &[u8]) -> Vec<Read> {
    let mut reader = match WarcReader::new(bytes, 0) {
        Ok(r) => r,
        Err(e) => return vec![Err(e.kind())],
    };
    let mut out = Vec::new();
    loop {
        match reader.next_head() {
            Ok(None) => return out,
            Ok(Some(head)) => {
                let kind = head.kind().as_str().to_string();
                let uri = head.target_uri().unwrap_or("").to_string();
                match reader.block(1 << 20) {
                    Ok(block) => out.push(Ok((kind, uri, block))),
                    Err(e) => out.push(Err(e.kind())),
                }
            }
            Err(e) => out.push(Err(e.kind())),
        }
    }
}

#[test]
fn plain_and_gzip_files_of_both_versions_read_alike() {
    for version in ["1.0", "1.1"] {
        let recs = records(version);
        for layout in [Layout::Plain, Layout::GzipPerRecord, Layout::GzipWhole] {
            let got = read_all(&file(&recs, layout));
            assert_eq!(got.len(), 3, "{version}");
            let (kind, uri, block) = got[2].clone().unwrap();
            assert_eq!(kind, "response");
            assert_eq!(uri, "http://news.test/a/1");
            assert!(block.ends_with(b"<p>Storm</p></html>"));
            // WARC 1.0's angle brackets are not part of the URI.
            assert_eq!(got[1].as_ref().unwrap().1, "http://news.test/a/1");
        }
    }
}

#[test]
fn every_record_is_found_again_from_its_resume_point() {
    let recs: Vec<Vec<u8>> = (0..5)
        .map(|i| {
            let uri = format!("http://news.test/a/{i}");
            record(
                "1.1",
                "response",
                &uri,
                &response_block(&format!("<p>{i}</p>")),
            )
        })
        .collect();
    for layout in [Layout::Plain, Layout::GzipPerRecord, Layout::GzipWhole] {
        let bytes = file(&recs, layout);
        let mut reader = WarcReader::new(&bytes[..], 0).unwrap();
        let mut points = Vec::new();
        while let Some(head) = reader.next_head().unwrap() {
            points.push((head.target_uri().unwrap().to_string(), head.resume));
        }
        assert_eq!(points.len(), 5);
        for (i, (uri, resume)) in points.iter().enumerate() {
            let at = &bytes[resume.offset as usize..];
            let mut again = WarcReader::resume(
                at,
                Resume {
                    offset: 0,
                    ..*resume
                },
            )
            .unwrap();
            let head = again.next_head().unwrap().unwrap();
            assert_eq!(head.target_uri(), Some(uri.as_str()), "record {i}");
            // After it: the next one, or the end.
            let mut after = WarcReader::resume(
                at,
                Resume {
                    offset: 0,
                    ..resume.after()
                },
            )
            .unwrap();
            let next = after.next_head().unwrap();
            assert_eq!(
                next.as_ref().and_then(|h| h.target_uri()),
                points.get(i + 1).map(|p| p.0.as_str())
            );
        }
    }
}

#[test]
fn per_record_gzip_resumes_at_the_member_without_skipping() {
    let bytes = file(&records("1.1"), Layout::GzipPerRecord);
    let mut reader = WarcReader::new(&bytes[..], 0).unwrap();
    let mut resumes = Vec::new();
    while let Some(head) = reader.next_head().unwrap() {
        resumes.push(head.resume);
    }
    assert!(resumes.iter().all(|r| r.skip == 0), "{resumes:?}");
    assert!(resumes.windows(2).all(|w| w[0].offset < w[1].offset));
}

#[test]
fn an_empty_file_an_arc_file_and_other_files_are_named() {
    assert!(matches!(
        WarcReader::new(&b""[..], 0),
        Err(WarcError::Empty)
    ));
    let arc = b"filedesc://IA-001102.arc 0.0.0.0 20001102000000 text/plain 76\n1 0 Alexa\n";
    assert!(matches!(WarcReader::new(&arc[..], 0), Err(WarcError::Arc)));
    assert!(matches!(
        WarcReader::new(&gzip(arc)[..], 0),
        Err(WarcError::Arc)
    ));
    let html = b"<!DOCTYPE html><html><body>hi</body></html>";
    match WarcReader::new(&html[..], 0) {
        Err(e @ WarcError::NotWarc(_)) => {
            assert!(e.to_string().contains("<!DOCTYPE html>"), "{e}");
            assert!(e.is_fatal() && !e.is_retryable());
        }
        other => panic!("{:?}", other.map(|_| ())),
    }
    assert!(matches!(
        WarcReader::new(&gzip(html)[..], 0),
        Err(WarcError::NotWarc(_))
    ));
    let newer = record("2.0", "response", "http://news.test/", b"x");
    let mut reader = WarcReader::new(&newer[..], 0).unwrap();
    assert!(matches!(reader.next_head(), Err(WarcError::Version(v)) if v == "2.0"));
}

#[test]
fn a_truncated_gzip_member_ends_the_file_after_the_records_before_it() {
    let bytes = file(&records("1.1"), Layout::GzipPerRecord);
    // Cut inside the last member.
    let cut = &bytes[..bytes.len() - 20];
    let got = read_all(cut);
    assert_eq!(got.len(), 3, "{got:?}");
    assert!(got[0].is_ok() && got[1].is_ok());
    assert_eq!(got[2], Err("bad_gzip"));
    let mut reader = WarcReader::new(cut, 0).unwrap();
    let err = loop {
        match reader
            .next_head()
            .and_then(|h| h.map(|_| reader.block(1 << 20)).transpose())
        {
            Ok(Some(_)) => continue,
            Ok(None) => panic!("no error"),
            Err(e) => break e,
        }
    };
    assert!(err.is_fatal() && err.is_retryable(), "{err}");
    assert!(reader.next_head().unwrap().is_none(), "nothing after it");
    // A whole-file gzip cut short: the same.
    let whole = file(&records("1.1"), Layout::GzipWhole);
    let got = read_all(&whole[..whole.len() - 30]);
    assert_eq!(got.last(), Some(&Err("bad_gzip")), "{got:?}");
}

#[test]
fn a_content_length_past_the_end_of_the_file_is_truncation() {
    let mut recs = records("1.1");
    let last = recs.pop().unwrap();
    recs.push(last[..last.len() - 10].to_vec());
    let got = read_all(&file(&recs, Layout::Plain));
    assert_eq!(got.last(), Some(&Err("truncated")), "{got:?}");
    assert_eq!(got.len(), 3);
}

#[test]
fn a_content_length_past_its_gzip_member_costs_only_that_record() {
    let mut recs = records("1.1");
    // The request says it is longer than it is.
    recs[1] = String::from_utf8(recs[1].clone())
        .unwrap()
        .replace("Content-Length: 21", "Content-Length: 500")
        .into_bytes();
    let got = read_all(&file(&recs, Layout::GzipPerRecord));
    assert_eq!(got.len(), 3, "{got:?}");
    assert_eq!(got[1], Err("bad_record"));
    assert_eq!(got[2].as_ref().unwrap().0, "response");
}

#[test]
fn a_bad_header_costs_its_record_in_gzip_and_the_rest_in_plain() {
    let mut recs = records("1.1");
    recs[1] = b"WARC/1.1\r\nWARC-Type: request\r\nno colon here\r\n\r\nGET /\r\n\r\n".to_vec();
    let got = read_all(&file(&recs, Layout::GzipPerRecord));
    assert_eq!(got[1], Err("bad_record"), "{got:?}");
    assert_eq!(got[2].as_ref().unwrap().0, "response");
    let plain = file(&recs, Layout::Plain);
    let mut reader = WarcReader::new(&plain[..], 0).unwrap();
    reader.next_head().unwrap().unwrap();
    let err = reader.next_head().unwrap_err();
    assert!(
        matches!(err, WarcError::Framing { .. }) && err.is_fatal(),
        "{err}"
    );
    assert!(reader.next_head().unwrap().is_none());
    // No Content-Length at all.
    recs[1] = b"WARC/1.1\r\nWARC-Type: request\r\n\r\n".to_vec();
    let got = read_all(&file(&recs, Layout::GzipPerRecord));
    assert_eq!(got[1], Err("bad_record"), "{got:?}");
    assert_eq!(got.len(), 3);
}

#[test]
fn a_record_over_the_cap_is_skipped_unread() {
    let big = vec![b'x'; 5000];
    let recs = vec![
        record("1.1", "response", "http://news.test/big", &big),
        records("1.1").pop().unwrap(),
    ];
    for layout in [Layout::Plain, Layout::GzipPerRecord, Layout::GzipWhole] {
        let bytes = file(&recs, layout);
        let mut reader = WarcReader::new(&bytes[..], 0).unwrap();
        reader.next_head().unwrap().unwrap();
        let err = reader.block(1000).unwrap_err();
        assert!(matches!(
            err,
            WarcError::TooLarge {
                length: 5000,
                cap: 1000,
                ..
            }
        ));
        assert!(!err.is_fatal());
        let next = reader.next_head().unwrap().unwrap();
        assert_eq!(next.kind(), RecordKind::Response);
        assert!(reader.block(1000).unwrap().ends_with(b"</html>"));
    }
}

#[test]
fn regression_a_2_gb_record_is_refused_by_the_cap_without_being_held() {
    // A header that declares 2 GB and a file that ends long before: the
    // cap refuses it before any allocation, and skipping it finds the end.
    let head = b"WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: http://news.test/x\r\n\
        Content-Length: 2147483648\r\n\r\nHTTP/1.1 200 OK\r\n\r\n<html>";
    let mut reader = WarcReader::new(&head[..], 0).unwrap();
    let h = reader.next_head().unwrap().unwrap();
    assert_eq!(h.length, 2_147_483_648);
    assert!(matches!(
        reader.block(10 << 20),
        Err(WarcError::TooLarge { .. })
    ));
    assert!(matches!(
        reader.next_head(),
        Err(WarcError::Truncated { .. })
    ));
}

#[test]
fn padding_after_the_last_member_is_the_end() {
    let mut bytes = file(&records("1.1"), Layout::GzipPerRecord);
    bytes.extend_from_slice(&[0; 64]);
    assert!(read_all(&bytes).iter().all(Result::is_ok));
    bytes.extend_from_slice(b"garbage");
    assert_eq!(read_all(&bytes).last(), Some(&Err("bad_gzip")));
}

#[test]
fn warc_dates_and_fields() {
    let rec = record("1.1", "resource", "http://news.test/p", b"<p>x</p>");
    let mut reader = WarcReader::new(&rec[..], 0).unwrap();
    let head = reader.next_head().unwrap().unwrap();
    assert_eq!(head.kind(), RecordKind::Resource);
    assert_eq!(head.field("warc-type"), Some("resource"));
    assert_eq!(
        head.date_ms(),
        Some(
            chrono::DateTime::parse_from_rfc3339("2026-11-20T08:30:00Z")
                .unwrap()
                .timestamp_millis()
        )
    );
}

/// A brotli stream holding `data` in one uncompressed meta-block (RFC 7932
/// §9.2: WBITS 16, MNIBBLES 4, ISUNCOMPRESSED, then an empty last block).
fn brotli_stored(data: &[u8]) -> Vec<u8> {
    assert!(!data.is_empty() && data.len() <= 1 << 16);
    let header: u32 = (((data.len() - 1) as u32) << 4) | (1 << 20);
    let mut out = header.to_le_bytes()[..3].to_vec();
    out.extend_from_slice(data);
    out.push(0x03);
    out
}

fn response_with(headers: &str, body: &[u8]) -> Vec<u8> {
    let mut block = format!("HTTP/1.1 200 OK\r\n{headers}\r\n").into_bytes();
    block.extend_from_slice(body);
    block
}

#[test]
fn archived_responses_are_decoded_as_a_client_would() {
    let page = b"<html><body><p>Harbour reopens</p></body></html>";
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("", page.to_vec()),
        ("Content-Encoding: gzip\r\n", gzip(page)),
        // Stored decoded, header kept.
        ("Content-Encoding: gzip\r\n", page.to_vec()),
        ("Content-Encoding: br\r\n", brotli_stored(page)),
        ("Content-Encoding: br\r\n", page.to_vec()),
        ("Content-Encoding: deflate\r\n", {
            let mut z = flate2::write::ZlibEncoder::new(Vec::new(), Compression::fast());
            z.write_all(page).unwrap();
            z.finish().unwrap()
        }),
        ("Transfer-Encoding: chunked\r\n", {
            let mut c = b"10;ext=1\r\n".to_vec();
            c.extend_from_slice(&page[..16]);
            c.extend_from_slice(format!("\r\n{:x}\r\n", page.len() - 16).as_bytes());
            c.extend_from_slice(&page[16..]);
            c.extend_from_slice(b"\r\n0\r\n\r\n");
            c
        }),
        // Stored de-chunked, header kept.
        ("Transfer-Encoding: chunked\r\n", page.to_vec()),
    ];
    for (headers, body) in cases {
        let block = response_with(&format!("Content-Type: text/html\r\n{headers}"), &body);
        let r = parse_response(&block).unwrap();
        assert_eq!(r.status, 200);
        assert_eq!(r.header("content-type"), Some("text/html"));
        assert_eq!(payload(&block, &r, 1 << 20).unwrap(), page, "{headers}");
    }
}

#[test]
fn bad_responses_are_named() {
    let garbage = b"\x00\x01binary garbage without lines";
    assert!(matches!(
        parse_response(garbage),
        Err(HttpError::BadHead(_))
    ));
    let no_status = b"Content-Type: text/html\r\n\r\n<p>x</p>";
    assert!(matches!(
        parse_response(no_status),
        Err(HttpError::BadHead(_))
    ));
    let no_end = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n";
    assert!(matches!(parse_response(no_end), Err(HttpError::BadHead(_))));
    // A header line that is no header is left out, as browsers do.
    let odd = b"HTTP/1.0 404 Not Found\nbad line\nX-A: b\n\nbody";
    let r = parse_response(odd).unwrap();
    assert_eq!((r.status, r.headers.len()), (404, 1));
    let block = response_with("Content-Encoding: zstd\r\n", b"x");
    let r = parse_response(&block).unwrap();
    assert_eq!(payload(&block, &r, 100).unwrap_err().kind(), "bad_encoding");
    // A gzip bomb stops at the cap.
    let bomb = gzip(&vec![b'a'; 100_000]);
    let block = response_with("Content-Encoding: gzip\r\n", &bomb);
    let r = parse_response(&block).unwrap();
    assert_eq!(
        payload(&block, &r, 10_000),
        Err(HttpError::TooLarge { cap: 10_000 })
    );
    let block = response_with("", &[b'a'; 200]);
    let r = parse_response(&block).unwrap();
    assert_eq!(
        payload(&block, &r, 100),
        Err(HttpError::TooLarge { cap: 100 })
    );
}

/// A reader that gives at most `step` bytes a read, as a slow network
/// stream does.
pub(super) struct Trickle<'a> {
    pub(super) bytes: &'a [u8],
    pub(super) step: usize,
}

impl std::io::Read for Trickle<'_> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let n = self.step.min(out.len()).min(self.bytes.len());
        out[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        Ok(n)
    }
}

#[test]
fn regression_a_gzip_member_whose_magic_bytes_straddle_two_reads_is_read() {
    // A 1 GB archive stopped at the member whose first byte ended the read
    // buffer: "data after a gzip member is not another gzip member".
    let bytes = file(&records("1.1"), Layout::GzipPerRecord);
    for step in [1, 2, 3, 7] {
        let mut reader = WarcReader::new(
            Trickle {
                bytes: &bytes,
                step,
            },
            0,
        )
        .unwrap();
        let mut kinds = Vec::new();
        while let Some(head) = reader.next_head().unwrap() {
            kinds.push(head.kind().as_str().to_string());
            reader.block(1 << 20).unwrap();
        }
        assert_eq!(kinds, ["warcinfo", "request", "response"], "step {step}");
    }
}
