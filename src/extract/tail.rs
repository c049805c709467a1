//! Where the article ends: `auto` step 6 cuts the text at a short heading
//! that opens the section after the story ("Related stories", "You may also
//! like", "Most read", …), and, when reader comments are not kept, where
//! the comments start: a comments heading ("Comments", "Leave a reply",
//! "12 Kommentare") or the empty anchor a "comments" link jumps to
//! (`<a name="comments"></a>`). Old CMSs write the thread right after the
//! story in the story's own container, with no element of its own that
//! names it, often as `<br>` lines that make it one long paragraph with its
//! heading, which only the anchor finds.
//!
//! A related-stories box can also sit inside the story ("Related coverage"
//! between two paragraphs, a "Most read" rail the CMS drops in the middle):
//! when the story's own paragraphs resume after it, in the container that
//! held the paragraphs before it, only the box goes and the text goes on.
//!
//! In: the arena, the assembled paragraphs ([`TextSink`], [`Para`]) and the
//! range of the body among them. Out: a [`Tail`]: the index of the
//! paragraph that opens the section after the story, if one comes once
//! enough of the text is behind, and the boxes inside the story to leave
//! out.

use std::sync::LazyLock;

use regex::Regex;

use super::dom::{Dom, Tag};
use super::text::{Para, TextSink};

/// Calibrated with the rest of `auto` on the corpus (tests/corpus).
mod tune {
    /// A related-stories heading is at most this long …
    pub const HEADING_MAX_CHARS: u32 = 40;
    /// … and cuts the text only after this share of it …
    pub const MIN_SHARE_BEFORE: f64 = 0.3;
    /// … or after this many characters.
    pub const MIN_CHARS_BEFORE: u64 = 300;
    /// The story resumes after a box when at least this much of its own
    /// paragraph text follows it.
    pub const RESUME_MIN_CHARS: u64 = 200;
}

/// Headings that open the section after an article: related stories, most
/// read, "B.C. Headlines", external links (+0.005 F1 on page-signal-dev,
/// nothing lost elsewhere). Reader-comment headings ("Comments", "Leave a reply") are not in the
/// list: cutting there gained 0.006 F1 on page-signal-dev but lost 0.020 on
/// cleaneval-dev, whose gold texts of blog pages include the comments.
static TAIL_HEADING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)^related(\s+(stories|articles|links|content|posts|news|coverage))?\s*:?$|^(you\s+may|you\s+might)\s+also\s+like|^more\s+(stories|news|headlines)\b|^(most\s+(read|popular|viewed|emailed))\s*:?$|^([\w.]+\s+){0,2}headlines\s*:?$|^top\s+stories\s*:?$|^external\s+links\s*:?$|^comments\s+are\s+(now\s+)?closed|^(ähnliche\s+(artikel|beiträge)|das\s+könnte\s+(sie|dich)\s+auch\s+interessieren|weitere\s+(artikel|beiträge)|mehr\s+zum\s+thema|auch\s+interessant|lesen\s+sie\s+auch|zum\s+weiterlesen|sur\s+le\s+même\s+sujet|à\s+lire\s+(aussi|également)|noticias\s+relacionadas|te\s+puede\s+interesar|czytaj\s+(także|też)|zobacz\s+(także|też|również))\s*:?$",
    )
    .expect("static regex")
});

/// Headings of a box about the author after the story ("About the
/// author", "Über den Autor", "Zur Autorin").
static AUTHOR_HEADING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)^(about\s+the\s+authors?|über\s+(den\s+autor|die\s+autorin|die\s+autoren)|zum\s+autor|zur\s+autorin|à\s+propos\s+de\s+l.auteur|sobre\s+(el|la)\s+autora?|o\s+autorze)\s*:?$",
    )
    .expect("static regex")
});

