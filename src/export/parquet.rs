//! Stored articles → Apache Parquet: one row per article with the JSONL
//! fields ([`super::FIELDS`]) as typed columns, for pyarrow, pandas, DuckDB
//! and polars.
//!
//! In: the articles, one at a time. Out: a Parquet file on any writer. Rows
//! are gathered into a row group of at most [`ROW_GROUP_ROWS`] rows or
//! [`ROW_GROUP_BYTES`] of text, which is written (zstd-compressed) and
//! handed to the writer before the next one starts: memory stays bounded by
//! one row group whatever the corpus size. The footer is written last.
//!
//! Types: `id` and `word_count` are 64-bit integers; `fetched_at`,
//! `published_at` and `modified_at` are UTC timestamps in milliseconds (the
//! offset a page gave is not kept; the JSONL export keeps it); strings are
//! UTF-8; `authors` and `tags` are lists of strings (empty when none);
//! `paywalled` is a boolean; absent values are null.

use std::io::Write;
use std::sync::Arc;

use parquet::basic::{Compression, ZstdLevel};
use parquet::data_type::{BoolType, ByteArray, ByteArrayType, Int64Type};
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;

use crate::store::{method_name, StoredArticle};

/// The file's schema: [`super::FIELDS`] in order.
pub const SCHEMA: &str = "message article {
    required int64 id;
    required binary url (STRING);
    required binary site (STRING);
    required int64 fetched_at (TIMESTAMP(MILLIS, true));
    required int64 word_count;
    optional binary title (STRING);
    optional binary author (STRING);
    optional int64 published_at (TIMESTAMP(MILLIS, true));
    optional int64 modified_at (TIMESTAMP(MILLIS, true));
    optional binary language (STRING);
    optional binary canonical_url (STRING);
    optional binary site_name (STRING);
    required binary text (STRING);
    optional binary method (STRING);
    required group authors (LIST) {
        repeated group list {
            required binary element (STRING);
        }
    }
    optional binary description (STRING);
    optional binary section (STRING);
    required group tags (LIST) {
        repeated group list {
            required binary element (STRING);
        }
    }
    optional binary image (STRING);
    optional boolean paywalled;
}";

/// Rows per row group at most.
pub const ROW_GROUP_ROWS: usize = 8192;
/// Bytes of strings per row group at most (a few long articles fill one).
pub const ROW_GROUP_BYTES: usize = 32 << 20;
/// zstd level of the column pages: the size of level 9 at a fraction of the
/// time of the higher levels.
const ZSTD_LEVEL: i32 = 6;

/// One column of a row group being gathered.
enum Column {
    Long(Vec<i64>),
    /// Values of the rows that have one, and a definition level per row
    /// (1: a value, 0: null).
    OptLong(Vec<i64>, Vec<i16>),
    Text(Vec<ByteArray>),
    OptText(Vec<ByteArray>, Vec<i16>),
    OptBool(Vec<bool>, Vec<i16>),
    /// A list's elements, a definition level per element or empty list (1:
    /// an element, 0: the list is empty) and a repetition level (0: a row's
    /// first, 1: the next ones of its list).
    List(Vec<ByteArray>, Vec<i16>, Vec<i16>),
}

impl Column {
    /// An empty column of `value`'s type.
    fn for_value(value: &Value<'_>) -> Column {
        match value {
            Value::Long(_) => Column::Long(Vec::new()),
            Value::OptLong(_) => Column::OptLong(Vec::new(), Vec::new()),
            Value::Text(_) => Column::Text(Vec::new()),
            Value::OptText(_) => Column::OptText(Vec::new(), Vec::new()),
            Value::OptBool(_) => Column::OptBool(Vec::new(), Vec::new()),
            Value::List(_) => Column::List(Vec::new(), Vec::new(), Vec::new()),
        }
    }

    fn clear(&mut self) {
        match self {
            Column::Long(v) => v.clear(),
            Column::OptLong(v, d) => {
                v.clear();
                d.clear();
            }
            Column::Text(v) => v.clear(),
            Column::OptText(v, d) => {
                v.clear();
                d.clear();
            }
            Column::OptBool(v, d) => {
                v.clear();
                d.clear();
            }
            Column::List(v, d, r) => {
                v.clear();
                d.clear();
                r.clear();
            }
        }
    }
}

/// A value of one row, in [`SCHEMA`] order.
enum Value<'a> {
    Long(i64),
    OptLong(Option<i64>),
    Text(&'a str),
    OptText(Option<&'a str>),
    OptBool(Option<bool>),
    List(&'a [String]),
}

/// An RFC 3339 time as Unix milliseconds in UTC.
fn millis(rfc3339: Option<&str>) -> Option<i64> {
    chrono::DateTime::parse_from_rfc3339(rfc3339?)
        .ok()
        .map(|t| t.timestamp_millis())
}

/// The row of an article, in [`SCHEMA`] order (`author`: its authors
/// joined, [`crate::extract::Article::author`]).
fn row_of<'a>(a: &'a StoredArticle, author: &'a Option<String>) -> [Value<'a>; 20] {
    let art = &a.article;
    [
        Value::Long(a.id),
        Value::Text(&a.url),
        Value::Text(&a.site),
        Value::Long(a.fetched_at),
        Value::Long(i64::try_from(a.word_count).unwrap_or(i64::MAX)),
        Value::OptText(art.title.as_deref()),
        Value::OptText(author.as_deref()),
        Value::OptLong(millis(art.published_at.as_deref())),
        Value::OptLong(millis(art.modified_at.as_deref())),
        Value::OptText(art.language.as_deref()),
        Value::OptText(art.canonical_url.as_deref()),
        Value::OptText(art.site_name.as_deref()),
        Value::Text(&art.text),
        Value::OptText(a.method.map(method_name)),
        Value::List(&art.authors),
        Value::OptText(art.description.as_deref()),
        Value::OptText(art.section.as_deref()),
        Value::List(&art.tags),
        Value::OptText(art.image.as_deref()),
        Value::OptBool(art.paywalled),
    ]
}

fn other(e: parquet::errors::ParquetError) -> std::io::Error {
    std::io::Error::other(e)
}

/// A Parquet file being written to `out`, row group by row group.
pub struct ParquetWriter<'w> {
    /// Writes into a buffer that is handed to `out` after each row group
    /// (the Parquet writer needs a `Send` sink; `out` need not be one).
    file: SerializedFileWriter<Vec<u8>>,
    out: &'w mut dyn Write,
    columns: Vec<Column>,
    rows: usize,
    bytes: usize,
    max_rows: usize,
}

