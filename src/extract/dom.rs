//! scraper DOM → flat pre-order arena of the `<body>` subtree, and per-node
//! CETD statistics over it.
//!
//! In: a parsed [`scraper::Html`]. Out: [`Dom`], a `Vec` of nodes in document
//! order where every node knows its parent and the end of its subtree, so
//! subtrees are index ranges. Every walk over it is a loop (no recursion), so
//! 100,000 nested `<div>`s cost nothing special. Statistics are recomputed in
//! one reverse pass after removals ([`Dom::stats`]).

mod attrs;
mod count;
mod prose_links;

pub use attrs::attr_flags;
use attrs::{is_link, read_attrs, script_link_closed};

pub(crate) use count::count_text;

use ego_tree::iter::Edge;
use scraper::node::Element;
use scraper::{Html, Node as SNode};

use super::ablation::{Ablations, Step};

/// The element kinds the extractor treats differently; everything else is
/// [`Tag::Other`] (inline, no special meaning).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tag {
    Text,
    Other,
    A,
    P,
    Div,
    Br,
    Body,
    H1,
    H,
    Li,
    List,
    Table,
    Tr,
    Cell,
    Nav,
    Aside,
    Footer,
    Header,
    Form,
    Article,
    Main,
    Section,
    Blockquote,
    Pre,
    Figure,
    Figcaption,
    Img,
    Span,
    Hr,
    Dt,
    Dd,
    Time,
    Address,
    /// `head`, `title`, `script` (JSON-LD), `style`, `meta`, `link`: never text.
    NoText,
    /// Other block-level elements (center, fieldset, details, caption, …).
    OtherBlock,
}

impl Tag {
    fn from_name(name: &str) -> Tag {
        match name {
            "a" => Tag::A,
            "p" => Tag::P,
            "div" => Tag::Div,
            "br" => Tag::Br,
            "body" => Tag::Body,
            "h1" => Tag::H1,
            "h2" | "h3" | "h4" | "h5" | "h6" => Tag::H,
            "li" => Tag::Li,
            "ul" | "ol" | "dl" | "menu" => Tag::List,
            "table" => Tag::Table,
            "tr" => Tag::Tr,
            "td" | "th" => Tag::Cell,
            "nav" => Tag::Nav,
            "aside" => Tag::Aside,
            "footer" => Tag::Footer,
            "header" => Tag::Header,
            "form" => Tag::Form,
            "article" => Tag::Article,
            "main" => Tag::Main,
            "section" => Tag::Section,
            "blockquote" => Tag::Blockquote,
            "pre" => Tag::Pre,
            "figure" => Tag::Figure,
            "figcaption" => Tag::Figcaption,
            "img" => Tag::Img,
            "span" => Tag::Span,
            "hr" => Tag::Hr,
            "dt" => Tag::Dt,
            "dd" => Tag::Dd,
            "time" => Tag::Time,
            "address" => Tag::Address,
            "head" | "title" | "script" | "style" | "meta" | "link" | "noscript" | "template"
            | "base" | "math" | "canvas" | "dialog" | "picture" | "source" | "embed" | "frame"
            | "select" | "textarea" | "button" => Tag::NoText,
            "center" | "fieldset" | "details" | "summary" | "caption" | "thead" | "tbody"
            | "tfoot" | "hgroup" | "legend" | "frameset" | "html" | "option" => Tag::OtherBlock,
            _ => Tag::Other,
        }
    }

    /// Starts and ends a paragraph in the text output.
    pub fn is_block(self) -> bool {
        !matches!(
            self,
            Tag::Text | Tag::Other | Tag::A | Tag::Br | Tag::Img | Tag::Span | Tag::Time
        )
    }
}

