//! Per-site boilerplate lines (Li & Jiang), the pure part.
//!
//! In: extracted article text (one paragraph per line, blocks separated by a
//! blank line) and the site's line counts. Out: the text without the lines
//! judged boilerplate, paragraph structure kept.
//!
//! 1. Each line is normalised ([`normalize_line`]) and hashed with MD5
//!    ([`line_hash`]); blank lines are structure, never counted.
//! 2. Per site, RC = articles processed and LC = articles containing the line
//!    (counted at most once per article). A line is kept while
//!    LC ≤ int(1 + RC/L) and dropped otherwise ([`LineRule`]).
//! 3. Guards ([`Variant`]), measured on cleanportaleval: a long line
//!    *between* kept lines needs twice the evidence (boilerplate clusters at
//!    the start and end of the text, while a paragraph inside the body that
//!    recurs is more often quoted or re-published than template), and so do
//!    all lines of a text the rule would mostly delete (a story published
//!    again under another address).
//!
//! The counts live in the store (`line_hashes`, `site_stats`); see
//! `store::lines` for the transactional learning step (it runs inside the
//! store's write transaction) and `eval::sequence` for the measurement on
//! page sequences of one site. [`LineSettings`] are the tunables of both.

use std::collections::HashMap;

use md5::{Digest, Md5};
use serde::Serialize;
use unicode_normalization::{is_nfc_quick, IsNormalized, UnicodeNormalization};

/// MD5 of a normalised line.
pub type LineHash = [u8; 16];

/// A line at least this many characters long (after normalisation) is a
/// "long" line for [`Variant::guard_long_interior`]: a real sentence or more,
/// not a label like "Advertisement" or "Share this".
pub const LONG_LINE_CHARS: usize = 60;

/// Normalise a line for hashing: Unicode NFC, trim, collapse whitespace runs
/// to one space, drop invisible characters (zero-width space, BOM, soft
/// hyphen), and mask digits: every run of digits becomes `#`.
///
/// Digits are masked so that lines differing only in a number — "© 2011 BBC"
/// vs "© 2012 BBC", "Comments (3)" vs "Comments (12)", "Page 2 of 5" — are one
/// template line. Measured on cleanportaleval (`tests/eval/boilerplate_sequence.rs`):
/// the mean F1 gain of learning (after re-cleaning) is +0.0049 with masking
/// and +0.0013 without; what it merged there were datelines ("Posted at
/// 10:58 AM ET, 09/16/2011", "5 April 2013 Last updated at 08:09 GMT"),
/// which the gold texts leave out.
pub fn normalize_line(line: &str) -> String {
    normalize_with(line, true)
}

/// [`normalize_line`] with digit masking switchable, for measuring it.
pub fn normalize_with(line: &str, mask_digits: bool) -> String {
    // Most lines are NFC already (every ASCII line is): skip the composing
    // iterator for them, it is most of the cost of normalising.
    if line.is_ascii() || is_nfc_quick(line.chars()) == IsNormalized::Yes {
        collapse(line.chars(), line.len(), mask_digits)
    } else {
        collapse(line.nfc(), line.len(), mask_digits)
    }
}

/// Trim, collapse whitespace, drop invisible characters, mask digits.
fn collapse(chars: impl Iterator<Item = char>, len: usize, mask_digits: bool) -> String {
    let mut out = String::with_capacity(len);
    let mut pending_space = false;
    let mut in_digits = false;
    for c in chars {
        if c.is_whitespace() {
            pending_space = !out.is_empty();
            in_digits = false;
            continue;
        }
        if matches!(
            c,
            '\u{200B}' | '\u{200C}' | '\u{200D}' | '\u{FEFF}' | '\u{00AD}'
        ) {
            continue;
        }
        if pending_space {
            out.push(' ');
            pending_space = false;
        }
        // Full-width digits too: CJK sites write dates with them.
        if mask_digits && (c.is_ascii_digit() || ('\u{FF10}'..='\u{FF19}').contains(&c)) {
            if !in_digits {
                out.push('#');
                in_digits = true;
            }
            continue;
        }
        in_digits = false;
        out.push(c);
    }
    out
}

/// MD5 of an already-normalised line.
pub fn line_hash(normalized: &str) -> LineHash {
    Md5::digest(normalized.as_bytes()).into()
}

