//! CETD family on the arena DOM: text density, composite text density,
//! DensitySum selection, threshold and content marking (Sun, Song, Liao).
//!
//! In: a [`Dom`] and its [`Stats`]. Out: per-node densities, the node with the
//! largest DensitySum, and a `skip` mask that leaves out non-content subtrees.
//!
//! Formulas (DESIGN.md, "The method"), for node i with CharNumber C,
//! TagNumber T, LinkCharNumber LC, LinkTagNumber LT, and the body's LCb, Cb:
//! - TD = C / T
//! - CTD = (C/T) · log_{ln((C/nonLC)·LC + (LCb/Cb)·C + e)} ((C/LC)·(T/LT)),
//!   nonLC = C − LC; every denominator that is 0 is set to 1 (including the
//!   logarithm's ln(base), which is 0 when the base is e).
//! - DensitySum(N) = Σ density of N's children (text nodes count as leaves
//!   with T = 0 → 1, so text written straight into a `<div>` is seen).

use super::dom::{Dom, Stats, Tag};

/// Which density the CETD run uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Density {
    Text,
    Composite,
}

fn nz(x: f64) -> f64 {
    if x == 0.0 {
        1.0
    } else {
        x
    }
}

/// Text density C/T.
pub fn td(s: &Stats) -> f64 {
    f64::from(s.chars) / nz(f64::from(s.tags))
}

/// Composite text density of a node given the body's link and total chars.
pub fn ctd(s: &Stats, body: &Stats) -> f64 {
    let c = f64::from(s.chars);
    if c == 0.0 {
        return 0.0;
    }
    let t = f64::from(s.tags);
    let lc = f64::from(s.link_chars);
    let lt = f64::from(s.link_tags);
    let non_lc = c - lc;
    let base = ((c / nz(non_lc)) * lc
        + (f64::from(body.link_chars) / nz(f64::from(body.chars))) * c
        + std::f64::consts::E)
        .ln();
    let arg = (c / nz(lc)) * (nz(t) / nz(lt));
    (c / nz(t)) * (arg.ln() / nz(base.ln()))
}

/// Density of every node (0 for nodes without text).
pub fn densities(dom: &Dom<'_>, stats: &[Stats], kind: Density) -> Vec<f64> {
    let body = stats.first().copied().unwrap_or_default();
    dom.nodes
        .iter()
        .zip(stats)
        .map(|(n, s)| {
            if n.tag == Tag::NoText {
                return 0.0;
            }
            match kind {
                Density::Text => td(s),
                Density::Composite => ctd(s, &body),
            }
        })
        .collect()
}

/// DensitySum of every node: the sum of its (non-removed) children's densities.
/// `removed` must be closed under descendants ([`Dom::close_removed`]).
pub fn density_sums(dom: &Dom<'_>, dens: &[f64], removed: &[bool]) -> Vec<f64> {
    let mut ds = vec![0.0; dom.len()];
    for i in 1..dom.len() {
        if removed.get(i).copied().unwrap_or(false) {
            continue;
        }
        ds[dom.nodes[i].parent as usize] += dens[i];
    }
    ds
}

/// The element with the largest DensitySum (ties: the first in document order).
pub fn max_density_sum(dom: &Dom<'_>, ds: &[f64], removed: &[bool]) -> usize {
    let mut best = 0;
    let mut best_v = f64::NEG_INFINITY;
    for (i, n) in dom.nodes.iter().enumerate() {
        if n.tag == Tag::Text || removed.get(i).copied().unwrap_or(false) {
            continue;
        }
        if ds[i] > best_v {
            best_v = ds[i];
            best = i;
        }
    }
    best
}

/// Threshold: the smallest density on the path from `node` up to the root.
pub fn threshold(dom: &Dom<'_>, dens: &[f64], node: usize) -> f64 {
    let mut t = f64::INFINITY;
    let mut i = node;
    loop {
        t = t.min(dens[i]);
        if i == 0 {
            break;
        }
        i = dom.nodes[i].parent as usize;
    }
    t
}

/// For every node, the element with the largest DensitySum in its subtree
/// (ties: the node nearest the top, then the first in document order).
pub fn best_in_subtree(dom: &Dom<'_>, ds: &[f64]) -> Vec<u32> {
    let mut best: Vec<u32> = (0..dom.len() as u32).collect();
    for i in (1..dom.len()).rev() {
        if dom.nodes[i].tag == Tag::Text {
            continue;
        }
        let p = dom.nodes[i].parent as usize;
        let (bi, bp) = (best[i] as usize, best[p] as usize);
        if ds[bi] > ds[bp] || (ds[bi] == ds[bp] && bi < bp && bp != p) {
            best[p] = best[i];
        }
    }
    best
}

