//! Element-level hints for `auto`: class/id word lists, hidden elements,
//! semantic boilerplate (nav/aside/footer/…, ARIA roles), and the guarded
//! removal mask built from them.
//!
//! In: a [`Dom`] and its statistics before removal. Out: per-node hint flags
//! and a `removed` mask (closed under descendants).

use std::collections::HashMap;
use std::sync::LazyLock;

use regex::Regex;

use super::ablation::{Ablations, Step};
use super::dom::{attr_flags, Dom, Stats, Tag};

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

/// Whole class/id tokens that mark boilerplate.
fn neg_exact(tok: &str) -> bool {
    matches!(
        tok,
        "ad" | "ads"
            | "adv"
            | "advert"
            | "nav"
            | "menu"
            | "tags"
            | "tag"
            | "share"
            | "sharing"
            | "social"
            | "extra"
            | "hidden"
            | "hide"
            | "print"
            | "tools"
            | "skip"
            | "rss"
            | "aside"
            | "sponsored"
            | "modal"
            | "pager"
            | "login"
            | "overlay"
            | "lightbox"
            | "trending"
    )
}

/// Substrings of class/id values that mark boilerplate.
static NEG_SUB: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        "comment|sidebar|related|share|social|footer|breadcrumb|promo|sponsor|newsletter|\
         subscribe|widget|popup|cookie|disqus|outbrain|taboola|pagination|masthead|advert|\
         banner|navbar|navigation|toolbar|recommend|signup|facebook|twitter|linkedin|\
         pinterest|whatsapp",
    )
    .expect("static regex")
});

/// Substrings that rescue an otherwise negative class/id ("maybe" words).
static MAYBE_SUB: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new("article|body|content|main|story|entry|text").expect("static regex")
});

/// Substrings of class/id values that mark the article.
static POS_SUB: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new("article|body|content|entry|hentry|main|post|text|blog|story").expect("static regex")
});

fn is_match(re: &LazyLock<Regex>, s: &str) -> bool {
    re.is_match(s)
}

/// A class/id name that marks reader comments: one of its parts
/// (split at `-`, `_`, …) is a comment word, not followed by a state word
/// (`comments-open` is a WordPress state class, not a thread) nor by an
/// article word (`comment-article` is an opinion piece: The Times files
/// columns under "Comment"). Whole parts only: `commentary` is an opinion
/// column too.
fn is_comment_name(name: &str) -> bool {
    let all: Vec<&str> = name
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|p| !p.is_empty())
        .collect();
    let mut parts = all.iter().copied().enumerate().peekable();
    while let Some((k, part)) = parts.next() {
        let article_after = all[k + 1..]
            .iter()
            .any(|p| matches!(*p, "article" | "story" | "entry" | "main"));
        if article_after {
            continue;
        }
        let comment = matches!(
            part,
            "comment"
                | "comments"
                | "commentlist"
                | "commentlists"
                | "commentbox"
                | "disqus"
                | "dsq"
                | "replies"
                | "kommentare"
                | "commentaires"
                | "comentarios"
        );
        if comment
            && !parts.peek().is_some_and(|&(_, next)| {
                matches!(
                    next,
                    "open" | "closed" | "on" | "off" | "enabled" | "disabled" | "allowed"
                )
            })
        {
            return true;
        }
    }
    false
}

/// (negative, positive, comment) words of one attribute value. A class name
/// with a negative word counts unless that same name also holds a "maybe"
/// word: `article-comments` is rescued, `story-feature related` is not
/// (per-name rescue gained 0.07 and 0.04 F1 on two page-signal pages, lost
/// nothing).
///
/// With `state_words`, names that label the content instead of naming the
/// element's role say nothing: the taxonomy terms of a CMS's post class
/// list ([`is_post_class_list`]: `category-kommentare`, `tag-social-media`
/// on the wrapper of the story itself), and a page builder's generic
/// `widget` beside the name of its kind (Blogger's `widget Blog` is the
/// blog's posts).
fn words_of(value: &str, state_words: bool) -> (bool, bool, bool) {
    if value.is_empty() {
        return (false, false, false);
    }
    let lower;
    let v = if value.bytes().any(|b| b.is_ascii_uppercase()) {
        lower = value.to_ascii_lowercase();
        lower.as_str()
    } else {
        value
    };
    let post_list = state_words && is_post_class_list(v);
    let typed_widget = state_words
        && v.split_ascii_whitespace().any(|name| {
            name != "widget" && is_match(&POS_SUB, name) && !is_negative_name(name, true)
        });
    let role_names = || {
        v.split_ascii_whitespace()
            .filter(move |name| !(post_list && is_taxonomy_name(name)))
            .filter(move |name| !(typed_widget && *name == "widget"))
    };
    let neg =
        role_names().any(|name| is_negative_name(name, state_words) && !is_match(&MAYBE_SUB, name));
    let comment = role_names().any(is_comment_name);
    (neg, is_match(&POS_SUB, v), comment)
}

