//! Finding the article's headline when the selected content does not hold it.
//!
//! In: the arena, the page `<title>`, the first content node and the skip
//! mask. Out: the index of the heading element to prepend, if any. News pages
//! usually put the `<h1>` outside the body container the density selection
//! picks, while gold texts (and readers) expect the headline first.

use std::collections::HashSet;

use super::dom::{Dom, Tag};
use super::text::subtree_text;

/// Lowercased alphanumeric words (CJK characters one by one).
fn words(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    for w in s.split(|c: char| !c.is_alphanumeric()) {
        if w.is_empty() {
            continue;
        }
        if w.chars().any(crate::words::is_cjk) {
            out.extend(w.chars().map(|c| c.to_lowercase().collect::<String>()));
        } else {
            out.push(w.to_lowercase());
        }
    }
    out
}

/// Share of the heading's words that occur in the title.
fn title_overlap(heading: &str, title: &HashSet<String>) -> f64 {
    let w = words(heading);
    if w.is_empty() {
        return 0.0;
    }
    w.iter().filter(|x| title.contains(*x)).count() as f64 / w.len() as f64
}

/// Whether a heading repeats the page title (≥ half of its words are
/// title words).
pub fn matches_title(heading: &str, title: &str) -> bool {
    TitleWords::of(title).named(heading)
}

/// The title's words, read once to test many headings against them.
pub struct TitleWords(HashSet<String>);

impl TitleWords {
    pub fn of(title: &str) -> TitleWords {
        TitleWords(words(title).into_iter().collect())
    }

    /// Whether the heading repeats the title, as [`matches_title`] says.
    pub fn named(&self, heading: &str) -> bool {
        let n = heading.split_whitespace().count();
        (1..=40).contains(&n) && title_overlap(heading, &self.0) >= 0.5
    }
}

/// How far before the content a heading without title overlap may be
/// (arena nodes).
const NEAR: usize = 120;

/// The heading to prepend: among `<h1>`/`<h2>` elements before `start` that
/// are not skipped, the closest one that matches the title (≥ half of its
/// words), else the closest `<h1>` within [`NEAR`] nodes.
pub fn find(dom: &Dom<'_>, title: Option<&str>, start: usize, skip: &[bool]) -> Option<usize> {
    let title = title.map(TitleWords::of);
    let mut best_match = None;
    let mut nearest_h1 = None;
    let mut i = 0;
    while i < start.min(dom.len()) {
        let n = &dom.nodes[i];
        if skip[i] {
            i = n.end as usize;
            continue;
        }
        if matches!(n.tag, Tag::H1 | Tag::H) && (n.end as usize) <= start {
            let text = subtree_text(dom, i, skip);
            let nwords = text.split_whitespace().count();
            if (1..=40).contains(&nwords) {
                if title.as_ref().is_some_and(|t| t.named(&text)) {
                    best_match = Some(i);
                }
                if n.tag == Tag::H1 {
                    nearest_h1 = Some(i);
                }
            }
            i = n.end as usize;
            continue;
        }
        i += 1;
    }
    best_match.or(nearest_h1.filter(|&h| start - h <= NEAR))
}

#[cfg(test)]
mod tests {
    use super::*;
    use scraper::Html;

    #[test]
    fn picks_heading_matching_title() {
        let doc = Html::parse_document(
            "<body><h1>Site Name</h1><h2>Big storm hits the coast</h2><div><p>Story.</p></div></body>",
        );
        let dom = Dom::build(&doc);
        let start = dom
            .nodes
            .iter()
            .position(|n| n.text == "Story.")
            .unwrap_or(0);
        let skip = vec![false; dom.len()];
        let h = find(
            &dom,
            Some("Big storm hits the coast - Daily News"),
            start,
            &skip,
        );
        assert_eq!(
            h.map(|h| subtree_text(&dom, h, &skip)),
            Some("Big storm hits the coast".into())
        );
    }
}
