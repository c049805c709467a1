//! The labels that put a date in a page's visible text: "Published: …",
//! "Datum 28.04.2023", "Mis à jour le …", "发布时间：…".
//!
//! In: a short text node. Out: whether it starts with a publication or an
//! update label, and where the label ends.
//!
//! A page that declares its date nowhere else (no meta, no JSON-LD, no
//! `<time>`) still prints it for its readers, under a label in the page's
//! own language. The labels are those of the languages news is written in
//! most, each with the small words that follow it ("am", "le", "el", "op");
//! a label alone says nothing, the date after it is still parsed and vetted
//! like every weak date.

use regex::Regex;
use std::sync::LazyLock;

/// What a label says of the date after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::extract::metadata) enum DateLabel {
    Published,
    Modified,
}

/// The first words of the labels below, lower-cased: most text nodes start
/// with none of them, and this check spares them the regexes.
const LEAD_WORDS: &[&str] = &[
    // Publication.
    "published",
    "posted",
    "created",
    "date",
    "first",
    "datum",
    "dato",
    "fecha",
    "data",
    "veröffentlicht",
    "erschienen",
    "publié",
    "publicado",
    "pubblicato",
    "gepubliceerd",
    "opublikowano",
    "publicerad",
    "publiceret",
    "publisert",
    // Update.
    "updated",
    "modified",
    "last",
    "aktualisiert",
    "mis",
    "actualizado",
    "atualizado",
    "aggiornato",
    "bijgewerkt",
    "laatst",
    "zaktualizowano",
    "uppdaterad",
    "opdateret",
    "oppdatert",
];

/// The Chinese labels' first characters (they are not words [`LEAD_WORDS`]
/// could split off).
const CJK_LEADS: [char; 4] = ['发', '时', '日', '更'];

/// "Published: …", "Posted on …", "Datum …", "Veröffentlicht am …",
/// "Publié le …", "Publicado el …", "发布时间：…".
static PUBLISHED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)^\s*(?:(?:(?:(?:first\s+)?(?:published|posted|created)(?:\s+(?:date|time|on|at))?|date|datum|dato|fecha|data|(?:veröffentlicht|erschienen)(?:\s+am)?|publié(?:\s+le)?|publicado(?:\s+(?:el|em))?|pubblicato(?:\s+il)?|gepubliceerd(?:\s+op)?|opublikowano|publicerad|publiceret|publisert)\b)|发布时间|发表时间|发布日期|时间|日期)\s*[:：]?",
    )
    .expect("valid regex")
});

/// "Updated: …", "Last modified …", "Aktualisiert am …", "Mis à jour le …",
/// "Laatst bijgewerkt op …", "更新时间：…".
static MODIFIED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)^\s*(?:(?:(?:last\s+)?(?:updated|modified)(?:\s+(?:date|time|on|at))?|aktualisiert(?:\s+am)?|mis\s+à\s+jour(?:\s+le)?|actualizado(?:\s+el)?|atualizado(?:\s+em)?|aggiornato(?:\s+il)?|(?:laatst\s+)?bijgewerkt(?:\s+op)?|zaktualizowano|uppdaterad|opdateret|oppdatert)\b|更新时间)\s*[:：]?",
    )
    .expect("valid regex")
});

/// The date label `text` starts with, and the byte where the label ends.
pub(in crate::extract::metadata) fn date_label(text: &str) -> Option<(DateLabel, usize)> {
    if !starts_with_lead(text) {
        return None;
    }
    if let Some(m) = PUBLISHED.find(text) {
        Some((DateLabel::Published, m.end()))
    } else {
        MODIFIED.find(text).map(|m| (DateLabel::Modified, m.end()))
    }
}

/// Whether a text starts with an update label: the date after it is not
/// the publication date.
pub(in crate::extract::metadata) fn is_modified_label(text: &str) -> bool {
    starts_with_lead(text) && MODIFIED.is_match(text)
}

/// The first letters of [`LEAD_WORDS`], one bit each (a = bit 0).
const LEAD_INITIALS: u32 = {
    let mut bits = 0;
    let mut k = 0;
    while k < LEAD_WORDS.len() {
        bits |= 1 << (LEAD_WORDS[k].as_bytes()[0] - b'a');
        k += 1;
    }
    bits
};

/// The longest of [`LEAD_WORDS`], in bytes ("veröffentlicht").
const LEAD_WORD_MAX_BYTES: usize = 15;