/// A name that files the content under a term of a taxonomy (`tag-brexit`,
/// `category-kommentare`, `topic-social-media`): its words are the story's
/// subject.
fn is_taxonomy_name(name: &str) -> bool {
    const PREFIXES: [&str; 9] = [
        "tag-",
        "tags-",
        "category-",
        "categories-",
        "cat-",
        "topic-",
        "topics-",
        "post_tag-",
        "term-",
    ];
    PREFIXES
        .iter()
        .any(|p| name.len() > p.len() && name.starts_with(p))
}

/// The class list a CMS writes on a post's wrapper: taxonomy terms with
/// the post's id, type, status or format (WordPress's `post_class`:
/// `post-123 type-post status-publish hentry category-news tag-share`), at
/// least two such names.
fn is_post_class_list(v: &str) -> bool {
    let marker = |name: &str| {
        is_taxonomy_name(name)
            || name == "hentry"
            || ["type-", "status-", "format-"]
                .iter()
                .any(|p| name.len() > p.len() && name.starts_with(p))
            || name
                .strip_prefix("post-")
                .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
    };
    v.split_ascii_whitespace().filter(|n| marker(n)).count() >= 2
}

/// A class/id name with a boilerplate word. With `state_words`, a word
/// that another part qualifies is a state of the element, not its role:
/// Drupal's `field--label-hidden` is a field whose label is hidden (the
/// article body carries it), `o-section--has-ads` a section that holds an
/// ad slot beside the story, `no-sidebar` a layout without one.
///
/// Also with `state_words`, a page builder's own names say nothing:
/// Elementor calls every block of a page `elementor-widget` (the text
/// editor block that holds the story too).
fn is_negative_name(name: &str, state_words: bool) -> bool {
    if state_words && name.starts_with("elementor-") {
        return false;
    }
    let part_negative = |p: &str| neg_exact(p) || is_match(&NEG_SUB, p);
    let whole = is_match(&NEG_SUB, name)
        || name
            .split(|c: char| !c.is_ascii_alphanumeric())
            .any(neg_exact);
    if !whole || !state_words {
        return whole;
    }
    let parts: Vec<&str> = name
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|p| !p.is_empty())
        .collect();
    let mut before = "";
    for (k, &part) in parts.iter().enumerate() {
        // `hidden-print`: both words name the one state.
        let responsive = |k: usize, part: &str| {
            matches!(part, "hidden" | "hide")
                && parts.get(k + 1).is_some_and(|next| is_screen_size(next))
        };
        let size_of_state = k > 0 && responsive(k - 1, before);
        if part_negative(part)
            && !is_state_qualifier(before)
            && !responsive(k, part)
            && !size_of_state
        {
            return true;
        }
        before = part;
    }
    false
}

/// A screen size or medium of a responsive visibility class: Bootstrap's
/// `hidden-xs` hides an element on phones only, `hidden-print` on paper.
fn is_screen_size(part: &str) -> bool {
    matches!(
        part,
        "xs" | "sm"
            | "md"
            | "lg"
            | "xl"
            | "xxl"
            | "mobile"
            | "phone"
            | "tablet"
            | "desktop"
            | "small"
            | "medium"
            | "large"
            | "print"
    )
}

