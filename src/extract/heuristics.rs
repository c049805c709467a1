//! Element-level hints for `auto`: class/id word lists, hidden elements,
//! semantic boilerplate (nav/aside/footer/…, ARIA roles), and the guarded
//! removal mask built from them.
//!
//! In: a [`Dom`] and its statistics before removal. Out: per-node hint flags
//! and a `removed` mask (closed under descendants).

use super::dom::{Dom, Stats, Tag};

/// What the class and id attributes of an element say.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Hint {
    /// A boilerplate word (comment, share, related, promo, sidebar, …).
    pub negative: bool,
    /// A content word (article, story, body, content, post, entry, …).
    pub positive: bool,
}

/// Whole class/id tokens that mark boilerplate.
const NEG_EXACT: &[&str] = &[
    "ad",
    "ads",
    "adv",
    "advert",
    "nav",
    "navbar",
    "navigation",
    "menu",
    "tags",
    "tag",
    "share",
    "sharing",
    "social",
    "extra",
    "hidden",
    "hide",
    "print",
    "toolbar",
    "tools",
    "skip",
    "banner",
    "rss",
    "footer",
    "sidebar",
    "aside",
    "comment",
    "comments",
    "related",
    "promo",
    "sponsor",
    "sponsored",
    "widget",
    "widgets",
    "popup",
    "modal",
    "cookie",
    "cookies",
    "breadcrumb",
    "breadcrumbs",
    "pagination",
    "pager",
    "masthead",
    "newsletter",
    "subscribe",
    "signup",
    "login",
    "outbrain",
    "taboola",
    "disqus",
    "recommended",
    "trending",
    "lightbox",
    "overlay",
];

/// Substrings of class/id tokens that mark boilerplate.
const NEG_SUB: &[&str] = &[
    "comment",
    "sidebar",
    "related",
    "share",
    "social",
    "footer",
    "breadcrumb",
    "promo",
    "sponsor",
    "newsletter",
    "subscribe",
    "widget",
    "popup",
    "cookie",
    "disqus",
    "outbrain",
    "taboola",
    "pagination",
    "masthead",
    "advert",
    "banner",
    "navbar",
    "navigation",
    "toolbar",
    "recommend",
    "trending",
    "signup",
    "facebook",
    "twitter",
    "linkedin",
    "pinterest",
    "whatsapp",
];

/// Substrings that rescue an otherwise negative class/id ("maybe" words).
const MAYBE_SUB: &[&str] = &[
    "article",
    "body",
    "content",
    "main",
    "story",
    "entry",
    "post-text",
    "text",
];

/// Substrings of class/id tokens that mark the article.
const POS_SUB: &[&str] = &[
    "article", "body", "content", "entry", "hentry", "main", "post", "text", "blog", "story",
];

/// Read the class and id attributes of an element.
pub fn class_id_hint(dom: &Dom<'_>, i: usize) -> Hint {
    let Some(el) = dom.nodes[i].el else {
        return Hint::default();
    };
    let mut hint = Hint::default();
    let mut maybe = false;
    for attr in ["class", "id"] {
        let Some(v) = el.attr(attr) else { continue };
        if v.is_empty() {
            continue;
        }
        let lower = v.to_ascii_lowercase();
        for tok in lower.split(|c: char| !c.is_ascii_alphanumeric()) {
            if tok.is_empty() {
                continue;
            }
            if NEG_EXACT.contains(&tok) || NEG_SUB.iter().any(|w| tok.contains(w)) {
                hint.negative = true;
            }
            if MAYBE_SUB.iter().any(|w| tok.contains(w)) {
                maybe = true;
            }
            if POS_SUB.iter().any(|w| tok.contains(w)) {
                hint.positive = true;
            }
        }
    }
    if maybe {
        hint.negative = false;
    }
    if hint.negative {
        hint.positive = false;
    }
    hint
}

/// `hidden`, `aria-hidden="true"`, or an inline style that hides the element.
pub fn is_hidden(dom: &Dom<'_>, i: usize) -> bool {
    let Some(el) = dom.nodes[i].el else {
        return false;
    };
    if el.attr("hidden").is_some() {
        return true;
    }
    if el
        .attr("aria-hidden")
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("true"))
    {
        return true;
    }
    if let Some(style) = el.attr("style") {
        let compact: String = style
            .chars()
            .filter(|c| !c.is_whitespace())
            .map(|c| c.to_ascii_lowercase())
            .collect();
        if compact.contains("display:none") || compact.contains("visibility:hidden") {
            return true;
        }
    }
    false
}

/// Semantic boilerplate: navigation, asides, footers, forms and ARIA landmark
/// roles that are not the article.
pub fn is_semantic_noise(dom: &Dom<'_>, i: usize) -> bool {
    let n = &dom.nodes[i];
    if matches!(n.tag, Tag::Nav | Tag::Aside | Tag::Footer | Tag::Form) {
        return true;
    }
    let Some(el) = n.el else { return false };
    match el.attr("role") {
        Some(role) => matches!(
            role.trim().to_ascii_lowercase().as_str(),
            "navigation"
                | "banner"
                | "contentinfo"
                | "complementary"
                | "search"
                | "menu"
                | "menubar"
                | "dialog"
                | "alertdialog"
                | "tooltip"
        ),
        None => false,
    }
}

/// Marks the article container the page declares (`<article>`, `<main>`,
/// `itemprop="articleBody"`, `role="main"`).
pub fn is_declared_article(dom: &Dom<'_>, i: usize) -> bool {
    let n = &dom.nodes[i];
    if matches!(n.tag, Tag::Article | Tag::Main) {
        return true;
    }
    let Some(el) = n.el else { return false };
    el.attr("itemprop")
        .is_some_and(|v| v.contains("articleBody"))
        || el
            .attr("role")
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("main"))
}

/// Per-node flags computed once for `auto`.
#[derive(Debug, Clone, Default)]
pub struct Flags {
    pub hint: Vec<Hint>,
    /// The subtree contains a declared article node (or is one).
    pub holds_article: Vec<bool>,
}

impl Flags {
    pub fn compute(dom: &Dom<'_>) -> Flags {
        let n = dom.len();
        let mut hint = vec![Hint::default(); n];
        let mut holds_article = vec![false; n];
        for i in 0..n {
            if dom.nodes[i].tag == Tag::Text {
                continue;
            }
            hint[i] = class_id_hint(dom, i);
            holds_article[i] = is_declared_article(dom, i);
        }
        for i in (1..n).rev() {
            if holds_article[i] {
                holds_article[dom.nodes[i].parent as usize] = true;
            }
        }
        Flags {
            hint,
            holds_article,
        }
    }
}

/// The guarded removal mask: hidden elements, semantic boilerplate and
/// negative class/id elements, except nodes that hold ≥ 50 % of the body's
/// non-link text (ASP.NET's whole-body `<form>`) or a declared article node.
pub fn removal_mask(dom: &Dom<'_>, stats: &[Stats], flags: &Flags) -> Vec<bool> {
    let n = dom.len();
    let mut removed = vec![false; n];
    let body_text = stats
        .first()
        .map_or(0, |s| s.chars.saturating_sub(s.link_chars));
    let mut i = 1;
    while i < n {
        let node = &dom.nodes[i];
        if node.tag == Tag::Text || node.tag == Tag::Body {
            i += 1;
            continue;
        }
        let noise = is_hidden(dom, i) || is_semantic_noise(dom, i) || flags.hint[i].negative;
        let own_text = stats[i].chars.saturating_sub(stats[i].link_chars);
        let guarded = flags.holds_article[i] || u64::from(own_text) * 2 >= u64::from(body_text);
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
