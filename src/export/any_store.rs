//! Export from either store through the read interface
//! ([`CorpusRead`]): JSONL and CSV, the formats made of stored fields only.
//!
//! In: a [`CorpusRead`] (SQLite or PostgreSQL), a [`Selection`], a
//! [`Format`]. Out: the same bytes as the SQLite store's export of those
//! formats, and an [`ExportSummary`]. WARC and Markdown read kept pages,
//! which only the SQLite store serves yet: on another store they are
//! [`StoreError::PgUnsupported`].

use std::io::Write;

use super::{csv, ExportError, ExportSummary, Format, FIELDS};
use crate::store::{CorpusRead, Selection, StoreError};

/// Stream the selected articles in `format` into `out`.
pub fn write_from(
    reader: &mut dyn CorpusRead,
    sel: &Selection,
    format: Format,
    out: &mut dyn Write,
) -> Result<ExportSummary, ExportError> {
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
        Format::Warc => return Err(StoreError::PgUnsupported("export --format warc").into()),
        Format::Markdown => {
            return Err(StoreError::PgUnsupported("export --format markdown").into())
        }
    };
    out.flush()?;
    Ok(ExportSummary {
        written,
        ..ExportSummary::default()
    })
}