/// CETD content marking (Sun, Song, Liao, Algorithm "ExtractContent"): from
/// the root, every element R with density ≥ `t` whose parent was visited
/// marks the max-DensitySum node of its subtree as content; the text of marked
/// subtrees is the content. Returns the per-node "keep text" mask.
pub fn mark_content(
    dom: &Dom<'_>,
    dens: &[f64],
    ds: &[f64],
    t: f64,
    removed: &[bool],
) -> Vec<bool> {
    let n = dom.len();
    let best = best_in_subtree(dom, ds);
    let is_removed = |i: usize| removed.get(i).copied().unwrap_or(false);
    let mut visited = vec![false; n];
    let mut marked = vec![false; n];
    for i in 0..n {
        let node = &dom.nodes[i];
        if node.tag == Tag::Text || is_removed(i) {
            continue;
        }
        let parent_ok = i == 0 || visited[node.parent as usize];
        if parent_ok && dens[i] >= t {
            visited[i] = true;
            marked[best[i] as usize] = true;
        }
    }
    // Keep = inside a marked subtree (pre-order: parents first).
    let mut keep = marked;
    for i in 1..n {
        if keep[dom.nodes[i].parent as usize] {
            keep[i] = true;
        }
    }
    keep
}

/// Plain CETD: densities, DensitySum, max node, threshold, marking.
pub fn cetd(dom: &Dom<'_>, stats: &[Stats], kind: Density, removed: &[bool]) -> Cetd {
    let dens = densities(dom, stats, kind);
    let ds = density_sums(dom, &dens, removed);
    let best = max_density_sum(dom, &ds, removed);
    let t = threshold(dom, &dens, best);
    let keep = mark_content(dom, &dens, &ds, t, removed);
    Cetd { keep }
}

/// Result of a CETD run.
#[derive(Debug, Clone)]
pub struct Cetd {
    /// Text nodes (and elements) whose text is content.
    pub keep: Vec<bool>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use scraper::Html;

    fn st(chars: u32, tags: u32, link_chars: u32, link_tags: u32) -> Stats {
        Stats {
            chars,
            tags,
            link_chars,
            link_tags,
            punct: 0,
        }
    }

    #[test]
    fn td_formula() {
        assert_eq!(td(&st(100, 4, 0, 0)), 25.0);
        // T = 0 → 1.
        assert_eq!(td(&st(7, 0, 0, 0)), 7.0);
    }

    #[test]
    fn ctd_formula_matches_hand_computation() {
        let body = st(1000, 50, 200, 20);
        let s = st(300, 6, 30, 2);
        let base = ((300.0 / 270.0) * 30.0 + (200.0 / 1000.0) * 300.0 + std::f64::consts::E).ln();
        let want = (300.0 / 6.0) * ((300.0f64 / 30.0) * (6.0 / 2.0)).ln() / base.ln();
        assert!((ctd(&s, &body) - want).abs() < 1e-9);
    }

    #[test]
    fn ctd_zero_denominators_set_to_one() {
        // No links anywhere: base = ln(e) = 1, ln(base) = 0 → 1.
        let body = st(100, 5, 0, 0);
        let s = st(50, 2, 0, 0);
        let want = 25.0 * (50.0f64 * 2.0).ln();
        assert!((ctd(&s, &body) - want).abs() < 1e-9);
        // Only links: nonLC = 0 → 1.
        let s = st(10, 1, 10, 1);
        let body = st(100, 5, 10, 1);
        let base = (10.0 * 10.0 + 0.1 * 10.0 + std::f64::consts::E).ln();
        let want = 10.0 * (1.0f64).ln() / base.ln();
        assert!((ctd(&s, &body) - want).abs() < 1e-9);
        assert_eq!(ctd(&st(0, 3, 0, 0), &body), 0.0);
    }

    #[test]
    fn cetd_picks_article_over_menu() {
        let doc = Html::parse_document(
            "<body><ul><li><a href=1>Home</a></li><li><a href=2>World</a></li></ul>\
             <div id=story><p>This is a long paragraph of article text, with words.</p>\
             <p>Another long paragraph of article text follows here, again.</p></div>\
             <div><a href=3>Privacy</a> | <a href=4>Terms</a></div></body>",
        );
        let dom = Dom::build(&doc);
        let removed = vec![false; dom.len()];
        let stats = dom.stats(&removed);
        for kind in [Density::Text, Density::Composite] {
            let c = cetd(&dom, &stats, kind, &removed);
            let story = (0..dom.len()).find(|&i| dom.attr(i, "id") == Some("story"));
            assert_eq!(story.map(|i| c.keep[i]), Some(true), "{kind:?}");
            let mut sink = super::super::text::TextSink::default();
            super::super::text::assemble_kept(&dom, 0, &removed, Some(&c.keep), &mut sink);
            let text = sink.finish();
            assert!(text.contains("Another long paragraph"), "{text}");
            if kind == Density::Composite {
                assert!(!text.contains("Privacy"), "{text}");
            }
        }
    }
}
