//! `<script type="application/ld+json">` blocks → article facts.
//!
//! In: the raw text of each block. Out: [`JsonLd`] with the headline, the raw
//! `datePublished`/`dateModified` strings, author names, publisher /
//! website names, and the story's description, section, keywords, lead
//! image and whether it is free to read. Handles top-level arrays, `@graph`,
//! nested nodes (`mainEntity`…), `@id` references to Person/Organization
//! nodes (Yoast), persons named only by `givenName` and `familyName`, and
//! values given as strings, arrays or `{"@value": …}`; character references
//! in strings (`&quot;`, `&uuml;`: CMSs write the JSON from HTML-escaped
//! fields) are decoded. Blocks that are not valid JSON (after removing the
//! comment/CDATA wrappers some CMSs add) are skipped.

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
    pub description: Option<String>,
    /// `articleSection` (the first, when several).
    pub section: Option<String>,
    /// `keywords`: a list, or one string of comma-separated keywords.
    pub keywords: Vec<String>,
    /// The story's `image` (a URL, an `ImageObject`'s `url`, the first of
    /// a list), else its `thumbnailUrl`; as written (maybe relative).
    pub image: Option<String>,
    /// `isAccessibleForFree` of the story, `false` too when a part of it
    /// (`hasPart`) is not free: the paywall markup search engines read.
    pub free: Option<bool>,
    /// A node is typed as a story (`NewsArticle`, `BlogPosting`, …; not a
    /// `Blog`, which is a blog's front page).
    pub story_typed: bool,
    /// A node that describes the page (not one nested in another) is typed
    /// as a page that is not a story: a collection, search results, a
    /// profile, an about or contact page, or a list of stories.
    pub other_page_typed: bool,
}

/// `@type`s of pages that are not stories (an `ItemList` is one only when
/// it lists stories: [`declares_other_page`]).
const OTHER_PAGE_TYPES: &[&str] = &[
    "CollectionPage",
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
        .filter(|n| n.contains_key("name") || n.contains_key("familyName"))
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
    let other_page_typed = top_nodes(&values).into_iter().any(declares_other_page);
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
        description: articles.iter().find_map(|n| text_of(n.get("description")?)),
        section: articles
            .iter()
            .find_map(|n| text_of(n.get("articleSection")?)),
        keywords: articles
            .iter()
            .map(|n| keywords_of(n.get("keywords")))
            .find(|k| !k.is_empty())
            .unwrap_or_default(),
        image: articles.iter().find_map(|n| {
            n.get("image")
                .and_then(|v| image_of(v, &by_id))
                .or_else(|| text_of(n.get("thumbnailUrl")?))
        }),
        free: articles.iter().find_map(|n| free_of(n)),
    }
}

