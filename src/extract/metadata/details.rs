//! The story's description, section, tags, lead image and paywall, from
//! the metas and JSON-LD that [`super::page::Page`] and [`super::jsonld`]
//! gathered.
//!
//! In: the page's metas, its JSON-LD facts and its URL. Out: each field,
//! `None` (or empty) when the page does not say. Each takes the first
//! source that gives a usable value:
//! - description: `og:description`, `twitter:description`, `meta
//!   name=description`, JSON-LD `description`, `dc.description`;
//! - section: `article:section`, JSON-LD `articleSection`, the `section`
//!   metas of analytics tags (`parsely-section`…);
//! - tags: the publisher's own tags and keywords ([`tags`]);
//! - image: `og:image`, `twitter:image`, JSON-LD `image`, resolved against
//!   the page's URL;
//! - paywalled: JSON-LD `isAccessibleForFree` (false, or a part not free:
//!   paywalled), else `article:content_tier` (`locked` or `metered`: paywalled;
//!   `free`: not).

use url::Url;

use super::jsonld::JsonLd;
use super::page::Page;
use super::resolve;
use super::tags::{self, clean_label};

/// Longest description kept (a whole article's text in a meta is no
/// description).
const MAX_DESCRIPTION_CHARS: usize = 2_000;
/// Longest section kept.
const MAX_SECTION_CHARS: usize = 100;

const DESCRIPTION_METAS: &[&str] = &["og:description", "twitter:description", "description"];
/// Section metas read before JSON-LD's `articleSection`, and after it.
const SECTION_METAS: &[&str] = &["article:section", "og:article:section"];
const WEAK_SECTION_METAS: &[&str] = &["section", "parsely-section", "sailthru.section"];
const IMAGE_METAS: &[&str] = &[
    "og:image",
    "og:image:url",
    "og:image:secure_url",
    "twitter:image",
    "twitter:image:src",
];

/// What [`details`] reads.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Details {
    pub description: Option<String>,
    pub section: Option<String>,
    pub tags: Vec<String>,
    pub image: Option<String>,
    pub paywalled: Option<bool>,
}

pub(super) fn details(page: &Page, ld: &JsonLd, url: Option<&Url>, site: &[String]) -> Details {
    let description = DESCRIPTION_METAS
        .iter()
        .filter_map(|k| page.meta(k))
        .chain(ld.description.clone())
        .chain(page.meta("dc.description"))
        .find(|d| d.chars().any(char::is_alphanumeric))
        .map(|d| cut(&d, MAX_DESCRIPTION_CHARS));
    let section = SECTION_METAS
        .iter()
        .filter_map(|k| page.meta(k))
        .chain(ld.section.clone())
        .chain(WEAK_SECTION_METAS.iter().filter_map(|k| page.meta(k)))
        .map(|s| clean_label(&s))
        .find(|s| !s.is_empty() && s.chars().count() <= MAX_SECTION_CHARS);
    let image = IMAGE_METAS
        .iter()
        .filter_map(|k| page.meta(k))
        .chain(ld.image.clone())
        .find_map(|i| resolve(&i, url));
    Details {
        description,
        section,
        tags: tags::tags(page, ld, site),
        image,
        paywalled: paywalled(page, ld),
    }
}

/// At most `max` characters, cut at a word when it must be cut.
fn cut(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let head: String = s.chars().take(max).collect();
    match head.rfind(' ') {
        Some(at) => format!("{}…", &head[..at]),
        None => head,
    }
}

/// See the module doc: the JSON-LD declaration, else the content tier.
fn paywalled(page: &Page, ld: &JsonLd) -> Option<bool> {
    if let Some(free) = ld.free {
        return Some(!free);
    }
    let tier = page.meta("article:content_tier")?.to_ascii_lowercase();
    match tier.as_str() {
        "locked" | "metered" => Some(true),
        "free" => Some(false),
        _ => None,
    }
}