impl<'w> ParquetWriter<'w> {
    pub fn new(out: &'w mut dyn Write) -> std::io::Result<Self> {
        let schema = Arc::new(parse_message_type(SCHEMA).map_err(other)?);
        let level = ZstdLevel::try_new(ZSTD_LEVEL).map_err(other)?;
        let props = WriterProperties::builder()
            .set_compression(Compression::ZSTD(level))
            .set_created_by(format!("newshound {}", env!("CARGO_PKG_VERSION")))
            .build();
        let file = SerializedFileWriter::new(Vec::new(), schema, Arc::new(props)).map_err(other)?;
        Ok(Self {
            file,
            out,
            columns: Vec::new(),
            rows: 0,
            bytes: 0,
            max_rows: ROW_GROUP_ROWS,
        })
    }

    /// Row groups of at most `rows` rows (small ones, to see the streaming).
    #[cfg(test)]
    pub(super) fn with_max_rows(mut self, rows: usize) -> Self {
        self.max_rows = rows;
        self
    }

    /// Add one article; a full row group is written out.
    pub fn push(&mut self, a: &StoredArticle) -> std::io::Result<()> {
        let author = a.article.author();
        let row = row_of(a, &author);
        if self.columns.is_empty() {
            self.columns = row.iter().map(Column::for_value).collect();
        }
        for (column, value) in self.columns.iter_mut().zip(row) {
            match (column, value) {
                (Column::Long(v), Value::Long(x)) => v.push(x),
                (Column::OptLong(v, d), Value::OptLong(x)) => {
                    d.push(i16::from(x.is_some()));
                    v.extend(x);
                }
                (Column::Text(v), Value::Text(s)) => {
                    self.bytes += s.len();
                    v.push(ByteArray::from(s));
                }
                (Column::OptText(v, d), Value::OptText(s)) => {
                    d.push(i16::from(s.is_some()));
                    if let Some(s) = s {
                        self.bytes += s.len();
                        v.push(ByteArray::from(s));
                    }
                }
                (Column::OptBool(v, d), Value::OptBool(b)) => {
                    d.push(i16::from(b.is_some()));
                    v.extend(b);
                }
                (Column::List(v, d, r), Value::List(items)) => {
                    if items.is_empty() {
                        d.push(0);
                        r.push(0);
                    }
                    for (i, s) in items.iter().enumerate() {
                        self.bytes += s.len();
                        v.push(ByteArray::from(s.as_str()));
                        d.push(1);
                        r.push(i16::from(i > 0));
                    }
                }
                _ => return Err(std::io::Error::other("parquet: column and value differ")),
            }
        }
        self.rows += 1;
        if self.rows >= self.max_rows || self.bytes >= ROW_GROUP_BYTES {
            self.write_row_group()?;
        }
        Ok(())
    }

    /// Write the gathered rows as one row group and hand its bytes on.
    fn write_row_group(&mut self) -> std::io::Result<()> {
        if self.rows == 0 {
            return Ok(());
        }
        let mut group = self.file.next_row_group().map_err(other)?;
        for column in &self.columns {
            let mut writer = group
                .next_column()
                .map_err(other)?
                .ok_or_else(|| std::io::Error::other("parquet: fewer columns than fields"))?;
            match column {
                Column::Long(v) => writer.typed::<Int64Type>().write_batch(v, None, None),
                Column::OptLong(v, d) => writer.typed::<Int64Type>().write_batch(v, Some(d), None),
                Column::Text(v) => writer.typed::<ByteArrayType>().write_batch(v, None, None),
                Column::OptText(v, d) => {
                    writer
                        .typed::<ByteArrayType>()
                        .write_batch(v, Some(d), None)
                }
                Column::OptBool(v, d) => writer.typed::<BoolType>().write_batch(v, Some(d), None),
                Column::List(v, d, r) => {
                    writer
                        .typed::<ByteArrayType>()
                        .write_batch(v, Some(d), Some(r))
                }
            }
            .map_err(other)?;
            writer.close().map_err(other)?;
        }
        group.close().map_err(other)?;
        for column in &mut self.columns {
            column.clear();
        }
        self.rows = 0;
        self.bytes = 0;
        self.hand_on()
    }

    /// Move what the Parquet writer produced so far to `out`.
    fn hand_on(&mut self) -> std::io::Result<()> {
        self.file.flush()?;
        let buf = self.file.inner_mut();
        self.out.write_all(buf)?;
        buf.clear();
        Ok(())
    }

    /// Write the last row group and the footer.
    pub fn finish(mut self) -> std::io::Result<()> {
        self.write_row_group()?;
        let tail = self.file.into_inner().map_err(other)?;
        self.out.write_all(&tail)?;
        self.out.flush()
    }
}
