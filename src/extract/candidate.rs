//! Corrections of `auto`'s best node for the shapes of today's article
//! pages, each switchable with `eval --ablate` ([`super::ablation`]).
//!
//! In: the arena, its statistics (after the removal mask) and the node
//! with the largest DensitySum. Out: a better node to start from, an element
//! to leave out before choosing again, or the link lists that are part of
//! the story. The density picks the part of a page with the densest text;
//! on modern pages that part is sometimes a piece of the article (one
//! section of a chapter) or something the article embeds (a photo gallery
//! whose captions outweigh the story).

use std::sync::LazyLock;

use aho_corasick::AhoCorasick;

use crate::extract::word_finder;
use regex::Regex;

use super::dom::{link_density, non_link, Dom, Stats, Tag};
use super::heuristics::{is_declared_article, is_declared_main, DECLARED_MIN_TEXT};

/// Calibrated together on the corpus (tests/corpus: readability-dev and the three
/// older sets; see `select`'s module doc for what each step is worth).
mod tune {
    /// A lifted-to section holds text with link density below this.
    pub const SECTION_MAX_LINK_DENSITY: f64 = 0.25;
    /// A link list is inside the story when at least this much non-link
    /// text of the selection comes before it and after it …
    pub const INTERIOR_TEXT_AROUND: u32 = 100;
    /// … a paragraph beside it has this much non-link text …
    pub const INTERIOR_PARAGRAPH_TEXT: u32 = 40;
    /// … and its items hold this many characters on average.
    pub const INTERIOR_ITEM_CHARS: u32 = 15;
}

/// Two nested elements are parts of one document outline: both `<section>`,
/// or both `<div>` with the same non-empty class (`div.section` of Sphinx).
fn same_section(dom: &Dom<'_>, a: usize, b: usize) -> bool {
    let (x, y) = (&dom.nodes[a], &dom.nodes[b]);
    x.tag == y.tag
        && match x.tag {
            Tag::Section => true,
            Tag::Div => !x.class.trim().is_empty() && x.class.trim() == y.class.trim(),
            _ => false,
        }
}

/// Nested sections: a chapter written as `<section>`s inside `<section>`s
/// has its densest text in one subsection; the article is the outermost
/// section of the chain (as long as it reads like text, not links).
pub fn outermost_section(dom: &Dom<'_>, stats: &[Stats], best: usize) -> usize {
    let mut best = best;
    while best != 0 {
        let parent = dom.nodes[best].parent as usize;
        if parent == 0
            || !same_section(dom, best, parent)
            || link_density(&stats[parent]) >= tune::SECTION_MAX_LINK_DENSITY
        {
            break;
        }
        best = parent;
    }
    best
}

/// The declared main container (`<main>`, `role=main`,
/// `itemprop=articleBody`) around the best node, when the best node holds
/// less than half of its non-link text and the container reads like text:
/// a product page or a landing page that writes its story as several boxes
/// (an intro, a notice, a list of features) inside `<main>`.
pub fn declared_main_around(dom: &Dom<'_>, stats: &[Stats], best: usize) -> Option<usize> {
    let mut a = best;
    while a != 0 {
        a = dom.nodes[a].parent as usize;
        if is_declared_main(dom, a) {
            let wider = u64::from(non_link(&stats[best])) * 2 < u64::from(non_link(&stats[a]));
            let textual = link_density(&stats[a]) < tune::SECTION_MAX_LINK_DENSITY;
            return (a != 0 && wider && textual).then_some(a);
        }
    }
    None
}

