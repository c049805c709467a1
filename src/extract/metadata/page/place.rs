//! Where an element sits on the page, and what its class and id say.
//!
//! In: an element of the parsed page, or its lower-cased class and id. Out:
//! whether it is in the page's chrome (header, nav, footer), in comments or
//! related stories, in a rail of other stories; which [`hint`] words its
//! class or id holds.

use std::sync::LazyLock;

use aho_corasick::AhoCorasick;
use scraper::node::Element;
use scraper::ElementRef;

use crate::extract::word_finder::any_case;

use super::MAX_ANCESTORS;

/// Class/id words of a comment thread or a related-stories block.
static COMMENTS_OR_RELATED: LazyLock<AhoCorasick> =
    LazyLock::new(|| any_case(["comment", "related"]));

/// Whether the element's class or id holds one of `words` (no word holds a
/// space, so none can run from the class into the id).
fn names_any(v: &Element, words: &AhoCorasick) -> bool {
    [v.attr("class"), v.id()]
        .into_iter()
        .flatten()
        .any(|name| words.is_match(name))
}

/// Inside the page's header, nav or footer, or inside a comment thread or
/// a related-stories block. An `<article>`'s own `<header>` (headline,
/// byline, date) is content, so an `<article>` or `<main>` ancestor anywhere
/// clears the header/nav/footer verdict (but not the comments one).
pub(super) fn in_chrome_or_comments(el: ElementRef) -> bool {
    let mut chrome = false;
    let mut content = false;
    for a in el
        .ancestors()
        .take(MAX_ANCESTORS)
        .filter_map(ElementRef::wrap)
    {
        let v = a.value();
        match v.name() {
            "article" | "main" => content = true,
            "header" | "nav" | "footer" => chrome = true,
            _ => {
                let role = v.attr("role").unwrap_or("");
                chrome |= ["banner", "navigation", "contentinfo"]
                    .iter()
                    .any(|r| role.eq_ignore_ascii_case(r));
            }
        }
        if names_any(v, &COMMENTS_OR_RELATED) {
            return true;
        }
    }
    chrome && !content
}

/// Class/id words of the blocks beside a story that link other stories.
static RAIL_WORDS: LazyLock<AhoCorasick> = LazyLock::new(|| {
    any_case([
        "related",
        "more",
        "recommend",
        "popular",
        "trending",
        "most-read",
        "mostread",
        "read-next",
        "sidebar",
        "rail",
        "widget",
    ])
});

/// Inside an `<aside>` or a block whose class or id names a rail of other
/// stories ("more stories", "most read", "sidebar"): not the page's own
/// teasers.
pub(super) fn in_rail(el: ElementRef) -> bool {
    el.ancestors()
        .take(MAX_ANCESTORS)
        .filter_map(ElementRef::wrap)
        .any(|a| {
            let v = a.value();
            v.name() == "aside" || names_any(v, &RAIL_WORDS)
        })
}

/// Groups of class/id words [`hint_words`] looks for.
pub(super) mod hint {
    pub const SKIP: u8 = 1;
    pub const NAME: u8 = 2;
    pub const BYLINE: u8 = 4;
    pub const DATE: u8 = 8;
}

/// The [`hint`] groups whose words occur in `key` (lower case). One pass over
/// the key instead of a substring search per word, and at each byte only the
/// words that start with it: this runs for most elements of a page.
pub(super) fn hint_words(key: &[u8]) -> u8 {
    let mut found = 0;
    for i in 0..key.len() {
        let rest = &key[i..];
        let starts = |w: &[u8]| rest.starts_with(w);
        found |= match key[i] {
            b'c' if starts(b"comment") => hint::SKIP,
            b'r' if starts(b"related") => hint::SKIP,
            b'r' if starts(b"reporter") => hint::BYLINE,
            b'n' if starts(b"name") => hint::NAME,
            b'b' if starts(b"byline") => hint::BYLINE,
            // Not "authorized", "authorise", "authority": a sign-in
            // prompt or an institution, not a byline.
            b'a' if starts(b"author")
                && !starts(b"authoriz")
                && !starts(b"authoris")
                && !starts(b"authorit") =>
            {
                hint::BYLINE
            }
            b'w' if starts(b"writer") => hint::BYLINE,
            b'd' if starts(b"date") => hint::DATE,
            b't' if starts(b"time") => hint::DATE,
            b'p' if starts(b"publish") || starts(b"posted") => hint::DATE,
            b'm' if starts(b"meta") => hint::DATE,
            b'i' if starts(b"info") => hint::DATE,
            _ => 0,
        };
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hint_words_finds_every_group_anywhere_in_the_key() {
        assert_eq!(
            hint_words(b"article-byline__name "),
            hint::BYLINE | hint::NAME
        );
        assert_eq!(hint_words(b"entry-meta published"), hint::DATE);
        assert_eq!(hint_words(b"x relatedposts"), hint::SKIP);
        assert_eq!(hint_words(b"comment-time"), hint::SKIP | hint::DATE);
        assert_eq!(hint_words(b"story body "), 0);
        assert_eq!(hint_words(b"dat"), 0);
        // Words that start like "author" but name a sign-in or a body.
        assert_eq!(hint_words(b"authorized "), 0);
        assert_eq!(hint_words(b"x authorization"), 0);
        assert_eq!(hint_words(b"navbox authority-control"), 0);
        assert_eq!(hint_words(b"authorbox "), hint::BYLINE);
    }
}
