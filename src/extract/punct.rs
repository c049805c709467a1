//! Punctuation statistics (Li & Jiang): `--algorithm punct`.
//!
//! In: a [`Dom`]. Out: the article text.
//!
//! Article prose is punctuated; menus, link lists, tags and bylines are not.
//! Steps:
//! 1. Noise nodes go (the paper's rules, on what the strip stage left):
//!    elements that never hold the article (`nav`, `aside`, `footer`,
//!    `header`, `form`, ARIA landmarks that are not the article, hidden
//!    elements), and *link blocks*: block elements with at least
//!    [`tune::LINK_BLOCK_MIN_LINKS`] links whose text is at least
//!    [`tune::LINK_BLOCK_RATIO`] link text. A node holding at least half of
//!    the body's non-link text is never noise (ASP.NET wraps whole pages in
//!    one `<form>`).
//! 2. The remaining text is cut into paragraphs (text under one nearest block
//!    element). A paragraph is kept when it has at least one punctuation
//!    mark, at least [`tune::MIN_PUNCT_PER_TOKEN`] marks per token, and less
//!    than [`tune::MAX_LINK_SHARE`] of its characters in links. Marks are
//!    Western and Chinese (`. , ! ? ; :` and `。 ， ！ ？ ； ： 、 ． …`);
//!    tokens are words and, for Chinese and Japanese, single characters, so
//!    one threshold serves both scripts.
//!
//! The paper states the rule (keep text nodes by punctuation ratio) but no
//! constants we could carry over; ours below are chosen from how prose reads
//! (a sentence of 10–30 tokens ends with a mark) and were not tuned on the
//! corpus.

use super::ceds::visible_text;
use super::dom::{attr_flags, Dom, Stats, Tag};
use super::text::{assemble_kept, TextSink};
use crate::words::is_cjk;

/// The rule's constants (see the module doc).
mod tune {
    /// Step 1: a block is a link block at this share of link text …
    pub const LINK_BLOCK_RATIO: f64 = 0.5;
    /// … and with at least this many links.
    pub const LINK_BLOCK_MIN_LINKS: u32 = 2;
    /// Step 2: marks per token a paragraph needs (1 per 33 tokens).
    pub const MIN_PUNCT_PER_TOKEN: f64 = 0.03;
    /// Step 2: paragraphs with this share of link characters or more go.
    pub const MAX_LINK_SHARE: f64 = 0.5;
}

/// Words and CJK characters of a text.
pub(crate) fn token_count(text: &str) -> u32 {
    let mut n = 0u32;
    for word in text.split_whitespace() {
        if word.is_ascii() {
            n += 1;
            continue;
        }
        let mut in_word = false;
        for c in word.chars() {
            if is_cjk(c) {
                n += 1;
                in_word = false;
            } else if !in_word {
                n += 1;
                in_word = true;
            }
        }
    }
    n
}

/// Step 1: the noise mask (closed under descendants).
fn noise_mask(dom: &Dom<'_>, stats: &[Stats]) -> Vec<bool> {
    let n = dom.len();
    let body_text = stats
        .first()
        .map_or(0, |s| s.chars.saturating_sub(s.link_chars));
    let mut removed = vec![false; n];
    let mut i = 1;
    while i < n {
        let node = &dom.nodes[i];
        if node.tag == Tag::Text {
            i += 1;
            continue;
        }
        let s = &stats[i];
        let semantic = matches!(
            node.tag,
            Tag::Nav | Tag::Aside | Tag::Footer | Tag::Header | Tag::Form
        ) || node.flags
            & (attr_flags::ROLE_NOISE | attr_flags::MODAL | attr_flags::HIDDEN)
            != 0;
        let link_block = node.tag.is_block()
            && s.link_tags >= tune::LINK_BLOCK_MIN_LINKS
            && f64::from(s.link_chars) >= tune::LINK_BLOCK_RATIO * f64::from(s.chars.max(1));
        let holds_article =
            u64::from(s.chars.saturating_sub(s.link_chars)) * 2 >= u64::from(body_text);
        if (semantic || link_block) && !holds_article {
            removed[i] = true;
            i = node.end as usize;
            continue;
        }
        i += 1;
    }
    dom.close_removed(&mut removed);
    removed
}

