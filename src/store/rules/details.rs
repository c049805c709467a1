//! An article's details as both stores keep them (migration 0014 on
//! SQLite, 0005 on PostgreSQL): its authors as a list beside the joined
//! `author`, its description, section, tags, lead image and paywall, and
//! the folded keys that `search` and `export` filter by.
//!
//! In: an extracted [`Article`] (to write), a row's columns (to read), a
//! filter's author, section or tag (to select). Out: the columns' values
//! in [`DETAIL_COLUMNS`] order, the article's fields, and the condition on
//! the keys.
//!
//! Lists are stored as JSON arrays of strings (NULL when empty), which
//! SQLite's `json_each` and PostgreSQL's `jsonb` read. The keys (`facets`)
//! hold one line per author, section and tag, `kind:value` with the value
//! folded here (NFKC, lower case, whitespace collapsed), between newlines:
//! a filter's value folded the same way matches with one `LIKE` on both
//! stores, whatever the case or the script of the name (neither store's
//! `lower` folds the same letters as the other).

use unicode_normalization::UnicodeNormalization;

use crate::extract::Article;
use crate::store::rows::{Cell, Columns};
use crate::store::rules::search::like_pattern;
use crate::store::sql::Value;

/// The detail columns of `articles`, in the order of [`Details::values`].
const DETAIL_COLUMNS: [&str; 7] = [
    "authors",
    "description",
    "section",
    "tags",
    "image",
    "paywalled",
    "facets",
];

/// `authors, description, …`: the detail columns, for an insert; with
/// `table` (`a`), for a select.
pub(crate) fn columns_of(table: Option<&str>) -> String {
    DETAIL_COLUMNS
        .iter()
        .map(|c| table.map_or_else(|| c.to_string(), |t| format!("{t}.{c}")))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A yes/no column that may be NULL (PostgreSQL's `boolean`, SQLite's 0
/// or 1), as read whole.
pub(crate) fn opt_flag(cell: Cell) -> Option<bool> {
    match cell {
        Cell::Bool(b) => Some(b),
        Cell::Int(v) => Some(v != 0),
        _ => None,
    }
}

/// `?15, ?16, …` (or `$15, …`): the detail values' placeholders numbered
/// from `from`, for an insert.
pub(crate) fn placeholders(sigil: char, from: usize) -> String {
    (from..from + DETAIL_COLUMNS.len())
        .map(|i| format!("{sigil}{i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `authors = ?15, description = ?16, …`: the detail columns set from
/// placeholders numbered from `from`, for an update.
pub(crate) fn assignments(from: usize) -> String {
    DETAIL_COLUMNS
        .iter()
        .zip(from..)
        .map(|(c, i)| format!("{c} = ?{i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// An article's detail columns, as written.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Details {
    pub(crate) authors: Option<String>,
    pub(crate) description: Option<String>,
    pub(crate) section: Option<String>,
    pub(crate) tags: Option<String>,
    pub(crate) image: Option<String>,
    pub(crate) paywalled: Option<bool>,
    pub(crate) facets: Option<String>,
}

impl Details {
    pub(crate) fn of(a: &Article) -> Details {
        Details {
            authors: list_json(&a.authors),
            description: a.description.clone(),
            section: a.section.clone(),
            tags: list_json(&a.tags),
            image: a.image.clone(),
            paywalled: a.paywalled,
            facets: facets_of(a),
        }
    }

    /// The detail columns read back, from column `from` on (in
    /// [`DETAIL_COLUMNS`] order, as `SELECT a.authors, …` gives them).
    pub(crate) fn read<R: Columns + ?Sized>(r: &R, from: usize) -> Result<Details, R::Error> {
        Ok(Details {
            authors: r.opt_text(from)?,
            description: r.opt_text(from + 1)?,
            section: r.opt_text(from + 2)?,
            tags: r.opt_text(from + 3)?,
            image: r.opt_text(from + 4)?,
            paywalled: opt_flag(r.cell(from + 5)?),
            facets: r.opt_text(from + 6)?,
        })
    }

    /// The values of [`DETAIL_COLUMNS`].
    pub(crate) fn values(&self) -> [Value<'_>; 7] {
        [
            self.authors.as_ref().into(),
            self.description.as_ref().into(),
            self.section.as_ref().into(),
            self.tags.as_ref().into(),
            self.image.as_ref().into(),
            self.paywalled.into(),
            self.facets.as_ref().into(),
        ]
    }
}

/// What a filter selects by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Facet {
    Author,
    Section,
    Tag,
}

impl Facet {
    fn name(self) -> &'static str {
        match self {
            Facet::Author => "author",
            Facet::Section => "section",
            Facet::Tag => "tag",
        }
    }
}

/// How names, sections and tags compare: NFKC, lower case, whitespace
/// collapsed.
pub(crate) fn fold(s: &str) -> String {
    let nfkc: String = s.nfkc().collect();
    nfkc.to_lowercase()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// A list as a JSON array; `None` when empty.
pub(crate) fn list_json(items: &[String]) -> Option<String> {
    if items.is_empty() {
        return None;
    }
    serde_json::to_string(items).ok()
}

/// A stored JSON array back as a list (NULL, or what is not an array of
/// strings, as none).
pub(crate) fn list_of(json: Option<&str>) -> Vec<String> {
    json.and_then(|j| serde_json::from_str(j).ok())
        .unwrap_or_default()
}

/// The keys of an article's authors, section and tags (`None`: none).
fn facets_of(a: &Article) -> Option<String> {
    let keys: Vec<String> = a
        .authors
        .iter()
        .map(|v| (Facet::Author, v))
        .chain(a.section.iter().map(|v| (Facet::Section, v)))
        .chain(a.tags.iter().map(|v| (Facet::Tag, v)))
        .map(|(kind, v)| format!("{}:{}", kind.name(), fold(v)))
        .collect();
    (!keys.is_empty()).then(|| format!("\n{}\n", keys.join("\n")))
}

/// The `LIKE` pattern (escape character `\`) of the articles whose keys
/// hold `value` of this kind.
pub(crate) fn facet_pattern(kind: Facet, value: &str) -> String {
    like_pattern(&format!("\n{}:{}\n", kind.name(), fold(value)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_fold_case_width_and_spaces_and_lists_round_trip() {
        let a = Article {
            authors: vec!["Łukasz  Żak".into(), "Jane Roe".into()],
            section: Some("Politik".into()),
            tags: vec!["Ｃlimate".into()],
            ..Article::default()
        };
        let d = Details::of(&a);
        assert_eq!(
            d.facets.as_deref(),
            Some("\nauthor:łukasz żak\nauthor:jane roe\nsection:politik\ntag:climate\n")
        );
        assert_eq!(list_of(d.authors.as_deref()), a.authors);
        assert_eq!(list_of(d.tags.as_deref()), ["Ｃlimate"]);
        assert_eq!(list_of(None), Vec::<String>::new());
        assert_eq!(list_of(Some("not json")), Vec::<String>::new());
        assert_eq!(Details::of(&Article::default()), Details::default());
        assert_eq!(placeholders('$', 3).matches('$').count(), 7);
        assert!(assignments(2).starts_with("authors = ?2, description = ?3"));
        assert_eq!(
            facet_pattern(Facet::Author, "ŁUKASZ ŻAK"),
            "%\nauthor:łukasz żak\n%"
        );
        // LIKE's wildcards in a value are literal.
        assert_eq!(facet_pattern(Facet::Tag, "100%"), "%\ntag:100\\%\n%");
    }
}
