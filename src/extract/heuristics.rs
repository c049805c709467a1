//! Element-level hints for `auto`: class/id word lists, hidden elements,
//! semantic boilerplate (nav/aside/footer/…, ARIA roles), and the guarded
//! removal mask built from them.
//!
//! In: a [`Dom`] and its statistics before removal. Out: per-node hint flags
//! and a `removed` mask (closed under descendants).

mod words;

use super::ablation::{Ablations, Step};
use super::dom::{self, attr_flags, Dom, Node, Stats, Tag};
#[cfg(test)]
use words::words_of;
use words::{ClassWords, Words};

/// What the class and id attributes of an element say.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Hint {
    /// A boilerplate word (comment, share, related, promo, sidebar, …).
    pub negative: bool,
    /// A content word (article, story, body, content, post, entry, …).
    pub positive: bool,
    /// A reader-comment word (comments, commentlist, disqus, …).
    pub comment: bool,
}

/// Lowercased ASCII-alphanumeric words of a string.
fn slug_words(s: &str) -> impl Iterator<Item = String> + '_ {
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
}

/// The element's id is the anchor of the heading that opens it (Sphinx's
/// `<div class="section" id="sharing-with-a-single-developer"><h2>Sharing
/// with a single developer</h2>`): its words name the section's topic, not
/// its role on the page, so they say nothing negative.
pub fn is_heading_anchor(dom: &Dom<'_>, i: usize) -> bool {
    let nd = &dom.nodes[i];
    let end = nd.end as usize;
    // The first heading of the subtree, when no text comes before it.
    let Some(h) = (i + 1..end).find(|&k| {
        matches!(dom.nodes[k].tag, Tag::H1 | Tag::H)
            || (dom.nodes[k].tag == Tag::Text && dom.nodes[k].chars > 0)
    }) else {
        return false;
    };
    if dom.nodes[h].tag == Tag::Text {
        return false;
    }
    let heading: String = (h + 1..dom.nodes[h].end as usize)
        .filter(|&k| dom.nodes[k].tag == Tag::Text)
        .map(|k| dom.nodes[k].text)
        .collect::<Vec<_>>()
        .join(" ");
    let id: Vec<String> = slug_words(nd.id).collect();
    id.len() >= 2
        && slug_words(&heading)
            .take(id.len() + 1)
            .eq(id.iter().cloned())
}

/// Combine the words of class and id: negative if either is; positive only
/// if not negative.
fn combine(a: Words, b: Words) -> Hint {
    let negative = a.0 || b.0;
    Hint {
        negative,
        positive: !negative && (a.1 || b.1),
        comment: a.2 || b.2,
    }
}

/// Semantic boilerplate: navigation, asides, footers, forms and ARIA landmark
/// roles that are not the article.
pub fn is_semantic_noise(dom: &Dom<'_>, i: usize) -> bool {
    let n = &dom.nodes[i];
    matches!(n.tag, Tag::Nav | Tag::Aside | Tag::Footer | Tag::Form)
        || n.flags & (attr_flags::ROLE_NOISE | attr_flags::MODAL) != 0
}

/// The article container the page declares (`<article>`, `<main>`,
/// `itemprop="articleBody"`, `role="main"`).
pub fn is_declared_article(dom: &Dom<'_>, i: usize) -> bool {
    let n = &dom.nodes[i];
    matches!(n.tag, Tag::Article | Tag::Main) || is_declared_main(dom, i)
}

/// The page's one main container (`<main>`, `itemprop="articleBody"`,
/// `role="main"`): unlike `<article>`, which comment threads use for each
/// comment, never a comment.
pub fn is_declared_main(dom: &Dom<'_>, i: usize) -> bool {
    let n = &dom.nodes[i];
    n.tag == Tag::Main || n.flags & (attr_flags::ARTICLE_BODY | attr_flags::ROLE_MAIN) != 0
}