/// The recipe around the best node (an element whose class or id has the
/// part `recipe`: `<article class="article recipe">`, `node-recipe`), when
/// it holds more non-link text than the best node and reads like text. A
/// recipe writes its method as prose and its ingredients, times and
/// nutrition as short lines in boxes beside it: density picks the method
/// alone.
pub fn recipe_around(dom: &Dom<'_>, stats: &[Stats], best: usize) -> Option<usize> {
    let is_recipe = |v: &str| {
        v.split(|c: char| !c.is_ascii_alphanumeric())
            .any(|p| p.eq_ignore_ascii_case("recipe"))
    };
    let mut a = best;
    while a != 0 {
        let nd = &dom.nodes[a];
        if nd.tag != Tag::Body && (is_recipe(nd.class) || is_recipe(nd.id)) {
            let wider = non_link(&stats[a]) > non_link(&stats[best]);
            let textual = link_density(&stats[a]) < tune::SECTION_MAX_LINK_DENSITY;
            return (a != best && wider && textual).then_some(a);
        }
        a = nd.parent as usize;
    }
    None
}

/// Class/id words of photo galleries and slideshows.
const GALLERY_WORDS: [&str; 3] = ["gallery", "slideshow", "carousel"];
/// [`GALLERY_WORDS`] in any ASCII case, for an ASCII name (most are): one
/// pass, several times the regex's speed on the page's many names.
static GALLERY_ASCII: LazyLock<AhoCorasick> =
    LazyLock::new(|| word_finder::any_case(GALLERY_WORDS));
/// [`GALLERY_WORDS`] with Unicode case folding (`ſ` is an `s`), for the
/// other names.
static GALLERY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!("(?i){}", GALLERY_WORDS.join("|"))).expect("static regex")
});

/// Per node, whether it is inside a gallery (an element whose class or id
/// says gallery, slideshow or carousel): photo captions, one per slide,
/// which read like sentences but are not the story.
/// `named` is [`gallery_names`].
pub fn in_galleries(dom: &Dom<'_>, named: &[bool]) -> Vec<bool> {
    let mut g = vec![false; dom.len()];
    for i in 1..dom.len() {
        g[i] = g[dom.nodes[i].parent as usize] || named[i];
    }
    g
}

/// Per node, whether its own class or id says gallery, slideshow or
/// carousel (read once per page: [`in_galleries`] and
/// [`galleries_inside`] both need it).
pub fn gallery_names(dom: &Dom<'_>) -> Vec<bool> {
    dom.nodes
        .iter()
        .map(|nd| nd.tag != Tag::Text && names_gallery(nd.class, nd.id))
        .collect()
}

/// A class or id that says gallery, slideshow or carousel. Most elements
/// have no id and many no class: those skip the regex call.
fn names_gallery(class: &str, id: &str) -> bool {
    let says = |v: &str| {
        if v.is_empty() {
            false
        } else if v.is_ascii() {
            GALLERY_ASCII.is_match(v)
        } else {
            GALLERY.is_match(v)
        }
    };
    says(class) || says(id)
}

/// The galleries inside the best node (the outermost of each nest; `named`
/// is [`gallery_names`]): their captions, one per slide, read like
/// sentences but are not the story. Returned only when the best node keeps
/// at least [`DECLARED_MIN_TEXT`] characters of non-link text outside them;
/// the caller leaves them out and chooses again. A gallery with a story too
/// short for that around it is the page (a photo story).
pub fn galleries_inside(dom: &Dom<'_>, stats: &[Stats], best: usize, named: &[bool]) -> Vec<usize> {
    let mut found = Vec::new();
    let mut in_galleries = 0u32;
    let end = dom.nodes[best].end as usize;
    let mut i = best + 1;
    while i < end {
        if named[i] {
            found.push(i);
            in_galleries += non_link(&stats[i]);
            i = dom.nodes[i].end as usize;
        } else {
            i += 1;
        }
    }
    if non_link(&stats[best]).saturating_sub(in_galleries) < DECLARED_MIN_TEXT {
        found.clear();
    }
    found
}

