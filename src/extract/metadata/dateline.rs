//! A date written alone near the headline, for pages that mark their
//! publication time in no other way.
//!
//! In: the parsed page and its title (as [`super::title`] chose it). Out:
//! the first full date among the few short text nodes around the headline,
//! or `None`.
//!
//! The headline is the first `<h1>`; where that gives no date (an old
//! page's `<h1>` holds the site's logo, or the page has none and prints its
//! headline in a `<b>` or a `<font>`), it is a text of the body that reads
//! as the title (the first few such places are tried: a breadcrumb or a
//! teaser may print the title before the headline does). A date line sits
//! right under the headline on most news pages, and on some right above it
//! ("Jan 17, 2008" over the headline).

use ego_tree::iter::Edge;
use scraper::{ElementRef, Html, Node};

use super::dates::{self, Stamp};
use super::page;
use super::title::squash;

/// How many text nodes after the headline are read for a bare date.
const NEAR_HEADLINE_TEXTS: usize = 12;
/// A text node longer than this is prose, not a dateline.
const DATELINE_MAX_CHARS: usize = 40;
/// A title shorter than this (letters and digits) is too weak an anchor: a
/// one-word title is also a menu entry.
const TITLE_ANCHOR_MIN_CHARS: usize = 12;
/// At most this many places where the title's text stands are tried.
const TITLE_ANCHORS_TRIED: usize = 3;

/// The date near the first `<h1>`, else near one of the first
/// [`TITLE_ANCHORS_TRIED`] texts that read as `title`: a short text node
/// that holds a full date, among the first [`NEAR_HEADLINE_TEXTS`] after the
/// headline, or (for a text read as the title) the one right before it.
pub(super) fn date_near_headline(doc: &Html, title: Option<&str>) -> Option<Stamp> {
    // The page's non-empty texts in order, and where the first <h1> ends
    // among them: one walk, the <h1> told by its closing edge.
    let mut texts: Vec<&str> = Vec::new();
    let mut h1: Option<ego_tree::NodeId> = None;
    let mut after_h1: Option<usize> = None;
    // The body's texts: the <title> in the head reads as the title too.
    let root = doc.root_element();
    let body = root
        .children()
        .filter_map(ElementRef::wrap)
        .find(|e| e.value().name() == "body")
        .unwrap_or(root);
    for edge in body.traverse() {
        match edge {
            Edge::Open(n) => match n.value() {
                Node::Text(t) if !t.trim().is_empty() => texts.push(t.trim()),
                Node::Element(e) if h1.is_none() && e.name() == "h1" => h1 = Some(n.id()),
                _ => {}
            },
            Edge::Close(n) if after_h1.is_none() && h1 == Some(n.id()) => {
                after_h1 = Some(texts.len());
            }
            Edge::Close(_) => {}
        }
    }
    if let Some(stamp) = after_h1.and_then(|i| dateline_in(&texts[i..])) {
        return Some(stamp);
    }
    let key = squash(title?);
    let key_chars = key.chars().count();
    if key_chars < TITLE_ANCHOR_MIN_CHARS {
        return None;
    }
    // Only a text of about the title's size can read as it: most texts are
    // short labels or long paragraphs, and squashing each cost more than
    // the rest of this search.
    let title_sized = |t: &str| t.len() >= key_chars && t.len() <= 4 * key.len() + 64;
    // The title's text may also stand in a breadcrumb or a teaser before
    // the headline: each place it stands is tried, in order.
    (0..texts.len())
        .filter(|&i| title_sized(texts[i]) && squash(texts[i]) == key)
        .take(TITLE_ANCHORS_TRIED)
        .find_map(|i| dateline_in(&texts[i + 1..]).or_else(|| dateline(texts[i.checked_sub(1)?])))
}

/// The first dateline among the first [`NEAR_HEADLINE_TEXTS`] of `texts`.
fn dateline_in(texts: &[&str]) -> Option<Stamp> {
    texts
        .iter()
        .take(NEAR_HEADLINE_TEXTS)
        .find_map(|t| dateline(t))
}

/// A short text that holds a full date. "Last updated: 3 March 2025" under
/// a policy page's title dates a change, not a publication.
fn dateline(t: &str) -> Option<Stamp> {
    (t.chars().count() <= DATELINE_MAX_CHARS
        && t.bytes().any(|b| b.is_ascii_digit())
        && !page::is_modified_label(t))
    .then(|| dates::parse_stamp(t))
    .flatten()
}

#[cfg(test)]
mod tests {
    use super::super::extract_metadata;
    use super::*;

    fn published(html: &str) -> Option<String> {
        extract_metadata(&Html::parse_document(html), None).published_at
    }

    #[test]
    fn bare_date_under_the_headline_is_the_publication_time() {
        let page = "<body><h1 class=news_title>共享充电宝涨价告别1元时代</h1>\
                    <div class=news_about><p>石佳/中国青年报</p><p> 2019-09-24 09:10<span> </span></p></div>\
                    <div><p>正文很长。</p></div></body>";
        assert_eq!(published(page).as_deref(), Some("2019-09-24T09:10:00Z"));
        let labelled = "<body><h1>标题</h1><span>发布时间：2019年10月08日 11:10</span></body>";
        assert_eq!(published(labelled).as_deref(), Some("2019-10-08T11:10:00Z"));
    }

    #[test]
    fn dates_far_below_the_headline_or_in_prose_are_not_taken() {
        let mut page = String::from("<body><h1>Title</h1>");
        for i in 0..NEAR_HEADLINE_TEXTS {
            page.push_str(&format!("<p>Paragraph {i}.</p>"));
        }
        page.push_str("<p>2019-09-24 09:10</p></body>");
        assert_eq!(published(&page), None);
        let prose = "<body><h1>Title</h1><p>On 2019-09-24 the council met and argued about the budget.</p></body>";
        assert_eq!(published(prose), None);
    }

    /// An old page: the `<h1>` is the site's name, the headline a `<b>`
    /// that reads as the title (as does a link above it), its date line
    /// under it or over it.
    #[test]
    fn a_page_without_a_headline_h1_is_dated_under_or_over_the_text_that_reads_as_its_title() {
        let nav: String = (0..NEAR_HEADLINE_TEXTS)
            .map(|i| format!("<a href=/s{i}>Section {i}</a>"))
            .collect();
        let story = "<p>The council met on Monday and argued about the budget until late.</p>";
        let under = format!(
            "<html><head><title>EMC Sees Virtualization in SMBs' Storage Future</title></head>\
             <body><h1>Storage Forum</h1><a href=/emc>EMC Sees Virtualization in SMBs' \
             Storage Future</a>{nav}<font><b>EMC Sees Virtualization in SMBs' \
             Storage Future</b></font><br> January 8, 2008<br>By Jane Doe{story}</body></html>"
        );
        assert_eq!(published(&under).as_deref(), Some("2008-01-08T00:00:00Z"));
        let over = format!(
            "<html><head><title>Murph's Turf: Performance enhancers</title></head><body>{nav}\
             <span>Jan 17, 2008</span><br><span>Murph's Turf: Performance enhancers</span>{story}</body></html>"
        );
        assert_eq!(published(&over).as_deref(), Some("2008-01-17T00:00:00Z"));
        // Without the title's text on the page, no anchor: the date in the
        // navigation is not taken.
        let unanchored = format!(
            "<html><head><title>Another headline altogether</title></head><body>{nav}\
             <span>Jan 17, 2008</span>{story}</body></html>"
        );
        assert_eq!(published(&unanchored), None);
    }
}
