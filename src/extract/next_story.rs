//! Stories an infinite-scroll page appends after its own.
//!
//! In: the arena, its statistics with nothing removed, and the page
//! `<title>`. Out: the roots of the later stories, for step 1 of
//! [`super::select`] to remove.
//!
//! An infinite-scroll page renders the next story, and the one after,
//! with the template of its own: the element that holds the page's
//! headline and story is followed by siblings of the same element and
//! class, each holding another headline over another story. Density alone
//! cannot tell them apart (each is as dense as the page's own story, and
//! their parent holds the most text of all), but the page's `<title>` names
//! one of them. So the page's story is the unit whose headline the title
//! names, and a later sibling unit of the same kind whose headline of the
//! same level the title does not name, over a story of its own, is another
//! page's story.
//!
//! The later unit's `<h1>` must sit where the headline sits in the page's
//! unit (the same elements and classes down to it): a long read whose
//! sections are headed with `<h1>`s, in the same element as the first
//! section that holds the headline, heads them elsewhere in it. A blog's
//! front page, whose posts repeat one template, has a title that names the
//! blog, not its first post. A teaser under a heading of its own holds too
//! little text to be a story.

use super::dom::{non_link, Dom, Stats, Tag};
use super::headline::TitleWords;
use super::text::subtree_text;

/// A unit (the page's, or a later one) holds a story: at least this much
/// non-link text besides its headline.
const STORY_MIN_TEXT: u32 = 200;
/// How far above the headline the unit that repeats may be (elements): a
/// template nests its headline a few levels deep in the story's unit;
/// further up are the page's layout rows, which repeat for other reasons.
const MAX_LEVELS: usize = 6;

/// The roots of the stories appended after the page's own, in document
/// order (empty when the page's headline is not found or nothing repeats).
pub fn appended_stories(dom: &Dom<'_>, stats: &[Stats], title: Option<&str>) -> Vec<usize> {
    // The page's headline and another: an infinite-scroll page has two.
    let h1s = dom
        .nodes
        .iter()
        .filter(|n| n.tag == Tag::H1)
        .take(2)
        .count();
    let Some(title) = title.filter(|_| h1s == 2).map(TitleWords::of) else {
        return Vec::new();
    };
    let Some(head) = headline(dom, &title) else {
        return Vec::new();
    };
    let head_text = non_link(&stats[head]);
    let mut unit = head;
    for _ in 0..MAX_LEVELS {
        unit = dom.nodes[unit].parent as usize;
        if unit == 0 || dom.nodes[unit].tag == Tag::Body {
            break;
        }
        if non_link(&stats[unit]) < head_text + STORY_MIN_TEXT {
            continue;
        }
        let later = later_stories(dom, stats, &title, head, unit);
        if !later.is_empty() {
            return later;
        }
    }
    Vec::new()
}

/// The page's headline: the first `<h1>` whose words the title names.
fn headline(dom: &Dom<'_>, title: &TitleWords) -> Option<usize> {
    (0..dom.len()).find(|&i| dom.nodes[i].tag == Tag::H1 && title.named(&subtree_text(dom, i, &[])))
}

/// The later siblings of `unit` written with its element and class that
/// hold another story under an `<h1>` the title does not name, written
/// where the headline is written in `unit` (the same elements and classes
/// down to it).
fn later_stories(
    dom: &Dom<'_>,
    stats: &[Stats],
    title: &TitleWords,
    head: usize,
    unit: usize,
) -> Vec<usize> {
    let parent = dom.nodes[unit].parent as usize;
    let path = path_below(dom, unit, head);
    dom.children(parent)
        .filter(|&s| s > unit && kind(dom, s) == kind(dom, unit))
        .filter(|&s| {
            let other = (s..dom.nodes[s].end as usize).find(|&i| {
                dom.nodes[i].tag == Tag::H1
                    && path_below(dom, s, i) == path
                    && !title.named(&subtree_text(dom, i, &[]))
            });
            other.is_some_and(|h| non_link(&stats[s]) >= non_link(&stats[h]) + STORY_MIN_TEXT)
        })
        .collect()
}

/// An element's name and class: what a template writes the same way for
/// every story.
fn kind<'a>(dom: &Dom<'a>, i: usize) -> (Option<&'a str>, &'a str) {
    (dom.nodes[i].el.map(|e| e.name()), dom.nodes[i].class)
}

/// The kinds of the elements from below `top` down to `node`.
fn path_below<'a>(dom: &Dom<'a>, top: usize, mut node: usize) -> Vec<(Option<&'a str>, &'a str)> {
    let mut path = Vec::new();
    while node != top && node != 0 {
        path.push(kind(dom, node));
        node = dom.nodes[node].parent as usize;
    }
    path
}

#[cfg(test)]
mod tests;
