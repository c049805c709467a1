//! CEDS (Yu & Jin): content extraction by DOM segmentation (`--algorithm ceds`).
//!
//! In: a [`Dom`]. Out: the article text.
//!
//! Steps, as the paper gives them (DESIGN.md, "The method" 2):
//! 1. Leaves: text nodes with visible characters. Each leaf climbs to its
//!    *real node*, the highest ancestor below the body whose parent holds
//!    more than one child (a `<li><a>Home</a></li>` leaf is the `<li>`); the
//!    real node's depth is the leaf's *level*.
//! 2. Blocks: adjacent leaves are fused into one block when their real nodes
//!    are siblings, or when their lowest common ancestor is not the root and
//!    lies at most [`tune::FUSE_DISTANCE`] levels above both (this covers
//!    "equal level" leaves of one paragraph list).
//! 3. ContentImportance of a block:
//!    CI = Σ(text − linkText) · Σ(text − linkText)/Σtext ·
//!    1/((textLinks + imgLinks) · typicalLevel), text in characters, zero
//!    link counts set to 1, typicalLevel = the most frequent leaf level.
//! 4. Threshold τ = εμ (μ = mean CI), ε from 1 to 3 in steps of 0.1, the ε
//!    that maximises the between-class variance of the two block classes;
//!    blocks with CI ≥ τ are content.
//! 5. De-noising: inside a content block, leaves whose level is more than
//!    [`tune::MAX_LEVEL_DISTANCE`] away from the block's typical level go.

use std::collections::HashMap;

use super::dom::{Dom, Tag};
use super::text::{assemble_kept, TextSink};

/// The paper's constants.
mod tune {
    /// Step 2: the most levels a fusing LCA may lie above each real node.
    pub const FUSE_DISTANCE: u32 = 2;
    /// Step 4: ε runs from 1.0 to 3.0 in steps of 0.1 (tenths here).
    pub const EPSILON_TENTHS: std::ops::RangeInclusive<u32> = 10..=30;
    /// Step 5: level distance beyond which a leaf is noise.
    pub const MAX_LEVEL_DISTANCE: u32 = 4;
}

/// One leaf (text node) and its real node.
#[derive(Debug, Clone, Copy)]
struct Leaf {
    node: usize,
    real: usize,
    level: u32,
}

/// A run of fused leaves.
#[derive(Debug, Clone, Default)]
struct Block {
    leaves: Vec<Leaf>,
    lca: usize,
}

/// Lowest common ancestor of two arena nodes.
fn lca(dom: &Dom<'_>, mut a: usize, mut b: usize) -> usize {
    while a != b {
        let (da, db) = (dom.nodes[a].depth, dom.nodes[b].depth);
        if da >= db && a != 0 {
            a = dom.nodes[a].parent as usize;
        } else if b != 0 {
            b = dom.nodes[b].parent as usize;
        } else {
            return 0;
        }
    }
    a
}

/// Text nodes that can be content: visible characters, not under a
/// `<title>`/`<script>`-like element.
pub(crate) fn visible_text(dom: &Dom<'_>) -> Vec<bool> {
    let n = dom.len();
    let mut silent = vec![false; n];
    let mut out = vec![false; n];
    for i in 0..n {
        let node = &dom.nodes[i];
        let p = node.parent as usize;
        silent[i] = node.tag == Tag::NoText || (i > 0 && silent[p]);
        out[i] = node.tag == Tag::Text && node.chars > 0 && !silent[i];
    }
    out
}

/// Step 1: leaves with their real nodes and levels.
fn leaves(dom: &Dom<'_>, visible: &[bool]) -> Vec<Leaf> {
    let n = dom.len();
    // Children that count: elements that may hold text and visible text.
    let mut kids = vec![0u32; n];
    for (node, &vis) in dom.nodes.iter().zip(visible).skip(1) {
        let counts = match node.tag {
            Tag::Text => vis,
            Tag::NoText => false,
            _ => true,
        };
        if counts {
            kids[node.parent as usize] += 1;
        }
    }
    let mut out = Vec::new();
    for (i, &is_leaf) in visible.iter().enumerate() {
        if !is_leaf {
            continue;
        }
        let mut real = i;
        while real != 0 {
            let p = dom.nodes[real].parent as usize;
            if p == 0 || kids[p] != 1 {
                break;
            }
            real = p;
        }
        out.push(Leaf {
            node: i,
            real,
            level: dom.nodes[real].depth,
        });
    }
    out
}

