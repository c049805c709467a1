//! What both stores' searches decide the same way: how many matches are
//! ranked, the snippet of a hit found without a full-text index, and the
//! article a reference names.
//!
//! In: a text and the term found in it; a URL typed by a user. Out: the
//! snippet, on one line; the URLs to look the article up by.

use url::Url;

use crate::store::ArticleRef;
use crate::urls::normalize;

/// Most matching articles ranked by bm25 per query: beyond, the newest
/// this many matches are ranked (bm25 over 70,000 matches of 16 common
/// words cost 1.5 s; see `cargo bench --bench search`).
pub(crate) const MAX_RANKED: i64 = 10_000;
/// Characters of context either side of the first hit in a LIKE snippet.
const LIKE_CONTEXT: usize = 40;
/// Characters of an article's text a snippet is made from: its start, so
/// a snippet's cost is bounded whatever the article's length (FTS5's
/// `snippet()` over a 5 MB text with a hit in every paragraph took 2.7 s
/// of CPU, 20 of them a minute). Nearly every article is shorter; a longer
/// one's snippet shows its first hit within this window, or its start.
pub(crate) const SNIPPET_WINDOW: usize = 65_536;

/// A character of both stores' indexes of Chinese and Japanese articles
/// (by migration): Han (extension A, unified) and kana; a wider test would
/// leave out articles the index does not hold.
pub(crate) fn in_cjk_index(c: char) -> bool {
    matches!(c as u32, 0x3041..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF)
}

/// `%term%` with LIKE's wildcards and escape character escaped.
pub(crate) fn like_pattern(term: &str) -> String {
    let mut p = String::from("%");
    for c in term.chars() {
        if matches!(c, '%' | '_' | '\\') {
            p.push('\\');
        }
        p.push(c);
    }
    p.push('%');
    p
}

/// The id of the article `r` names: the id given, or the article the
/// first of the URLs it may be found under (as typed, then normalised)
/// leads to, as `at` looks a URL up (an alias, the article's URL, then
/// its canonical URL).
pub(crate) fn article_id<E>(
    r: ArticleRef,
    mut at: impl FnMut(&str) -> Result<Option<i64>, E>,
) -> Result<Option<i64>, E> {
    let url = match r {
        ArticleRef::Id(id) => return Ok(Some(id)),
        ArticleRef::Url(url) => url,
    };
    let normalized = Url::parse(&url).ok().as_ref().and_then(normalize);
    for candidate in std::iter::once(url.clone()).chain(normalized.map(|n| n.to_string())) {
        if let Some(id) = at(&candidate)? {
            return Ok(Some(id));
        }
    }
    Ok(None)
}

/// Text around the first occurrence of `term`, the hit marked `[…]`.
pub(crate) fn like_snippet(text: &str, term: &str) -> String {
    let Some(at) = text.find(term) else {
        return one_line(&text.chars().take(2 * LIKE_CONTEXT).collect::<String>());
    };
    let before: String = {
        let mut v: Vec<char> = text[..at].chars().rev().take(LIKE_CONTEXT).collect();
        v.reverse();
        v.into_iter().collect()
    };
    let after: String = text[at + term.len()..].chars().take(LIKE_CONTEXT).collect();
    let lead = if before.len() < at { "…" } else { "" };
    let tail = if at + term.len() + after.len() < text.len() {
        "…"
    } else {
        ""
    };
    one_line(&format!("{lead}{before}[{term}]{after}{tail}"))
}

/// Snippets are shown one per line: paragraph breaks become spaces.
pub(crate) fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regression_a_snippet_without_the_term_verbatim_was_not_on_one_line() {
        // LIKE folds ASCII case: the text holds the term in another case.
        let text = "First paragraph.\n\nSecond STRIKE paragraph.";
        assert_eq!(
            like_snippet(text, "strike"),
            "First paragraph. Second STRIKE paragraph."
        );
        assert_eq!(
            like_snippet(text, "STRIKE"),
            "First paragraph. Second [STRIKE] paragraph."
        );
    }
}