/// Per-node flags computed once for `auto`.
#[derive(Debug, Clone, Default)]
pub struct Flags {
    pub hint: Vec<Hint>,
    /// The subtree contains a declared article node (or is one) that is not
    /// a reader comment.
    pub holds_article: Vec<bool>,
    /// Inside a reader-comment element (closed under descendants; all false
    /// when comments are kept).
    pub in_comments: Vec<bool>,
    /// A declared article container that counts as the page's: not inside
    /// a comment thread, and not an `<article>` teaser inside navigation or
    /// another landmark that is not the article (a mega-menu of story
    /// teasers), unless `nav-articles` is off.
    pub declared: Vec<bool>,
    /// The modals (`aria-modal`, `role=dialog`), in document order.
    pub modals: Vec<usize>,
}

impl Flags {
    /// Hints of every element; with `drop_comments`, the comment mask.
    pub fn compute(dom: &Dom<'_>, drop_comments: bool) -> Flags {
        Flags::compute_with(dom, drop_comments, Ablations::default())
    }

    /// [`Flags::compute`] with steps switched off (`eval --ablate`): an id
    /// that is a prose slug ([`is_heading_anchor`]) says nothing negative
    /// unless `slug-ids` is off; a qualified word ([`words::is_negative_name`]) is
    /// a state unless `state-words` is off.
    pub fn compute_with(dom: &Dom<'_>, drop_comments: bool, ablate: Ablations) -> Flags {
        let slug_ids = !ablate.off(Step::SlugIds);
        let state_words = !ablate.off(Step::StateWords);
        let n = dom.len();
        let mut hint = vec![Hint::default(); n];
        let mut holds_article = vec![false; n];
        let mut holds_main = vec![false; n];
        let mut words = ClassWords::new(state_words);
        for i in 0..n {
            let node = &dom.nodes[i];
            if node.tag == Tag::Text {
                continue;
            }
            if !node.class.is_empty() || !node.id.is_empty() {
                let c = words.of_repeated(node.class);
                let mut d = words.of(node.id);
                if (d.0 || d.2) && slug_ids && is_heading_anchor(dom, i) {
                    d = (false, d.1, false);
                }
                hint[i] = combine(c, d);
            }
            holds_main[i] = is_declared_main(dom, i);
        }
        for i in (1..n).rev() {
            if holds_main[i] {
                holds_main[dom.nodes[i].parent as usize] = true;
            }
        }
        // A comment element is a thread unless it holds the page's main
        // container (a whole page wrapped in `<div class="comments-area">`)
        // or a third of the page's text outside the comment elements it
        // holds, a brief's worth: the wrapper of a story filed under a
        // comment word (`tag-comments`, `category-kommentare`), often
        // around its thread too. A thread holds its comments, each named,
        // and little else.
        let mut in_comments = vec![false; n];
        if drop_comments {
            // Read only at the outermost comment elements, which are few.
            let mut page_text = None;
            for i in 1..n {
                in_comments[i] = in_comments[dom.nodes[i].parent as usize]
                    || (hint[i].comment
                        && !holds_main[i]
                        && !files_a_story(dom, &hint, i, &mut page_text));
            }
        }
        let nav_articles = !ablate.off(Step::NavArticles);
        let mut in_landmark = vec![false; n];
        let mut declared = vec![false; n];
        let mut modals = Vec::new();
        for i in 1..n {
            let nd = &dom.nodes[i];
            let parent = nd.parent as usize;
            if nd.flags & attr_flags::MODAL != 0 {
                modals.push(i);
            }
            in_landmark[i] = in_landmark[parent]
                || matches!(nd.tag, Tag::Nav | Tag::Aside)
                || nd.flags & (attr_flags::ROLE_NOISE | attr_flags::MODAL) != 0;
            let teaser = nav_articles && nd.tag == Tag::Article && in_landmark[parent];
            declared[i] = !in_comments[i] && !teaser && is_declared_article(dom, i);
        }
        holds_article.copy_from_slice(&declared);
        for i in (1..n).rev() {
            if holds_article[i] {
                holds_article[dom.nodes[i].parent as usize] = true;
            }
        }
        Flags {
            hint,
            holds_article,
            in_comments,
            declared,
            modals,
        }
    }
}

