//! The attributes the arena reads of each element: class, id and the
//! flags of [`attr_flags`], in one pass over the element's attributes.

use scraper::node::Element;

use super::{Node, Tag};

/// Bits of [`Node::flags`], read once per element while building the arena
/// (scraper's `attr()` interns the name on every call; iterating is cheaper).
pub mod attr_flags {
    /// `hidden`, `aria-hidden="true"`, or an inline style that hides it.
    pub const HIDDEN: u8 = 1;
    /// `itemprop` containing `articleBody`.
    pub const ARTICLE_BODY: u8 = 2;
    /// An ARIA landmark role that is not the article (navigation, banner, …).
    pub const ROLE_NOISE: u8 = 4;
    /// `role="main"`.
    pub const ROLE_MAIN: u8 = 8;
    /// An `<a>` whose target is a `javascript:` URL and that wraps blocks:
    /// a script's container, not a link (its text is not link text).
    pub const SCRIPT_LINK: u8 = 16;
    /// The element holds an `<img>` as its child. Photos are no nodes of
    /// the arena (they hold no text, and as tags they would change every
    /// density): this flag is where they were.
    pub const PHOTO: u8 = 32;
    /// A modal: `aria-modal="true"`, `role="dialog"` or
    /// `role="alertdialog"`. It opens over the page (a consent manager's
    /// preference center, a newsletter or sign-in box): its text is not
    /// the page's, however long.
    pub const MODAL: u8 = 64;
}

/// `haystack` holds `needle` (lowercase ASCII), ignoring ASCII case.
fn contains_ignore_ascii_case(haystack: &str, needle: &str) -> bool {
    haystack
        .as_bytes()
        .windows(needle.len())
        .any(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
}

/// Read class, id and the flag attributes of an element in one pass. The
/// strip prepass drops every attribute it does not know to be read: a new one
/// read here must be added to its keep list.
pub(super) fn read_attrs(el: &Element) -> (&str, &str, u8) {
    let (mut class, mut id, mut flags) = ("", "", 0u8);
    for (name, value) in el.attrs() {
        match name {
            "class" => class = value,
            "id" => id = value,
            "hidden" => flags |= attr_flags::HIDDEN,
            "aria-hidden" if value.trim().eq_ignore_ascii_case("true") => {
                flags |= attr_flags::HIDDEN
            }
            "style" if style_hides(value) => flags |= attr_flags::HIDDEN,
            "aria-modal" if value.trim().eq_ignore_ascii_case("true") => flags |= attr_flags::MODAL,
            // The strip prepass keeps a link's target only when it is one.
            "href" if el.name() == "a" && is_script_url(value) => flags |= attr_flags::SCRIPT_LINK,
            // Pages write `articlebody` too; the name means the same.
            "itemprop" if contains_ignore_ascii_case(value, "articlebody") => {
                flags |= attr_flags::ARTICLE_BODY
            }
            "role" => {
                let role = value.trim();
                if role.eq_ignore_ascii_case("main") {
                    flags |= attr_flags::ROLE_MAIN;
                } else if [
                    "navigation",
                    "banner",
                    "contentinfo",
                    "complementary",
                    "search",
                    "menu",
                    "menubar",
                    "tooltip",
                ]
                .iter()
                .any(|r| role.eq_ignore_ascii_case(r))
                {
                    flags |= attr_flags::ROLE_NOISE;
                } else if ["dialog", "alertdialog"]
                    .iter()
                    .any(|r| role.eq_ignore_ascii_case(r))
                {
                    flags |= attr_flags::MODAL;
                }
            }
            _ => {}
        }
    }
    (class, id, flags)
}

/// A `javascript:` URL (leading spaces and case ignored, as browsers do).
fn is_script_url(value: &str) -> bool {
    value
        .trim_start()
        .get(..11)
        .is_some_and(|s| s.eq_ignore_ascii_case("javascript:"))
}

/// An element that is a link: an `<a>` that does not wrap content for a
/// script ([`attr_flags::SCRIPT_LINK`]).
pub(super) fn is_link(tag: Tag, flags: u8) -> bool {
    tag == Tag::A && flags & attr_flags::SCRIPT_LINK == 0
}

/// A `javascript:` link just closed (`nodes[0]`, its subtree after it). One
/// that wraps blocks (paragraphs, a whole story) is a script's container:
/// its text is no link text. One around a label ("Print", "Next", "A A A")
/// is a button, and weighs as a link, as menus of such buttons should.
pub(super) fn script_link_closed(nodes: &mut [Node<'_>]) {
    let wraps_blocks = nodes[1..].iter().any(|nd| nd.tag.is_block());
    if !wraps_blocks {
        nodes[0].flags &= !attr_flags::SCRIPT_LINK;
        return;
    }
    // Positions are relative to the script link; a link inside it stays one.
    let base = nodes[0].end as usize - nodes.len();
    let mut k = 1;
    while k < nodes.len() {
        if nodes[k].tag == Tag::A {
            k = (nodes[k].end as usize).saturating_sub(base).max(k + 1);
            continue;
        }
        nodes[k].in_link = false;
        k += 1;
    }
}

/// `display:none` or `visibility:hidden` in an inline style.
fn style_hides(style: &str) -> bool {
    let lower = style.to_ascii_lowercase();
    if !lower.contains("none") && !lower.contains("hidden") {
        return false;
    }
    let compact: String = lower.chars().filter(|c| !c.is_whitespace()).collect();
    compact.contains("display:none") || compact.contains("visibility:hidden")
}
