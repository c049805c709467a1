//! Where the article ends: `auto` step 6 cuts the text at a short heading
//! that opens the section after the story ("Related stories", "You may also
//! like", "Most read", …).
//!
//! In: the assembled paragraphs ([`TextSink`], [`Para`]) and the range of
//! the body among them. Out: the index of the paragraph that opens such a
//! section, if one comes once enough of the text is behind.

use std::sync::LazyLock;

use regex::Regex;

use super::text::{Para, TextSink};

/// Calibrated with the rest of `auto` on the corpus (tests/corpus).
mod tune {
    /// A related-stories heading is at most this long …
    pub const HEADING_MAX_CHARS: u32 = 40;
    /// … and cuts the text only after this share of it …
    pub const MIN_SHARE_BEFORE: f64 = 0.3;
    /// … or after this many characters.
    pub const MIN_CHARS_BEFORE: u64 = 300;
}

/// Headings that open the section after an article: related stories, most
/// read, "B.C. Headlines", external links (+0.005 F1 on page-signal-dev,
/// nothing lost elsewhere). Reader-comment headings ("Comments", "Leave a reply") are not in the
/// list: cutting there gained 0.006 F1 on page-signal-dev but lost 0.020 on
/// cleaneval-dev, whose gold texts of blog pages include the comments.
static TAIL_HEADING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)^related(\s+(stories|articles|links|content|posts|news|coverage))?\s*:?$|^(you\s+may|you\s+might)\s+also\s+like|^more\s+(stories|news|headlines)\b|^(most\s+(read|popular|viewed|emailed))\s*:?$|^([\w.]+\s+){0,2}headlines\s*:?$|^top\s+stories\s*:?$|^external\s+links\s*:?$|^comments\s+are\s+(now\s+)?closed|^(ähnliche\s+(artikel|beiträge)|das\s+könnte\s+(sie|dich)\s+auch\s+interessieren|weitere\s+(artikel|beiträge)|mehr\s+zum\s+thema|auch\s+interessant|lesen\s+sie\s+auch|zum\s+weiterlesen|sur\s+le\s+même\s+sujet|à\s+lire\s+(aussi|également)|noticias\s+relacionadas|te\s+puede\s+interesar|czytaj\s+(także|też)|zobacz\s+(także|też|również))\s*:?$",
    )
    .expect("static regex")
});

/// Headings of a box about the author after the story ("About the
/// author", "Über den Autor", "Zur Autorin").
static AUTHOR_HEADING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)^(about\s+the\s+authors?|über\s+(den\s+autor|die\s+autorin|die\s+autoren)|zum\s+autor|zur\s+autorin|à\s+propos\s+de\s+l.auteur|sobre\s+(el|la)\s+autora?|o\s+autorze)\s*:?$",
    )
    .expect("static regex")
});

/// Index (relative to `body`'s base `first`) of a short paragraph that opens
/// a related-stories section, or with `author_bios` a box about the author,
/// once enough of the text is behind.
pub fn tail_section_start(
    sink: &TextSink,
    paras: &[Para],
    first: usize,
    body: std::ops::Range<usize>,
    author_bios: bool,
) -> Option<usize> {
    let re = &*TAIL_HEADING;
    let opens = |t: &str| re.is_match(t) || (author_bios && AUTHOR_HEADING.is_match(t));
    let total: u64 = paras[first + body.start..first + body.end]
        .iter()
        .map(|p| u64::from(p.chars))
        .sum();
    let mut before = 0u64;
    for i in body {
        let p = &paras[first + i];
        if p.chars <= tune::HEADING_MAX_CHARS
            && (before as f64 >= tune::MIN_SHARE_BEFORE * total as f64
                || before >= tune::MIN_CHARS_BEFORE)
            && opens(sink.para_text(first + i).trim())
        {
            return Some(i);
        }
        before += u64::from(p.chars);
    }
    None
}
