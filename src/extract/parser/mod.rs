//! The stripped page → its tree ([`scraper::Html`]).
//!
//! html5ever's tree builder makes the tree either way. Its tokens come from
//! [`tokenizer`], a byte-search reader of what the prepass leaves, or, for
//! a page that holds a construct that reader does not take (see there),
//! from html5ever's own tokenizer, the page parsed again from its start.
//! The tree is the same: tests build both on every corpus page and on
//! generated markup.

mod char_ref;
#[cfg(test)]
mod tests;
mod tokenizer;

use html5ever::tendril::TendrilSink;
use html5ever::tree_builder::{TreeBuilder, TreeBuilderOpts};

/// The page's tree, with the node arena sized for the page up front: at
/// most three nodes per two `<` (an element has a start and an end tag,
/// and a text node can follow each of them: the whitespace between tags),
/// plus the few elements the parser adds. Growing the arena by doubling
/// copied it again and again (1 % of extraction time; at one node per
/// `<`, most pages still grew once). The part left unused is never touched.
pub(crate) fn parse(stripped: &str) -> scraper::Html {
    fast(stripped).unwrap_or_else(|| by_html5ever(stripped))
}

fn sized_document(stripped: &str) -> scraper::Html {
    let tags = memchr::memchr_iter(b'<', stripped.as_bytes()).count();
    let nodes = tags + tags / 2 + 16;
    let mut html = scraper::Html::new_document();
    html.tree = ego_tree::Tree::with_capacity(scraper::Node::Document, nodes);
    html
}

/// The tree from [`tokenizer`]'s tokens; `None` when it leaves the page
/// to html5ever's tokenizer.
fn fast(stripped: &str) -> Option<scraper::Html> {
    let sink = scraper::HtmlTreeSink::new(sized_document(stripped));
    let builder = TreeBuilder::new(sink, TreeBuilderOpts::default());
    tokenizer::feed(stripped, &builder).ok()?;
    Some(html5ever::interface::TreeSink::finish(builder.sink))
}

/// The tree as [`scraper::Html::parse_document`] makes it.
fn by_html5ever(stripped: &str) -> scraper::Html {
    let sink = scraper::HtmlTreeSink::new(sized_document(stripped));
    html5ever::driver::parse_document(sink, Default::default()).one(stripped)
}