/// Whether the comment element `i` is the wrapper of a story filed under
/// a comment word ([`Flags::compute_with`]): its non-link text outside the
/// comment elements inside it is at least [`FILED_STORY_MIN_TEXT`] and a
/// third of the page's (`page_text`, counted at the first call).
fn files_a_story(dom: &Dom<'_>, hint: &[Hint], i: usize, page_text: &mut Option<u64>) -> bool {
    let non_link = |nd: &Node<'_>| {
        if nd.tag == Tag::Text && !nd.in_link {
            u64::from(nd.chars)
        } else {
            0
        }
    };
    let mut free = 0u64;
    let end = dom.nodes[i].end as usize;
    let mut k = i + 1;
    while k < end {
        if hint[k].comment {
            k = dom.nodes[k].end as usize;
            continue;
        }
        free += non_link(&dom.nodes[k]);
        k += 1;
    }
    if free < u64::from(FILED_STORY_MIN_TEXT) {
        return false;
    }
    let page = *page_text.get_or_insert_with(|| dom.nodes.iter().map(non_link).sum());
    free * 3 >= page
}

/// The guarded removal mask: hidden elements, semantic boilerplate and
/// negative class/id elements, except nodes that hold ≥ 50 % of the body's
/// non-link text (ASP.NET's whole-body `<form>`) or a declared article node
/// (the tests' shorthand of [`removal_mask_with`], guard on).
#[cfg(test)]
pub fn removal_mask(dom: &Dom<'_>, stats: &[Stats], flags: &Flags) -> Vec<bool> {
    removal_mask_with(dom, stats, flags, true)
}

/// A comment-named element with at least this much non-link text outside
/// the comment elements it holds (and a third of the page's) is a story's
/// wrapper, not a thread ([`Flags::compute_with`]): a brief of two or three
/// sentences, where a list of short unnamed comments beside a one-line
/// story stays a thread.
const FILED_STORY_MIN_TEXT: u32 = 200;

/// A declared article (`<article>`, `<main>`, `itemprop=articleBody`,
/// `role=main`) with at least this much non-link text is the story: the
/// text-share guard no longer protects noise elements beside it.
pub const DECLARED_MIN_TEXT: u32 = 500;

/// [`removal_mask`]; with `declared_wins`, the 50 % text-share guard holds
/// only for nodes that have no declared article of ≥ [`DECLARED_MIN_TEXT`]
/// characters beside them (neither inside nor around them): a live-blog
/// `<aside>` that outweighs the `<article>` next to it is still an aside
/// (`eval --ablate declared-beside`). The body's text is counted without
/// the modals' (`aria-modal`, `role=dialog`), which open over the page: a
/// consent manager's preference center outweighs many stories. A modal
/// goes unless it holds the declared article or the page holds less than
/// [`MODAL_MIN_PAGE_TEXT`] characters besides. So do the hidden copies of
/// the story ([`hidden_copies`]), which declare the article a second time.
pub fn removal_mask_with(
    dom: &Dom<'_>,
    stats: &[Stats],
    flags: &Flags,
    declared_wins: bool,
) -> Vec<bool> {
    let n = dom.len();
    let mut removed = vec![false; n];
    let non_link = |i: usize| dom::non_link(&stats[i]);
    let copies = hidden_copies(dom, flags);
    // The page's own text: without the modals that open over it, nor the
    // hidden copies of its story.
    let mut apart: Vec<usize> = flags.modals.iter().chain(&copies).copied().collect();
    apart.sort_unstable();
    let mut body_text = if stats.is_empty() { 0 } else { non_link(0) };
    let mut outer_end = 0;
    for m in apart {
        if m >= outer_end {
            body_text = body_text.saturating_sub(non_link(m));
            outer_end = dom.nodes[m].end as usize;
        }
    }
    let in_copy = |i: usize| {
        copies
            .iter()
            .any(|&c| (c..dom.nodes[c].end as usize).contains(&i))
    };
    // Declared articles with enough text, as (start, end) ranges.
    let declared: Vec<(usize, usize)> = if declared_wins {
        (1..n)
            .filter(|&i| flags.declared[i] && non_link(i) >= DECLARED_MIN_TEXT && !in_copy(i))
            .map(|i| (i, dom.nodes[i].end as usize))
            .collect()
    } else {
        Vec::new()
    };
    let declared_beside = |i: usize, end: usize| declared.iter().any(|&(a, b)| b <= i || a >= end);
    let mut i = 1;
    while i < n {
        let node = &dom.nodes[i];
        if node.tag == Tag::Text || node.tag == Tag::Body {
            i += 1;
            continue;
        }
        // Comment threads outweigh short stories: no text-share guard.
        if flags.in_comments[i] {
            removed[i] = true;
            i = node.end as usize;
            continue;
        }
        let noise = node.flags & attr_flags::HIDDEN != 0
            || is_semantic_noise(dom, i)
            || (flags.hint[i].negative && !is_link_in_sentence(dom, stats, i));
        let own_text = non_link(i);
        let guarded = flags.holds_article[i]
            || if node.flags & attr_flags::MODAL != 0 {
                // A modal's text is not the page's: it stays only when
                // the page holds next to nothing else.
                body_text < MODAL_MIN_PAGE_TEXT
            } else {
                u64::from(own_text) * 2 >= u64::from(body_text)
                    && !declared_beside(i, node.end as usize)
            };
        let copy = copies.contains(&i);
        if noise && (!guarded || copy) {
            removed[i] = true;
            i = node.end as usize;
            continue;
        }
        i += 1;
    }
    dom.close_removed(&mut removed);
    removed
}

