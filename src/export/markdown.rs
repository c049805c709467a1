//! Stored articles → one Markdown stream. Each article opens with its title
//! as a `#` heading and its URL on the next line, then its stored text, one
//! paragraph per line of the stored text, separated by blank lines.
//!
//! The text is the stored plain text: the extraction's Markdown rendering
//! (issue 10, [`crate::extract::Article::markdown`]) landed on main at the
//! end of this work and is not stored, so using it here would mean
//! extracting every kept page again (left for later). A line that Markdown
//! would read as markup at
//! its start (`#`, `>`, `-`, `+`, `*`, `1.`) is escaped with a backslash, so
//! a paragraph never turns into a heading or a list by accident.

use std::io::Write;

use super::ExportError;
use crate::store::{Selection, Store, StoredArticle};

/// Stream the selected articles as Markdown. Returns how many were written.
pub fn write_markdown(
    store: &Store,
    sel: &Selection,
    out: &mut dyn Write,
) -> Result<u64, ExportError> {
    Ok(store.export(sel, |a| write_article(out, a))?)
}

fn write_article(out: &mut dyn Write, a: &StoredArticle) -> std::io::Result<()> {
    let title = a
        .article
        .title
        .as_deref()
        .map(|t| t.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|t| !t.is_empty())
        .unwrap_or_else(|| "(untitled)".to_string());
    writeln!(out, "# {}", escape_inline_start(&title))?;
    writeln!(out, "<{}>", a.url)?;
    for line in a.article.text.lines() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        writeln!(out)?;
        writeln!(out, "{}", escape_line_start(line))?;
    }
    writeln!(out)
}

/// A heading's text may start with `#` too (`# #MeToo`): escape it so the
/// heading level stays one.
fn escape_inline_start(s: &str) -> String {
    if s.starts_with('#') {
        format!("\\{s}")
    } else {
        s.to_string()
    }
}

/// Escape a paragraph's leading character when Markdown would read it as
/// block markup.
fn escape_line_start(line: &str) -> String {
    let block = line.starts_with(['#', '>', '-', '+', '*', '=', '|']);
    let digits = line.chars().take_while(char::is_ascii_digit).count();
    let ordered = digits > 0 && matches!(line[digits..].chars().next(), Some('.' | ')'));
    if block {
        format!("\\{line}")
    } else if ordered {
        format!("{}\\{}", &line[..digits], &line[digits..])
    } else {
        line.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paragraphs_that_look_like_markup_are_escaped() {
        assert_eq!(escape_line_start("# not a heading"), "\\# not a heading");
        assert_eq!(escape_line_start("- not a list"), "\\- not a list");
        assert_eq!(escape_line_start("1984. A year"), "1984\\. A year");
        assert_eq!(escape_line_start("1984 was a year"), "1984 was a year");
        assert_eq!(escape_line_start("Plain text."), "Plain text.");
        assert_eq!(escape_inline_start("#MeToo"), "\\#MeToo");
    }
}
