//! Furniture that the markup names: photo captions, photo credits, and
//! byline / dateline boxes inside the selected content.
//!
//! In: an element of the arena and its statistics. Out: which kind of
//! furniture it is, if any ([`Kind`]). Only short elements qualify (see
//! [`super::tune`]): a class word is a hint, and a long block that carries
//! one (`<div class="post-meta">` around a whole story) is content.

use std::collections::HashMap;
use std::sync::LazyLock;

use regex::Regex;

use super::super::dom::{attr_flags, Dom, Stats, Tag};
use super::tune;

/// What a furniture element is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A photo or video caption (`<figcaption>`, `class="caption"`).
    Caption,
    /// A photo credit (`class="credit"`, `class="photographer"`).
    Credit,
    /// A byline or dateline box (`class="byline"`, `class="date"`, a block
    /// that is mostly a `<time>`, `<address>`).
    Byline,
    /// A box about the author (`class="author-bio"`, `author_section`,
    /// `about-author`): who wrote the story, not the story.
    AuthorBio,
}

/// The lowercased alphanumeric parts of a class or id value
/// (`article__byline--top` → `article`, `byline`, `top`).
fn parts(value: &str) -> impl Iterator<Item = String> + '_ {
    value
        .split(|c: char| !c.is_ascii_alphanumeric())
        .flat_map(camel_words)
        .filter(|p| !p.is_empty())
        .map(str::to_ascii_lowercase)
}

/// The words of a camelCase name (`writerProfile`: `writer`, `Profile`):
/// script-built pages name their parts so, where others write dashes.
fn camel_words(name: &str) -> impl Iterator<Item = &str> {
    let b = name.as_bytes();
    let mut cuts: Vec<usize> = (1..b.len())
        .filter(|&k| b[k - 1].is_ascii_lowercase() && b[k].is_ascii_uppercase())
        .collect();
    cuts.push(b.len());
    let mut start = 0;
    cuts.into_iter().map(move |end| {
        let w = &name[start..end];
        start = end;
        w
    })
}

/// A class/id part that names a caption.
fn is_caption_part(p: &str) -> bool {
    p.contains("caption") && !p.contains("captioned")
}

/// A class/id part that names a credit.
fn is_credit_part(p: &str) -> bool {
    // Not "copyright": that is the site's or the agency's notice under the
    // story, which the older gold sets keep.
    p.contains("credit") || matches!(p, "photographer" | "imagecopyright")
}

/// A class/id part that names a byline or a date line. Whole parts for the
/// short words (`date`, not `update-list`; `meta`, not `metal`).
fn is_byline_part(p: &str) -> bool {
    p.contains("byline")
        || p.contains("dateline")
        || p.contains("timestamp")
        || p.contains("pubdate")
        || p.contains("datetime")
        || matches!(
            p,
            "author"
                | "authors"
                | "writer"
                | "date"
                | "dates"
                | "time"
                | "posted"
                | "published"
                | "updated"
                | "meta"
                | "postmeta"
                | "entrymeta"
                | "submitted"
        )
}

/// A class or id value that names a box about the author: an author word
/// and a box word among its parts (`author-bio`, `author_section`,
/// `mntl-author-tooltip`), or one part that joins them (`authorbox`).
fn is_author_bio_value(value: &str) -> bool {
    let (mut author, mut bio) = (false, false);
    for p in parts(value) {
        if matches!(
            p.as_str(),
            "authorbio"
                | "authorbox"
                | "authorinfo"
                | "authorprofile"
                | "aboutauthor"
                | "abouttheauthor"
                | "autorbox"
                | "autorinfo"
        ) {
            return true;
        }
        author |= matches!(
            p.as_str(),
            "author" | "authors" | "autor" | "autorin" | "autoren" | "writer"
        );
        bio |= matches!(
            p.as_str(),
            "bio"
                | "bios"
                | "biography"
                | "box"
                | "info"
                | "section"
                | "about"
                | "description"
                | "profile"
                | "tooltip"
                | "card"
                | "vita"
                | "details"
        );
    }
    author && bio
}

