//! `auto` step 4's link pruning: the blocks that are mostly link text and
//! hold little text of their own (navigation, teaser lists) are skipped.
//!
//! In: the arena, its stats, the removal mask and the blocks exempt from
//! pruning (the link lists and linked sentences written into the story,
//! [`super::candidate::interior_link_lists`]). Out: the skip mask.

use super::dom::{link_density, non_link, Dom, Stats, Tag};

/// Blocks with link density above this are pruned …
const PRUNE_LINK_DENSITY: f64 = 0.5;
/// … unless they hold at least this many non-link characters.
const PRUNE_KEEP_TEXT: u32 = 200;

/// Skip mask: removed nodes plus link-dense blocks (navigation lists, teaser
/// lists) that do not hold much text of their own, except `exempt` ones.
pub(super) fn prune_link_dense(
    dom: &Dom<'_>,
    stats: &[Stats],
    removed: &[bool],
    exempt: &[bool],
) -> Vec<bool> {
    let mut skip = removed.to_vec();
    for (i, nd) in dom.nodes.iter().enumerate().skip(1) {
        if skip[i] || exempt[i] || !nd.tag.is_block() || matches!(nd.tag, Tag::H1) {
            continue;
        }
        let st = &stats[i];
        if link_density(st) > PRUNE_LINK_DENSITY && non_link(st) < PRUNE_KEEP_TEXT {
            skip[i] = true;
        }
    }
    skip
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn link_dense_blocks_are_pruned_unless_exempt() {
        let doc = scraper::Html::parse_document(
            "<body><ul><li><a href=/a>Politics</a></li><li><a href=/b>Sport</a></li></ul>\
             <p>The council met on Monday and agreed the budget after a debate.</p>\
             <p><a href=/c>Council approves the new budget after a long debate</a></p></body>",
        );
        let dom = Dom::build(&doc);
        let none = vec![false; dom.len()];
        let stats = dom.stats(&none);
        let at = |tag: Tag, k: usize| {
            (0..dom.len())
                .filter(|&i| dom.nodes[i].tag == tag)
                .nth(k)
                .unwrap_or(0)
        };
        let (list, prose, linked) = (at(Tag::List, 0), at(Tag::P, 0), at(Tag::P, 1));
        let skip = prune_link_dense(&dom, &stats, &none, &none);
        assert!(skip[list] && !skip[prose] && skip[linked]);
        let mut exempt = none.clone();
        exempt[linked] = true;
        let skip = prune_link_dense(&dom, &stats, &none, &exempt);
        assert!(skip[list] && !skip[linked], "exempt: left alone");
    }
}
