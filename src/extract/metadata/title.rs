//! Title candidates → the article headline.
//!
//! In: candidate titles in priority order (og:title, twitter:title, JSON-LD
//! headline, `<title>`), the page's `<h1>` texts, and names the site goes by
//! (site name, publisher, host). Out: one title.
//!
//! Titles often carry the site: "Storm hits coast - BBC News", "Opinion |
//! The Guardian", "标题_新华网". [`strip_site`] removes an end part separated
//! by `|`, `-`, `–`, `—`, `::`, `»`, `·`, `_` when it names the site or is
//! short next to the rest. When the page has an `<h1>`, the candidate (full
//! or stripped) that matches it best wins, so a stripped-too-much or an SEO
//! variant loses to the one the reader sees. The story's declared (JSON-LD)
//! headline goes first, or the og:title when that is the declared one
//! trimmed ([`trimmed_from`]).

use regex::Regex;
use std::collections::HashSet;
use std::sync::LazyLock;

use crate::words::is_han_or_kana;

/// Separators between a headline and the site name.
static SEPARATOR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\s+[-–—|·»•]\s+|\s*(?:::|\||｜|_|»)\s*|\s+[-–—]\s*$").expect("valid regex")
});

/// At least this share of tokens shared with an `<h1>` makes it an arbiter.
const H1_MATCH: f64 = 0.5;
/// An end part with at most this many tokens counts as a "short" label.
const SHORT_PART: usize = 4;
/// A Chinese/Japanese end part (each character a token) with at most this
/// many tokens is short: site names run to 10–12 characters
/// (`中国载人航天官方网站`, `山西省人民政府门户网站`).
const SHORT_CJK_PART: usize = 12;

pub(super) fn choose_title(
    declared: Option<&str>,
    social: Option<&str>,
    candidates: &[String],
    h1s: &[String],
    site_names: &[String],
) -> Option<String> {
    // The story's own structured data names its headline for search
    // engines and news aggregators: the one the newsroom wrote for the
    // story, where og:title and the <h1> are as often a social-media or
    // front-page variant. Unless it is cut short ("…").
    // Only a part naming the site is cut from it: a headline's own
    // "– and yet not" is no label.
    if let Some(d) = declared.filter(|d| !looks_like_code(d) && !cut_short(d)) {
        let v = strip_parts(d, site_names, false);
        if v.chars().any(char::is_alphanumeric) {
            // Cut as the declared one is: a short label there is as often
            // the headline's own end.
            let short = social.map(|s| strip_parts(s, site_names, false));
            return Some(short.filter(|s| trimmed_from(s, &v)).unwrap_or(v));
        }
    }
    let candidates: Vec<&String> = candidates.iter().filter(|c| !looks_like_code(c)).collect();
    let mut variants: Vec<String> = Vec::new();
    for c in &candidates {
        for v in [strip_site(c, site_names), collapse(c)] {
            if v.chars().any(char::is_alphanumeric) && !variants.contains(&v) {
                variants.push(v);
            }
        }
    }
    let h1s: Vec<String> = h1s
        .iter()
        .map(|h| collapse(h))
        .filter(|h| !h.is_empty())
        .collect();
    // An h1 found verbatim inside a candidate, making up most of it, is the
    // headline with the site's decorations cut off exactly.
    for h in &h1s {
        let lower = h.to_lowercase();
        let inside = candidates.iter().any(|c| {
            collapse(c).to_lowercase().contains(&lower) && 2 * tokens(h).len() >= tokens(c).len()
        });
        if inside && !variants.contains(h) {
            variants.push(h.clone());
        }
    }
    let mut best: Option<(&String, f64)> = None;
    for v in &variants {
        for h in &h1s {
            let s = similarity(v, h);
            if best.is_none_or(|(_, b)| s > b) {
                best = Some((v, s));
            }
        }
    }
    if let Some((v, s)) = best {
        if s >= H1_MATCH {
            return Some(v.clone());
        }
    }
    if let Some(first) = variants.into_iter().next() {
        return Some(first);
    }
    // No metadata title at all: a lone, sensible <h1> is the headline.
    h1s.into_iter().find(|h| h.chars().count() <= 300)
}

/// `short` is `long` with a kicker, a prefix or an end clause cut off, or
/// only its punctuation changed ("MSV-Interimstrainer Schubert: …" →
/// "Interimstrainer Schubert: …"; "A - B" → "A: B"): the og:title then is
/// the headline as the newsroom displays it, and the declared one carries
/// additions for search. Its letters and digits lie in the other's in
/// order, and it keeps at least half of the other's words (not a fragment
/// or a section name).
fn trimmed_from(short: &str, long: &str) -> bool {
    let (s, l) = (squash(short), squash(long));
    !s.is_empty()
        && l.contains(&s)
        && short != long
        && 2 * tokens(short).len() >= tokens(long).len()
}

/// A headline cut to a length limit (schema.org's 110 characters) ends in
/// an ellipsis.
fn cut_short(s: &str) -> bool {
    let s = s.trim_end();
    s.ends_with('…') || s.ends_with("...")
}

/// Markup or script leaked into a title by broken HTML, or no title at all.
fn looks_like_code(s: &str) -> bool {
    s.len() > 1000
        || ["<", "/>", "=\"", "-->", "{", "}"]
            .iter()
            .any(|m| s.contains(m))
}

