//! Export from either store through the read interface
//! ([`CorpusRead`]): JSONL, CSV and WARC.
//!
//! In: a [`CorpusRead`] (SQLite or PostgreSQL), a [`Selection`], a
//! [`Format`]. Out: the same records as the SQLite store's export of those
//! formats, and an [`ExportSummary`]. Markdown extracts the kept pages again
//! and drops the site's boilerplate lines with the SQLite store's line
//! table: on another store it is [`StoreError::PgUnsupported`].

use std::io::Write;

use chrono::Utc;

use super::{csv, warc, ExportError, ExportSummary, Format, FIELDS};
use crate::store::{CorpusRead, Selection, StoreError};

/// Stream the selected articles in `format` into `out`.
pub fn write_from(
    reader: &mut dyn CorpusRead,
    sel: &Selection,
    format: Format,
    out: &mut dyn Write,
) -> Result<ExportSummary, ExportError> {
    let mut skipped = 0;
    let written = match format {
        Format::Jsonl => reader.export_articles(sel, &mut |article| {
            serde_json::to_writer(&mut *out, article).map_err(std::io::Error::from)?;
            out.write_all(b"\n")
        })?,
        Format::Csv => {
            csv::write_record(out, FIELDS.iter().copied())?;
            reader.export_articles(sel, &mut |a| {
                let row = csv::row_of(a)?;
                csv::write_record(out, row.iter().map(String::as_str))
            })?
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
            return Err(StoreError::PgUnsupported("export --format markdown").into())
        }
    };
    out.flush()?;
    Ok(ExportSummary {
        written,
        skipped,
        ..ExportSummary::default()
    })
}
