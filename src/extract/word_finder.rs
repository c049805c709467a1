//! A searcher for a fixed list of words in any ASCII case: one pass over a
//! text or a class name for all its words, where a regex of the same
//! alternation spends most of its time setting its search up.

use aho_corasick::AhoCorasick;

/// Finds any of `words`, ASCII case ignored (a list of non-ASCII
/// spellings, such as `ſ` for `s`, is the caller's to add).
pub(crate) fn any_case<I, P>(words: I) -> AhoCorasick
where
    I: IntoIterator<Item = P>,
    P: AsRef<[u8]>,
{
    AhoCorasick::builder()
        .ascii_case_insensitive(true)
        .build(words)
        .expect("static word list")
}