/// Any furniture word at all in a class or id value: most values hold
/// none, and are passed without splitting them.
static ANY_WORD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        "(?i)caption|credit|photographer|byline|dateline|stamp|pubdate|author|autor|writer|date|time|posted|published|meta|submitted",
    )
    .expect("static regex")
});

/// Whether class values hold a furniture word, per distinct value (pages
/// repeat their class names); keyed per table, as the page's own names go in.
pub type ClassCache<'a> = HashMap<&'a str, bool, ahash::RandomState>;

/// Which furniture the element `i` is, from its tag and class/id words.
fn named_kind<'a>(dom: &Dom<'a>, i: usize, classes: &mut ClassCache<'a>) -> Option<Kind> {
    let nd = &dom.nodes[i];
    if nd.tag == Tag::Figcaption {
        return Some(Kind::Caption);
    }
    if nd.tag == Tag::Address {
        return Some(Kind::Byline);
    }
    let class_words = *classes
        .entry(nd.class)
        .or_insert_with(|| ANY_WORD.is_match(nd.class));
    if !class_words && (nd.id.is_empty() || !ANY_WORD.is_match(nd.id)) {
        return None;
    }
    let mut kind = None;
    // An id of many parts is a slug of the text (`comparing-over-time-or-
    // experiment-groups` on a heading), not a name of what the element is.
    let id = if parts(nd.id).count() > tune::ID_MAX_PARTS {
        ""
    } else {
        nd.id
    };
    if is_author_bio_value(nd.class) || is_author_bio_value(id) {
        return Some(Kind::AuthorBio);
    }
    for value in [nd.class, id] {
        let mut state = false;
        let mut prev = String::new();
        for p in parts(value) {
            let prev = std::mem::replace(&mut prev, p.clone());
            // `no_caption`, `has-caption`, `with-credit`: a state of a
            // container (buzzfeed's list items), not the caption itself.
            // `quote-credit`: a pull quote's attribution (bbc), not a photo's.
            let after_state = std::mem::replace(
                &mut state,
                matches!(
                    p.as_str(),
                    "no" | "has" | "with" | "without" | "quote" | "pullquote" | "blockquote"
                ),
            );
            if after_state {
                continue;
            }
            // `preparation__time`, `cook-time`: how long a recipe takes,
            // not when the story was published.
            if p == "time"
                && matches!(
                    prev.as_str(),
                    "preparation" | "prep" | "cook" | "cooking" | "baking" | "total" | "waiting"
                )
            {
                continue;
            }
            // A credit inside a caption box is still a credit.
            if is_credit_part(&p) {
                return Some(Kind::Credit);
            }
            if is_caption_part(&p) {
                kind = Some(Kind::Caption);
            } else if kind.is_none() && is_byline_part(&p) {
                kind = Some(Kind::Byline);
            }
        }
    }
    kind
}

/// Elements that are never furniture themselves: the containers a whole
/// story sits in, and text-level nodes.
fn can_be_furniture(tag: Tag) -> bool {
    !matches!(
        tag,
        Tag::Text
            | Tag::Body
            | Tag::Article
            | Tag::Main
            | Tag::NoText
            | Tag::Table
            | Tag::Tr
            | Tag::Br
            | Tag::Img
            | Tag::A
            | Tag::H1
    )
}

/// A text node under `i` holds a copyright notice.
fn holds_copyright(dom: &Dom<'_>, i: usize) -> bool {
    dom.nodes[i + 1..dom.nodes[i].end as usize]
        .iter()
        .any(|d| d.tag == Tag::Text && (d.text.contains('©') || d.text.contains("Copyright")))
}

