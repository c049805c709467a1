//! One bad record never stops an import: a garbage HTTP header block, a
//! gzip body cut short, and a record over the
//! crawl's body cap (`[fetch] max_body_bytes`) are each counted by kind and
//! left out, and every good page around them is stored.

use crate::import::import_into;
use crate::support::{start_web, stored};
use crate::warc_files::{response, warc_gz, web_records};
use newshound::export::warc::Record;
use newshound::import::ImportOptions;
use newshound::simweb::SimWebSpec;

/// A `response` record whose block (HTTP head and body) is `block` as is.
fn raw_response(url: &str, block: &[u8]) -> Record {
    Record {
        fields: vec![
            ("WARC-Type", "response".to_string()),
            ("WARC-Record-ID", format!("<urn:uuid:raw-{}>", url.len())),
            ("WARC-Date", "2026-11-20T08:30:00Z".to_string()),
            ("WARC-Target-URI", url.to_string()),
            (
                "Content-Type",
                "application/http;msgtype=response".to_string(),
            ),
        ],
        block: block.to_vec(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_records_are_counted_by_kind_and_the_pages_around_them_stored() {
    let spec = SimWebSpec {
        sites: 3,
        articles_per_site: 4,
        seed: 44,
        faults: false,
    };
    let (web, dir, mut cfg) = start_web(spec).await;
    let mut records = web_records(&web, 4, false);
    let host_url = web.sites()[0].article_urls[0].clone();
    web.shutdown().await;
    let on_site = |path: &str| host_url.join(path).unwrap().to_string();
    cfg.fetch.max_body_bytes = 100_000;
    let big = format!(
        "<html><body><article><p>{}</p></article></body></html>",
        "A long story. ".repeat(10_000)
    );
    // The bad records sit between good pages: those after them count.
    let bad = [
        raw_response(
            &on_site("/garbage.html"),
            b"\x00\x01 not an HTTP head at all\r\n\r\n<html></html>",
        ),
        // A gzip body cut after its header (a body stored decoded under
        // its header would be read as it is).
        raw_response(
            &on_site("/cut-gzip.html"),
            b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\n\r\n\
              \x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\xff\xff",
        ),
        response(&on_site("/huge.html"), "text/html", big.as_bytes(), 200),
    ];
    for (i, record) in bad.into_iter().enumerate() {
        records.insert(2 + 3 * i, record);
    }
    let file = dir.path().join("bad.warc.gz");
    std::fs::write(&file, warc_gz(&records)).unwrap();
    let db = dir.path().join("bad.db");
    let opts = ImportOptions {
        files: vec![file],
        ..ImportOptions::default()
    };
    let summary = import_into(&cfg, &db, opts).await;
    assert_eq!(summary.files_read, 1, "{summary}");
    assert!(summary.files_retry.is_empty(), "{summary}");
    assert!(summary.files_failed.is_empty(), "{summary}");
    assert_eq!(summary.records as usize, records.len(), "{summary}");
    for kind in ["bad_http", "bad_encoding", "too_large"] {
        assert_eq!(summary.errors.get(kind), Some(&1), "{kind}: {summary}");
    }
    assert_eq!(summary.articles_stored, 12, "{summary}");
    let articles = stored(&db);
    assert_eq!(articles.len(), 12);
    assert!(articles.iter().all(|a| !a.url.contains("huge")));
}
