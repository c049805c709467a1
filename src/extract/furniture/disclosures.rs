//! Affiliate and advertising disclosures: the lines a site that earns from
//! the links or products in its stories must print (the FTC's rules in the
//! US, the duty to label advertising in Germany), the same on every page:
//! "If you buy something using links in our stories, we may earn a
//! commission.", "*Werbung. Dieser Beitrag enthält Werbung für …",
//! "Bei den Verlinkungen handelt es sich um Affiliate Links".
//!
//! In: a paragraph of the selected text. Out: whether it is such a line.

use std::sync::LazyLock;

use aho_corasick::AhoCorasick;

use crate::extract::word_finder;
use regex::Regex;

/// A disclosure holds at most this many characters (a few sentences of
/// legal wording; the longest seen held 270).
pub(super) const DISCLOSURE_MAX_CHARS: usize = 400;

/// Words one of which every alternative of [`DISCLOSURE`] holds: most lines
/// hold none, and the regex need not run on them.
const DISCLOSURE_WORDS: &[&str] = &["affiliate", "commission", "compensation", "werbung"];

static DISCLOSURE_WORD_FINDER: LazyLock<AhoCorasick> =
    LazyLock::new(|| word_finder::any_case(DISCLOSURE_WORDS));

/// The disclosure's own wording: the site (or the author) may earn a
/// commission or compensation; the post contains affiliate links or
/// advertising ("Werbung"); the links are affiliate links. The word
/// "Werbung" alone opens sentences of stories too ("Werbung nervt.").
static DISCLOSURE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(?:we|i)\s+(?:may|might|will|could)\s+(?:earn|receive|get|make)\b.{0,40}\b(?:commission|compensation)\b|\b(?:post|article|page|story|beitrag|artikel)\b.{0,40}\b(?:contains?|includes?|enthält)\b.{0,30}\b(?:affiliate|werbung)|\b(?:handelt\s+es\s+sich\s+um|sind|are)\s+(?:sogenannte\s+)?(?:»|„|\x22)?affiliate[-\s]?links?\b",
    )
    .expect("static regex")
});

/// Whether `line` is an affiliate or advertising disclosure.
pub(super) fn is_disclosure(line: &str) -> bool {
    let line = line.trim();
    line.chars().count() <= DISCLOSURE_MAX_CHARS
        && DISCLOSURE_WORD_FINDER.is_match(line)
        && DISCLOSURE.is_match(line)
}

#[cfg(test)]
mod tests {
    use super::is_disclosure;

    #[test]
    fn disclosures_of_affiliate_links_and_advertising() {
        for line in [
            "If you buy something using links in our stories, we may earn a commission. \
             This helps support our journalism. Learn more.",
            "This post contains references to products from one or more of our advertisers. \
             We may receive compensation when you click on links to those products.",
            "This post and the photos within it may contain affiliate links. If you purchase \
             something through the link, I may receive a small commission at no extra charge.",
            "*Werbung. Dieser Beitrag enthält Werbung für eine Marke.",
            "Dieser Artikel enthält Affiliate-Links und/oder werbende Inhalte.",
            "Letzte Aktualisierung am 2.02.2022 / Bei den Verlinkungen handelt es sich um \
             Affiliate Links / Bilder von der Amazon Product Advertising API",
        ] {
            assert!(is_disclosure(line), "{line}");
        }
    }

    #[test]
    fn sentences_about_commissions_and_advertising_are_not_disclosures() {
        for line in [
            "The European Commission said it would send aid to the region.",
            "The commissioner said the league had received no complaints.",
            "Sprint had a net gain through its wholesale and affiliate channels.",
            "Einige fragten, ob er versuche, Werbung für sich zu machen.",
            "Werbung nervt. Tracking nervt. Nerven nervt.",
            "The agency will receive compensation from the state for the losses.",
        ] {
            assert!(!is_disclosure(line), "{line}");
        }
    }

    #[test]
    fn a_long_paragraph_is_not_a_disclosure() {
        let long = format!(
            "{} We may earn a commission.",
            "The council met on Monday and agreed the budget. ".repeat(10)
        );
        assert!(!is_disclosure(&long));
    }
}