/// Headings of the reader comments after the story: "Comments", "12
/// comments", "Leave a reply", "Kommentare (3)", "Laisser un commentaire".
/// A singular word needs a count: "Kommentar", "Komentarz" and "Comment"
/// alone title an opinion piece or a table column. (`Comments are now
/// closed` is in [`TAIL_HEADING`]: no comments follow it, so it ends the
/// story even where comments are kept.)
static COMMENT_HEADING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)^(\d+\s+)?((reader|readers'?|your)\s+)?(comments|kommentare|commentaires|comentarios|komentarze)\s*(\(\d+\))?\s*:?$|^\d+\s+(comment|responses?|replies|reply|kommentar|commentaire|comentario|komentarz)\s*:?$|^(leave|post|add|write)\s+an?\s+(comment|reply|response)\b|^have\s+your\s+say\s*:?$|^(schreibe|hinterlasse|verfasse)\s+einen\s+kommentar|^kommentar\s+(schreiben|verfassen)\s*:?$|^(laisser|ajouter)\s+un\s+commentaire|^(deja|dejar|escribe)\s+un\s+comentario|^(dodaj|napisz)\s+komentarz",
    )
    .expect("static regex")
});

/// Where the reader comments start, when they are cut ([`tail_section`]).
#[derive(Debug, Clone, Copy)]
pub struct CommentCut<'d> {
    /// The page's arena: a comments heading counts outside tables only (a
    /// table's "Comments" column is no heading).
    pub dom: &'d Dom<'d>,
    /// Cut at the first paragraph after this arena index (a comments anchor,
    /// [`comment_anchor`]).
    pub anchor: Option<usize>,
}

/// Inside a table (a cell, or the table itself).
fn in_table(dom: &Dom<'_>, mut i: usize) -> bool {
    while i != 0 {
        if matches!(dom.nodes[i].tag, Tag::Cell | Tag::Table) {
            return true;
        }
        i = dom.nodes[i].parent as usize;
    }
    false
}

/// Arena index of the first empty `<a>` whose `name` or `id` names the
/// reader comments (`<a name="comments"></a>`, `<a name="commentSection">`):
/// the target a "comments" link jumps to, where the thread starts. Only an
/// empty one: a link or button with text (`<a id="comment_area">Comment</a>`)
/// may sit anywhere.
pub fn comment_anchor(dom: &Dom<'_>) -> Option<usize> {
    let names_comments = |v: &str| {
        v.as_bytes()
            .windows(7)
            .any(|w| w.eq_ignore_ascii_case(b"comment"))
    };
    (1..dom.len()).find(|&i| {
        let nd = &dom.nodes[i];
        nd.tag == Tag::A
            && dom.nodes[i + 1..nd.end as usize]
                .iter()
                .all(|d| d.tag == Tag::Text && d.chars == 0)
            && (names_comments(nd.id) || dom.attr(i, "name").is_some_and(names_comments))
    })
}

/// What step 6 takes out of the body (indices relative to its base `first`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tail {
    /// The paragraph that opens the section after the story.
    pub cut: Option<usize>,
    /// Related-stories boxes inside the story, which the story's
    /// paragraphs follow.
    pub boxes: Vec<std::ops::Range<usize>>,
}

