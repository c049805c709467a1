//! `<script type="application/ld+json">` blocks → article facts.
//!
//! In: the raw text of each block. Out: [`JsonLd`] with the headline, the raw
//! `datePublished`/`dateModified` strings, author names, and publisher /
//! website names. Handles top-level arrays, `@graph`, nested nodes
//! (`mainEntity`…), `@id` references to Person/Organization nodes (Yoast), and
//! values given as strings, arrays or `{"@value": …}`. Blocks that are not
//! valid JSON (after removing the comment/CDATA wrappers some CMSs add) are
//! skipped.

use serde_json::{Map, Value};
use std::collections::{HashMap, VecDeque};

/// Bounds the walk over hostile or huge JSON-LD.
const MAX_NODES: usize = 5_000;

#[derive(Debug, Default, Clone, PartialEq)]
pub(super) struct JsonLd {
    pub headline: Option<String>,
    pub date_published: Option<String>,
    pub date_modified: Option<String>,
    pub authors: Vec<String>,
    pub publisher: Option<String>,
    pub website: Option<String>,
    /// A node is typed as a story (`NewsArticle`, `BlogPosting`, …; not a
    /// `Blog`, which is a blog's front page).
    pub story_typed: bool,
    /// A node is typed as a page that is not a story (a list, search
    /// results, a profile, an about or contact page).
    pub other_page_typed: bool,
}

/// `@type`s of pages that are not stories.
const OTHER_PAGE_TYPES: &[&str] = &[
    "CollectionPage",
    "ItemList",
    "SearchResultsPage",
    "ProfilePage",
    "AboutPage",
    "ContactPage",
    "CheckoutPage",
    "Blog",
];

type Node = Map<String, Value>;

pub(super) fn read<S: AsRef<str>>(blocks: &[S]) -> JsonLd {
    let values: Vec<Value> = blocks
        .iter()
        .filter_map(|b| parse_block(b.as_ref()))
        .collect();
    let nodes = collect_nodes(&values);
    let by_id: HashMap<&str, &Node> = nodes
        .iter()
        // References ({"@id": …} alone) must not shadow the node they point to.
        .filter(|n| n.contains_key("name"))
        .filter_map(|n| Some((n.get("@id")?.as_str()?, *n)))
        .collect();
    let articles: Vec<&Node> = nodes.iter().copied().filter(|n| is_article(n)).collect();
    let pages: Vec<&Node> = nodes
        .iter()
        .copied()
        .filter(|n| has_type(n, |t| t.ends_with("Page")))
        .collect();
    // Article nodes first; web-page nodes carry dates on some sites.
    let ranked: Vec<&Node> = articles.iter().chain(pages.iter()).copied().collect();

    let first_text = |key: &str| ranked.iter().find_map(|n| text_of(n.get(key)?));
    let authors = ranked
        .iter()
        .find_map(|n| {
            let names = names_of(n.get("author").or_else(|| n.get("creator"))?, &by_id);
            (!names.is_empty()).then_some(names)
        })
        .unwrap_or_default();
    let publisher = ranked
        .iter()
        .find_map(|n| names_of(n.get("publisher")?, &by_id).into_iter().next())
        .or_else(|| {
            nodes
                .iter()
                .filter(|n| has_type(n, |t| t.ends_with("Organization")))
                .find_map(|n| text_of(n.get("name")?))
        });
    let website = nodes
        .iter()
        .filter(|n| has_type(n, |t| t == "WebSite"))
        .find_map(|n| text_of(n.get("name")?));
    let story_typed = articles
        .iter()
        .any(|n| has_type(n, |t| t.ends_with("Article") || t.ends_with("Posting")));
    let other_page_typed = nodes
        .iter()
        .any(|n| has_type(n, |t| OTHER_PAGE_TYPES.contains(&t)));
    JsonLd {
        story_typed,
        other_page_typed,
        headline: articles
            .iter()
            .find_map(|n| text_of(n.get("headline").or_else(|| n.get("name"))?)),
        date_published: first_text("datePublished").or_else(|| first_text("dateCreated")),
        date_modified: first_text("dateModified"),
        authors,
        publisher,
        website,
    }
}

