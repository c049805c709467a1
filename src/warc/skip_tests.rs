//! Records nobody reads, skipped by their gzip member's size: the member
//! is not inflated when its size says it holds the record alone, and is
//! inflated as before when it does not (several records in one member,
//! magic bytes inside compressed data, a member cut short).

use flate2::write::GzEncoder;
use flate2::Compression;
use std::io::Write;

use super::tests::{gzip, read_all, record, response_block};
use super::*;

/// Text that deflate cannot shrink much: the compressed member is long, so
/// a byte changed in its middle is far past what the head's read inflates.
fn noisy_text(len: usize) -> Vec<u8> {
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    (0..len)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            b'a' + (seed % 26) as u8
        })
        .collect()
}

/// A large record of a kind nobody reads.
fn unwanted(len: usize) -> Vec<u8> {
    record("1.1", "metadata", "http://other.test/x", &noisy_text(len))
}

fn page(n: u32) -> Vec<u8> {
    record(
        "1.1",
        "response",
        &format!("http://news.test/a/{n}"),
        &response_block(&format!("<p>Story {n}</p>")),
    )
}

/// A record's target and, for a response, its block; or an error's kind.
type Seen = Result<(String, Option<Vec<u8>>), &'static str>;

/// Each record's target, with the block of the responses only (the others
/// are skipped unread), or an error's kind.
fn read_responses(bytes: &[u8]) -> Vec<Seen> {
    let mut reader = WarcReader::new(bytes, 0).expect("a WARC file");
    let mut out = Vec::new();
    loop {
        match reader.next_head() {
            Ok(None) => return out,
            Ok(Some(head)) if head.kind() == RecordKind::Response => {
                let uri = head.target_uri().unwrap_or("").to_string();
                out.push(
                    reader
                        .block(1 << 20)
                        .map(|b| (uri, Some(b)))
                        .map_err(|e| e.kind()),
                );
            }
            Ok(Some(head)) => out.push(Ok((head.target_uri().unwrap_or("").to_string(), None))),
            Err(e) => out.push(Err(e.kind())),
        }
    }
}

fn uris(got: &[Seen]) -> Vec<String> {
    got.iter()
        .map(|r| match r {
            Ok((uri, Some(_))) => format!("read {uri}"),
            Ok((uri, None)) => format!("skipped {uri}"),
            Err(kind) => format!("error {kind}"),
        })
        .collect()
}

#[test]
fn an_unwanted_records_member_is_skipped_by_its_size_without_inflating_it() {
    let first = gzip(&unwanted(200_000));
    let mut bytes = first.clone();
    bytes.extend(gzip(&page(1)));
    // Damage the middle of the first member's deflate data: only a reader
    // that inflates the member meets it.
    let middle = first.len() / 2;
    for b in &mut bytes[middle..middle + 64] {
        *b ^= 0x5a;
    }
    let got = read_responses(&bytes);
    assert_eq!(
        uris(&got),
        ["skipped http://other.test/x", "read http://news.test/a/1"],
        "{got:?}"
    );
    let Ok((_, Some(block))) = &got[1] else {
        unreachable!()
    };
    assert_eq!(block, &response_block("<p>Story 1</p>"));
    // Read whole, the damage is there.
    assert!(read_all(&bytes).contains(&Err("bad_gzip")));
}

#[test]
fn a_member_holding_more_than_the_skipped_record_is_inflated_to_its_end() {
    // One member for an unwanted record and the page after it (a writer
    // that groups records), then a member per record.
    let mut bytes = gzip(&[unwanted(100_000), page(1)].concat());
    bytes.extend(gzip(&unwanted(100_000)));
    bytes.extend(gzip(&page(2)));
    let got = read_responses(&bytes);
    assert_eq!(
        uris(&got),
        [
            "skipped http://other.test/x",
            "read http://news.test/a/1",
            "skipped http://other.test/x",
            "read http://news.test/a/2",
        ]
    );
    // A whole-file gzip: the same records.
    let whole = gzip(&[unwanted(100_000), page(1), unwanted(50_000), page(2)].concat());
    assert_eq!(uris(&read_responses(&whole)), uris(&got));
}

#[test]
fn magic_bytes_inside_a_member_are_not_taken_for_the_next_member() {
    // Stored (uncompressed) deflate blocks carry the record's bytes as
    // they are: a gzip header in the record is one in the member.
    let mut text = noisy_text(60_000);
    text.extend_from_slice(&[0, 0, 0, 0, 0x1f, 0x8b, 8, 0]);
    text.extend(noisy_text(60_000));
    let mut stored = GzEncoder::new(Vec::new(), Compression::none());
    stored
        .write_all(&record("1.1", "metadata", "http://other.test/x", &text))
        .unwrap();
    let mut bytes = stored.finish().unwrap();
    bytes.extend(gzip(&page(1)));
    assert_eq!(
        uris(&read_responses(&bytes)),
        ["skipped http://other.test/x", "read http://news.test/a/1"]
    );
}

#[test]
fn a_skipped_record_in_a_member_cut_short_is_still_reported() {
    let mut bytes = gzip(&page(1));
    bytes.extend(gzip(&unwanted(100_000)));
    bytes.truncate(bytes.len() - 5_000);
    assert_eq!(
        uris(&read_responses(&bytes)),
        [
            "read http://news.test/a/1",
            "skipped http://other.test/x",
            "error bad_gzip"
        ]
    );
}

#[test]
fn a_length_near_the_largest_number_is_an_error_not_an_overflow() {
    let huge = String::from_utf8(unwanted(100_000))
        .unwrap()
        .replace(
            "Content-Length: 100000",
            &format!("Content-Length: {}", u64::MAX - 1),
        )
        .into_bytes();
    let mut bytes = gzip(&huge);
    bytes.extend(gzip(&page(1)));
    let got = uris(&read_responses(&bytes));
    assert_eq!(got[0], "skipped http://other.test/x");
    assert!(got[1].starts_with("error"), "{got:?}");
}