/// A gallery embedded in the declared article that holds the best node:
/// its captions outweigh the story around it. Returns the gallery element
/// (the outermost one below the declared article) when the declared article
/// keeps at least [`DECLARED_MIN_TEXT`] characters of non-link text outside
/// it; the caller leaves it out and chooses again. A gallery that is the
/// page's only text (a photo-story page) is kept.
pub fn gallery_in_declared_body(dom: &Dom<'_>, stats: &[Stats], best: usize) -> Option<usize> {
    let mut gallery = None;
    let mut a = best;
    while a != 0 {
        let nd = &dom.nodes[a];
        if is_declared_article(dom, a) {
            let g = gallery?;
            let outside = non_link(&stats[a]).saturating_sub(non_link(&stats[g]));
            return (outside >= DECLARED_MIN_TEXT).then_some(g);
        }
        if names_gallery(nd.class, nd.id) {
            gallery = Some(a);
        }
        a = nd.parent as usize;
    }
    None
}

/// Link lists inside the story: every `<ul>`/`<ol>` inside the best node
/// with at least [`tune::INTERIOR_TEXT_AROUND`] characters of kept
/// non-link text before and after it, written in the paragraph flow (a
/// child of the best node, or a `<p>` beside it) and with items of some
/// length; and every `<p>` there that writes two or more links into its
/// text ("Tokyo: <a>Chiyoda</a>, <a>Minato</a>", a link round-up), or is
/// a sentence with a link in it ([`is_linked_sentence`]). Release
/// notes, reading lists, "in progress" bug lists and lists of the places
/// an earthquake was felt are link lists the reader reads; a pull-out box
/// of related links sits in its own box, font-size controls ("A A A") are
/// one letter per item, and a "Read also: <a>headline</a>" line is one
/// link. The mask marks their subtrees, which link-density pruning then
/// leaves alone.
pub fn interior_link_lists(
    dom: &Dom<'_>,
    stats: &[Stats],
    best: usize,
    keep: &[bool],
    removed: &[bool],
) -> Vec<bool> {
    let in_flow = |list: usize| {
        let parent = dom.nodes[list].parent as usize;
        parent == best
            || dom.children(parent).any(|c| {
                dom.nodes[c].tag == Tag::P && non_link(&stats[c]) >= tune::INTERIOR_PARAGRAPH_TEXT
            })
    };
    let long_items = |list: usize| {
        let items = dom
            .children(list)
            .filter(|&c| dom.nodes[c].tag == Tag::Li)
            .count() as u32;
        items > 0 && stats[list].chars >= tune::INTERIOR_ITEM_CHARS * items
    };
    // Two links or more, with text between them (not only around them).
    let written_links = |p: usize| {
        let links: Vec<usize> = (p + 1..dom.nodes[p].end as usize)
            .filter(|&k| dom.nodes[k].tag == Tag::A && stats[k].chars > 0)
            .collect();
        links.len() >= 2
            && links.windows(2).all(|w| {
                (dom.nodes[w[0]].end as usize..w[1])
                    .any(|k| dom.nodes[k].tag == Tag::Text && dom.nodes[k].chars > 0)
            })
    };
    let n = dom.len();
    // before[i]: kept non-link text characters of the text nodes before i.
    let mut before = vec![0u32; n + 1];
    for i in 0..n {
        let nd = &dom.nodes[i];
        let own = if nd.tag == Tag::Text && keep[i] && !removed[i] && !nd.in_link {
            nd.chars
        } else {
            0
        };
        before[i + 1] = before[i] + own;
    }
    let total = before[n];
    let mut interior = vec![false; n];
    let mut i = 1;
    while i < n {
        let nd = &dom.nodes[i];
        let end = nd.end as usize;
        let kind = match nd.tag {
            Tag::List => long_items(i),
            Tag::P => written_links(i) || is_linked_sentence(dom, i),
            _ => false,
        };
        if kind
            && i > best
            && end <= dom.nodes[best].end as usize
            && keep[i]
            && !removed[i]
            && before[i] >= tune::INTERIOR_TEXT_AROUND
            && total - before[end] >= tune::INTERIOR_TEXT_AROUND
            && in_flow(i)
        {
            for m in &mut interior[i..end] {
                *m = true;
            }
            i = end;
            continue;
        }
        i += 1;
    }
    interior
}

