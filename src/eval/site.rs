//! The site of a page of a gold set, which decides its half
//! ([`super::halves`]) and its fold ([`super::folds`]).
//!
//! In: the page's bytes (or its parsed document) and its file stem. Out:
//! the site's name.

use crate::extract::{charset, metadata, strip};

/// The site of a page of a gold set: the host of its canonical URL (`link
/// rel=canonical`, else `og:url`) without `www.`, else its file name
/// without a trailing `_NN`/`-NN` (`tv.msnbc.com_news_07` →
/// `tv.msnbc.com_news`).
pub fn page_site(bytes: &[u8], stem: &str) -> String {
    let html = charset::decode(bytes, None, None);
    let doc = scraper::Html::parse_document(&strip::strip(&html.text));
    site_in(&doc, stem)
}

/// [`page_site`] of a page already parsed.
pub(super) fn site_in(doc: &scraper::Html, stem: &str) -> String {
    let canonical = metadata::extract_metadata_in(doc, None, None).canonical_url;
    site_from(canonical.as_deref(), stem)
}

/// The site of a page whose canonical URL is `canonical`: its host without
/// `www.`, else the file name's site part.
pub(super) fn site_from(canonical: Option<&str>, stem: &str) -> String {
    canonical
        .and_then(|u| url::Url::parse(u).ok())
        .and_then(|u| {
            u.host_str()
                .map(|h| h.trim_start_matches("www.").to_string())
        })
        .unwrap_or_else(|| stem_site(stem).to_string())
}

/// Site key of a file stem: without a trailing `_NN` or `-NN`, nor the
/// separator left before it (`qq__2` → `qq`).
fn stem_site(stem: &str) -> &str {
    let key = super::sequence::site_key(stem);
    let key = match key.rsplit_once('-') {
        Some((k, n)) if !k.is_empty() && !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
            k
        }
        _ => key,
    };
    let trimmed = key.trim_end_matches(['_', '-']);
    if trimmed.is_empty() {
        key
    } else {
        trimmed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_give_the_site_when_the_page_names_none() {
        assert_eq!(
            page_site(b"<p>no canonical</p>", "tv.msnbc.com_news_07"),
            "tv.msnbc.com_news"
        );
        assert_eq!(page_site(b"", "bbc-1"), "bbc");
        assert_eq!(page_site(b"", "qq__2"), "qq");
        let page = br#"<html><head><link rel="canonical" href="https://www.example.org/a/b"></head></html>"#;
        assert_eq!(page_site(page, "x_1"), "example.org");
    }
}