/// Hidden elements that hold a declared article whose text the page shows
/// outside them: copies of the story for search engines (schema.org
/// microdata). They go, and declare nothing.
fn hidden_copies(dom: &Dom<'_>, flags: &Flags) -> Vec<usize> {
    // Down the paths to the declared articles only: the rest of the page
    // holds none.
    let mut copies = Vec::new();
    let mut stack = vec![0];
    while let Some(a) = stack.pop() {
        for c in dom.children(a).filter(|&c| flags.holds_article[c]) {
            if dom.nodes[c].flags & attr_flags::HIDDEN != 0 && shown_elsewhere(dom, c) {
                copies.push(c);
            } else {
                stack.push(c);
            }
        }
    }
    copies.sort_unstable();
    copies
}

/// A text node this long is a sentence's, not a label's that pages repeat
/// ("Advertisement", "Share").
const COPY_MIN_TEXT: u32 = 20;

/// Most of the text of element `i` (its text nodes of a sentence or more)
/// stands outside it too, word for word: the element is a copy of text the
/// page shows.
fn shown_elsewhere(dom: &Dom<'_>, i: usize) -> bool {
    let end = dom.nodes[i].end as usize;
    let sentences = |range: std::ops::Range<usize>| {
        range.filter_map(|k| {
            let nd = &dom.nodes[k];
            (nd.tag == Tag::Text && nd.chars >= COPY_MIN_TEXT).then(|| (nd.text.trim(), nd.chars))
        })
    };
    let inside: Vec<(&str, u32)> = sentences(i..end).collect();
    let total: u32 = inside.iter().map(|&(_, c)| c).sum();
    if total == 0 {
        return false;
    }
    let outside: std::collections::HashSet<&str> = sentences(0..i)
        .chain(sentences(end..dom.len()))
        .map(|(t, _)| t)
        .collect();
    let shown: u32 = inside
        .iter()
        .filter(|(t, _)| outside.contains(t))
        .map(|&(_, c)| c)
        .sum();
    shown * 2 >= total
}

/// Non-link characters the page must hold outside a modal for the modal
/// to go: a page that is the modal alone (an interstitial) keeps it.
const MODAL_MIN_PAGE_TEXT: u32 = 200;

/// Non-link characters around a link in its parent for the parent to be
/// running text (a sentence or more), not a list of links with labels.
const SENTENCE_MIN_TEXT: u32 = 60;