/// The `articleBody` of the first article node that has one, one paragraph
/// per line as the page wrote it (the last step of the never-empty chain).
pub(super) fn article_body<S: AsRef<str>>(blocks: &[S]) -> Option<String> {
    let values: Vec<Value> = blocks
        .iter()
        .filter_map(|b| parse_block(b.as_ref()))
        .collect();
    let nodes = collect_nodes(&values);
    let body = nodes
        .iter()
        .filter(|n| is_article(n))
        .find_map(|n| n.get("articleBody")?.as_str())?;
    let paras: Vec<String> = body
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|l| !l.is_empty())
        .collect();
    (!paras.is_empty()).then(|| paras.join("\n\n"))
}

/// Parse one block, tolerating the wrappers CMSs put around it.
fn parse_block(raw: &str) -> Option<Value> {
    let mut s = raw.trim();
    for prefix in ["<!--", "//<![CDATA[", "<![CDATA[", "/*<![CDATA[*/"] {
        s = s.strip_prefix(prefix).unwrap_or(s).trim_start();
    }
    for suffix in ["-->", "//]]>", "/*]]>*/", "]]>", ";"] {
        s = s.strip_suffix(suffix).unwrap_or(s).trim_end();
    }
    serde_json::from_str(s).ok()
}

/// Every JSON object in the blocks, breadth-first so that top-level nodes
/// come before the ones nested in them (a related article inside the main one).
fn collect_nodes(values: &[Value]) -> Vec<&Node> {
    let mut out = Vec::new();
    let mut queue: VecDeque<&Value> = values.iter().collect();
    let mut visited = 0;
    while let Some(v) = queue.pop_front() {
        visited += 1;
        if visited > MAX_NODES {
            break;
        }
        match v {
            Value::Array(items) => queue.extend(items),
            Value::Object(map) => {
                out.push(map);
                queue.extend(map.values().filter(|v| v.is_array() || v.is_object()));
            }
            _ => {}
        }
    }
    out
}

/// Whether the node's `@type` (string or list) satisfies `pred`, ignoring a
/// `schema:` or `http://schema.org/` prefix.
fn has_type(node: &Node, pred: impl Fn(&str) -> bool) -> bool {
    let short = |t: &str| t.rsplit(['/', ':']).next().unwrap_or(t).to_string();
    match node.get("@type") {
        Some(Value::String(t)) => pred(&short(t)),
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).any(|t| pred(&short(t))),
        _ => false,
    }
}

fn is_article(node: &Node) -> bool {
    has_type(node, |t| {
        t.ends_with("Article") || t.ends_with("Posting") || t == "Report" || t == "Blog"
    })
}

/// A string value, the first string of an array, or an `@value` object;
/// whitespace collapsed, empty → None.
fn text_of(v: &Value) -> Option<String> {
    let s = match v {
        Value::String(s) => s.as_str(),
        Value::Array(items) => return items.iter().find_map(text_of),
        Value::Object(o) => return o.get("@value").and_then(text_of),
        _ => return None,
    };
    let collapsed = s.split_whitespace().collect::<Vec<_>>().join(" ");
    (!collapsed.is_empty()).then_some(collapsed)
}

/// Names from an author/publisher value: a string, an object with `name`, an
/// `@id` reference to such an object, or a list of any of these. URLs are
/// not names.
fn names_of(v: &Value, by_id: &HashMap<&str, &Node>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let items: Vec<&Value> = match v {
        Value::Array(items) => items.iter().take(20).collect(),
        other => vec![other],
    };
    for item in items {
        let name = match item {
            Value::String(_) => text_of(item),
            Value::Object(o) => o.get("name").and_then(text_of).or_else(|| {
                let target = by_id.get(o.get("@id")?.as_str()?)?;
                text_of(target.get("name")?)
            }),
            _ => None,
        };
        if let Some(name) = name.filter(|n| !looks_like_url(n)) {
            if !out.contains(&name) {
                out.push(name);
            }
        }
    }
    out
}