/// The paragraph that opens a related-stories section, or with
/// `author_bios` a box about the author, or where `comments` says the
/// reader comments start, once enough of the text is behind; and the
/// related-stories boxes before it that the story goes on after.
pub fn tail_section(
    dom: &Dom<'_>,
    sink: &TextSink,
    paras: &[Para],
    first: usize,
    body: std::ops::Range<usize>,
    author_bios: bool,
    comments: Option<CommentCut<'_>>,
) -> Tail {
    let re = &*TAIL_HEADING;
    let opens_other = |t: &str, node: usize| {
        (author_bios && AUTHOR_HEADING.is_match(t))
            || comments.is_some_and(|c| COMMENT_HEADING.is_match(t) && !in_table(c.dom, node))
    };
    let total: u64 = paras[first + body.start..first + body.end]
        .iter()
        .map(|p| u64::from(p.chars))
        .sum();
    // Only the first paragraph after the anchor opens the comments.
    let after_anchor = comments
        .and_then(|c| c.anchor)
        .and_then(|a| body.clone().find(|&i| paras[first + i].node as usize >= a));
    let mut tail = Tail::default();
    let mut before = 0u64;
    let mut last_story: Option<usize> = None;
    let mut i = body.start;
    while i < body.end {
        let p = &paras[first + i];
        let enough_before = before as f64 >= tune::MIN_SHARE_BEFORE * total as f64
            || before >= tune::MIN_CHARS_BEFORE;
        let short = p.chars <= tune::HEADING_MAX_CHARS;
        let text = sink.para_text(first + i).trim();
        if after_anchor == Some(i) && enough_before
            || short && enough_before && opens_other(text, p.node as usize)
        {
            tail.cut = Some(i);
            return tail;
        }
        if short && re.is_match(text) {
            let resumes = last_story.and_then(|s| {
                story_resumes(dom, paras, first, paras[first + s].node, i + 1..body.end)
            });
            match resumes {
                Some(next) => {
                    tail.boxes.push(i..next);
                    i = next;
                    continue;
                }
                None if enough_before => {
                    tail.cut = Some(i);
                    return tail;
                }
                None => {}
            }
        }
        if is_prose(p) {
            last_story = Some(i);
        }
        before += u64::from(p.chars);
        i += 1;
    }
    tail
}

/// A paragraph that reads as the story's text: punctuated, few links.
fn is_prose(p: &Para) -> bool {
    p.punct > 0 && p.chars >= 40 && p.link_chars * 4 < p.chars
}

/// The element that holds a text node's paragraph: the parent of its
/// nearest block ancestor.
fn paragraph_container(dom: &Dom<'_>, text_node: u32) -> usize {
    let mut i = text_node as usize;
    while i != 0 {
        i = dom.nodes[i].parent as usize;
        if dom.nodes[i].tag.is_block() {
            return dom.nodes[i].parent as usize;
        }
    }
    0
}

/// The first paragraph of `after` where the story resumes: prose in the
/// container of the story paragraph `story_node`, with at least
/// [`tune::RESUME_MIN_CHARS`] of such prose from there on.
fn story_resumes(
    dom: &Dom<'_>,
    paras: &[Para],
    first: usize,
    story_node: u32,
    after: std::ops::Range<usize>,
) -> Option<usize> {
    let container = paragraph_container(dom, story_node);
    if container == 0 {
        return None;
    }
    let ours = |k: usize| {
        let p = &paras[first + k];
        is_prose(p) && paragraph_container(dom, p.node) == container
    };
    let next = after.clone().find(|&k| ours(k))?;
    let resumed: u64 = (next..after.end)
        .filter(|&k| ours(k))
        .map(|k| u64::from(paras[first + k].chars))
        .sum();
    (resumed >= tune::RESUME_MIN_CHARS).then_some(next)
}

#[cfg(test)]
mod tests {
    use crate::extract::{Ablations, ExtractOptions, Extractor, Page};

    /// The `auto` text of `html`, comments kept or not, `ablate` steps off.
    fn text(html: &str, comments: bool, ablate: &str) -> String {
        let extractor = Extractor::new(ExtractOptions {
            comments,
            ablate: Ablations::parse(ablate).unwrap_or_default(),
            text_only: true,
            ..ExtractOptions::default()
        });
        extractor.extract(Page::from_html(html)).article.text
    }

    fn story() -> String {
        (0..6)
            .map(|i| {
                format!(
                    "<p>Paragraph {i} of the story says what the premiers asked for, \
                     and what the prime minister said in reply.</p>"
                )
            })
            .collect()
    }

