//! A record's gzip member handed on as the file stores it: exactly the
//! member's bytes when it holds that record alone (so that an import can
//! keep it instead of compressing the page again), nothing for a member
//! of several records or a plain file, and its payload read back as the
//! import read the block.

use std::io::Write;

use flate2::write::GzEncoder;
use flate2::Compression;

use super::http::{parse_response, payload};
use super::tests::{gzip, record, response_block, Trickle};
use super::*;

/// A page long enough to cross the reader's buffers, and varied enough
/// that its member is long too.
fn long_page(n: usize) -> String {
    let mut page = String::from("<html><body>");
    for i in 0..n {
        page.push_str(&format!(
            "<p>Paragraph {i}: the harbour board met at {}.</p>",
            i * 7919 % 1000
        ));
    }
    page
}

/// A response record whose body is sent gzip-encoded and chunked.
fn coded_response(uri: &str, body: &str) -> Vec<u8> {
    let coded = gzip(body.as_bytes());
    let mut block = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\n\
         Transfer-Encoding: chunked\r\n\r\n{:x}\r\n",
        coded.len()
    )
    .into_bytes();
    block.extend_from_slice(&coded);
    block.extend_from_slice(b"\r\n0\r\n\r\n");
    record("1.0", "response", uri, &block)
}

/// Records, and the file with a member per record.
fn archive() -> (Vec<Vec<u8>>, Vec<u8>) {
    let records = [
        record("1.1", "warcinfo", "", b"software: test\r\n"),
        record(
            "1.1",
            "request",
            "http://news.test/a",
            b"GET /a HTTP/1.1\r\n\r\n",
        ),
        record(
            "1.1",
            "response",
            "http://news.test/a",
            &response_block(&long_page(3000)),
        ),
        coded_response("http://news.test/b", &long_page(40)),
        record(
            "1.1",
            "resource",
            "http://news.test/c",
            long_page(5).as_bytes(),
        ),
        record(
            "1.1",
            "response",
            "http://news.test/d",
            &response_block("<p>short</p>"),
        ),
    ];
    let members: Vec<Vec<u8>> = records.iter().map(|r| gzip(r)).collect();
    (members.clone(), members.concat())
}

/// Each record's kind with what `member_bytes` gave after its block.
fn members_given<R: std::io::Read>(mut reader: WarcReader<R>) -> Vec<(String, Option<Vec<u8>>)> {
    let mut out = Vec::new();
    while let Some(head) = reader.next_head().expect("a good record") {
        reader.block(1 << 24).expect("a block");
        out.push((head.kind().as_str().to_string(), reader.member_bytes()));
    }
    out
}

#[test]
fn a_record_alone_in_its_member_is_given_as_the_members_stored_bytes() {
    let (members, file) = archive();
    for step in [usize::MAX, 5] {
        let given = members_given(WarcReader::new(Trickle { bytes: &file, step }, 0).unwrap());
        assert_eq!(given.len(), members.len(), "step {step}");
        for ((kind, got), member) in given.iter().zip(&members) {
            assert_eq!(got.as_ref(), Some(member), "{kind}, step {step}");
        }
    }
    // Resumed at a member, too.
    let third = members[..3].iter().map(Vec::len).sum::<usize>() as u64;
    let reader = WarcReader::resume(
        &file[third as usize..],
        Resume {
            offset: third,
            skip: 0,
        },
    )
    .unwrap();
    let given = members_given(reader);
    assert_eq!(given[0].1.as_ref(), Some(&members[3]));
}

#[test]
fn a_member_read_back_gives_the_payload_the_block_gave() {
    let (members, file) = archive();
    let mut reader = WarcReader::new(&file[..], 0).unwrap();
    let mut checked = 0;
    while let Some(head) = reader.next_head().unwrap() {
        let block = reader.block(1 << 24).unwrap();
        let member = reader.member_bytes().unwrap();
        let body = match head.kind() {
            RecordKind::Resource => block,
            RecordKind::Response => {
                payload(&block, &parse_response(&block).unwrap(), 1 << 24).unwrap()
            }
            _ => continue,
        };
        assert_eq!(member_payload(&member, body.len() as u64).unwrap(), body);
        checked += 1;
    }
    assert_eq!(checked, 4);
    // A member that is not one: an error, not a panic.
    assert!(member_payload(&members[0][..10], 100).is_err());
    assert!(member_payload(b"\x1f\x8bnot gzip", 100).is_err());
}