/// One node of the arena: an element or a text node.
#[derive(Debug, Clone)]
pub struct Node<'a> {
    pub tag: Tag,
    /// Index of the parent; the root (index 0) is its own parent.
    pub parent: u32,
    /// One past the last index of this node's subtree.
    pub end: u32,
    /// The element (attributes), `None` for text nodes.
    pub el: Option<&'a Element>,
    /// Text of a text node (entities already decoded by the parser).
    pub text: &'a str,
    /// Non-whitespace characters of a text node.
    pub chars: u32,
    /// Punctuation marks (Western and CJK) of a text node.
    pub punct: u32,
    /// Text node inside an `<a>`.
    pub in_link: bool,
    /// Element depth below the root.
    pub depth: u32,
    /// `class` attribute ("" when absent).
    pub class: &'a str,
    /// `id` attribute ("" when absent).
    pub id: &'a str,
    /// [`attr_flags`] bits read from the other attributes.
    pub flags: u8,
}

/// The `<body>` subtree (or the whole document when there is no body) in
/// document order. Index 0 is the root.
#[derive(Debug, Clone, Default)]
pub struct Dom<'a> {
    pub nodes: Vec<Node<'a>>,
}

/// CETD statistics of a subtree: CharNumber, TagNumber, LinkCharNumber,
/// LinkTagNumber, plus punctuation marks.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Stats {
    pub chars: u32,
    pub tags: u32,
    pub link_chars: u32,
    pub link_tags: u32,
    pub punct: u32,
}

/// Share of a subtree's characters that sit in links (0 for no text).
pub(super) fn link_density(s: &Stats) -> f64 {
    if s.chars == 0 {
        0.0
    } else {
        f64::from(s.link_chars) / f64::from(s.chars)
    }
}

/// Characters of a subtree outside links.
pub(super) fn non_link(s: &Stats) -> u32 {
    s.chars.saturating_sub(s.link_chars)
}

impl Stats {
    fn add(&mut self, o: &Stats) {
        self.chars += o.chars;
        self.tags += o.tags;
        self.link_chars += o.link_chars;
        self.link_tags += o.link_tags;
        self.punct += o.punct;
    }
}