/// Keywords as a list: each string of an array, or a string split at its
/// commas; blank ones dropped.
fn keywords_of(v: Option<&Value>) -> Vec<String> {
    let strings: Vec<String> = match v {
        Some(Value::Array(items)) => items.iter().take(100).filter_map(text_of).collect(),
        Some(v @ Value::String(_)) => text_of(v)
            .map(|s| s.split(',').map(str::to_string).collect())
            .unwrap_or_default(),
        _ => Vec::new(),
    };
    strings
        .into_iter()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// An image's URL: a string, an `ImageObject` (`url`, `contentUrl`, or an
/// `@id` reference to one), the first of a list.
fn image_of(v: &Value, by_id: &HashMap<&str, &Node>) -> Option<String> {
    match v {
        Value::String(_) => text_of(v),
        Value::Array(items) => items.iter().take(20).find_map(|i| image_of(i, by_id)),
        Value::Object(o) => o
            .get("url")
            .or_else(|| o.get("contentUrl"))
            .and_then(text_of)
            .or_else(|| {
                let target = by_id.get(o.get("@id")?.as_str()?)?;
                text_of(target.get("url").or_else(|| target.get("contentUrl"))?)
            }),
        _ => None,
    }
}

/// Whether a story says it is free to read: its own `isAccessibleForFree`
/// (a boolean or the strings "true"/"false", the key in any case), and
/// `false` when a part of it is declared not free.
fn free_of(node: &Node) -> Option<bool> {
    let flag = |n: &Node| {
        n.iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("isAccessibleForFree"))
            .and_then(|(_, v)| match v {
                Value::Bool(b) => Some(*b),
                Value::String(s) if s.trim().eq_ignore_ascii_case("true") => Some(true),
                Value::String(s) if s.trim().eq_ignore_ascii_case("false") => Some(false),
                _ => None,
            })
    };
    let parts: Vec<&Node> = match node.get("hasPart") {
        Some(Value::Object(o)) => vec![o],
        Some(Value::Array(items)) => items.iter().filter_map(Value::as_object).collect(),
        _ => Vec::new(),
    };
    if parts.iter().any(|p| flag(p) == Some(false)) {
        return Some(false);
    }
    flag(node)
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

/// The nodes that describe the page itself: a block's root objects and the
/// members of its `@graph`. Nested nodes describe other things: the
/// section a breadcrumb's items link to (typed `CollectionPage`), the site
/// the page is part of, the publisher.
fn top_nodes(values: &[Value]) -> Vec<&Node> {
    let mut out = Vec::new();
    let mut queue: VecDeque<&Value> = values.iter().collect();
    while let Some(v) = queue.pop_front() {
        if out.len() >= MAX_NODES {
            break;
        }
        match v {
            Value::Array(items) => queue.extend(items),
            Value::Object(map) => {
                if let Some(graph) = map.get("@graph") {
                    queue.push_back(graph);
                }
                out.push(map);
            }
            _ => {}
        }
    }
    out
}

/// A page node of a kind that is not a story: a collection, search results,
/// a profile…, or a list of stories (a section front typing its teasers).
/// A list of links or of site navigation (`SiteNavigationElement`), which
/// article pages declare for their menus and related rails, is not one.
fn declares_other_page(node: &Node) -> bool {
    if has_type(node, |t| OTHER_PAGE_TYPES.contains(&t)) {
        return true;
    }
    if !has_type(node, |t| t == "ItemList") {
        return false;
    }
    let story = |v: &Value| {
        v.as_object().is_some_and(|item| {
            is_article(item)
                || item
                    .get("item")
                    .and_then(Value::as_object)
                    .is_some_and(is_article)
        })
    };
    match node.get("itemListElement") {
        Some(Value::Array(items)) => items.iter().any(story),
        Some(item) => story(item),
        None => false,
    }
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
/// character references decoded, whitespace collapsed, empty → None.
fn text_of(v: &Value) -> Option<String> {
    let s = match v {
        Value::String(s) => s.as_str(),
        Value::Array(items) => return items.iter().find_map(text_of),
        Value::Object(o) => return o.get("@value").and_then(text_of),
        _ => return None,
    };
    let decoded = decode_references(s);
    let collapsed = decoded.split_whitespace().collect::<Vec<_>>().join(" ");
    (!collapsed.is_empty()).then_some(collapsed)
}

/// `s` with its character references (`&quot;`, `&#039;`, `&uuml;`)
/// decoded as an HTML parser decodes them in text; a string without one is
/// returned as it is (most are: the parse is only paid for the others).
fn decode_references(s: &str) -> std::borrow::Cow<'_, str> {
    let has_reference = s.match_indices('&').any(|(at, _)| {
        let rest = &s[at + 1..];
        let name_len = rest
            .bytes()
            .take(32)
            .take_while(|b| b.is_ascii_alphanumeric() || *b == b'#')
            .count();
        name_len > 0 && rest.as_bytes().get(name_len) == Some(&b';')
    });
    if !has_reference {
        return std::borrow::Cow::Borrowed(s);
    }
    // Escaped as text first: a `<` in a headline is a character, not a tag.
    let escaped = s.replace('<', "&lt;");
    let fragment = scraper::Html::parse_fragment(&escaped);
    std::borrow::Cow::Owned(fragment.root_element().text().collect())
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
            Value::Object(o) => person_name(o).or_else(|| {
                let target = by_id.get(o.get("@id")?.as_str()?)?;
                person_name(target)
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

/// A node's `name`, else its `givenName` and `familyName` together.
fn person_name(node: &Node) -> Option<String> {
    node.get("name").and_then(text_of).or_else(|| {
        let parts: Vec<String> = ["givenName", "familyName"]
            .iter()
            .filter_map(|k| text_of(node.get(*k)?))
            .collect();
        (!parts.is_empty()).then(|| parts.join(" "))
    })
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
