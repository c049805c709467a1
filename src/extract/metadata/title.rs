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
//! variant loses to the one the reader sees.

use regex::Regex;
use std::collections::HashSet;
use std::sync::LazyLock;

/// Separators between a headline and the site name.
static SEPARATOR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\s+[-–—|·»•]\s+|\s*(?:::|\||｜|_|»)\s*|\s+[-–—]\s*$").expect("valid regex")
});

/// At least this share of tokens shared with an `<h1>` makes it an arbiter.
const H1_MATCH: f64 = 0.5;
/// An end part with at most this many tokens counts as a "short" label.
const SHORT_PART: usize = 4;

pub(super) fn choose_title(
    candidates: &[String],
    h1s: &[String],
    site_names: &[String],
) -> Option<String> {
    let mut variants: Vec<String> = Vec::new();
    for c in candidates {
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

/// Remove a site name (or a short label) separated from the headline.
pub(super) fn strip_site(raw: &str, site_names: &[String]) -> String {
    let raw = collapse(raw);
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
                    || (tokens(text(p)).len() <= SHORT_PART
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
    let len_of =
        |a: usize, b: usize| -> usize { parts[a..b].iter().map(|&p| tokens(text(p)).len()).sum() };
    if hi - lo > 1 {
        let last = tokens(text(parts[hi - 1])).len();
        if last <= SHORT_PART && len_of(lo, hi - 1) > 2 * last {
            hi -= 1;
        }
    }
    if hi - lo > 1 {
        let first = tokens(text(parts[lo])).len();
        if first <= SHORT_PART && len_of(lo + 1, hi) > 2 * first {
            lo += 1;
        }
    }
    raw[parts[lo].0..parts[hi - 1].1].trim().to_string()
}

fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Lower-case letters and digits only, for comparing names ("The Guardian"
/// vs "theguardian").
fn squash(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

fn is_cjk(c: char) -> bool {
    matches!(c as u32, 0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xAC00..=0xD7AF | 0xF900..=0xFAFF)
}

/// Lower-cased words; each CJK character is its own token.
pub(super) fn tokens(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    for c in s.chars() {
        if is_cjk(c) {
            if !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
            out.push(c.to_string());
        } else if c.is_alphanumeric() {
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
mod tests {
    use super::*;

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn strips_named_site_suffix_and_prefix() {
        let s = names(&["BBC News"]);
        assert_eq!(
            strip_site("Storm hits the coast - BBC News", &s),
            "Storm hits the coast"
        );
        assert_eq!(
            strip_site("BBC News | Storm hits the coast", &s),
            "Storm hits the coast"
        );
        let g = names(&["The Guardian", "theguardian"]);
        assert_eq!(
            strip_site("Brexit: what happens next | Politics | The Guardian", &g),
            "Brexit: what happens next"
        );
        assert_eq!(
            strip_site("国务院常务会议部署稳就业_新华网", &names(&["新华网"])),
            "国务院常务会议部署稳就业"
        );
        assert_eq!(
            strip_site("Title here :: Example Site", &names(&["example"])),
            "Title here"
        );
    }

    #[test]
    fn strips_short_unnamed_suffix_only_when_the_rest_is_long() {
        assert_eq!(
            strip_site(
                "Storm hits the coast after a long summer — Daily Planet",
                &[]
            ),
            "Storm hits the coast after a long summer"
        );
        // Both halves are headline-sized: keep everything.
        assert_eq!(
            strip_site(
                "Storm hits the coast - thousands without power tonight",
                &[]
            ),
            "Storm hits the coast - thousands without power tonight"
        );
        // Hyphens inside words and a single colon are not separators.
        assert_eq!(
            strip_site("Well-known actor: a profile", &[]),
            "Well-known actor: a profile"
        );
    }

    #[test]
    fn h1_picks_the_matching_candidate() {
        // og:title is an SEO variant; <title> (stripped) matches the h1.
        let c = names(&[
            "Ten things you must know today",
            "Council approves new bridge over the river | City Paper",
        ]);
        let h1 = names(&["Council approves new bridge over the river"]);
        assert_eq!(
            choose_title(&c, &h1, &[]).as_deref(),
            Some("Council approves new bridge over the river")
        );
        // The h1 keeps a part the short-suffix rule would have dropped.
        let c = names(&["Rates rise again as inflation bites hard - Analysis"]);
        let h1 = names(&["Rates rise again as inflation bites hard - Analysis"]);
        assert_eq!(
            choose_title(&c, &h1, &[]).as_deref(),
            Some("Rates rise again as inflation bites hard - Analysis")
        );
    }

    #[test]
    fn unrelated_h1_is_ignored_and_lone_h1_is_used() {
        let c = names(&["Council approves new bridge - City Paper"]);
        assert_eq!(
            choose_title(&c, &names(&["City Paper"]), &names(&["City Paper"])).as_deref(),
            Some("Council approves new bridge")
        );
        assert_eq!(
            choose_title(&[], &names(&["  Lone   headline "]), &[]).as_deref(),
            Some("Lone headline")
        );
        assert_eq!(choose_title(&[], &[], &[]), None);
        assert_eq!(choose_title(&names(&["  ", "|"]), &[], &[]), None);
    }
}
