//! What the words of class and id values say: boilerplate, content and
//! reader-comment names, read once per distinct name of a page.

use std::collections::HashMap;
use std::sync::LazyLock;

use aho_corasick::AhoCorasick;

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
static NEG_SUB: LazyLock<AhoCorasick> = LazyLock::new(|| {
    words(&[
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
        "signup",
        "facebook",
        "twitter",
        "linkedin",
        "pinterest",
        "whatsapp",
    ])
});

/// Substrings that rescue an otherwise negative class/id ("maybe" words).
static MAYBE_SUB: LazyLock<AhoCorasick> = LazyLock::new(|| {
    words(&[
        "article", "body", "content", "main", "story", "entry", "text",
    ])
});

/// Substrings of class/id values that mark the article.
static POS_SUB: LazyLock<AhoCorasick> = LazyLock::new(|| {
    words(&[
        "article", "body", "content", "entry", "hentry", "main", "post", "text", "blog", "story",
    ])
});

/// A searcher for any of `list` (as written: names are read in lower
/// case). One pass over a name for all its words; a regex of the same
/// alternation spent most of its time setting its search up.
fn words(list: &[&str]) -> AhoCorasick {
    AhoCorasick::new(list).expect("static word list")
}

fn is_match(words: &LazyLock<AhoCorasick>, s: &str) -> bool {
    words.is_match(s)
}

/// A class/id name that marks reader comments: one of its parts
/// (split at `-`, `_`, …) is a comment word, not followed by a state word
/// (`comments-open` is a WordPress state class, not a thread) nor by an
/// article word (`comment-article` is an opinion piece: The Times files
/// columns under "Comment"). Whole parts only: `commentary` is an opinion
/// column too.
fn is_comment_name(name: &str) -> bool {
    let mut parts = name
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|p| !p.is_empty())
        .peekable();
    while let Some(part) = parts.next() {
        let article_after = parts
            .clone()
            .any(|p| matches!(p, "article" | "story" | "entry" | "main"));
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
            && !parts.peek().is_some_and(|&next| {
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
/// list ([`NameWords::post_marker`]: `category-kommentare`, `tag-social-media`
/// on the wrapper of the story itself), and a page builder's generic
/// `widget` beside the name of its kind (Blogger's `widget Blog` is the
/// blog's posts).
///
/// Pages repeat their class values and, more still, the names in them
/// (`col-md-6`, `clearfix`): each distinct value and each distinct name is
/// read once per page, and a value is then a walk over its names' verdicts.
pub(super) struct ClassWords<'a> {
    state_words: bool,
    values: HashMap<&'a str, Words, ahash::RandomState>,
    names: HashMap<&'a str, NameWords, ahash::RandomState>,
    /// The verdicts of the value being read (kept to reuse its allocation).
    scratch: Vec<NameWords>,
}

/// (negative, positive, comment).
pub(super) type Words = (bool, bool, bool);

/// What one class/id name says on its own (read in ASCII lower case).
#[derive(Debug, Clone, Copy)]
struct NameWords {
    /// A boilerplate word ([`is_negative_name`]).
    negative: bool,
    /// A "maybe" word that rescues a negative name (false for the others).
    maybe: bool,
    /// A content word.
    positive: bool,
    /// A reader-comment name ([`is_comment_name`]).
    comment: bool,
    /// A taxonomy term ([`is_taxonomy_name`]).
    taxonomy: bool,
    /// A name of a CMS's post class list: a taxonomy term, the post's id,
    /// type, status or format (WordPress's `post_class`: `post-123
    /// type-post status-publish hentry category-news tag-share`); a list
    /// holds at least two.
    post_marker: bool,
    /// The page builder's generic `widget`.
    widget: bool,
}

impl NameWords {
    fn of(name: &str, state_words: bool) -> NameWords {
        let lower;
        let name = if name.bytes().any(|b| b.is_ascii_uppercase()) {
            lower = name.to_ascii_lowercase();
            lower.as_str()
        } else {
            name
        };
        let taxonomy = is_taxonomy_name(name);
        let negative = is_negative_name(name, state_words);
        NameWords {
            negative,
            // Read only where it can rescue a negative name.
            maybe: negative && is_match(&MAYBE_SUB, name),
            positive: is_match(&POS_SUB, name),
            comment: is_comment_name(name),
            taxonomy,
            post_marker: taxonomy
                || name == "hentry"
                || ["type-", "status-", "format-"]
                    .iter()
                    .any(|p| name.len() > p.len() && name.starts_with(p))
                || name
                    .strip_prefix("post-")
                    .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit())),
            widget: name == "widget",
        }
    }
}

impl<'a> ClassWords<'a> {
    pub(super) fn new(state_words: bool) -> ClassWords<'a> {
        ClassWords {
            state_words,
            values: HashMap::default(),
            names: HashMap::default(),
            scratch: Vec::new(),
        }
    }

    /// The words of a value that the page repeats (a class value).
    pub(super) fn of_repeated(&mut self, value: &'a str) -> Words {
        if let Some(&w) = self.values.get(value) {
            return w;
        }
        let w = self.of(value);
        self.values.insert(value, w);
        w
    }

    /// The words of a value (negative, positive, comment).
    pub(super) fn of(&mut self, value: &'a str) -> Words {
        let state_words = self.state_words;
        let mut verdicts = std::mem::take(&mut self.scratch);
        verdicts.clear();
        for name in value.split_ascii_whitespace() {
            let v = *self
                .names
                .entry(name)
                .or_insert_with(|| NameWords::of(name, state_words));
            verdicts.push(v);
        }
        let post_list = state_words && verdicts.iter().filter(|v| v.post_marker).count() >= 2;
        let typed_widget = state_words
            && verdicts
                .iter()
                .any(|v| !v.widget && v.positive && !v.negative);
        let role = |v: &&NameWords| !(post_list && v.taxonomy || typed_widget && v.widget);
        let neg = verdicts.iter().filter(role).any(|v| v.negative && !v.maybe);
        let comment = verdicts.iter().filter(role).any(|v| v.comment);
        let pos = verdicts.iter().any(|v| v.positive);
        self.scratch = verdicts;
        (neg, pos, comment)
    }
}

/// [`ClassWords::of`] of one value alone.
#[cfg(test)]
pub(super) fn words_of(value: &str, state_words: bool) -> Words {
    ClassWords::new(state_words).of(value)
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
