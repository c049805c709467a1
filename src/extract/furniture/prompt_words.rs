//! A cheap test that rules most lines out before the prompt regexes run.
//!
//! In: a line. Out: whether it may be a prompt ([`super::lines::is_prompt`]
//! then runs the regexes on it); never `false` for a line they match.

use std::sync::LazyLock;

use aho_corasick::AhoCorasick;

use crate::extract::word_finder;

/// Words, lower case, one of which each alternative of [`PROMPT`](super::lines::PROMPT) and
/// [`COOKIE_NOTICE`](super::lines::COOKIE_NOTICE) spells out (a test checks it): a line without any of
/// them matches neither. Most lines hold none, and the regexes are slow on
/// them (their Unicode `\b` sends non-ASCII lines to the backtracking
/// engines): they were 5 % of extraction time.
pub(super) const PROMPT_WORDS: &[&str] = &[
    "sign",
    "subscri",
    "newsletter",
    "join",
    "email",
    "download",
    "follow",
    "facebook",
    "cookies",
    "journalism",
    "want",
    "view",
    "seeing",
    "privacy",
    "privatsph",
    "abonnieren",
    "folgen",
    "abonnez",
    "suscr",
];

/// Could `line` match [`PROMPT`](super::lines::PROMPT) or [`COOKIE_NOTICE`](super::lines::COOKIE_NOTICE): it holds one of
/// [`PROMPT_WORDS`] ignoring ASCII case, or a letter that the regexes'
/// Unicode case folding reads as an ASCII one (`ſ` as `s`, the Kelvin sign
/// as `k`), where only the regexes can tell.
pub(super) fn may_be_prompt(line: &str) -> bool {
    PROMPT_WORD_FINDER.is_match(line)
}

/// [`PROMPT_WORDS`] in any ASCII case, and the two letters that fold to
/// ASCII ones, found in one pass over a line (a search per word was 1.7 %
/// of extraction time).
static PROMPT_WORD_FINDER: LazyLock<AhoCorasick> = LazyLock::new(|| {
    word_finder::any_case(PROMPT_WORDS.iter().copied().chain(["\u{17F}", "\u{212A}"]))
});

#[cfg(test)]
mod tests {
    use super::super::lines::{COOKIE_NOTICE, PROMPT};
    use super::*;

    /// The alternatives of the first group of `pattern` (`(?i)^(?:a|b|c)`),
    /// as written, split at its top-level `|`s.
    fn alternatives(pattern: &str) -> Vec<String> {
        let open = pattern.find("(?:").expect("a group") + 3;
        let (mut out, mut cur, mut depth) = (Vec::new(), String::new(), 1);
        let (mut escaped, mut in_class) = (false, false);
        for c in pattern[open..].chars() {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if in_class {
                in_class = c != ']';
            } else if c == '[' {
                in_class = true;
            } else if c == '(' {
                depth += 1;
            } else if c == ')' {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            } else if c == '|' && depth == 1 {
                out.push(std::mem::take(&mut cur));
                continue;
            }
            cur.push(c);
        }
        out.push(cur);
        out
    }

    #[test]
    fn every_prompt_alternative_spells_one_of_the_words() {
        for re in [&*PROMPT, &*COOKIE_NOTICE] {
            let alts = alternatives(re.as_str());
            assert!(alts.len() > 5, "{alts:?}");
            for alt in alts {
                let lower = alt.to_lowercase();
                assert!(
                    PROMPT_WORDS.iter().any(|w| lower.contains(w)),
                    "add a word of `{alt}` to PROMPT_WORDS"
                );
            }
        }
    }

    #[test]
    fn lines_without_the_words_are_ruled_out_and_folded_letters_are_not() {
        assert!(!may_be_prompt("Die Regierung hat am Montag beschlossen."));
        assert!(may_be_prompt("SUBSCRIBE to our newsletter"));
        assert!(may_be_prompt("Wir verwenden Cookies."));
        // `(?i)` reads `ſ` as `s`: "ſign up" is a prompt to the regex.
        assert!(may_be_prompt("\u{17F}ign up"));
        assert!(PROMPT.is_match("\u{17F}ign up"));
    }
}
