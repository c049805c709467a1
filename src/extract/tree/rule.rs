//! Site rules (hybrid approach paper): the id/class path of a site's content
//! block, learned from one page the tree classified, reused on the site's
//! later pages without running the tree.
//!
//! In: a [`Dom`] with its classified blocks (to learn), or a [`Dom`] and a
//! [`SiteRule`] (to apply). Out: a [`SiteRule`], or the text of the element
//! the rule names (`None` when the rule no longer matches: the caller drops
//! it and learns again).
//!
//! The content block is the smallest element that holds at least
//! [`COVER_SHARE`] of the words of the blocks judged content. Its path is
//! one [`Step`] per element from the body down: tag name, id and class,
//! with ASCII digits removed from id and class so that `post-1234` on one
//! page matches `post-5678` on the next. A rule matches a page when every
//! step finds exactly one child with that tag, id and class, and the element
//! found holds at least [`MIN_WORDS`] words.

use serde::{Deserialize, Serialize};

use super::super::blocks::Block;
use super::super::dom::{Dom, Tag};
use super::super::punct::token_count;
use super::super::text::{assemble, TextSink};

/// Share of the content words the rule's element must hold.
pub const COVER_SHARE: f64 = 0.8;
/// Fewest words an element found by a rule must hold, else the rule is
/// stale (a redesign moved the story elsewhere).
pub const MIN_WORDS: u32 = 30;

/// One element on the path: tag name, id and class (digits removed).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    pub tag: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub id: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub class: String,
}

/// A site's rule: the path from the body to its content element.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SiteRule {
    pub path: Vec<Step>,
}

