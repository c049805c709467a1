//! Content selection on the arena DOM → article text.
//!
//! In: a [`Dom`]. Out: the article text. `td`/`ctd` run the CETD family
//! exactly as the papers give it; `auto` (the default) adds the heuristics
//! that moved the eval numbers. Its steps, referred to by number in the code:
//!
//! 1. Guarded removal of hidden elements, semantic boilerplate and negative
//!    class/id elements ([`heuristics::removal_mask`]); statistics recomputed.
//! 2. CTD densities, positive class/id ×1.25, DensitySum → best node.
//! 3. Two candidates: CETD marking from the threshold, and the best node plus
//!    its qualifying siblings; the sibling text wins unless it is < 40 % of
//!    the CETD text.
//! 4. Link-density pruning inside the chosen content.
//! 5. Text assembly, trimming link-heavy / punctuation-free paragraphs at the
//!    edges.

use super::density::{
    cetd, densities, density_sums, mark_content, max_density_sum, threshold, Density,
};
use super::dom::{Dom, Stats, Tag};
use super::headline;
use super::heuristics::{removal_mask, Flags};
use super::text::{assemble_kept, Para, TextSink};

/// Plain CETD with DensitySum selection and threshold marking.
pub fn cetd_text(dom: &Dom<'_>, kind: Density) -> String {
    let removed = vec![false; dom.len()];
    let stats = dom.stats(&removed);
    let c = cetd(dom, &stats, kind, &removed);
    let mut sink = TextSink::default();
    assemble_kept(dom, 0, &removed, Some(&c.keep), &mut sink);
    sink.finish()
}

/// Calibrated together on ../shared/corpus (see the module doc for the steps).
mod tune {
    /// Step 2: density factor for a positive class/id.
    pub const POSITIVE_BOOST: f64 = 1.25;
    /// Step 3: sibling text below this share of the CETD text → CETD wins.
    pub const SIBLING_MIN_SHARE: f64 = 0.4;
    /// Step 3: a sibling qualifies with link density below this …
    pub const SIBLING_MAX_LINK_DENSITY: f64 = 0.25;
    /// … and at least this many non-link characters (or sentence punctuation).
    pub const SIBLING_MIN_TEXT: u32 = 80;
    /// Step 4: blocks with link density above this are pruned …
    pub const PRUNE_LINK_DENSITY: f64 = 0.5;
    /// … unless they hold at least this many non-link characters.
    pub const PRUNE_KEEP_TEXT: u32 = 200;
}

fn link_density(s: &Stats) -> f64 {
    if s.chars == 0 {
        0.0
    } else {
        f64::from(s.link_chars) / f64::from(s.chars)
    }
}

fn non_link(s: &Stats) -> u32 {
    s.chars.saturating_sub(s.link_chars)
}

/// The default: CETD plus heuristics (steps 1–5 of the module doc).
pub fn auto_text(dom: &Dom<'_>, title: Option<&str>) -> String {
    let n = dom.len();
    // 1.
    let stats0 = dom.stats(&vec![false; n]);
    let flags = Flags::compute(dom);
    let removed = removal_mask(dom, &stats0, &flags);
    let stats = dom.stats(&removed);
    // 2.
    let mut dens = densities(dom, &stats, Density::Composite);
    for (d, h) in dens.iter_mut().zip(&flags.hint) {
        if h.positive {
            *d *= tune::POSITIVE_BOOST;
        }
    }
    // Link-heavy containers hold the text nodes between links (" | " menus,
    // tag clouds): their DensitySum is discounted by their link density.
    let mut ds = density_sums(dom, &dens, &removed);
    for (d, s) in ds.iter_mut().zip(&stats) {
        *d *= 1.0 - link_density(s);
    }
    let mut best = max_density_sum(dom, &ds, &removed);
    // A single long paragraph can outscore its container (its text children
    // carry no tag or link penalty): select the container.
    while best != 0 && !is_container(dom.nodes[best].tag) {
        best = dom.nodes[best].parent as usize;
    }
    // 3.
    let t = threshold(dom, &dens, best);
    let keep_cetd = mark_content(dom, &dens, &ds, t, &removed);
    let keep_sib = best_with_siblings(dom, &stats, best, &removed);
    let chars_cetd = kept_chars(dom, &keep_cetd, &removed);
    let chars_sib = kept_chars(dom, &keep_sib, &removed);
    // @@DEBUG@@
    let keep = if (chars_sib as f64) < tune::SIBLING_MIN_SHARE * chars_cetd as f64 {
        keep_cetd
    } else {
        keep_sib
    };
    let mut keep = keep;
    // 4.
    let mut skip = prune_link_dense(dom, &stats, &removed);
    dom.close_removed(&mut skip);
    // 5.
    let start = (0..n)
        .find(|&i| dom.nodes[i].tag == Tag::Text && keep[i] && !skip[i] && dom.nodes[i].chars > 0)
        .unwrap_or(n);
    let headline = headline::find(dom, title, start, &skip);
    if let Some(h) = headline {
        for k in keep.iter_mut().take(start).skip(h) {
            *k = true;
        }
    }
    let mut sink = TextSink::default();
    assemble_kept(dom, 0, &skip, Some(&keep), &mut sink);
    let paras = sink.paras().to_vec();
    let head_range = headline.map_or(0..0, |h| h..dom.nodes[h].end as usize);
    let first_content = paras
        .iter()
        .position(|p| p.node as usize >= start)
        .unwrap_or(paras.len());
    let body = trim_edges(&paras[first_content..]);
    let prefix = (0..first_content)
        .filter(|&i| head_range.contains(&(paras[i].node as usize)) || !linky(&paras[i]));
    let chosen: Vec<usize> = prefix
        .chain((body.start + first_content)..(body.end + first_content))
        .collect();
    sink.join(chosen)
}

