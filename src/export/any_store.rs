//! Export from either store through the read interface
//! ([`CorpusRead`]): JSONL, CSV, Parquet, WARC and Markdown.
//!
//! In: a [`CorpusRead`] (SQLite or PostgreSQL), a [`Selection`], a
//! [`Format`] (and for Markdown the [`Rendering`] settings). Out: the same
//! records as the SQLite store's export of those formats, and an
//! [`ExportSummary`].

use std::io::Write;

use chrono::Utc;

use super::{csv, markdown, parquet, warc, ExportError, ExportSummary, Format, Rendering, FIELDS};
use crate::store::{CorpusRead, Selection};

/// Stream the selected articles in `format` into `out` (Markdown with the
/// default [`Rendering`]).
pub fn write_from(
    reader: &mut dyn CorpusRead,
    sel: &Selection,
    format: Format,
    out: &mut dyn Write,
) -> Result<ExportSummary, ExportError> {
    write_from_with(reader, sel, format, &Rendering::default(), out)
}

/// [`write_from`] with the Markdown [`Rendering`] settings.
pub fn write_from_with(
    reader: &mut dyn CorpusRead,
    sel: &Selection,
    format: Format,
    rendering: &Rendering<'_>,
    out: &mut dyn Write,
) -> Result<ExportSummary, ExportError> {
    let mut skipped = 0;
    let written = match format {
        Format::Jsonl => reader.export_articles(sel, &mut |article| {
            serde_json::to_writer(&mut *out, article).map_err(std::io::Error::from)?;
            out.write_all(b"\n")
        })?,
        Format::Csv | Format::CsvRaw => {
            let formulas = format.csv_formulas().unwrap_or_default();
            csv::write_record(out, FIELDS.iter().copied())?;
            reader.export_articles(sel, &mut |a| {
                let row = csv::row_of(a, formulas)?;
                csv::write_record(out, row.iter().map(String::as_str))
            })?
        }
        Format::Parquet => {
            let mut file = parquet::ParquetWriter::new(out)?;
            let n = reader.export_articles(sel, &mut |a| file.push(a))?;
            file.finish()?;
            n
        }
        Format::Warc => {
            warc::write_record(out, &warc::warcinfo_record(Utc::now()))?;
            let (written, missing) = reader.export_html(sel, &mut |page| {
                warc::write_record(out, &warc::response_record(page))
            })?;
            skipped = missing;
            written
        }
        Format::Markdown => {
            let summary = markdown::write_markdown(reader.markdown_source(), sel, rendering, out)?;
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