/// The Li & Jiang rule with window L.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct LineRule {
    pub window: u64,
}

impl Default for LineRule {
    fn default() -> Self {
        Self { window: 50 }
    }
}

impl LineRule {
    /// int(1 + RC/L): the most articles a kept line may appear in.
    pub fn threshold(&self, rc: u64) -> u64 {
        // A window of 0 is rejected by config validation; treat it as 1
        // rather than divide by zero.
        1 + rc / self.window.max(1)
    }

    /// True when a line seen in `lc` of `rc` articles is boilerplate.
    pub fn is_boilerplate(&self, lc: u64, rc: u64) -> bool {
        lc > self.threshold(rc)
    }

    /// A line's status for [`judge`]: 0 kept (LC ≤ t), 1 boilerplate
    /// (t < LC ≤ 2t), 2 boilerplate even under the guards (LC > 2t), with
    /// t = [`Self::threshold`]. `judge` looks at nothing else of the counts,
    /// so a text's cleaned form can change only when one of its lines
    /// changes status (what the end-of-crawl re-clean relies on).
    pub fn status(&self, lc: u64, rc: u64) -> u8 {
        let t = self.threshold(rc);
        if lc <= t {
            0
        } else if lc <= 2 * t {
            1
        } else {
            2
        }
    }
}

/// Tunables of the line filter: `[boilerplate]` with the site's switch,
/// resolved by `config` (`SiteSettings::lines`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LineSettings {
    pub rule: LineRule,
    /// Records with LC ≤ RC × prune_ratio are deleted when pruning.
    pub prune_ratio: f64,
    /// Prune a site's records every this many articles.
    pub prune_every: u64,
    /// False: store text as extracted, learn nothing.
    pub enabled: bool,
    /// Refinements over the plain rule (digit masking, interior guard).
    pub variant: Variant,
}

impl Default for LineSettings {
    /// The documented defaults of `[boilerplate]` (`crawler.toml`).
    fn default() -> Self {
        Self {
            rule: LineRule::default(),
            prune_ratio: 0.01,
            prune_every: 100,
            enabled: true,
            variant: Variant::default(),
        }
    }
}

impl LineSettings {
    /// The settings a cleaned text depends on besides the counts (the
    /// window and the variant), as a short key: articles cleaned under one
    /// key need cleaning again, all of them, under another.
    pub fn judgement_key(&self) -> String {
        let v = &self.variant;
        format!(
            "window={} mask_digits={} guard_long_interior={} guard_mostly_dropped={}",
            self.rule.window, v.mask_digits, v.guard_long_interior, v.guard_mostly_dropped
        )
    }
}

/// Refinements over the plain rule, each switchable so it can be measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Variant {
    /// Hash lines with digit runs masked ([`normalize_line`]). Changing this
    /// on an existing database makes old counts unreachable (learning starts
    /// over), it never corrupts anything.
    pub mask_digits: bool,
    /// A long line (≥ [`LONG_LINE_CHARS`]) lying between kept lines is
    /// dropped only when LC > 2·int(1 + RC/L).
    pub guard_long_interior: bool,
    /// When the rule would drop more than half of the text's characters,
    /// drop only lines with LC > 2·int(1 + RC/L): most of such a text is a
    /// re-published story, not template.
    pub guard_mostly_dropped: bool,
}

impl Default for Variant {
    fn default() -> Self {
        Self {
            mask_digits: true,
            guard_long_interior: true,
            guard_mostly_dropped: true,
        }
    }
}

/// A non-blank line of an article.
#[derive(Debug, Clone, PartialEq)]
pub struct TextLine<'a> {
    /// The line as extracted, trimmed.
    pub raw: &'a str,
    pub normalized: String,
    pub hash: LineHash,
}

/// A line of an article: text or a block separator.
#[derive(Debug, Clone, PartialEq)]
pub enum Piece<'a> {
    Blank,
    Line(TextLine<'a>),
}

/// Split text into lines, hashing every non-blank one.
pub fn split_lines<'a>(text: &'a str, variant: &Variant) -> Vec<Piece<'a>> {
    text.lines()
        .map(|raw| {
            let normalized = normalize_with(raw, variant.mask_digits);
            if normalized.is_empty() {
                Piece::Blank
            } else {
                Piece::Line(TextLine {
                    raw: raw.trim(),
                    hash: line_hash(&normalized),
                    normalized,
                })
            }
        })
        .collect()
}