    /// An old CMS's thread: after the story, in its container, an anchor and
    /// `<br>` lines (the heading and the comments are one paragraph).
    #[test]
    fn comments_after_a_comments_anchor_in_the_story_container_are_cut() {
        let comments: String = ["Stephen B", "Lina", "Ralph"]
            .iter()
            .map(|name| {
                format!(
                    "<br><b>{name}</b><br>The government should not be spending the \
                     taxpayers' money on this, and the premiers know it.<br><br><hr>"
                )
            })
            .collect();
        let html = format!(
            "<html><body><div id=nav><a>Home</a> <a>News</a></div><div class=story>\
             <h1>Premiers meet the PM</h1>{}<hr><a name=\"commentSection\"></a>\
             <b>Comments are now closed for this story</b><br>{comments}</div></body></html>",
            story()
        );
        let t = text(&html, false, "");
        assert!(t.contains("Paragraph 5 of the story"), "{t:?}");
        assert!(!t.contains("taxpayers"), "{t:?}");
        let ablated = text(&html, false, "comment-sections");
        assert!(ablated.contains("taxpayers"), "the bug: {ablated:?}");
        let kept = text(&html, true, "");
        assert!(
            kept.contains("taxpayers"),
            "comments kept on request: {kept:?}"
        );
    }

    #[test]
    fn comments_heading_in_the_story_container_ends_the_text() {
        let html = format!(
            "<html><body><div class=story>{}<h3>3 Comments</h3>\
             <p>Great article, thanks for writing it, I agree with every word.<br>\
             Posted by Idealist on January 10, 2008 5:58 PM</p>\
             <p>No way, the premiers are wrong about this and so is the writer.<br>\
             Posted by Geoff on January 10, 2008 6:01 PM</p></div></body></html>",
            story()
        );
        let t = text(&html, false, "");
        assert!(t.ends_with("said in reply."), "{t:?}");
        let ablated = text(&html, false, "comment-sections");
        assert!(ablated.contains("Posted by Geoff"), "the bug: {ablated:?}");
    }

    /// A table whose column is headed "Comments", and an opinion piece's
    /// "Kommentar" label: no reader comments follow either.
    #[test]
    fn comments_column_and_opinion_label_end_nothing() {
        let rows: String = (0..4)
            .map(|i| {
                format!("<tr><td>state {i}</td><td>The task waits for its next run.</td></tr>")
            })
            .collect();
        let html = format!(
            "<html><body><div class=story>{}<table><tr><th>Status</th><th>Comments</th></tr>\
             {rows}</table><p>Kommentar</p><p>The last paragraph of the story says \
             what happens next, and when.</p></div></body></html>",
            story()
        );
        let t = text(&html, false, "");
        assert!(t.contains("state 3"), "{t:?}");
        assert!(t.ends_with("and when."), "{t:?}");
    }

    /// A related-coverage box between two paragraphs of the story: the
    /// story goes on after it, so only the box goes; at the end of the
    /// story, the same box ends the text.
    #[test]
    fn regression_the_text_stopped_at_a_related_box_inside_the_story() {
        let related = "<div class=enhancement><div class=list><div>Related coverage</div>\
             <div><a href=/a>Harbour reopens after a month of repairs</a></div>\
             <div><a href=/b>Port workers strike over pay again</a></div></div></div>";
        let more: String = (6..9)
            .map(|i| {
                format!(
                    "<p>Paragraph {i} of the story says what the premiers asked for, \
                     and what the prime minister said in reply.</p>"
                )
            })
            .collect();
        let html = format!(
            "<html><body><div class=story>{}{related}{more}</div></body></html>",
            story()
        );
        let t = text(&html, false, "");
        assert!(t.contains("Paragraph 8 of the story"), "{t:?}");
        assert!(
            !t.contains("Related coverage") && !t.contains("Port workers"),
            "{t:?}"
        );
        let at_end = format!(
            "<html><body><div class=story>{}{related}</div></body></html>",
            story()
        );
        let t = text(&at_end, false, "");
        assert!(t.ends_with("said in reply."), "{t:?}");
    }

    #[test]
    fn comment_anchor_before_the_story_cuts_nothing() {
        let html = format!(
            "<html><body><div class=story><a name=comments></a>{}</div></body></html>",
            story()
        );
        let t = text(&html, false, "");
        assert!(
            t.contains("Paragraph 0") && t.contains("Paragraph 5"),
            "{t:?}"
        );
    }
}
