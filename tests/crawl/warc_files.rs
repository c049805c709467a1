//! WARC files for the import tests, written with the export's own record
//! writer (each record its own gzip member): the simulated web's article
//! pages as `response` records, with what a real archive holds around
//! them — a `warcinfo`, `request` and `metadata` records, a 404, an image,
//! a page of a host no site owns.

use newshound::export::warc::{response_record, write_record, Record};
use newshound::simweb::SimWeb;
use newshound::store::{KeptHeaders, StoredHtml};
use url::Url;

/// When the pages were archived (2026-11-20T08:30:00Z), in unix ms.
pub const ARCHIVED_MS: i64 = 1_795_163_400_000;

/// A `response` record of status 200 holding `body` as `content_type`.
pub fn response(url: &str, content_type: &str, body: &[u8], status: u16) -> Record {
    response_record(&StoredHtml {
        article_id: 0,
        site: String::new(),
        url: url.to_string(),
        status,
        headers: KeptHeaders {
            content_type: Some(content_type.to_string()),
            ..KeptHeaders::default()
        },
        fetched_at: ARCHIVED_MS,
        body: body.to_vec(),
    })
}

/// A record of another type, with a small block.
pub fn other(kind: &str, url: &str, block: &str) -> Record {
    Record {
        fields: vec![
            ("WARC-Type", kind.to_string()),
            ("WARC-Record-ID", format!("<urn:uuid:{kind}-{}>", url.len())),
            ("WARC-Date", "2026-11-20T08:30:00Z".to_string()),
            ("WARC-Target-URI", url.to_string()),
            (
                "Content-Type",
                "application/http;msgtype=request".to_string(),
            ),
        ],
        block: block.as_bytes().to_vec(),
    }
}

/// The noise around one page.
pub fn noise(url: &Url) -> Vec<Record> {
    let path = url.path();
    vec![
        other(
            "request",
            url.as_str(),
            &format!("GET {path} HTTP/1.1\r\n\r\n"),
        ),
        other("metadata", url.as_str(), "fetchTimeMs: 12\r\n"),
        response(
            url.join("/missing").unwrap().as_str(),
            "text/html",
            b"<html>not found</html>",
            404,
        ),
        response(
            url.join("/logo.png").unwrap().as_str(),
            "image/png",
            b"\x89PNG\r\n\x1a\n....",
            200,
        ),
        response(
            "http://elsewhere.test/a/1",
            "text/html",
            b"<html><p>another host</p></html>",
            200,
        ),
    ]
}

/// The article pages of `web` (each site's first `per_site`), as records
/// in site order, with noise after each page when asked.
pub fn web_records(web: &SimWeb, per_site: usize, with_noise: bool) -> Vec<Record> {
    let mut records = vec![other("warcinfo", "", "software: newshound tests\r\n")];
    for site in web.sites() {
        for url in site.article_urls.iter().take(per_site) {
            let html = web.page_html(url).expect("article page");
            records.push(response(
                url.as_str(),
                "text/html; charset=utf-8",
                html.as_bytes(),
                200,
            ));
            if with_noise {
                records.extend(noise(url));
            }
        }
    }
    records
}

/// Records written as a `.warc.gz` file's bytes.
pub fn warc_gz(records: &[Record]) -> Vec<u8> {
    let mut out = Vec::new();
    for r in records {
        write_record(&mut out, r).expect("write to memory");
    }
    out
}
