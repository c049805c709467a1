//! Stored articles → the formats people load: JSONL, CSV, Parquet, WARC,
//! Markdown.
//!
//! In: either store ([`AnyStore`]), a
//! [`Selection`], a [`Format`] (and for Markdown the
//! [`Rendering`] settings). Out: one stream on a
//! writer, article by article in id order, in constant memory (one row is
//! held at a time), and an [`ExportSummary`].
//!
//! - `jsonl`: one JSON object per line, the serialized
//!   [`crate::store::StoredArticle`] with the fields of [`FIELDS`] (times in
//!   RFC 3339, language in ISO 639-3); docs/export.md documents
//!   each.
//! - `csv` ([`csv`]): RFC 4180, a header row, the same fields as JSONL;
//!   cells a spreadsheet would run as formulas get a leading `'` (`csv-raw`:
//!   written as stored).
//! - `parquet` ([`parquet`]): one row per article, the same fields as
//!   typed columns (UTC timestamps, integers), zstd-compressed row groups.
//! - `warc` ([`warc`]): WARC/1.1 `response` records from kept HTML, one
//!   gzip member per record; articles without kept HTML are counted.
//! - `markdown` ([`markdown`]): `# title`, the URL, the body rendered as
//!   Markdown again from the kept page, the site's boilerplate lines
//!   dropped; the stored paragraphs for articles without a kept page
//!   (counted).

pub mod csv;
pub mod markdown;
pub mod parquet;
pub mod warc;

use std::io::Write;

use crate::boilerplate::LineSettings;
use crate::config::Config;
use crate::extract::ExtractOptions;
use chrono::Utc;

use crate::store::{AnyStore, Selection, StoreError};

/// The fields of every JSONL object and CSV row, in order.
pub const FIELDS: [&str; 20] = [
    "id",
    "url",
    "site",
    "fetched_at",
    "word_count",
    "title",
    "author",
    "published_at",
    "modified_at",
    "language",
    "canonical_url",
    "site_name",
    "text",
    "method",
    "authors",
    "description",
    "section",
    "tags",
    "image",
    "paywalled",
];

#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("cannot write export: {0}")]
    Write(#[from] std::io::Error),
}

/// An export format (`export --format`, and `--csv-formulas`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Format {
    #[default]
    Jsonl,
    /// Formula-like cells defused ([`csv::Formulas::Defused`]).
    Csv,
    Parquet,
    /// CSV with every cell as stored ([`csv::Formulas::Kept`]).
    CsvRaw,
    Warc,
    Markdown,
}

impl Format {
    /// The HTTP content type of an export in this format.
    pub fn content_type(self) -> &'static str {
        match self {
            Format::Jsonl => "application/x-ndjson; charset=utf-8",
            Format::Csv | Format::CsvRaw => "text/csv; charset=utf-8; header=present",
            Format::Parquet => "application/vnd.apache.parquet",
            Format::Warc => "application/warc",
            Format::Markdown => "text/markdown; charset=utf-8",
        }
    }

    /// Binary output, not for a terminal.
    pub fn is_binary(self) -> bool {
        matches!(self, Format::Parquet | Format::Warc)
    }
}

/// What an export wrote.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ExportSummary {
    /// Articles written.
    pub written: u64,
    /// Selected articles left out: for WARC, those without kept HTML.
    pub skipped: u64,
    /// Markdown: articles written from their stored text (no kept page, or
    /// no Markdown from extracting it again).
    pub from_stored_text: u64,
}

/// How the Markdown export extracts kept pages again: the options the crawl
/// extracts with (`[extract]`) and the sites' line settings.
#[derive(Debug, Clone, Default)]
pub struct Rendering<'a> {
    pub extract: ExtractOptions,
    /// The sites' `[boilerplate]` settings; `None`: the defaults for every
    /// site.
    pub config: Option<&'a Config>,
}

impl Format {
    /// How CSV cells that look like formulas are written, for the CSV formats.
    pub fn csv_formulas(self) -> Option<csv::Formulas> {
        match self {
            Format::Csv => Some(csv::Formulas::Defused),
            Format::CsvRaw => Some(csv::Formulas::Kept),
            _ => None,
        }
    }
}

impl Rendering<'_> {
    /// The line settings of the site called `site`.
    pub fn line_settings(&self, site: &str) -> LineSettings {
        self.config
            .map_or_else(LineSettings::default, |c| c.line_settings(Some(site)))
    }
}

/// Stream the selected articles in `format` into `out` (Markdown with the
/// default [`Rendering`]).
pub fn write(
    store: &mut AnyStore,
    sel: &Selection,
    format: Format,
    out: &mut dyn Write,
) -> Result<ExportSummary, ExportError> {
    write_with(store, sel, format, &Rendering::default(), out)
}

/// [`write`](fn@write) with the Markdown [`Rendering`] settings.
pub fn write_with(
    store: &mut AnyStore,
    sel: &Selection,
    format: Format,
    rendering: &Rendering<'_>,
    out: &mut dyn Write,
) -> Result<ExportSummary, ExportError> {
    let mut skipped = 0;
    let written = match format {
        Format::Jsonl => store.export(sel, &mut |article| {
            // `io::Error::from` gives back the writer's own error (its kind,
            // e.g. BrokenPipe, intact) where `io::Error::other` would bury it.
            serde_json::to_writer(&mut *out, article).map_err(std::io::Error::from)?;
            out.write_all(b"\n")
        })?,
        Format::Csv | Format::CsvRaw => {
            let formulas = format.csv_formulas().unwrap_or_default();
            csv::write_record(out, FIELDS.iter().copied())?;
            store.export(sel, &mut |a| {
                let row = csv::row_of(a, formulas)?;
                csv::write_record(out, row.iter().map(String::as_str))
            })?
        }
        Format::Parquet => {
            let mut file = parquet::ParquetWriter::new(out)?;
            let n = store.export(sel, &mut |a| file.push(a))?;
            file.finish()?;
            n
        }
        Format::Warc => {
            warc::write_record(out, &warc::warcinfo_record(Utc::now()))?;
            let (written, missing) = store.export_html(sel, &mut |page| {
                warc::write_record(out, &warc::response_record(page))
            })?;
            skipped = missing;
            written
        }
        Format::Markdown => {
            let summary = markdown::write_markdown(store, sel, rendering, out)?;
            out.flush()?;
            return Ok(summary);
        }
    };
    out.flush()?;
    Ok(ExportSummary {
        written,
        skipped,
        ..ExportSummary::default()
    })
}

#[cfg(test)]
mod tests;
