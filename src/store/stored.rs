//! An article as stored ([`StoredArticle`]) and its record: what `export`
//! writes as JSON Lines and `show --json` prints, and the one struct the
//! exporters of the other formats read (docs/export.md documents each
//! field).

use serde::Serialize;

use super::ms_to_rfc3339;
use crate::extract::{Article, Method};

/// An article as stored; serialized, the record of `export` and
/// `show --json` (every field is documented in docs/export.md;
/// exporters of other formats reuse this one struct).
#[derive(Debug, Clone)]
pub struct StoredArticle {
    pub id: i64,
    pub url: String,
    pub site: String,
    /// When the page was fetched, in ms since the Unix epoch; serialized as
    /// RFC 3339 in UTC with milliseconds, like the other dates.
    pub fetched_at: i64,
    pub word_count: u64,
    /// Its `method` is [`StoredArticle::method`] or the default.
    pub article: Article,
    /// The extraction path that found the text (`articles.method`); `None`
    /// for articles stored before migration 0009 (serialized as null).
    pub method: Option<Method>,
}

impl Serialize for StoredArticle {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        /// The exported record: the fields of docs/export.md, in order.
        #[derive(Serialize)]
        struct Record<'a> {
            id: i64,
            url: &'a str,
            site: &'a str,
            #[serde(serialize_with = "ms_as_rfc3339")]
            fetched_at: i64,
            word_count: u64,
            title: &'a Option<String>,
            author: Option<String>,
            published_at: &'a Option<String>,
            modified_at: &'a Option<String>,
            language: &'a Option<String>,
            canonical_url: &'a Option<String>,
            site_name: &'a Option<String>,
            text: &'a str,
            method: Option<Method>,
            // Fields added later come after the first ones: a CSV reader
            // that takes columns by position keeps its columns.
            authors: &'a [String],
            description: &'a Option<String>,
            section: &'a Option<String>,
            tags: &'a [String],
            image: &'a Option<String>,
            paywalled: Option<bool>,
        }
        let a = &self.article;
        Record {
            id: self.id,
            url: &self.url,
            site: &self.site,
            fetched_at: self.fetched_at,
            word_count: self.word_count,
            title: &a.title,
            author: a.author(),
            published_at: &a.published_at,
            modified_at: &a.modified_at,
            language: &a.language,
            canonical_url: &a.canonical_url,
            site_name: &a.site_name,
            text: &a.text,
            method: self.method,
            authors: &a.authors,
            description: &a.description,
            section: &a.section,
            tags: &a.tags,
            image: &a.image,
            paywalled: a.paywalled,
        }
        .serialize(s)
    }
}

fn ms_as_rfc3339<S: serde::Serializer>(ms: &i64, s: S) -> Result<S::Ok, S::Error> {
    match ms_to_rfc3339(*ms) {
        Some(t) => s.serialize_str(&t),
        None => s.serialize_none(),
    }
}
