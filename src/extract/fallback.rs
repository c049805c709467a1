//! The never-empty chain: what `auto` returns when density selection found
//! no text on a page that holds an article.
//!
//! In: the arena, the parsed document (for JSON-LD) and the density
//! [`Selection`]. Out: the same selection when it has text; otherwise, when
//! the page holds at least [`MIN_ARTICLE_WORDS`] words of paragraph text,
//! the first of these that has text: 1. the page's declared article
//! container (`itemprop=articleBody`, `role=main`, `<main>`, the largest
//! `<article>`) → [`Method::Schema`]; 2. JSON-LD `articleBody` →
//! [`Method::Schema`]; 3. the largest cluster of sibling `<p>` elements →
//! [`Method::Fallback`]. Each step runs only when the one before found
//! nothing, so pages with text pay nothing. When none finds text, the page
//! is judged not to be an article ([`NotArticle`], `"method":
//! "not-article: …"`) rather than given a widget's words as its text.

use super::dom::{attr_flags, Dom, Tag};
use super::metadata::json_ld_article_body;
use super::text::{assemble, subtree_text, TextSink};
use super::{Method, Selection};

/// A page "holds an article" with at least this many words of `<p>` text.
pub const MIN_ARTICLE_WORDS: usize = 50;

/// Why a page is judged not to be an article: density selection, the
/// furniture rules and the never-empty chain left no text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotArticle {
    /// The page shows no text at all.
    NoText,
    /// What text it shows is menus, link lists and furniture (a share bar,
    /// a cookie or newsletter prompt, a byline), with fewer than
    /// [`MIN_ARTICLE_WORDS`] words of paragraphs.
    NoArticleText,
}

impl NotArticle {
    /// `"method"` of such a page in `extract --json`.
    pub fn method_name(self) -> &'static str {
        match self {
            NotArticle::NoText => "not-article: no text",
            NotArticle::NoArticleText => "not-article: only menus, links and furniture",
        }
    }
}

/// Words as eval counts them (each CJK character one word).
fn words(s: &str) -> usize {
    crate::words::word_count(s)
}

/// `selection` unchanged when it has text; else the next step of the chain
/// that finds some (see the module doc).
pub fn never_empty(dom: &Dom<'_>, doc: &scraper::Html, selection: Selection) -> Selection {
    if !selection.text.trim().is_empty() {
        return richer_schema_body(doc, selection);
    }
    let skip = vec![false; dom.len()];
    let not_article = |selection: Selection| {
        let reason = if dom
            .nodes
            .iter()
            .any(|nd| nd.tag == Tag::Text && nd.chars > 0)
        {
            NotArticle::NoArticleText
        } else {
            NotArticle::NoText
        };
        Selection {
            method: Method::NotArticle(reason),
            ..selection
        }
    };
    let Some((cluster_parent, cluster_words)) = largest_paragraph_cluster(dom, &skip) else {
        return not_article(selection);
    };
    let page_words: usize = paragraph_words(dom, &skip);
    if page_words < MIN_ARTICLE_WORDS {
        return not_article(selection);
    }
    // Markdown of a fallback is its plain text (paragraphs).
    let with = |text: String, method: Method| Selection {
        markdown: selection.markdown.as_ref().map(|_| text.clone()),
        text,
        method,
        headline: selection.headline.clone(),
    };
    if let Some(node) = declared_container(dom) {
        let text = subtree_text(dom, node, &skip);
        if words(&text) >= MIN_ARTICLE_WORDS.min(cluster_words) {
            return with(text, Method::Schema);
        }
    }
    if let Some(text) = json_ld_article_body(doc).filter(|t| words(t) >= MIN_ARTICLE_WORDS) {
        return with(text, Method::Schema);
    }
    let mut sink = TextSink::default();
    for child in dom.children(cluster_parent) {
        if dom.nodes[child].tag == Tag::P {
            assemble(dom, child, &skip, &mut sink);
            sink.para();
        }
    }
    with(sink.finish(), Method::Fallback)
}

/// A short selection (under [`SHORT_SELECTION_WORDS`]) whose page declares
/// an `articleBody` in JSON-LD at least twice as long: the body the page
/// renders with a script, or behind a "read more" button, is the story;
/// what the markup shows is its teaser.
fn richer_schema_body(doc: &scraper::Html, selection: Selection) -> Selection {
    let have = crate::words::word_count_up_to(&selection.text, SHORT_SELECTION_WORDS);
    if have >= SHORT_SELECTION_WORDS {
        return selection;
    }
    match json_ld_article_body(doc) {
        Some(text) if words(&text) >= MIN_ARTICLE_WORDS.max(2 * have) => Selection {
            markdown: selection.markdown.as_ref().map(|_| text.clone()),
            text,
            method: Method::Schema,
            headline: selection.headline,
        },
        _ => selection,
    }
}

/// A selection shorter than this many words is checked against the page's
/// JSON-LD `articleBody` ([`richer_schema_body`]).
pub const SHORT_SELECTION_WORDS: usize = 150;

/// The page's declared article container: `itemprop=articleBody`, else
/// `role=main` / `<main>`, else the `<article>` with the most text.
fn declared_container(dom: &Dom<'_>) -> Option<usize> {
    let nodes = &dom.nodes;
    let find = |pred: &dyn Fn(usize) -> bool| (1..nodes.len()).find(|&i| pred(i));
    find(&|i| nodes[i].flags & attr_flags::ARTICLE_BODY != 0)
        .or_else(|| {
            find(&|i| nodes[i].flags & attr_flags::ROLE_MAIN != 0 || nodes[i].tag == Tag::Main)
        })
        .or_else(|| {
            let stats = dom.stats(&vec![false; nodes.len()]);
            (1..nodes.len())
                .filter(|&i| nodes[i].tag == Tag::Article)
                .max_by_key(|&i| stats[i].chars)
        })
}

