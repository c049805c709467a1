//! Page blocks and their features, for the learned block classifiers
//! (`nb`, `tree`).
//!
//! In: a [`Dom`]. Out: [`Block`]s — every visible text node belongs to its
//! innermost container element (`div`, `td`/`th`, `tr`, `table`, and their
//! HTML5 kin `article`, `section`, `main`, `nav`, `aside`, `header`,
//! `footer`, `form`, `ul`/`ol`, or the body), and a container with text is a
//! block — with the features both papers read, and the text nodes to keep
//! when the block is content.
//!
//! This is the Naive Bayes paper's bottom-up segmentation: the innermost
//! `table`/`tr`/`td`/`div` that holds a piece of text owns it, so nested
//! layout tables split into their cells and a story's paragraphs stay in
//! their `div`.

use super::ceds::visible_text;
use super::dom::{Dom, Tag};
use super::punct::token_count;

/// Does this element start a block?
pub fn is_container(tag: Tag) -> bool {
    matches!(
        tag,
        Tag::Div
            | Tag::Cell
            | Tag::Tr
            | Tag::Table
            | Tag::Article
            | Tag::Section
            | Tag::Main
            | Tag::Nav
            | Tag::Aside
            | Tag::Header
            | Tag::Footer
            | Tag::Form
            | Tag::List
            | Tag::Body
    )
}

/// What the classifiers read of one block (its own text only, not that of
/// nested blocks).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Features {
    /// Non-whitespace characters.
    pub chars: u32,
    /// Characters inside links.
    pub link_chars: u32,
    /// Sentence punctuation marks (Western and CJK).
    pub punct: u32,
    /// `<p>` elements.
    pub paragraphs: u32,
    /// Tokens: words, and CJK characters one by one.
    pub words: u32,
    /// Tokens inside links.
    pub link_words: u32,
    /// `<a>` elements.
    pub links: u32,
    /// Tokens of the whole page (for the density in page).
    pub page_words: u32,
}

impl Features {
    /// The decision tree's six features, in [`TREE_FEATURES`] order.
    pub fn tree_vector(&self) -> [f64; 6] {
        let words = f64::from(self.words);
        let link_words = f64::from(self.link_words);
        let links = f64::from(self.links);
        [
            words,
            words / f64::from(self.page_words.max(1)),
            links,
            link_words,
            if self.links == 0 {
                0.0
            } else {
                link_words / links
            },
            if self.words == 0 {
                0.0
            } else {
                link_words / words
            },
        ]
    }
}

/// Names of [`Features::tree_vector`]'s entries (model files, docs).
pub const TREE_FEATURES: [&str; 6] = [
    "word count",
    "density in page",
    "link count",
    "words in links",
    "average words per link",
    "link-word ratio",
];

/// One block of a page.
#[derive(Debug, Clone, Default)]
pub struct Block {
    /// The container element.
    pub node: usize,
    /// Its own visible text nodes, in document order.
    pub text_nodes: Vec<u32>,
    pub features: Features,
}

/// The blocks of a page, in document order of their containers.
pub fn blocks(dom: &Dom<'_>) -> Vec<Block> {
    let n = dom.len();
    let visible = visible_text(dom);
    let mut owner = vec![0usize; n];
    let mut index: Vec<Option<usize>> = vec![None; n];
    let mut out: Vec<Block> = Vec::new();
    let mut page_words = 0u32;
    for i in 0..n {
        let node = &dom.nodes[i];
        let p = node.parent as usize;
        owner[i] = if i == 0 || is_container(node.tag) {
            i
        } else {
            owner[p]
        };
        let own = if i == 0 { 0 } else { owner[p] };
        let slot = |index: &mut Vec<Option<usize>>, out: &mut Vec<Block>| match index[own] {
            Some(b) => b,
            None => {
                out.push(Block {
                    node: own,
                    ..Block::default()
                });
                index[own] = Some(out.len() - 1);
                out.len() - 1
            }
        };
        match node.tag {
            Tag::Text if visible[i] => {
                let b = slot(&mut index, &mut out);
                let f = &mut out[b].features;
                let words = token_count(node.text);
                f.chars += node.chars;
                f.punct += node.punct;
                f.words += words;
                page_words += words;
                if node.in_link {
                    f.link_chars += node.chars;
                    f.link_words += words;
                }
                out[b].text_nodes.push(i as u32);
            }
            Tag::P if i > 0 => {
                let b = slot(&mut index, &mut out);
                out[b].features.paragraphs += 1;
            }
            Tag::A if i > 0 => {
                let b = slot(&mut index, &mut out);
                out[b].features.links += 1;
            }
            _ => {}
        }
    }
    out.retain(|b| b.features.chars > 0);
    out.sort_by_key(|b| b.node);
    for b in &mut out {
        b.features.page_words = page_words;
    }
    out
}

/// The article text of the blocks judged content.
pub fn text_of_blocks(dom: &Dom<'_>, blocks: &[Block], content: &[bool]) -> String {
    let mut keep = vec![false; dom.len()];
    for (b, _) in blocks.iter().zip(content).filter(|(_, &c)| c) {
        for &t in &b.text_nodes {
            keep[t as usize] = true;
        }
    }
    let mut sink = super::text::TextSink::default();
    super::text::assemble_kept(dom, 0, &vec![false; dom.len()], Some(&keep), &mut sink);
    sink.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use scraper::Html;

    #[test]
    fn text_belongs_to_innermost_container() {
        let doc = Html::parse_document(
            "<body><table><tr><td><a href=1>Home</a> <a href=2>News</a></td>\
             <td><div id=story><p>One, two.</p><p>Three <a href=3>four</a>.</p></div></td>\
             </tr></table>Loose</body>",
        );
        let dom = Dom::build(&doc);
        let blocks = blocks(&dom);
        let tags: Vec<Tag> = blocks.iter().map(|b| dom.nodes[b.node].tag).collect();
        assert_eq!(tags, vec![Tag::Body, Tag::Cell, Tag::Div]);
        let story = &blocks[2].features;
        assert_eq!(story.paragraphs, 2);
        assert_eq!(story.links, 1);
        assert_eq!(story.words, 5);
        assert_eq!(story.link_words, 1);
        assert_eq!(story.punct, 3);
        assert_eq!(story.page_words, 8);
        let menu = &blocks[1].features;
        assert_eq!((menu.links, menu.link_words, menu.words), (2, 2, 2));
        let v = menu.tree_vector();
        assert_eq!(v[4], 1.0);
        assert_eq!(v[5], 1.0);
        let text = text_of_blocks(&dom, &blocks, &[false, false, true]);
        assert_eq!(text, "One, two.\n\nThree four.");
    }
}
