//! `auto` step 4's link pruning: the blocks that are mostly link text and
//! hold little text of their own (navigation, teaser lists) are skipped,
//! except paragraphs whose links sit in their sentences.
//!
//! In: the arena, its stats, the removal mask and the blocks exempt from
//! pruning (link lists between the story's paragraphs). Out: the skip mask.

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
        if link_density(st) > PRUNE_LINK_DENSITY
            && non_link(st) < PRUNE_KEEP_TEXT
            && !is_linked_sentence(dom, i)
        {
            skip[i] = true;
        }
    }
    skip
}

/// A paragraph that is one or more sentences with links in them ("He
/// replaced John Doe, <a>who for eight months combined the job with his
/// work in marketing.</a>"): it starts with its own words, not a link, and
/// ends a sentence. Link lists and teasers are links alone, or a label
/// and a headline ("Read more: <a>…</a>"), and a headline ends without a
/// full stop.
fn is_linked_sentence(dom: &Dom<'_>, i: usize) -> bool {
    if dom.nodes[i].tag != Tag::P {
        return false;
    }
    let mut texts = dom.nodes[i + 1..dom.nodes[i].end as usize]
        .iter()
        .filter(|nd| nd.tag == Tag::Text && nd.chars > 0);
    let Some(first) = texts.next() else {
        return false;
    };
    let opening = first.text.trim_end();
    if first.in_link || opening.ends_with([':', '：']) || !opening.chars().any(char::is_alphabetic)
    {
        return false;
    }
    let last = texts.next_back().unwrap_or(first);
    last.text
        .trim_end()
        .ends_with(['.', '!', '?', '…', '。', '！', '？', '"', '”', '»'])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skipped(html: &str) -> Vec<(String, bool)> {
        let doc = scraper::Html::parse_document(html);
        let dom = Dom::build(&doc);
        let none = vec![false; dom.len()];
        let stats = dom.stats(&none);
        let skip = prune_link_dense(&dom, &stats, &none, &none);
        (0..dom.len())
            .filter(|&i| dom.nodes[i].tag == Tag::P)
            .map(|i| {
                let text: String = dom.nodes[i + 1..dom.nodes[i].end as usize]
                    .iter()
                    .map(|nd| nd.text)
                    .collect();
                (text, skip[i])
            })
            .collect()
    }

    #[test]
    fn regression_a_sentence_with_a_long_link_was_pruned_as_a_link_list() {
        let out = skipped(
            "<body><p>He replaced John Doe, <a href=/a>who for the last eight months \
             combined the job with his work in the marketing department.</a></p>\
             <p><a href=/b>Council approves the new budget after a long debate</a></p>\
             <p>Read more: <a href=/c>The mayor resigns after the vote of the council.</a></p>\
             <p>Also on the site <a href=/d>Ten things to do in town this weekend</a></p></body>",
        );
        let kept: Vec<bool> = out.iter().map(|(_, s)| !s).collect();
        assert_eq!(kept, [true, false, false, false], "{out:?}");
    }
}