/// Step 2: fuse adjacent leaves into blocks.
fn blocks(dom: &Dom<'_>, leaves: &[Leaf]) -> Vec<Block> {
    let mut out: Vec<Block> = Vec::new();
    let mut prev: Option<Leaf> = None;
    for &leaf in leaves {
        let fuse = prev.is_some_and(|p| {
            let (a, b) = (&dom.nodes[p.real], &dom.nodes[leaf.real]);
            if a.parent == b.parent && p.real != 0 {
                return true;
            }
            let l = lca(dom, p.real, leaf.real);
            let dl = dom.nodes[l].depth;
            l != 0
                && a.depth.saturating_sub(dl) <= tune::FUSE_DISTANCE
                && b.depth.saturating_sub(dl) <= tune::FUSE_DISTANCE
        });
        match out.last_mut() {
            Some(block) if fuse => {
                block.lca = lca(dom, block.lca, leaf.real);
                block.leaves.push(leaf);
            }
            _ => out.push(Block {
                leaves: vec![leaf],
                lca: leaf.real,
            }),
        }
        prev = Some(leaf);
    }
    out
}

/// The most frequent level of a block's leaves (ties: the smaller level).
fn typical_level(block: &Block) -> u32 {
    let mut counts: HashMap<u32, u32> = HashMap::new();
    for l in &block.leaves {
        *counts.entry(l.level).or_default() += 1;
    }
    counts
        .into_iter()
        .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0)))
        .map_or(1, |(level, _)| level)
}

/// Step 3: ContentImportance of a block.
fn content_importance(dom: &Dom<'_>, block: &Block, img_in_link: &[u32]) -> f64 {
    let (mut text, mut link_text, mut text_links) = (0u64, 0u64, 0u64);
    for l in &block.leaves {
        let node = &dom.nodes[l.node];
        text += u64::from(node.chars);
        if node.in_link {
            link_text += u64::from(node.chars);
            text_links += 1;
        }
    }
    let (first, last) = match (block.leaves.first(), block.leaves.last()) {
        (Some(f), Some(l)) => (f.node, l.node),
        _ => return 0.0,
    };
    let img_links = u64::from(img_in_link[last] - img_in_link[first]);
    if text == 0 {
        return 0.0;
    }
    let non_link = (text - link_text) as f64;
    let links = (text_links + img_links).max(1) as f64;
    let level = f64::from(typical_level(block).max(1));
    non_link * (non_link / text as f64) / (links * level)
}

/// Step 4: τ = εμ with the ε (1.0..=3.0) that maximises the between-class
/// variance; `None` when no ε splits the blocks into two classes.
fn threshold(ci: &[f64]) -> Option<f64> {
    if ci.is_empty() {
        return None;
    }
    let n = ci.len() as f64;
    let mu = ci.iter().sum::<f64>() / n;
    let mut best: Option<(f64, f64)> = None;
    for tenths in tune::EPSILON_TENTHS {
        let tau = f64::from(tenths) / 10.0 * mu;
        let (mut n1, mut s1) = (0.0, 0.0);
        for &c in ci {
            if c >= tau {
                n1 += 1.0;
                s1 += c;
            }
        }
        let n0 = n - n1;
        if n1 == 0.0 || n0 == 0.0 {
            continue;
        }
        let (m1, m0) = (s1 / n1, (mu * n - s1) / n0);
        let between = (n0 / n) * (n1 / n) * (m1 - m0).powi(2);
        if best.is_none_or(|(b, _)| between > b) {
            best = Some((between, tau));
        }
    }
    best.map(|(_, tau)| tau)
}

