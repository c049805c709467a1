//! What both stores' searches decide the same way: how many matches are
//! ranked, and the snippet of a hit found without a full-text index.
//!
//! In: a text and the term found in it. Out: the snippet, on one line.

/// Most matching articles ranked by bm25 per query: beyond, the newest
/// this many matches are ranked (bm25 over 70,000 matches of 16 common
/// words cost 1.5 s; see `cargo bench --bench search`).
pub(crate) const MAX_RANKED: i64 = 10_000;
/// Characters of context either side of the first hit in a LIKE snippet.
const LIKE_CONTEXT: usize = 40;

/// Text around the first occurrence of `term`, the hit marked `[…]`.
pub(crate) fn like_snippet(text: &str, term: &str) -> String {
    let Some(at) = text.find(term) else {
        return text.chars().take(2 * LIKE_CONTEXT).collect();
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
