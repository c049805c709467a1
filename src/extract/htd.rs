//! CETD's hybrid text density with visual importance (`--algorithm htd`).
//!
//! In: a [`Dom`]. Out: the article text.
//!
//! The paper weighs each node's composite text density by the *visual
//! importance* of its rendered box (where on the screen it sits and how
//! large it is). newshound has no layout engine, so visual importance is
//! approximated from the document alone, and only from these two signals:
//!
//! 1. **Position.** A node's vertical position on the rendered page is taken
//!    to be where its text sits in document order: p = (visible characters
//!    before the node + half of its own) / characters of the body, in [0, 1].
//!    Pages render their top bar first and their footer last, with the story
//!    between, so w_pos = 0.5 + 0.5 · sin(π · p): 0.5 at the top and bottom
//!    edges, 1 in the middle.
//! 2. **Placement.** Boxes that browsers and site styles render as bars and
//!    side columns are declared in the markup: a node that is, or lies inside,
//!    `nav`, `aside`, `header`, `footer` or an ARIA landmark other than main
//!    gets w_place = 0.5; a hidden node (`hidden`, `aria-hidden`,
//!    `display:none`) is not rendered at all: w_place = 0.
//!
//! VI = w_pos · w_place, and HTD = CTD · VI. Box *size* is not approximated
//! separately: CTD already grows with the node's characters. The rest is
//! CETD unchanged: DensitySum selection, the threshold on the path to the
//! body, content marking ([`super::density`]).

use std::f64::consts::PI;

use super::ceds::visible_text;
use super::density::{densities, density_sums, mark_content, max_density_sum, threshold, Density};
use super::dom::{attr_flags, Dom, Tag};
use super::text::{assemble_kept, TextSink};

/// Weights of the approximation (see the module doc).
mod tune {
    /// Position weight at the top and bottom edges of the page.
    pub const EDGE_WEIGHT: f64 = 0.5;
    /// Weight of nodes rendered as bars and side columns.
    pub const BAR_WEIGHT: f64 = 0.5;
}

/// Approximated visual importance of every node.
pub fn visual_importance(dom: &Dom<'_>) -> Vec<f64> {
    let n = dom.len();
    let visible = visible_text(dom);
    // before[i]: visible characters before node i in document order.
    let mut before = vec![0u64; n + 1];
    for i in 0..n {
        let own = if visible[i] { dom.nodes[i].chars } else { 0 };
        before[i + 1] = before[i] + u64::from(own);
    }
    let total = before[n].max(1) as f64;
    let mut place = vec![1.0f64; n];
    let mut out = vec![0.0; n];
    for i in 0..n {
        let node = &dom.nodes[i];
        // 1. Position of the node's text midpoint.
        let inside = (before[node.end as usize] - before[i]) as f64;
        let p = ((before[i] as f64 + inside / 2.0) / total).clamp(0.0, 1.0);
        let pos = tune::EDGE_WEIGHT + (1.0 - tune::EDGE_WEIGHT) * (PI * p).sin();
        // 2. Placement, inherited (a link inside a nav is in the bar).
        let bar = matches!(node.tag, Tag::Nav | Tag::Aside | Tag::Header | Tag::Footer)
            || node.flags & (attr_flags::ROLE_NOISE | attr_flags::MODAL) != 0;
        let own_place = if node.flags & attr_flags::HIDDEN != 0 {
            0.0
        } else if bar {
            tune::BAR_WEIGHT
        } else {
            1.0
        };
        let inherited = if i == 0 {
            1.0
        } else {
            place[node.parent as usize]
        };
        place[i] = own_place.min(inherited);
        out[i] = pos * place[i];
    }
    out
}

/// CETD with HTD = CTD · visual importance.
pub fn htd_text(dom: &Dom<'_>) -> String {
    let removed = vec![false; dom.len()];
    let stats = dom.stats(&removed);
    let mut dens = densities(dom, &stats, Density::Composite);
    for (d, vi) in dens.iter_mut().zip(visual_importance(dom)) {
        *d *= vi;
    }
    let ds = density_sums(dom, &dens, &removed);
    let best = max_density_sum(dom, &ds, &removed);
    let t = threshold(dom, &dens, best);
    let keep = mark_content(dom, &dens, &ds, t, &removed);
    let mut sink = TextSink::default();
    assemble_kept(dom, 0, &removed, Some(&keep), &mut sink);
    sink.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use scraper::Html;

    #[test]
    fn middle_outweighs_edges_and_bars_are_halved() {
        let doc = Html::parse_document(
            "<body><div id=top>aaaaaaaaaa</div><div id=mid>bbbbbbbbbb</div>\
             <nav id=bar>cccccccccc</nav><div id=end>dddddddddd</div></body>",
        );
        let dom = Dom::build(&doc);
        let vi = visual_importance(&dom);
        let at = |id: &str| (0..dom.len()).find(|&i| dom.nodes[i].id == id).unwrap_or(0);
        let (top, mid, bar, end) = (vi[at("top")], vi[at("mid")], vi[at("bar")], vi[at("end")]);
        assert!(mid > top && mid > end, "{top} {mid} {end}");
        assert!(bar < mid * 0.6, "{bar} {mid}");
        assert!((top - (0.5 + 0.5 * (PI / 8.0).sin())).abs() < 1e-9, "{top}");
    }

    #[test]
    fn htd_keeps_story_drops_navigation() {
        let doc = Html::parse_document(
            "<body><nav><a href=1>Home</a> <a href=2>World</a> <a href=3>Sport</a></nav>\
             <div id=story><p>The council met on Monday and agreed the budget after a long \
             debate about schools, roads and libraries in the district.</p>\
             <p>Members said the plan would be reviewed next spring, when the figures for \
             the first quarter are known.</p></div>\
             <footer><a href=4>Privacy</a> | <a href=5>Terms</a></footer></body>",
        );
        let text = htd_text(&Dom::build(&doc));
        assert!(text.contains("agreed the budget"), "{text}");
        assert!(text.contains("reviewed next spring"), "{text}");
        assert!(
            !text.contains("Home") && !text.contains("Privacy"),
            "{text}"
        );
    }
}