/// Steps 1–5: the text of the content blocks.
pub fn ceds_text(dom: &Dom<'_>) -> String {
    let n = dom.len();
    let visible = visible_text(dom);
    let leaves = leaves(dom, &visible);
    let blocks = blocks(dom, &leaves);
    // Prefix count of images inside links, for imgLinks between two leaves.
    let mut img_in_link = vec![0u32; n + 1];
    let mut link_end = 0usize;
    for i in 0..n {
        let node = &dom.nodes[i];
        if node.tag == Tag::A {
            link_end = link_end.max(node.end as usize);
        }
        let hit = node.tag == Tag::Img && i < link_end;
        img_in_link[i + 1] = img_in_link[i] + u32::from(hit);
    }
    let ci: Vec<f64> = blocks
        .iter()
        .map(|b| content_importance(dom, b, &img_in_link))
        .collect();
    // With one block (or all equal), every block with importance is content.
    let tau = threshold(&ci).unwrap_or(f64::MIN_POSITIVE);
    let mut keep = vec![false; n];
    for (block, &c) in blocks.iter().zip(&ci) {
        if c < tau || c <= 0.0 {
            continue;
        }
        // 5.
        let typical = typical_level(block);
        for l in &block.leaves {
            if l.level.abs_diff(typical) <= tune::MAX_LEVEL_DISTANCE {
                keep[l.node] = true;
            }
        }
    }
    let mut sink = TextSink::default();
    assemble_kept(dom, 0, &vec![false; n], Some(&keep), &mut sink);
    sink.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use scraper::Html;

    fn run(html: &str) -> String {
        let doc = Html::parse_document(html);
        ceds_text(&Dom::build(&doc))
    }

    #[test]
    fn real_node_climbs_single_child_chains() {
        let doc = Html::parse_document(
            "<body><ul><li><a href=1>Home</a></li><li><a href=2>World</a></li></ul></body>",
        );
        let dom = Dom::build(&doc);
        let leaves = leaves(&dom, &visible_text(&dom));
        assert_eq!(leaves.len(), 2);
        for l in &leaves {
            assert_eq!(dom.nodes[l.real].tag, Tag::Li);
        }
        let blocks = blocks(&dom, &leaves);
        assert_eq!(blocks.len(), 1, "sibling list items fuse");
        assert_eq!(dom.nodes[blocks[0].lca].tag, Tag::List);
    }

    #[test]
    fn threshold_separates_one_large_block_from_small_ones() {
        let ci = [0.0, 0.0, 1.0, 2.0, 100.0, 0.5];
        let tau = threshold(&ci).unwrap_or(0.0);
        assert!(tau > 2.0 && tau <= 100.0, "{tau}");
        assert_eq!(threshold(&[5.0]), None);
    }

    #[test]
    fn ceds_keeps_story_drops_menu_and_footer() {
        let text = run(
            "<body><ul><li><a href=1>Home</a></li><li><a href=2>World</a></li>\
             <li><a href=3>Sport</a></li></ul>\
             <div id=story><p>The council met on Monday and agreed the budget after a long \
             debate about schools, roads and <a href=x>libraries</a> in the district.</p>\
             <p>Members said the plan would be reviewed next spring, when the figures for \
             the first quarter are known to everyone.</p></div>\
             <div><a href=4>Privacy</a> | <a href=5>Terms</a></div></body>",
        );
        assert!(text.contains("agreed the budget"), "{text}");
        assert!(text.contains("reviewed next spring"), "{text}");
        assert!(text.contains("libraries"), "{text}");
        assert!(!text.contains("Home"), "{text}");
        assert!(!text.contains("Privacy"), "{text}");
    }

    #[test]
    fn ceds_on_empty_and_text_only_pages() {
        assert_eq!(run("<body></body>"), "");
        assert_eq!(run("<body>Just one line.</body>"), "Just one line.");
    }
}
