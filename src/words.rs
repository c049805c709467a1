//! Words as this crate counts them: one definition for extraction, the store
//! and evaluation (the bottom of the house: it imports nothing of the crate).
//!
//! In: text. Out: whether a character is CJK, the tokens of a text
//! (whitespace-separated words, each CJK character a token of its own, as the
//! CETD and CEDS papers score) and their number (`articles.word_count`).

/// Han ideographs and Japanese kana: the letters of scripts written without
/// spaces between words (not Hangul: Korean separates words with spaces).
/// Search sends a query with one of them to the trigram index; title
/// matching splits them one per token.
pub fn is_han_or_kana(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF    // Hiragana, Katakana
        | 0x3400..=0x4DBF  // CJK Extension A
        | 0x4E00..=0x9FFF  // CJK Unified Ideographs
        | 0xF900..=0xFAFF  // CJK Compatibility Ideographs
        | 0x20000..=0x2FFFF) // Extensions B–F, compatibility supplement
}

/// A character that is a token of its own: [`is_han_or_kana`], CJK symbols
/// and punctuation (`。`, `「`) and the halfwidth and fullwidth forms (`：`,
/// `５`). U+3000 (ideographic space) is whitespace first: never a token.
pub fn is_cjk(c: char) -> bool {
    is_han_or_kana(c)
        || matches!(c as u32,
            0x3000..=0x303F     // CJK symbols and punctuation
            | 0xFF00..=0xFFEF) // Halfwidth and fullwidth forms
}

/// A control character that is not whitespace (NUL, the other C0 and C1
/// controls but tab, line feed and the like, DEL): no word holds one, and
/// typed where text is asked for it is a mistake or an attack (a NUL in a
/// query made FTS5 fail, and PostgreSQL refuses it in any text).
pub fn is_stray_control(c: char) -> bool {
    c.is_control() && !c.is_whitespace()
}

/// Split text into tokens (borrowed slices): whitespace-separated words, with
/// each [`is_cjk`] character as its own token.
pub fn tokenize(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for word in text.split_whitespace() {
        if word.is_ascii() {
            out.push(word);
            continue;
        }
        let mut start: Option<usize> = None;
        for (i, c) in word.char_indices() {
            if is_cjk(c) {
                if let Some(s) = start.take() {
                    out.push(&word[s..i]);
                }
                out.push(&word[i..i + c.len_utf8()]);
            } else if start.is_none() {
                start = Some(i);
            }
        }
        if let Some(s) = start {
            out.push(&word[s..]);
        }
    }
    out
}

/// The number of [`tokenize`] tokens, without building them: the article's
/// word count is the length evaluation scores.
pub fn word_count(text: &str) -> usize {
    word_count_up_to(text, usize::MAX)
}

/// [`word_count`], counting no further than `limit`: whether a text reaches
/// a length need not read a long article to its end.
pub fn word_count_up_to(text: &str, limit: usize) -> usize {
    let mut n = 0;
    let mut in_word = false;
    for c in text.chars() {
        if n >= limit {
            break;
        }
        if c.is_whitespace() {
            in_word = false;
        } else if is_cjk(c) {
            n += 1;
            in_word = false;
        } else if !in_word {
            n += 1;
            in_word = true;
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_split_cjk_chars() {
        assert_eq!(
            tokenize("Hello  world\n中文abc 。"),
            vec!["Hello", "world", "中", "文", "abc", "。"]
        );
    }

    #[test]
    fn word_count_counts_cjk_characters_each() {
        assert_eq!(word_count("The quick  brown\nfox"), 4);
        assert_eq!(word_count("新华社北京"), 5);
        assert_eq!(word_count(""), 0);
        assert_eq!(word_count_up_to("one two three four", 2), 2);
        assert_eq!(word_count_up_to("one two", 5), 2);
        assert_eq!(word_count_up_to("新华社北京", 3), 3);
    }

    /// `store::word_count` used its own CJK ranges and left out CJK
    /// punctuation, so the stored count was not the length `eval` scores.
    #[test]
    fn store_word_count_disagreed_with_eval_tokens() {
        for text in [
            "据新华社 GDP增长5%。",
            "「東京」：５月　ニュース",
            "mixed中文words and\u{3000}ideographic space",
            "Ｆｕｌｌwidth ａｎｄ ascii",
            "",
        ] {
            assert_eq!(word_count(text), tokenize(text).len(), "{text:?}");
        }
        assert_eq!(word_count("据新华社 GDP增长5%。"), 4 + 1 + 2 + 1 + 1);
    }

    #[test]
    fn han_and_kana_are_cjk_but_hangul_is_neither() {
        for c in ['中', 'か', 'カ', '𠀀'] {
            assert!(is_han_or_kana(c) && is_cjk(c), "{c}");
        }
        for c in ['。', '：', '５'] {
            assert!(is_cjk(c) && !is_han_or_kana(c), "{c}");
        }
        for c in ['한', 'a', 'é', '\u{3000}'] {
            assert!(!is_han_or_kana(c), "{c}");
        }
    }
}