/// Non-whitespace characters under `i` that sit inside a `<time>` element.
fn time_chars(dom: &Dom<'_>, i: usize) -> u32 {
    let end = dom.nodes[i].end as usize;
    let mut k = i + 1;
    let mut chars = 0;
    while k < end {
        let nd = &dom.nodes[k];
        if nd.tag == Tag::Time {
            chars += (k + 1..nd.end as usize)
                .map(|t| dom.nodes[t].chars)
                .sum::<u32>();
            k = nd.end as usize;
            continue;
        }
        k += 1;
    }
    chars
}

/// Whether element `i` holds a heading.
fn holds_heading(dom: &Dom<'_>, i: usize) -> bool {
    let end = dom.nodes[i].end as usize;
    dom.nodes[i..end]
        .iter()
        .any(|d| matches!(d.tag, Tag::H1 | Tag::H))
}

/// The furniture kind of element `i`, if it is short enough to be one.
pub fn kind_of<'a>(
    dom: &Dom<'a>,
    stats: &[Stats],
    i: usize,
    classes: &mut ClassCache<'a>,
) -> Option<Kind> {
    let nd = &dom.nodes[i];
    let chars = stats[i].chars;
    // Longer than the longest furniture (an author's bio box): prose.
    if !can_be_furniture(nd.tag) || chars == 0 || chars > tune::BIO_MAX_CHARS {
        return None;
    }
    if let Some(kind) = named_kind(dom, i, classes) {
        // A box that holds a copyright notice ("About PR Newswire",
        // "Copyright © 2007 …") is the notice under the story, which the
        // older gold sets keep, not a bio.
        if kind == Kind::AuthorBio && holds_copyright(dom, i) {
            return None;
        }
        // A caption holds no heading, and neither does the figure it
        // captions: a box or figure that does is an item of a listicle (a
        // heading, a photo and the item's text), whose text is the story.
        if kind == Kind::Caption {
            let parent = nd.parent as usize;
            let figure = (dom.nodes[parent].tag == Tag::Figure).then_some(parent);
            if holds_heading(dom, i) || figure.is_some_and(|f| holds_heading(dom, f)) {
                return None;
            }
        }
        let max = match kind {
            Kind::AuthorBio => tune::BIO_MAX_CHARS,
            Kind::Caption => tune::CAPTION_MAX_CHARS,
            Kind::Credit => tune::CREDIT_MAX_CHARS,
            Kind::Byline => tune::BYLINE_MAX_CHARS,
        };
        return (chars <= max).then_some(kind);
    }
    // A short block that is mostly a machine-readable time is a dateline
    // ("Published <time>21 November 2019</time>").
    if nd.tag.is_block() && chars <= tune::BYLINE_MAX_CHARS {
        let t = time_chars(dom, i);
        if t > 0 && t * 2 >= chars {
            return Some(Kind::Byline);
        }
    }
    // So is a `<time>` that makes a line of its own between the header's
    // blocks ("2 minute read · April 25, 2023"): inside a sentence it is
    // the sentence's, and then it shares its line with text.
    if nd.tag == Tag::Time && chars <= tune::BYLINE_MAX_CHARS && alone_on_its_line(dom, i) {
        return Some(Kind::Byline);
    }
    None
}

/// Block `i` is the text of a photo's box: its parent (or grandparent)
/// holds a photo that has no text of its own (the `<img>` itself, or a
/// wrapper or link around it) beside the branch that holds `i`, no
/// heading, and besides `i`'s text at most a credit's worth. A story's
/// paragraph beside an inline photo shares its box with the rest of the
/// story; a listicle's item has a heading; a paragraph beside a photo box
/// that carries its own caption is not that caption. `photos` is
/// [`photos_under`] of the arena.
pub fn beside_a_photo(dom: &Dom<'_>, stats: &[Stats], photos: &[bool], i: usize) -> bool {
    let nd = &dom.nodes[i];
    let chars = stats[i].chars;
    let grandparent = dom.nodes[nd.parent as usize].parent as usize;
    if !photos[grandparent]
        || !nd.tag.is_block()
        || !can_be_furniture(nd.tag)
        || chars == 0
        || chars > tune::CAPTION_MAX_CHARS
    {
        return false;
    }
    let mut branch = i;
    let mut box_ = nd.parent as usize;
    for _ in 0..2 {
        if box_ == 0 || !can_be_furniture(dom.nodes[box_].tag) {
            return false;
        }
        let bare_photo = dom.nodes[box_].flags & attr_flags::PHOTO != 0
            || dom
                .children(box_)
                .any(|c| c != branch && stats[c].chars == 0 && photos[c]);
        if bare_photo {
            let other = stats[box_].chars.saturating_sub(chars);
            return other <= tune::CREDIT_MAX_CHARS
                && !holds_heading(dom, box_)
                && !in_list_item(dom, box_);
        }
        if dom.children(box_).any(|c| c != branch && photos[c]) {
            return false;
        }
        branch = box_;
        box_ = dom.nodes[box_].parent as usize;
    }
    false
}