/// A paragraph that is one or more sentences with links in them ("He
/// replaced John Doe, <a>who for eight months combined the job with his
/// work in marketing.</a>"): it starts with its own words, not a link, and
/// ends a sentence. Link lists and teasers are links alone, or a label
/// and a headline ("Read more: <a>…</a>"), and a headline ends without a
/// full stop. `i` is a `<p>` (its one caller's match arm).
fn is_linked_sentence(dom: &Dom<'_>, i: usize) -> bool {
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
    use scraper::Html;

    fn para(i: usize) -> String {
        format!("<p>Paragraph {i} says what happened, where it happened, and why it matters.</p>")
    }

    #[test]
    fn gallery_names_in_any_case_and_folding() {
        assert!(names_gallery("article-Gallery__item", ""));
        assert!(names_gallery("", "SLIDESHOW-3"));
        assert!(names_gallery("photo-carousel", ""));
        // Non-ASCII names fold as the regex folds them: `ſ` is an `s`.
        assert!(names_gallery("ſlideſhow", ""));
        assert!(names_gallery("galería gallery", ""));
        assert!(!names_gallery("galería", ""));
        assert!(!names_gallery("story-body", ""));
        assert!(!names_gallery("", ""));
    }

    fn find(dom: &Dom<'_>, id: &str) -> usize {
        dom.nodes.iter().position(|nd| nd.id == id).unwrap_or(0)
    }

    /// The id of the element `outermost_section` lifts `#deep` of `body` to.
    fn deep_lifted_to(body: &str) -> String {
        let doc = Html::parse_document(body);
        let dom = Dom::build(&doc);
        let stats = dom.stats(&vec![false; dom.len()]);
        let deep = find(&dom, "deep");
        dom.nodes[outermost_section(&dom, &stats, deep)]
            .id
            .to_string()
    }

    #[test]
    fn nested_sections_lift_to_the_outermost() {
        assert_eq!(
            deep_lifted_to(&format!(
                "<body><div class=section id=top>{}<div class=section id=mid>{}\
             <div class=section id=deep>{}</div></div></div><div class=footer>x</div></body>",
                para(0),
                para(1),
                para(2)
            )),
            "top"
        );
        // Different classes are different things.
        assert_eq!(
            deep_lifted_to(&format!(
                "<body><div class=page id=top><div class=section id=deep>{}</div></div></body>",
                para(0)
            )),
            "deep"
        );
    }

    #[test]
    fn link_heavy_parent_section_is_not_lifted_to() {
        let links: String = (0..20)
            .map(|i| format!("<a href=/{i}>Another story headline number {i}</a> "))
            .collect();
        assert_eq!(
            deep_lifted_to(&format!(
                "<body><section id=top>{links}<section id=deep>{}</section></section></body>",
                para(0)
            )),
            "deep"
        );
    }

    #[test]
    fn best_box_widens_to_the_declared_main() {
        let features: String = (1..6)
            .map(|i| format!("<section><h3>Tool {i}</h3>{}</section>", para(i)))
            .collect();
        let doc = Html::parse_document(&format!(
            "<body><nav><a href=/>Home</a></nav><main id=main><div id=notice>{}</div>\
             {features}</main></body>",
            para(0)
        ));
        let dom = Dom::build(&doc);
        let stats = dom.stats(&vec![false; dom.len()]);
        let notice = find(&dom, "notice");
        assert_eq!(
            declared_main_around(&dom, &stats, notice),
            Some(find(&dom, "main"))
        );
        // A best node that already holds most of the main text stays.
        let doc = Html::parse_document(&format!(
            "<body><main><div id=story>{}{}{}</div><p>Share.</p></main></body>",
            para(0),
            para(1),
            para(2)
        ));
        let dom = Dom::build(&doc);
        let stats = dom.stats(&vec![false; dom.len()]);
        assert_eq!(
            declared_main_around(&dom, &stats, find(&dom, "story")),
            None
        );
    }

    #[test]
    fn gallery_inside_the_article_body_is_found() {
        let captions: String = (0..12).map(|i| format!("<li>{}</li>", para(i))).collect();
        let story: String = (0..10).map(para).collect();
        let doc = Html::parse_document(&format!(
            "<body><div itemprop=articleBody>{story}<div class='widget type-gallery' id=g>\
             <ul id=caps>{captions}</ul></div></div></body>"
        ));
        let dom = Dom::build(&doc);
        let stats = dom.stats(&vec![false; dom.len()]);
        let caps = find(&dom, "caps");
        assert_eq!(
            gallery_in_declared_body(&dom, &stats, caps),
            Some(find(&dom, "g"))
        );
        // Without story text around it, the gallery is the page.
        let doc = Html::parse_document(&format!(
            "<body><div itemprop=articleBody><div class=gallery id=g>\
             <ul id=caps>{captions}</ul></div></div></body>"
        ));
        let dom = Dom::build(&doc);
        let stats = dom.stats(&vec![false; dom.len()]);
        assert_eq!(
            gallery_in_declared_body(&dom, &stats, find(&dom, "caps")),
            None
        );
    }

    #[test]
    fn only_lists_between_story_text_are_interior() {
        let list = |id: &str| {
            format!("<ul id={id}><li><a href=/a>Bug 1 fixed in the parser</a></li><li><a href=/b>Bug 2 fixed in the layout</a></li></ul>")
        };
        let doc = Html::parse_document(&format!(
            "<body><div>{}{}{}{}{}{}{}</div></body>",
            list("first"),
            para(0),
            para(1),
            list("middle"),
            para(2),
            para(3),
            list("last")
        ));
        let dom = Dom::build(&doc);
        let keep = vec![true; dom.len()];
        let removed = vec![false; dom.len()];
        let stats = dom.stats(&removed);
        let interior = interior_link_lists(&dom, &stats, 0, &keep, &removed);
        assert!(interior[find(&dom, "middle")]);
        assert!(!interior[find(&dom, "first")] && !interior[find(&dom, "last")]);
    }

    /// Whether each of `ids` is marked interior in a story of four kept
    /// paragraphs, two before `middle` and two after it.
    fn interior_marks(middle: &str, ids: &[&str]) -> Vec<bool> {
        let doc = Html::parse_document(&format!(
            "<body><div>{}{}{middle}{}{}</div></body>",
            para(0),
            para(1),
            para(2),
            para(3)
        ));
        let dom = Dom::build(&doc);
        let keep = vec![true; dom.len()];
        let removed = vec![false; dom.len()];
        let stats = dom.stats(&removed);
        let interior = interior_link_lists(&dom, &stats, 0, &keep, &removed);
        ids.iter().map(|id| interior[find(&dom, id)]).collect()
    }

    #[test]
    fn regression_a_paragraph_of_linked_place_names_in_the_story_was_pruned() {
        let marks = interior_marks(
            "<p id=places>Miyazaki: <a href=/t>Takanabe</a>, <a href=/s>Shintomi</a>, \
             <a href=/m>Miyazaki city</a></p>\
             <p id=teaser>Read also: <a href=/x>Storm hits the coast overnight</a></p>",
            &["places", "teaser"],
        );
        assert_eq!(
            marks,
            [true, false],
            "links written into the text; one link: a teaser line"
        );
    }

    #[test]
    fn regression_a_sentence_with_a_long_link_in_the_story_was_pruned() {
        let marks = interior_marks(
            "<p id=sentence>He replaced John Doe, <a href=/a>who for the last eight months \
             combined the job with his work in marketing.</a></p>\
             <p id=headline><a href=/b>Council approves the new budget after a debate</a></p>\
             <p id=label>Read more: <a href=/c>The mayor resigns after the vote.</a></p>\
             <p id=plug>Also on the site <a href=/d>Ten things to do this weekend</a></p>",
            &["sentence", "headline", "label", "plug"],
        );
        assert_eq!(
            marks,
            [true, false, false, false],
            "a sentence; links alone, a label and a headline, a plug are no sentence"
        );
    }
}
