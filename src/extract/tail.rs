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
        r"(?i)^related(\s+(stories|articles|links|content|posts|news|coverage))?\s*:?$|^(you\s+may|you\s+might)\s+also\s+like|^more\s+(stories|news|headlines)\b|^(most\s+(read|popular|viewed|emailed))\s*:?$|^([\w.]+\s+){0,2}headlines\s*:?$|^top\s+stories\s*:?$|^external\s+links\s*:?$|^comments\s+are\s+(now\s+)?closed",
    )
    .expect("static regex")
});

/// Index (relative to `body`'s base `first`) of a short paragraph that opens
/// a related-stories section, once enough of the text is behind.
pub fn tail_section_start(
    sink: &TextSink,
    paras: &[Para],
    first: usize,
    body: std::ops::Range<usize>,
) -> Option<usize> {
    let re = &*TAIL_HEADING;
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
            && re.is_match(sink.para_text(first + i).trim())
        {
            return Some(i);
        }
        before += u64::from(p.chars);
    }
    None
}