fn is_container(tag: Tag) -> bool {
    matches!(
        tag,
        Tag::Div
            | Tag::Article
            | Tag::Main
            | Tag::Section
            | Tag::Cell
            | Tag::Body
            | Tag::Form
            | Tag::Blockquote
            | Tag::Table
            | Tag::OtherBlock
            | Tag::List
    )
}

fn linky(p: &Para) -> bool {
    p.link_chars * 2 > p.chars
}

/// Non-whitespace characters of kept, non-removed text nodes.
fn kept_chars(dom: &Dom<'_>, keep: &[bool], removed: &[bool]) -> u64 {
    dom.nodes
        .iter()
        .enumerate()
        .filter(|(i, nd)| nd.tag == Tag::Text && keep[*i] && !removed[*i])
        .map(|(_, nd)| u64::from(nd.chars))
        .sum()
}

/// Keep mask: the subtree of `best` plus the subtrees of its siblings that
/// look like more of the article (low link density, enough text).
fn best_with_siblings(dom: &Dom<'_>, stats: &[Stats], best: usize, removed: &[bool]) -> Vec<bool> {
    let n = dom.len();
    let mut roots = vec![false; n];
    roots[best] = true;
    if best != 0 {
        let parent = dom.nodes[best].parent as usize;
        let best_class = dom.nodes[best].class.trim();
        for s in dom.children(parent) {
            if s == best || removed[s] {
                continue;
            }
            let st = &stats[s];
            let ld = link_density(st);
            let same_class = !best_class.is_empty() && dom.nodes[s].class.trim() == best_class;
            let qualifies = (same_class && ld < 0.5)
                || (ld < tune::SIBLING_MAX_LINK_DENSITY
                    && (non_link(st) >= tune::SIBLING_MIN_TEXT
                        || (non_link(st) > 0 && st.punct > 0 && dom.nodes[s].tag != Tag::Text)));
            if qualifies {
                roots[s] = true;
            }
        }
    }
    for i in 1..n {
        if roots[dom.nodes[i].parent as usize] {
            roots[i] = true;
        }
    }
    roots
}

/// Skip mask: removed nodes plus link-dense blocks (navigation lists, teaser
/// lists) that do not hold much text of their own.
fn prune_link_dense(dom: &Dom<'_>, stats: &[Stats], removed: &[bool]) -> Vec<bool> {
    let mut skip = removed.to_vec();
    for (i, nd) in dom.nodes.iter().enumerate().skip(1) {
        if skip[i] || !nd.tag.is_block() || matches!(nd.tag, Tag::H1) {
            continue;
        }
        let st = &stats[i];
        if link_density(st) > tune::PRUNE_LINK_DENSITY && non_link(st) < tune::PRUNE_KEEP_TEXT {
            skip[i] = true;
        }
    }
    skip
}

/// Drop paragraphs at the edges that are mostly link text, or short and
/// without sentence punctuation at the end.
fn trim_edges(paras: &[Para]) -> std::ops::Range<usize> {
    let mut a = 0;
    let mut b = paras.len();
    while a < b && linky(&paras[a]) {
        a += 1;
    }
    while b > a && (linky(&paras[b - 1]) || (paras[b - 1].punct == 0 && paras[b - 1].chars < 40)) {
        b -= 1;
    }
    a..b
}