/// One paragraph: text under one nearest block element.
#[derive(Debug, Clone, Default)]
struct Paragraph {
    nodes: Vec<usize>,
    chars: u32,
    link_chars: u32,
    punct: u32,
    tokens: u32,
}

impl Paragraph {
    fn is_content(&self) -> bool {
        self.punct >= 1
            && f64::from(self.punct) >= tune::MIN_PUNCT_PER_TOKEN * f64::from(self.tokens)
            && f64::from(self.link_chars) < tune::MAX_LINK_SHARE * f64::from(self.chars.max(1))
    }
}

/// Steps 1–2: the punctuated paragraphs outside noise nodes.
pub fn punct_text(dom: &Dom<'_>) -> String {
    let n = dom.len();
    let stats = dom.stats(&vec![false; n]);
    let removed = noise_mask(dom, &stats);
    let visible = visible_text(dom);
    // Nearest block ancestor (or self) of every node.
    let mut block_of = vec![0usize; n];
    for i in 1..n {
        let node = &dom.nodes[i];
        block_of[i] = if node.tag.is_block() {
            i
        } else {
            block_of[node.parent as usize]
        };
    }
    let mut paragraphs: Vec<Paragraph> = Vec::new();
    let mut open: Vec<(usize, usize)> = Vec::new(); // (block, paragraph index)
    for i in 0..n {
        if !visible[i] || removed[i] {
            continue;
        }
        let node = &dom.nodes[i];
        let block = block_of[i];
        // Only blocks still open (ancestors of this node) stay candidates.
        open.retain(|&(b, _)| dom.contains(b, i));
        let at = match open.iter().find(|(b, _)| *b == block) {
            Some(&(_, at)) => at,
            None => {
                paragraphs.push(Paragraph::default());
                open.push((block, paragraphs.len() - 1));
                paragraphs.len() - 1
            }
        };
        let p = &mut paragraphs[at];
        p.nodes.push(i);
        p.chars += node.chars;
        p.punct += node.punct;
        p.tokens += token_count(node.text);
        if node.in_link {
            p.link_chars += node.chars;
        }
    }
    let mut keep = vec![false; n];
    for p in paragraphs.iter().filter(|p| p.is_content()) {
        for &i in &p.nodes {
            keep[i] = true;
        }
    }
    let mut sink = TextSink::default();
    assemble_kept(dom, 0, &removed, Some(&keep), &mut sink);
    sink.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use scraper::Html;

    fn run(html: &str) -> String {
        let doc = Html::parse_document(html);
        punct_text(&Dom::build(&doc))
    }

    #[test]
    fn tokens_count_words_and_cjk_characters() {
        assert_eq!(token_count("The council met."), 3);
        assert_eq!(token_count("新华社北京电"), 6);
        assert_eq!(token_count("GDP增长5%"), 4);
    }

    #[test]
    fn punctuated_prose_stays_menus_and_tags_go() {
        let text = run(
            "<body><div><a href=1>Home</a> <a href=2>World</a> <a href=3>Sport</a></div>\
             <h1>Council agrees budget</h1>\
             <div><p>The council met on Monday, and agreed the budget after a long debate.</p>\
             <p>Members said the plan would be reviewed next spring.</p>\
             <p>Tags budget council schools</p></div>\
             <nav><p>Read more, and more, and more.</p></nav></body>",
        );
        assert!(text.contains("agreed the budget"), "{text}");
        assert!(text.contains("reviewed next spring"), "{text}");
        assert!(!text.contains("Home"), "{text}");
        assert!(!text.contains("Tags budget"), "{text}");
        assert!(!text.contains("Read more"), "{text}");
    }

    #[test]
    fn chinese_marks_count() {
        let text = run("<body><div><a href=1>首页</a> <a href=2>新闻</a></div>\
             <div><p>新华社北京电，国务院总理今天在北京主持召开会议，研究部署相关工作。</p>\
             <p>责任编辑张三</p></div></body>");
        assert!(text.contains("国务院总理"), "{text}");
        assert!(!text.contains("首页"), "{text}");
        assert!(!text.contains("责任编辑"), "{text}");
    }

    #[test]
    fn whole_page_form_is_not_noise() {
        let text = run(
            "<body><form><p>The council met on Monday, and agreed the budget after a long \
             debate.</p></form></body>",
        );
        assert!(text.contains("agreed the budget"), "{text}");
    }
}
