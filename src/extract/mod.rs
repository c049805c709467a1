//! HTML → [`Article`]: the pure extraction stage.
//!
//! In: page bytes (or already-decoded HTML) and the page URL. Out: the article
//! text (one paragraph per line, blocks separated by a blank line) plus
//! metadata. Never fails: a page with no article yields empty text.
//!
//! Steps: 1. charset → UTF-8 ([`charset`]); 2. strip non-content with lol_html
//! ([`strip`]); 3. parse into a DOM (scraper/html5ever); 4. per-node statistics
//! and scoring ([`density`]); 5. selection and text assembly; 6. metadata
//! ([`metadata`]).

pub mod charset;
pub mod density;
pub mod metadata;
pub mod strip;

use serde::{Deserialize, Serialize};
use url::Url;

/// Which content-selection algorithm to run (`--algorithm`, `[extract] algorithm`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Algorithm {
    /// CETD text density (C/T) with DensitySum selection.
    Td,
    /// CETD composite text density with DensitySum selection.
    Ctd,
    /// The best-scoring combination (default).
    #[default]
    Auto,
}

#[derive(Debug, Clone, Default)]
pub struct ExtractOptions {
    pub algorithm: Algorithm,
}

/// What extraction yields for one page.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Article {
    pub title: Option<String>,
    pub author: Option<String>,
    /// RFC 3339.
    pub published_at: Option<String>,
    /// RFC 3339.
    pub modified_at: Option<String>,
    /// ISO 639-3 code from whatlang (e.g. `eng`, `cmn`).
    pub language: Option<String>,
    pub canonical_url: Option<String>,
    pub site_name: Option<String>,
    /// One paragraph per line; blocks separated by one blank line.
    pub text: String,
}

/// Extract from raw bytes: decode (HTTP charset → BOM → meta → detection), then
/// [`extract_html`].
pub fn extract_bytes(
    bytes: &[u8],
    content_type: Option<&str>,
    url: Option<&Url>,
    opts: &ExtractOptions,
) -> Article {
    let html = charset::decode(bytes, content_type, url);
    extract_html(&html.text, url, opts)
}

/// Extract from decoded HTML.
pub fn extract_html(html: &str, url: Option<&Url>, opts: &ExtractOptions) -> Article {
    let _ = (html, url, opts);
    todo!("extraction pipeline")
}