fn without_digits(s: &str) -> String {
    s.split_whitespace()
        .map(|w| {
            w.chars()
                .filter(|c| !c.is_ascii_digit())
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn step_of(dom: &Dom<'_>, i: usize) -> Option<Step> {
    let node = &dom.nodes[i];
    Some(Step {
        tag: node.el?.name().to_string(),
        id: without_digits(node.id),
        class: without_digits(node.class),
    })
}

/// Visible words in the subtree of every node.
fn subtree_words(dom: &Dom<'_>) -> Vec<u32> {
    let n = dom.len();
    let mut words = vec![0u32; n];
    for i in (0..n).rev() {
        let node = &dom.nodes[i];
        if node.tag == Tag::Text {
            words[i] = token_count(node.text);
        }
        if i > 0 && node.tag != Tag::NoText {
            let w = words[i];
            words[node.parent as usize] += w;
        }
    }
    words
}

impl SiteRule {
    /// Learn the rule of a classified page; `None` when nothing is content
    /// or the content element is the body itself (no rule to reuse).
    pub fn learn(dom: &Dom<'_>, blocks: &[Block], content: &[bool]) -> Option<SiteRule> {
        let chosen: Vec<&Block> = blocks
            .iter()
            .zip(content)
            .filter(|(_, &c)| c)
            .map(|(b, _)| b)
            .collect();
        let total: u32 = chosen.iter().map(|b| b.features.words).sum();
        let largest = chosen.iter().max_by_key(|b| b.features.words)?;
        if total == 0 {
            return None;
        }
        // Climb from the largest content block until it covers the share.
        let mut node = largest.node;
        loop {
            let covered: u32 = chosen
                .iter()
                .filter(|b| dom.contains(node, b.node))
                .map(|b| b.features.words)
                .sum();
            if f64::from(covered) >= COVER_SHARE * f64::from(total) || node == 0 {
                break;
            }
            node = dom.nodes[node].parent as usize;
        }
        if node == 0 {
            return None;
        }
        let mut path = Vec::new();
        let mut i = node;
        while i != 0 {
            path.push(step_of(dom, i)?);
            i = dom.nodes[i].parent as usize;
        }
        path.reverse();
        Some(SiteRule { path })
    }

    /// The element this rule names on a page, if the rule still matches.
    pub fn find(&self, dom: &Dom<'_>) -> Option<usize> {
        if dom.is_empty() || self.path.is_empty() {
            return None;
        }
        let mut at = 0usize;
        for step in &self.path {
            let mut found = dom
                .children(at)
                .filter(|&c| step_of(dom, c).as_ref() == Some(step));
            let one = found.next()?;
            if found.next().is_some() {
                return None;
            }
            at = one;
        }
        (subtree_words(dom)[at] >= MIN_WORDS).then_some(at)
    }

    /// The text of the element the rule names, or `None` if it is stale.
    pub fn apply(&self, dom: &Dom<'_>) -> Option<String> {
        let at = self.find(dom)?;
        let mut sink = TextSink::default();
        assemble(dom, at, &vec![false; dom.len()], &mut sink);
        Some(sink.finish())
    }

    /// The rule as stored (JSON).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// A stored rule; `None` if it does not parse (it is then relearned).
    pub fn from_json(json: &str) -> Option<SiteRule> {
        serde_json::from_str(json).ok()
    }

    /// `div#main > div.story-body`: the rule for people (`stats`).
    pub fn display(&self) -> String {
        self.path
            .iter()
            .map(|s| {
                let mut out = s.tag.clone();
                if !s.id.is_empty() {
                    out.push('#');
                    out.push_str(&s.id);
                }
                for c in s.class.split_whitespace() {
                    out.push('.');
                    out.push_str(c);
                }
                out
            })
            .collect::<Vec<_>>()
            .join(" > ")
    }
}

/// What extraction with a site's rule did on one page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RuleOutcome {
    /// The rule matched: the text is its element's, the tree did not run.
    ByRule,
    /// No rule yet: the tree ran and this rule was learned (`None`: none
    /// could be learned from this page).
    Learned(Option<SiteRule>),
    /// The rule no longer matches (a redesign): it is dropped, the tree ran,
    /// and this rule was learned in its place (`None`: none could be).
    Relearned(Option<SiteRule>),
}

#[cfg(test)]
mod tests {
    use super::super::super::blocks::blocks;
    use super::*;
    use scraper::Html;

    fn page(id: u32, story: &str) -> String {
        format!(
            "<body><div id=nav><a href=1>Home</a> <a href=2>World</a></div>\
             <div id=main><div class='story post-{id}'>{story}</div>\
             <div class=share><a href=3>Share</a></div></div></body>"
        )
    }

    fn words(n: usize) -> String {
        (0..n).map(|i| format!("word{i} ")).collect()
    }

    #[test]
    fn learned_rule_finds_the_story_on_the_next_page_and_goes_stale_on_a_redesign() {
        let first = Html::parse_document(&page(1234, &format!("<p>{}</p>", words(40))));
        let dom = Dom::build(&first);
        let blocks = blocks(&dom);
        let content: Vec<bool> = blocks.iter().map(|b| b.features.words >= 40).collect();
        let rule = SiteRule::learn(&dom, &blocks, &content);
        let Some(rule) = rule else {
            panic!("no rule learned")
        };
        assert_eq!(rule.display(), "div#main > div.story.post-");

        let second = Html::parse_document(&page(99, "<p>Later story, with its own words.</p><p>And more words here to pass the minimum of thirty words, which a real story easily does, every time, on every page of the site, as it should.</p>"));
        let text = rule.apply(&Dom::build(&second));
        let text = text.unwrap_or_default();
        assert!(text.starts_with("Later story"), "{text}");
        assert!(!text.contains("Home") && !text.contains("Share"), "{text}");

        let redesign =
            Html::parse_document(&format!("<body><article>{}</article></body>", words(50)));
        assert_eq!(rule.apply(&Dom::build(&redesign)), None);
        let json = serde_json::to_string(&rule).unwrap_or_default();
        let back: Option<SiteRule> = serde_json::from_str(&json).ok();
        assert_eq!(back.as_ref(), Some(&rule));
    }
}
