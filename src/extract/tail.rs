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
//! In: the assembled paragraphs ([`TextSink`], [`Para`]), the range of the
//! body among them and, for comments, the arena. Out: the index of the
//! paragraph that opens such a section, if one comes once enough of the
//! text is behind.

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

/// Where the reader comments start, when they are cut ([`tail_section_start`]).
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

/// Index (relative to `body`'s base `first`) of a short paragraph that opens
/// a related-stories section, or with `author_bios` a box about the author,
/// or where `comments` says the reader comments start, once enough of the
/// text is behind.
pub fn tail_section_start(
    sink: &TextSink,
    paras: &[Para],
    first: usize,
    body: std::ops::Range<usize>,
    author_bios: bool,
    comments: Option<CommentCut<'_>>,
) -> Option<usize> {
    let re = &*TAIL_HEADING;
    let opens = |t: &str, node: usize| {
        re.is_match(t)
            || (author_bios && AUTHOR_HEADING.is_match(t))
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
    let mut before = 0u64;
    for i in body {
        let p = &paras[first + i];
        let enough_before = before as f64 >= tune::MIN_SHARE_BEFORE * total as f64
            || before >= tune::MIN_CHARS_BEFORE;
        if enough_before
            && (after_anchor == Some(i)
                || (p.chars <= tune::HEADING_MAX_CHARS
                    && opens(sink.para_text(first + i).trim(), p.node as usize)))
        {
            return Some(i);
        }
        before += u64::from(p.chars);
    }
    None
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