/// The distinct hashes of the text's lines (each counted once per article).
pub fn distinct_lines<'p, 'a>(pieces: &'p [Piece<'a>]) -> Vec<&'p TextLine<'a>> {
    let mut seen = std::collections::HashSet::new();
    pieces
        .iter()
        .filter_map(|p| match p {
            Piece::Line(l) if seen.insert(l.hash) => Some(l),
            _ => None,
        })
        .collect()
}

/// A site's counts as far as one text needs them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SiteCounts {
    /// RC: articles processed.
    pub rc: u64,
    /// LC per line hash; a missing line has LC 0.
    pub lc: HashMap<LineHash, u64>,
}

impl SiteCounts {
    pub fn lc(&self, hash: &LineHash) -> u64 {
        self.lc.get(hash).copied().unwrap_or(0)
    }
}

/// Text after boilerplate removal.
#[derive(Debug, Clone, PartialEq)]
pub struct Filtered {
    pub text: String,
    /// Lines removed as boilerplate.
    pub dropped: usize,
}

/// Which pieces to drop, by the rule and the variant.
pub fn judge(
    pieces: &[Piece<'_>],
    rule: &LineRule,
    variant: &Variant,
    counts: &SiteCounts,
) -> Vec<bool> {
    let mut drop: Vec<bool> = pieces
        .iter()
        .map(|p| match p {
            Piece::Blank => false,
            Piece::Line(l) => rule.is_boilerplate(counts.lc(&l.hash), counts.rc),
        })
        .collect();
    if variant.guard_mostly_dropped {
        let chars = |keep: &dyn Fn(usize) -> bool| -> usize {
            pieces
                .iter()
                .enumerate()
                .filter(|(i, _)| keep(*i))
                .map(|(_, p)| match p {
                    Piece::Line(l) => l.normalized.len(),
                    Piece::Blank => 0,
                })
                .sum()
        };
        let total = chars(&|_| true);
        let dropped = chars(&|i| drop[i]);
        if dropped * 2 > total {
            // Most of the text recurs: a story published again (or updated
            // under a new address) rather than a template around new text.
            // Only lines with strong evidence go.
            let strict = 2 * rule.threshold(counts.rc);
            for (i, p) in pieces.iter().enumerate() {
                if let Piece::Line(l) = p {
                    drop[i] = counts.lc(&l.hash) > strict;
                }
            }
        }
    }
    if variant.guard_long_interior {
        let is_kept_line = |i: &usize| matches!(pieces[*i], Piece::Line(_)) && !drop[*i];
        let first = (0..pieces.len()).find(is_kept_line);
        let last = (0..pieces.len()).rev().find(is_kept_line);
        if let (Some(first), Some(last)) = (first, last) {
            let strict = 2 * rule.threshold(counts.rc);
            for i in first + 1..last {
                if let Piece::Line(l) = &pieces[i] {
                    if drop[i]
                        && l.normalized.chars().count() >= LONG_LINE_CHARS
                        && counts.lc(&l.hash) <= strict
                    {
                        drop[i] = false;
                    }
                }
            }
        }
    }
    drop
}

/// Rebuild the text from the pieces not dropped. Blocks stay blocks: two kept
/// lines are separated by a blank line when any blank line lay between them,
/// by a newline otherwise; no leading, trailing or doubled blank lines.
pub fn assemble(pieces: &[Piece<'_>], drop: &[bool]) -> Filtered {
    let mut text = String::new();
    let mut dropped = 0;
    let mut blank_before = false;
    for (piece, &d) in pieces.iter().zip(drop) {
        match piece {
            Piece::Blank => blank_before = true,
            Piece::Line(_) if d => dropped += 1,
            Piece::Line(l) => {
                if !text.is_empty() {
                    text.push_str(if blank_before { "\n\n" } else { "\n" });
                }
                text.push_str(l.raw);
                blank_before = false;
            }
        }
    }
    Filtered { text, dropped }
}

/// Remove the boilerplate lines of `text` given the site's counts.
pub fn filter(text: &str, rule: &LineRule, variant: &Variant, counts: &SiteCounts) -> Filtered {
    let pieces = split_lines(text, variant);
    let drop = judge(&pieces, rule, variant, counts);
    assemble(&pieces, &drop)
}

#[cfg(test)]
mod tests;