/// A part that makes the next one a state of the element ("has ads",
/// "label hidden") rather than what the element is.
fn is_state_qualifier(part: &str) -> bool {
    matches!(part, "has" | "with" | "no" | "without" | "label" | "title")
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
fn combine(a: (bool, bool, bool), b: (bool, bool, bool)) -> Hint {
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
        || n.flags & attr_flags::ROLE_NOISE != 0
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
}

impl Flags {
    /// Hints of every element; with `drop_comments`, the comment mask.
    pub fn compute(dom: &Dom<'_>, drop_comments: bool) -> Flags {
        Flags::compute_with(dom, drop_comments, Ablations::default())
    }

    /// [`Flags::compute`] with steps switched off (`eval --ablate`): an id
    /// that is a prose slug ([`is_heading_anchor`]) says nothing negative
    /// unless `slug-ids` is off; a qualified word ([`is_negative_name`]) is
    /// a state unless `state-words` is off.
    pub fn compute_with(dom: &Dom<'_>, drop_comments: bool, ablate: Ablations) -> Flags {
        let slug_ids = !ablate.off(Step::SlugIds);
        let state_words = !ablate.off(Step::StateWords);
        let n = dom.len();
        let mut hint = vec![Hint::default(); n];
        let mut holds_article = vec![false; n];
        let mut holds_main = vec![false; n];
        // Pages repeat their class names; read each distinct value once.
        let mut cache: HashMap<&str, (bool, bool, bool)> = HashMap::new();
        for i in 0..n {
            let node = &dom.nodes[i];
            if node.tag == Tag::Text {
                continue;
            }
            if !node.class.is_empty() || !node.id.is_empty() {
                let c = *cache
                    .entry(node.class)
                    .or_insert_with(|| words_of(node.class, state_words));
                let mut d = words_of(node.id, state_words);
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
        // container (a whole page wrapped in `<div class="comments-area">`).
        let mut in_comments = vec![false; n];
        if drop_comments {
            for i in 1..n {
                in_comments[i] = in_comments[dom.nodes[i].parent as usize]
                    || (hint[i].comment && !holds_main[i]);
            }
        }
        let nav_articles = !ablate.off(Step::NavArticles);
        let mut in_landmark = vec![false; n];
        let mut declared = vec![false; n];
        for i in 1..n {
            let nd = &dom.nodes[i];
            let parent = nd.parent as usize;
            in_landmark[i] = in_landmark[parent]
                || matches!(nd.tag, Tag::Nav | Tag::Aside)
                || nd.flags & attr_flags::ROLE_NOISE != 0;
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
        }
    }
}

/// The guarded removal mask: hidden elements, semantic boilerplate and
/// negative class/id elements, except nodes that hold ≥ 50 % of the body's
/// non-link text (ASP.NET's whole-body `<form>`) or a declared article node
/// (the tests' shorthand of [`removal_mask_with`], guard on).
#[cfg(test)]
pub fn removal_mask(dom: &Dom<'_>, stats: &[Stats], flags: &Flags) -> Vec<bool> {
    removal_mask_with(dom, stats, flags, true)
}

/// A declared article (`<article>`, `<main>`, `itemprop=articleBody`,
/// `role=main`) with at least this much non-link text is the story: the
/// text-share guard no longer protects noise elements beside it.
pub const DECLARED_MIN_TEXT: u32 = 500;

/// [`removal_mask`]; with `declared_wins`, the 50 % text-share guard holds
/// only for nodes that have no declared article of ≥ [`DECLARED_MIN_TEXT`]
/// characters beside them (neither inside nor around them): a live-blog
/// `<aside>` that outweighs the `<article>` next to it is still an aside
/// (`eval --ablate declared-beside`).
pub fn removal_mask_with(
    dom: &Dom<'_>,
    stats: &[Stats],
    flags: &Flags,
    declared_wins: bool,
) -> Vec<bool> {
    let n = dom.len();
    let mut removed = vec![false; n];
    let body_text = stats
        .first()
        .map_or(0, |s| s.chars.saturating_sub(s.link_chars));
    // Declared articles with enough text, as (start, end) ranges.
    let declared: Vec<(usize, usize)> = if declared_wins {
        (1..n)
            .filter(|&i| {
                flags.declared[i]
                    && stats[i].chars.saturating_sub(stats[i].link_chars) >= DECLARED_MIN_TEXT
            })
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
            || flags.hint[i].negative;
        let own_text = stats[i].chars.saturating_sub(stats[i].link_chars);
        let guarded = flags.holds_article[i]
            || (u64::from(own_text) * 2 >= u64::from(body_text)
                && !declared_beside(i, node.end as usize));
        if noise && !guarded {
            removed[i] = true;
            i = node.end as usize;
            continue;
        }
        i += 1;
    }
    dom.close_removed(&mut removed);
    removed
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