/// Per node, whether its subtree holds a photo ([`attr_flags::PHOTO`]).
pub fn photos_under(dom: &Dom<'_>) -> Vec<bool> {
    let mut under: Vec<bool> = dom
        .nodes
        .iter()
        .map(|n| n.flags & attr_flags::PHOTO != 0)
        .collect();
    for i in (1..dom.len()).rev() {
        if under[i] {
            under[dom.nodes[i].parent as usize] = true;
        }
    }
    under
}

/// Element `k` is a list item or inside one: a list of photos with their
/// texts is a recipe's or a how-to's steps as often as a gallery (which
/// the gallery step knows by its name), so its texts are left alone.
fn in_list_item(dom: &Dom<'_>, mut k: usize) -> bool {
    for _ in 0..3 {
        if dom.nodes[k].tag == Tag::Li {
            return true;
        }
        if k == 0 {
            return false;
        }
        k = dom.nodes[k].parent as usize;
    }
    false
}

/// No text shares element `i`'s line: every sibling with text is a block
/// or holds one.
pub fn alone_on_its_line(dom: &Dom<'_>, i: usize) -> bool {
    let parent = dom.nodes[i].parent as usize;
    if parent == i || !dom.nodes[parent].tag.is_block() {
        return false;
    }
    dom.children(parent).filter(|&c| c != i).all(|c| {
        let nd = &dom.nodes[c];
        nd.tag.is_block()
            || dom.nodes[c..nd.end as usize]
                .iter()
                .all(|d| d.tag != Tag::Text || d.chars == 0)
            || dom.nodes[c + 1..nd.end as usize]
                .iter()
                .any(|d| d.tag.is_block())
    })
}

/// A one-item list right after a `<figure>` that has no caption of its
/// own: the caption, written as a list under the photo (the figure's
/// markup lost its `<figcaption>`). Short and without links: a list of
/// one link, or a long one, is the story's.
pub fn is_figure_list(dom: &Dom<'_>, stats: &[Stats], i: usize) -> bool {
    let nd = &dom.nodes[i];
    let st = &stats[i];
    if nd.tag != Tag::List || st.chars == 0 || st.chars > tune::CAPTION_MAX_CHARS {
        return false;
    }
    if st.link_chars > 0 {
        return false;
    }
    let mut items = dom.children(i).filter(|&c| !is_blank(dom, c));
    let one_item =
        items.next().is_some_and(|c| dom.nodes[c].tag == Tag::Li) && items.next().is_none();
    if !one_item || i == 0 {
        return false;
    }
    let parent = nd.parent as usize;
    let before = dom
        .children(parent)
        .take_while(|&c| c != i)
        .filter(|&c| !is_blank(dom, c))
        .last();
    before.is_some_and(|f| {
        let end = dom.nodes[f].end as usize;
        dom.nodes[f].tag == Tag::Figure
            && !dom.nodes[f..end].iter().any(|d| d.tag == Tag::Figcaption)
    })
}

/// A text node of whitespace only.
fn is_blank(dom: &Dom<'_>, i: usize) -> bool {
    let nd = &dom.nodes[i];
    nd.tag == Tag::Text && nd.chars == 0
}