#[test]
fn no_member_is_given_for_a_plain_file_or_a_member_of_several_records() {
    let (_, gz) = archive();
    let plain = flate2::read::MultiGzDecoder::new(&gz[..]);
    let plain: Vec<u8> = std::io::Read::bytes(plain).map(Result::unwrap).collect();
    let given = members_given(WarcReader::new(&plain[..], 0).unwrap());
    assert_eq!(given.len(), 6);
    assert!(given.iter().all(|(_, m)| m.is_none()));
    // One member for the whole file: every record is still read.
    let whole = gzip(&plain);
    let given = members_given(WarcReader::new(&whole[..], 0).unwrap());
    let kinds: Vec<&str> = given.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(
        kinds,
        ["warcinfo", "request", "response", "response", "resource", "response"]
    );
    // The last record ends the member, but the member began before it.
    assert!(given.iter().all(|(_, m)| m.is_none()));
}

#[test]
fn a_member_cut_in_its_trailer_is_still_reported_by_the_next_head() {
    let (members, _) = archive();
    let cut = &members[2][..members[2].len() - 3];
    let mut reader = WarcReader::new(cut, 0).unwrap();
    reader.next_head().unwrap().unwrap();
    reader.block(1 << 24).unwrap();
    assert_eq!(reader.member_bytes(), None);
    let err = reader.next_head().expect_err("the member is cut");
    assert_eq!(err.kind(), "bad_gzip", "{err}");
    assert!(reader.next_head().unwrap().is_none());
}

#[test]
fn a_member_too_large_to_copy_is_read_but_not_given() {
    // Noise that deflate cannot shrink: the member is over the copy limit.
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    let noise: Vec<u8> = (0..input::MAX_MEMBER_COPY + 1024)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            b'a' + (seed % 26) as u8
        })
        .collect();
    let mut gz = GzEncoder::new(Vec::new(), Compression::none());
    gz.write_all(&record("1.1", "resource", "http://news.test/n", &noise))
        .unwrap();
    let file = gz.finish().unwrap();
    let mut reader = WarcReader::new(&file[..], 0).unwrap();
    reader.next_head().unwrap().unwrap();
    assert_eq!(reader.block(1 << 24).unwrap(), noise);
    assert_eq!(reader.member_bytes(), None);
    assert!(reader.next_head().unwrap().is_none());
}

/// What a reader yields to the end: each record's kind with its block (or
/// the block's error), and each head error, as kinds.
fn yields(bytes: &[u8], with_members: bool) -> Vec<Result<(String, Vec<u8>), &'static str>> {
    let Ok(mut reader) = WarcReader::new(bytes, 0) else {
        return vec![Err("open")];
    };
    let mut out = Vec::new();
    loop {
        match reader.next_head() {
            Ok(None) => return out,
            Err(e) => out.push(Err(e.kind())),
            Ok(Some(head)) => {
                let block = reader.block(1 << 24).map_err(|e| e.kind());
                out.push(block.map(|b| (head.kind().as_str().to_string(), b)));
                if with_members {
                    reader.member_bytes();
                }
            }
        }
    }
}

#[test]
fn asking_for_members_never_changes_what_a_cut_or_damaged_file_yields() {
    let (_, file) = archive();
    for cut in (1..file.len()).step_by(97) {
        let bytes = &file[..cut];
        assert_eq!(yields(bytes, true), yields(bytes, false), "cut at {cut}");
    }
    for at in (20..file.len()).step_by(211) {
        let mut damaged = file.clone();
        damaged[at] ^= 0x55;
        assert_eq!(yields(&damaged, true), yields(&damaged, false), "byte {at}");
    }
}