/// Remove a site name (or a short label) separated from the headline.
pub(super) fn strip_site(raw: &str, site_names: &[String]) -> String {
    strip_parts(raw, site_names, true)
}

/// Remove the end parts that name the site, and with `short_labels` also
/// short labels separated from the rest (see the module doc).
fn strip_parts(raw: &str, site_names: &[String], short_labels: bool) -> String {
    let raw = space_cjk_dashes(&collapse(raw));
    let mut parts: Vec<(usize, usize)> = Vec::new();
    let mut start = 0;
    for m in SEPARATOR.find_iter(&raw) {
        if m.start() > start {
            parts.push((start, m.start()));
        }
        start = m.end();
    }
    if start < raw.len() {
        parts.push((start, raw.len()));
    }
    match parts.len() {
        0 => return String::new(),
        1 => return raw[parts[0].0..parts[0].1].trim().to_string(),
        _ => {}
    }
    let text = |p: (usize, usize)| &raw[p.0..p.1];
    let sites: Vec<String> = site_names
        .iter()
        .map(|s| squash(s))
        .filter(|s| s.chars().count() >= 3)
        .collect();
    let is_site = |p: (usize, usize)| {
        let s = squash(text(p));
        !s.is_empty()
            && sites.iter().any(|site| {
                s == *site
                    || (tokens(text(p)).len() <= SHORT_PART + 2
                        && (s.contains(site.as_str()) || site.contains(&s)))
            })
    };
    let (mut lo, mut hi) = (0, parts.len());
    while hi - lo > 1 && is_site(parts[hi - 1]) {
        hi -= 1;
    }
    while hi - lo > 1 && is_site(parts[lo]) {
        lo += 1;
    }
    if !short_labels {
        return raw[parts[lo].0..parts[hi - 1].1].trim().to_string();
    }
    let len_of =
        |a: usize, b: usize| -> usize { parts[a..b].iter().map(|&p| tokens(text(p)).len()).sum() };
    // Section and site labels stack up: "Title - Soccer - Sport - News".
    // With three or more parts, short end parts go as long as they are not
    // the longest part; with two, the rest must be at least twice as long.
    let count = |p: (usize, usize)| tokens(text(p)).len();
    // A Chinese/Japanese site name is short up to SHORT_CJK_PART characters
    // and only needs a longer rest (the headline is rarely twice as long).
    let cjk_short = |p: (usize, usize)| {
        let t = tokens(text(p));
        let cjk = t
            .iter()
            .filter(|w| w.chars().next().is_some_and(is_han_or_kana))
            .count();
        t.len() > SHORT_PART && 2 * cjk >= t.len() && t.len() <= SHORT_CJK_PART
    };
    let longest = (lo..hi)
        .max_by_key(|&i| (count(parts[i]), usize::MAX - i))
        .unwrap_or(lo);
    let removable = |i: usize, lo: usize, hi: usize| {
        let n = count(parts[i]);
        let rest = if i == lo {
            len_of(lo + 1, hi)
        } else {
            len_of(lo, hi - 1)
        };
        let short_enough = if i == hi - 1 && cjk_short(parts[i]) {
            hi - lo >= 3 || rest > n
        } else {
            n <= SHORT_PART && (hi - lo >= 3 || rest >= 2 * n)
        };
        short_enough && i != longest
    };
    while hi - lo > 1 && removable(hi - 1, lo, hi) {
        hi -= 1;
    }
    while hi - lo > 1 && removable(lo, lo, hi) {
        lo += 1;
    }
    raw[parts[lo].0..parts[hi - 1].1].trim().to_string()
}

/// A hyphen between two Chinese/Japanese characters separates a site name
/// (`中华人民共和国监察法-纪检`): such text has no hyphenated words. Spaced,
/// it splits like `Title - Site`.
fn space_cjk_dashes(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len() + 8);
    for (i, &c) in chars.iter().enumerate() {
        let between_cjk = matches!(c, '-' | '－')
            && i > 0
            && chars.get(i + 1).is_some_and(|&n| is_han_or_kana(n))
            && (is_han_or_kana(chars[i - 1]) || "”」）】]".contains(chars[i - 1]));
        if between_cjk {
            out.push_str(" - ");
        } else {
            out.push(c);
        }
    }
    out
}

fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Lower-case letters and digits only, for comparing names ("The Guardian"
/// vs "theguardian") and texts whatever their spacing and punctuation.
pub(crate) fn squash(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// Lower-cased words; each CJK character is its own token.
pub(super) fn tokens(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    for c in s.chars() {
        if is_han_or_kana(c) {
            if !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
            out.push(c.to_string());
        } else if c.is_alphanumeric() || (!word.is_empty() && (c == '\'' || c == '’')) {
            word.extend(c.to_lowercase());
        } else if !word.is_empty() {
            out.push(std::mem::take(&mut word));
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

/// Shared distinct tokens over the larger token set.
fn similarity(a: &str, b: &str) -> f64 {
    let a: HashSet<String> = tokens(a).into_iter().collect();
    let b: HashSet<String> = tokens(b).into_iter().collect();
    let max = a.len().max(b.len());
    if max == 0 {
        return 0.0;
    }
    a.intersection(&b).count() as f64 / max as f64
}

#[cfg(test)]
mod tests;