/// Words inside `<p>` elements anywhere in the page.
fn paragraph_words(dom: &Dom<'_>, skip: &[bool]) -> usize {
    let mut total = 0;
    let mut i = 0;
    while i < dom.len() {
        let nd = &dom.nodes[i];
        if nd.tag == Tag::P {
            total += words(&subtree_text(dom, i, skip));
            i = nd.end as usize;
        } else {
            i += 1;
        }
    }
    total
}

/// The element whose `<p>` children hold the most words, and that count.
fn largest_paragraph_cluster(dom: &Dom<'_>, skip: &[bool]) -> Option<(usize, usize)> {
    let mut per_parent = vec![0usize; dom.len()];
    for (i, nd) in dom.nodes.iter().enumerate().skip(1) {
        if nd.tag == Tag::P {
            per_parent[nd.parent as usize] += words(&subtree_text(dom, i, skip));
        }
    }
    per_parent
        .into_iter()
        .enumerate()
        .filter(|&(_, w)| w > 0)
        .max_by_key(|&(_, w)| w)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sentence(i: usize) -> String {
        format!("Sentence {i} of the story says what happened and why it matters to the town. ")
    }

    fn run(html: &str) -> Selection {
        let doc = scraper::Html::parse_document(html);
        let dom = Dom::build(&doc);
        never_empty(&dom, &doc, Selection::default())
    }

    #[test]
    fn a_page_of_widgets_only_is_judged_not_an_article() {
        let opts = super::super::ExtractOptions::default();
        let widgets = "<html><body><nav><a href=/a>Home</a> <a href=/b>News</a></nav>\
             <div class=box><p>We use cookies to improve your experience.</p>\
             <p>Share</p></div></body></html>";
        let a = super::super::extract_html(widgets, None, &opts);
        assert_eq!(a.text, "");
        assert_eq!(a.method, Method::NotArticle(NotArticle::NoArticleText));
        let json = serde_json::to_string(&a.method).unwrap_or_default();
        assert_eq!(json, "\"not-article: only menus, links and furniture\"");
        let back: Method = serde_json::from_str(&json).unwrap_or_default();
        assert_eq!(back, a.method);
        assert!(serde_json::from_str::<Method>("\"not-article: nope\"").is_err());
        let blank = super::super::extract_html("<html><body> </body></html>", None, &opts);
        assert_eq!(blank.method, Method::NotArticle(NotArticle::NoText));
        // A short story is an article, however short.
        let short = "<html><body><p>The council met on Monday and agreed the budget.</p>\
             </body></html>";
        let a = super::super::extract_html(short, None, &opts);
        assert_eq!(a.method, Method::Density, "{a:?}");
    }

    #[test]
    fn text_found_by_density_is_kept() {
        let doc = scraper::Html::parse_document("<p>x</p>");
        let dom = Dom::build(&doc);
        let sel = Selection {
            text: "Found.".into(),
            ..Selection::default()
        };
        assert_eq!(never_empty(&dom, &doc, sel.clone()), sel);
    }

    #[test]
    fn declared_body_when_density_found_nothing() {
        let paras: String = (0..6).map(|i| format!("<p>{}</p>", sentence(i))).collect();
        let s = run(&format!(
            "<body><div itemprop=articleBody><div class=preview>{paras}</div></div></body>"
        ));
        assert_eq!(s.method, Method::Schema);
        assert!(s.text.contains("Sentence 5 of the story"), "{s:?}");
    }

    #[test]
    fn json_ld_body_when_the_dom_has_only_a_teaser() {
        let body: String = (0..8).map(sentence).collect::<Vec<_>>().join("\\n");
        let teaser: String = (0..6)
            .map(|i| format!("<li><p>{}</p></li>", sentence(i)))
            .collect();
        let s = run(&format!(
            r#"<head><script type="application/ld+json">{{"@type":"NewsArticle","articleBody":"{body}"}}</script></head><body><ul>{teaser}</ul><main>Sign in.</main></body>"#
        ));
        assert_eq!(s.method, Method::Schema, "{s:?}");
        assert!(s.text.contains("Sentence 7 of the story"), "{s:?}");
        assert!(s.text.contains("\n\nSentence 1"), "paragraphs kept: {s:?}");
    }

    #[test]
    fn largest_paragraph_cluster_last() {
        let paras: String = (0..6).map(|i| format!("<p>{}</p>", sentence(i))).collect();
        let s = run(&format!(
            "<body><div><p>Short aside.</p></div><div>{paras}</div></body>"
        ));
        assert_eq!(s.method, Method::Fallback);
        assert!(
            s.text.starts_with("Sentence 0") && !s.text.contains("aside"),
            "{s:?}"
        );
    }

    #[test]
    fn chinese_paragraphs_count_by_character() {
        let para = "当全世界绝大部分国家都在为能够吸引中国游客到来而绞尽脑汁的时候，只有这么一个国家一脸淡定。";
        let s = run(&format!(
            "<body><div class=slides><p>{para}</p><p>{para}</p></div></body>"
        ));
        assert_eq!(s.method, Method::Fallback, "{s:?}");
        assert!(s.text.starts_with("当全世界"), "{s:?}");
    }

    #[test]
    fn no_article_stays_empty_and_says_so() {
        let s = run("<body><p>Menu</p><p>Contact us.</p></body>");
        let not_article = Selection {
            method: Method::NotArticle(NotArticle::NoArticleText),
            ..Selection::default()
        };
        assert_eq!(s, not_article);
    }
}