impl<'a> Dom<'a> {
    /// Flatten the body of `doc` (iteratively; any depth).
    pub fn build(doc: &'a Html) -> Dom<'a> {
        Self::build_with(doc, Ablations::default())
    }

    /// [`Dom::build`] with steps switched off: `script-links` (a
    /// `javascript:` link counts as a link like any other) and
    /// `class-names` (every class and id reads as empty, as on a site whose
    /// names say nothing; `eval --ablate class-names`).
    pub fn build_with(doc: &'a Html, ablate: Ablations) -> Dom<'a> {
        let script_links = !ablate.off(Step::ScriptLinks);
        let class_names = !ablate.off(Step::ClassNames);
        let html = doc.root_element();
        let body = html
            .children()
            .find(|c| c.value().as_element().is_some_and(|e| e.name() == "body"));
        let start = match body {
            Some(b) => b,
            None => *html,
        };
        // The parser's node count bounds ours (head, comments and doctype
        // are left out): one allocation instead of growth by doubling,
        // each step copying every node so far.
        let mut nodes: Vec<Node<'a>> = Vec::with_capacity(doc.tree.values().len());
        let mut stack: Vec<u32> = Vec::with_capacity(64);
        let mut link_depth = 0u32;
        for edge in start.traverse() {
            match edge {
                Edge::Open(n) => match n.value() {
                    SNode::Element(el) => {
                        let tag = Tag::from_name(el.name());
                        if tag == Tag::Img {
                            if let Some(&parent) = stack.last() {
                                nodes[parent as usize].flags |= attr_flags::PHOTO;
                            }
                            continue;
                        }
                        let idx = nodes.len() as u32;
                        let (mut class, mut id, mut flags) = read_attrs(el);
                        if !class_names {
                            (class, id) = ("", "");
                        }
                        if !script_links {
                            flags &= !attr_flags::SCRIPT_LINK;
                        }
                        if tag == Tag::A {
                            link_depth += 1;
                        }
                        nodes.push(Node {
                            tag,
                            parent: stack.last().copied().unwrap_or(0),
                            end: idx + 1,
                            el: Some(el),
                            text: "",
                            chars: 0,
                            punct: 0,
                            in_link: false,
                            depth: stack.len() as u32,
                            class,
                            id,
                            flags,
                        });
                        stack.push(idx);
                    }
                    SNode::Text(t) => {
                        let text: &'a str = t;
                        let (chars, punct) = count_text(text);
                        let idx = nodes.len() as u32;
                        nodes.push(Node {
                            tag: Tag::Text,
                            parent: stack.last().copied().unwrap_or(0),
                            end: idx + 1,
                            el: None,
                            text,
                            chars,
                            punct,
                            in_link: link_depth > 0,
                            depth: stack.len() as u32,
                            class: "",
                            id: "",
                            flags: 0,
                        });
                    }
                    _ => {}
                },
                Edge::Close(n) => {
                    if let SNode::Element(el) = n.value() {
                        if el.name() == "img" {
                            continue;
                        }
                        if let Some(idx) = stack.pop() {
                            let end = nodes.len();
                            nodes[idx as usize].end = end as u32;
                            if nodes[idx as usize].flags & attr_flags::SCRIPT_LINK != 0 {
                                script_link_closed(&mut nodes[idx as usize..end]);
                            }
                        }
                        if el.name() == "a" {
                            link_depth = link_depth.saturating_sub(1);
                        }
                    }
                }
            }
        }
        Dom { nodes }
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Subtree statistics of every node, ignoring the subtrees of `removed`
    /// nodes (they still get their own stats, but add nothing to ancestors).
    pub fn stats(&self, removed: &[bool]) -> Vec<Stats> {
        let mut st: Vec<Stats> = self
            .nodes
            .iter()
            .map(|n| match n.tag {
                Tag::Text => Stats {
                    chars: n.chars,
                    tags: 0,
                    link_chars: if n.in_link { n.chars } else { 0 },
                    link_tags: 0,
                    punct: n.punct,
                },
                Tag::NoText => Stats::default(),
                tag => Stats {
                    tags: 1,
                    link_tags: u32::from(is_link(tag, n.flags)),
                    ..Stats::default()
                },
            })
            .collect();
        for i in (1..self.nodes.len()).rev() {
            // Text inside `<title>`/`<head>`-like elements never counts.
            if removed.get(i).copied().unwrap_or(false) || self.nodes[i].tag == Tag::NoText {
                continue;
            }
            let p = self.nodes[i].parent as usize;
            let s = st[i];
            st[p].add(&s);
        }
        st
    }

    /// Extend `removed` to every descendant of a removed node.
    pub fn close_removed(&self, removed: &mut [bool]) {
        for i in 1..self.nodes.len().min(removed.len()) {
            if removed[self.nodes[i].parent as usize] {
                removed[i] = true;
            }
        }
    }

    /// Indices of the direct children of `i`.
    pub fn children(&self, i: usize) -> Children<'_, 'a> {
        Children {
            dom: self,
            next: i + 1,
            end: self.nodes.get(i).map_or(0, |n| n.end as usize),
        }
    }

    /// Attribute of element `i`.
    pub fn attr(&self, i: usize, name: &str) -> Option<&'a str> {
        self.nodes.get(i)?.el?.attr(name)
    }

    /// Is `a` an ancestor of (or equal to) `b`?
    pub fn contains(&self, a: usize, b: usize) -> bool {
        a <= b && b < self.nodes[a].end as usize
    }
}

/// Text of the document's `<title>` (in `<head>`), whitespace collapsed.
pub fn doc_title(doc: &Html) -> Option<String> {
    let html = doc.root_element();
    let head = html
        .children()
        .find(|c| c.value().as_element().is_some_and(|e| e.name() == "head"))?;
    let title = head
        .children()
        .find(|c| c.value().as_element().is_some_and(|e| e.name() == "title"))?;
    let mut out = String::new();
    for t in title
        .children()
        .filter_map(|c| c.value().as_text().map(|t| &**t))
    {
        for w in t.split_whitespace() {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(w);
        }
    }
    (!out.is_empty()).then_some(out)
}

/// Iterator over the direct children of a node.
pub struct Children<'d, 'a> {
    dom: &'d Dom<'a>,
    next: usize,
    end: usize,
}

impl Iterator for Children<'_, '_> {
    type Item = usize;
    fn next(&mut self) -> Option<usize> {
        if self.next >= self.end {
            return None;
        }
        let i = self.next;
        self.next = self.dom.nodes[i].end as usize;
        Some(i)
    }
}

#[cfg(test)]
mod tests;