pub(super) fn looks_like_url(s: &str) -> bool {
    let l = s.trim_start().to_ascii_lowercase();
    l.starts_with("http://")
        || l.starts_with("https://")
        || l.starts_with("www.")
        || l.starts_with('/')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_news_article() {
        let block = r#"{"@context":"https://schema.org","@type":"NewsArticle",
            "headline":"  Big  news ","datePublished":"2019-09-05T11:10:00+08:00",
            "dateModified":"2019-09-06T08:00:00+08:00",
            "author":[{"@type":"Person","name":"Jane Roe"},{"@type":"Person","name":"John Doe"}],
            "publisher":{"@type":"Organization","name":"Daily Planet"}}"#;
        let ld = read(&[block]);
        assert_eq!(ld.headline.as_deref(), Some("Big news"));
        assert_eq!(
            ld.date_published.as_deref(),
            Some("2019-09-05T11:10:00+08:00")
        );
        assert_eq!(
            ld.date_modified.as_deref(),
            Some("2019-09-06T08:00:00+08:00")
        );
        assert_eq!(ld.authors, vec!["Jane Roe", "John Doe"]);
        assert_eq!(ld.publisher.as_deref(), Some("Daily Planet"));
    }

    #[test]
    fn graph_with_id_references() {
        let block = r#"{"@context":"https://schema.org","@graph":[
            {"@type":"WebSite","@id":"https://x.org/#website","name":"X Times"},
            {"@type":"Organization","@id":"https://x.org/#org","name":"X Media Group"},
            {"@type":["Article","NewsArticle"],"headline":"H","datePublished":["2020-01-02"],
             "author":{"@id":"https://x.org/#/person/1"},"publisher":{"@id":"https://x.org/#org"}},
            {"@type":"Person","@id":"https://x.org/#/person/1","name":"Ann Lee"}]}"#;
        let ld = read(&[block]);
        assert_eq!(ld.authors, vec!["Ann Lee"]);
        assert_eq!(ld.publisher.as_deref(), Some("X Media Group"));
        assert_eq!(ld.website.as_deref(), Some("X Times"));
        assert_eq!(ld.date_published.as_deref(), Some("2020-01-02"));
    }

    #[test]
    fn top_level_array_nested_main_entity_and_wrappers() {
        let blocks = [
            "<!-- {\"@type\":\"BreadcrumbList\"} -->".to_string(),
            r#"[{"@type":"WebPage","mainEntity":{"@type":"schema:BlogPosting",
                "datePublished":{"@value":"2018-03-04"},"author":"Bob Smith"}}];"#
                .to_string(),
        ];
        let ld = read(&blocks);
        assert_eq!(ld.date_published.as_deref(), Some("2018-03-04"));
        assert_eq!(ld.authors, vec!["Bob Smith"]);
    }

    #[test]
    fn web_page_dates_are_a_fallback() {
        let ld = read(&[
            r#"{"@type":"WebPage","datePublished":"2017-01-01","author":"https://x.org/me"}"#,
        ]);
        assert_eq!(ld.date_published.as_deref(), Some("2017-01-01"));
        assert!(ld.authors.is_empty(), "a URL is not a name");
    }

    #[test]
    fn garbage_yields_nothing() {
        let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
        for block in [
            "",
            "{",
            "not json",
            "{\"@type\":5,\"author\":{}}",
            "null",
            "[1,2,3]",
            &deep,
        ] {
            assert_eq!(read(&[block]), JsonLd::default(), "{block:.20}");
        }
    }
}