/// Whether the text's first word is one of [`LEAD_WORDS`] (in any ASCII
/// case), or it starts with one of [`CJK_LEADS`]. Every text node of the
/// page is asked: the word is read no further than the longest lead word,
/// lower-cased on the stack.
fn starts_with_lead(text: &str) -> bool {
    let lead = text.trim_start();
    let Some(&first) = lead.as_bytes().first() else {
        return false;
    };
    // Most texts start with a letter no lead word starts with.
    if first.is_ascii_alphabetic() {
        if LEAD_INITIALS & (1 << (first.to_ascii_lowercase() - b'a')) == 0 {
            return false;
        }
    } else if first.is_ascii() {
        return false;
    } else if lead.starts_with(CJK_LEADS) {
        return true;
    }
    // Most words end at an ASCII byte; one with a letter beyond ASCII
    // ("veröffentlicht") is read by its characters.
    let ascii_end = lead
        .bytes()
        .take(LEAD_WORD_MAX_BYTES + 1)
        .position(|b| !b.is_ascii_alphabetic())
        .unwrap_or(lead.len().min(LEAD_WORD_MAX_BYTES + 1));
    let len = if lead.as_bytes().get(ascii_end).is_some_and(|&b| b >= 0x80) {
        lead.char_indices()
            .find(|&(_, c)| !c.is_alphabetic())
            .map_or(lead.len(), |(at, _)| at)
    } else {
        ascii_end
    };
    if !(3..=LEAD_WORD_MAX_BYTES).contains(&len) {
        return false;
    }
    let mut word = [0u8; LEAD_WORD_MAX_BYTES];
    let word = &mut word[..len];
    word.copy_from_slice(&lead.as_bytes()[..len]);
    word.make_ascii_lowercase();
    LEAD_WORDS.iter().any(|w| w.as_bytes() == word)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn label(text: &str) -> Option<(DateLabel, &str)> {
        date_label(text).map(|(kind, end)| (kind, text[end..].trim()))
    }

    #[test]
    fn publication_labels_of_several_languages_are_read_with_their_small_words() {
        for (text, rest) in [
            ("Published: 5 March 2024", "5 March 2024"),
            ("Posted on March 5, 2024", "March 5, 2024"),
            ("Datum", ""),
            ("Veröffentlicht am 05.03.2024", "05.03.2024"),
            ("Publié le 5 mars 2024", "5 mars 2024"),
            ("Publicado el 5 de marzo de 2024", "5 de marzo de 2024"),
            ("Pubblicato il 5 marzo 2024", "5 marzo 2024"),
            ("Gepubliceerd op 5 maart 2024", "5 maart 2024"),
            ("DATA: 05.03.2024", "05.03.2024"),
            ("发布时间：2024-03-05", "2024-03-05"),
        ] {
            assert_eq!(label(text), Some((DateLabel::Published, rest)), "{text}");
        }
    }

    #[test]
    fn update_labels_are_told_from_publication_labels() {
        for (text, rest) in [
            ("Last updated: 5 March 2024", "5 March 2024"),
            ("Aktualisiert am 05.03.2024", "05.03.2024"),
            ("Mis à jour le 5 mars 2024", "5 mars 2024"),
            ("Laatst bijgewerkt op 5 maart 2024", "5 maart 2024"),
            ("更新时间：2024-03-05", "2024-03-05"),
        ] {
            assert_eq!(label(text), Some((DateLabel::Modified, rest)), "{text}");
            assert!(is_modified_label(text), "{text}");
        }
        assert!(!is_modified_label("Veröffentlicht am 05.03.2024"));
    }

    #[test]
    fn every_lead_word_fits_the_bound_the_reader_uses() {
        for w in LEAD_WORDS {
            assert!((3..=LEAD_WORD_MAX_BYTES).contains(&w.len()), "{w}");
            assert_eq!(w.to_lowercase(), *w, "{w}");
        }
    }

    #[test]
    fn a_word_that_only_begins_like_a_label_is_none() {
        for text in [
            "Databases of 2024",
            "Dateline: Berlin",
            "Lastly, on 5 March 2024",
            "Publications 2024",
            "Misinformation spread on 5 March",
            "Datumsgrenze",
            "Veröffentlichungen",
        ] {
            assert_eq!(label(text), None, "{text}");
        }
    }
}
