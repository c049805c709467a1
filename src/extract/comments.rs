//! Reader comments kept on request (`[extract] comments = true`,
//! `extract --comments`): the comment threads of the page, after the story.
//!
//! In: the arena and the mask of text nodes the selection already holds.
//! Out: the text of each comment thread (elements whose class/id names
//! comments, see [`Flags`]) that the selection did not take in, threads
//! separated like paragraphs. Hidden elements (folded replies, forms) stay
//! out.

use super::dom::{attr_flags, Dom, Tag};
use super::heuristics::Flags;
use super::text::{assemble, TextSink};

/// The comment threads outside `taken` (text nodes already in the text).
pub fn thread_text(dom: &Dom<'_>, taken: &[bool]) -> String {
    let flags = Flags::compute(dom, true);
    let n = dom.len();
    let mut skip: Vec<bool> = dom
        .nodes
        .iter()
        .map(|nd| nd.flags & attr_flags::HIDDEN != 0 || matches!(nd.tag, Tag::Form))
        .collect();
    dom.close_removed(&mut skip);
    let mut sink = TextSink::default();
    let mut i = 1;
    while i < n {
        let nd = &dom.nodes[i];
        let end = nd.end as usize;
        let root = flags.in_comments[i] && !flags.in_comments[nd.parent as usize];
        if root {
            if !(i..end).any(|k| taken[k]) {
                assemble(dom, i, &skip, &mut sink);
                sink.para();
            }
            i = end;
            continue;
        }
        i += 1;
    }
    sink.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_not_taken_are_returned() {
        let doc = scraper::Html::parse_document(
            "<body><div id=story><p>Story.</p></div><ol class=commentlist>\
             <li><p>First!</p></li><li><p>Second.</p><form>Reply</form></li></ol></body>",
        );
        let dom = Dom::build(&doc);
        let none = vec![false; dom.len()];
        assert_eq!(thread_text(&dom, &none), "First!\n\nSecond.");
        let all = vec![true; dom.len()];
        assert_eq!(thread_text(&dom, &all), "", "already in the text");
    }
}