/// A link inside a sentence: its parent holds running text, and a word
/// touches the link ("元タレントの<a class="tag-link">中居正広</a>氏",
/// "the <a class="related-link">report</a> says"). Its class names the kind
/// of page it leads to (a tag page, a related story, a shop), and cutting
/// it out leaves a sentence with a hole; the boxes that hold such links
/// (a tag list, a related rail) are judged by their own names.
fn is_link_in_sentence(dom: &Dom<'_>, stats: &[Stats], i: usize) -> bool {
    if dom.nodes[i].tag != Tag::A {
        return false;
    }
    let parent = dom.nodes[i].parent as usize;
    let p = &stats[parent];
    if p.chars.saturating_sub(p.link_chars) < SENTENCE_MIN_TEXT {
        return false;
    }
    // The siblings next to it, found in the arena without walking all the
    // parent's children (a tag cloud of 100,000 links is one parent).
    let next = dom.nodes[i].end as usize;
    let after = (next < dom.len() && dom.nodes[next].parent as usize == parent).then_some(next);
    let before = (i > parent + 1).then(|| {
        let mut k = i - 1;
        while dom.nodes[k].parent as usize != parent {
            k = dom.nodes[k].parent as usize;
        }
        k
    });
    let wordy = |k: usize| {
        let n = &dom.nodes[k];
        n.tag == Tag::Text && n.text.chars().any(char::is_alphanumeric)
    };
    before.is_some_and(wordy) || after.is_some_and(wordy)
}

/// A list of story teasers ("river", "stream", related rail): at least
/// three items, and most of them a block that is all headline link plus a
/// block of summary text with next to no links. Bulleted article lists hold
/// inline text, references hold links inside their text: neither counts.
pub fn is_teaser_list(dom: &Dom<'_>, stats: &[Stats], i: usize) -> bool {
    if dom.nodes[i].tag != Tag::List {
        return false;
    }
    let items: Vec<usize> = dom
        .children(i)
        .filter(|&c| dom.nodes[c].tag == Tag::Li)
        .collect();
    if items.len() < 3 {
        return false;
    }
    let share = |st: &Stats| f64::from(st.link_chars) / f64::from(st.chars.max(1));
    let block = |k: usize| matches!(dom.nodes[k].tag, Tag::H1 | Tag::H | Tag::Div | Tag::P);
    // A headline block (nearly all link) and a summary block (nearly no link).
    let teaser = |li: usize| {
        let inner = li + 1..dom.nodes[li].end as usize;
        let headline = inner
            .clone()
            .any(|k| block(k) && stats[k].link_chars >= 15 && share(&stats[k]) >= 0.8);
        let summary = inner.into_iter().any(|k| {
            block(k)
                && stats[k].chars.saturating_sub(stats[k].link_chars) >= 30
                && share(&stats[k]) < 0.2
        });
        headline && summary
    };
    let teasers = items.iter().filter(|&&li| teaser(li)).count();
    teasers * 10 >= items.len() * 7
}

/// `auto` step 4: teaser lists (see [`is_teaser_list`]) join the skip mask, unless
/// they hold over 80 % of the kept text (a section front, whose teasers are its
/// content: nytimes-5 kept 1 % of its text without this guard).
pub fn skip_teaser_lists(dom: &Dom<'_>, stats: &[Stats], keep: &[bool], skip: &mut [bool]) {
    let mut with = skip.to_vec();
    for i in 1..dom.len() {
        if !with[i] && is_teaser_list(dom, stats, i) {
            let end = dom.nodes[i].end as usize;
            for s in &mut with[i..end] {
                *s = true;
            }
        }
    }
    let kept = |mask: &[bool]| -> u64 {
        (0..dom.len())
            .filter(|&i| dom.nodes[i].tag == Tag::Text && keep[i] && !mask[i])
            .map(|i| u64::from(dom.nodes[i].chars))
            .sum()
    };
    if kept(&with) * 5 >= kept(skip) {
        skip.copy_from_slice(&with);
    }
}

#[cfg(test)]
mod tests;
