//! Article text → its language (ISO 639-3 code), when the detection is
//! reliable.
//!
//! The answer is whatlang's (0.18) with the Latin-script languages cut to the
//! most-published ones (those of `latin_profiles.txt`). Text whose letters
//! are mostly Latin is scored by [`latin`], which reproduces whatlang's
//! arithmetic with one table lookup per text trigram instead of one per
//! profile trigram (whatlang's cost, ~7,500 lookups, was fixed per page);
//! every other text goes to whatlang itself.

mod latin;
#[cfg(test)]
mod tests;

use std::sync::LazyLock;

/// Language of the article text (ISO 639-3), if the detection is reliable.
/// Looks at the first kilobyte, then (if the detection is unsure and there
/// is more) the first two: one kilobyte settles most pages.
pub fn detect_language(text: &str) -> Option<String> {
    const SHORT: usize = 1024;
    const LONG: usize = 2048;
    let short = prefix(text, SHORT);
    // Stop counting at 20: only "fewer than 20 letters" matters.
    if short.chars().filter(|c| c.is_alphabetic()).take(20).count() < 20 {
        return None;
    }
    if let Some(lang) = reliable_language(short) {
        return Some(lang);
    }
    if short.len() == text.len() {
        return None;
    }
    reliable_language(prefix(text, LONG))
}

/// At most `max` bytes of `text`, cut at a char boundary.
fn prefix(text: &str, max: usize) -> &str {
    let mut end = text.len().min(max);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

fn reliable_language(sample: &str) -> Option<String> {
    let (lang, confidence) = detect(sample)?;
    // whatlang's `Info::is_reliable`.
    (confidence > 0.9).then(|| lang.code().to_string())
}

/// The language and whatlang's confidence in it, exactly as
/// [`whatlang_detector`] answers.
fn detect(sample: &str) -> Option<(whatlang::Lang, f64)> {
    if latin::is_mainly_latin(sample) {
        return Some(latin::detect(sample));
    }
    let info = DETECTOR.detect(sample)?;
    Some((info.lang(), info.confidence()))
}

/// whatlang with the Latin-script languages outside `latin_profiles.txt`
/// denied and every other script's languages allowed: one call finds the
/// script and scores the languages.
fn whatlang_detector() -> whatlang::Detector {
    let scored = latin::languages();
    let denied = whatlang::Script::Latin
        .langs()
        .iter()
        .copied()
        .filter(|l| !scored.contains(l))
        .collect();
    whatlang::Detector::with_denylist(denied)
}

static DETECTOR: LazyLock<whatlang::Detector> = LazyLock::new(whatlang_detector);
