//! DOM → [`Metadata`]: title, dates, author, language, canonical URL, site name.

use url::Url;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Metadata {
    pub title: Option<String>,
    pub author: Option<String>,
    pub published_at: Option<String>,
    pub modified_at: Option<String>,
    pub canonical_url: Option<String>,
    pub site_name: Option<String>,
}

/// Read metadata from a parsed page (JSON-LD, OpenGraph, meta tags, `<time>`,
/// `<h1>`, `<title>`, URL date patterns).
pub fn extract_metadata(doc: &scraper::Html, url: Option<&Url>) -> Metadata {
    let _ = (doc, url);
    todo!("metadata")
}

/// Language of the article text (ISO 639-3), if whatlang is reliable on it.
pub fn detect_language(text: &str) -> Option<String> {
    let _ = text;
    todo!("language")
}
