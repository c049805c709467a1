//! DOM → [`Metadata`]: title, dates, author, canonical URL, site name; plus
//! language detection on the article text.
//!
//! In: a parsed page and its URL. Out: [`Metadata`], every field `None` when
//! the page does not say (never a guess from nothing, never a panic).
//!
//! One pass over the elements ([`Page::collect`]) gathers every source; then
//! each field takes the first usable value in this order:
//! - title: og:title, twitter:title, JSON-LD headline, `meta name=headline`
//!   (and rnews:/DC variants), `<title>` — each
//!   without its site suffix — arbitrated by `<h1>` ([`title`]);
//! - published: JSON-LD `datePublished`, `article:published_time` and other
//!   date metas, `itemprop=datePublished`, `<time pubdate>`; then the weaker
//!   `<time datetime>` and date-looking bylines (overruled by a URL date on
//!   another day), then the URL (/2019/09/05/, 20190905) ([`dates`]);
//! - modified: JSON-LD `dateModified`, `article:modified_time` and kin;
//! - author: JSON-LD author names, `meta name=author`, `article:author` (not a
//!   URL), other author metas, `itemprop=author`, `rel=author`, byline classes;
//! - canonical: `link rel=canonical` resolved against the URL, else og:url;
//! - site name: og:site_name, JSON-LD publisher / WebSite name,
//!   application-name.

mod author;
mod dates;
mod jsonld;
#[cfg(test)]
mod tests;
mod title;

pub use dates::{date_from_url, parse_date};

use dates::Stamp;
use scraper::ElementRef;
use url::Url;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Metadata {
    pub title: Option<String>,
    pub author: Option<String>,
    pub published_at: Option<String>,
    pub modified_at: Option<String>,
    pub canonical_url: Option<String>,
    pub site_name: Option<String>,
}

const PUBLISHED_METAS: &[&str] = &[
    "article:published_time",
    "og:article:published_time",
    "article:published",
    "og:published_time",
    "published_time",
    "datepublished",
    "pubdate",
    "publishdate",
    "publish-date",
    "publish_date",
    "publication_date",
    "sailthru.date",
    "parsely-pub-date",
    "dc.date.issued",
    "dcterms.issued",
    "dc.date",
    "dcterms.date",
    "dcterms.created",
    "citation_publication_date",
    "citation_date",
    "originalpublicationdate",
    "rnews:datepublished",
    "date",
];
const MODIFIED_METAS: &[&str] = &[
    "article:modified_time",
    "og:article:modified_time",
    "og:updated_time",
    "article:modified",
    "modified_time",
    "datemodified",
    "dcterms.modified",
    "dc.date.modified",
    "lastmod",
    "last-modified",
];
const AUTHOR_METAS: &[&str] = &[
    "author",
    "article:author",
    "og:article:author",
    "byl",
    "sailthru.author",
    "parsely-author",
    "dc.creator",
    "dcterms.creator",
    "citation_author",
    "rnews:creator",
];
const SITE_METAS: &[&str] = &["application-name", "apple-mobile-web-app-title"];

/// Byline-ish texts longer than this are paragraphs, not bylines.
const HINT_TEXT_LIMIT: usize = 300;
/// How many hint elements of each kind to keep.
const MAX_HINTS: usize = 20;

/// Read metadata from a parsed page (JSON-LD, OpenGraph, meta tags, `<time>`,
/// `<h1>`, `<title>`, URL date patterns).
pub fn extract_metadata(doc: &scraper::Html, url: Option<&Url>) -> Metadata {
    let page = Page::collect(doc);
    let ld = jsonld::read(&page.ld_json);

    let site_name = page
        .meta("og:site_name")
        .or_else(|| ld.publisher.clone())
        .or_else(|| ld.website.clone())
        .or_else(|| SITE_METAS.iter().find_map(|k| page.meta(k)))
        .filter(|s| s.chars().count() <= 100);

    let mut site_names: Vec<String> = [&site_name, &ld.publisher, &ld.website]
        .into_iter()
        .flatten()
        .cloned()
        .collect();
    site_names.extend(SITE_METAS.iter().filter_map(|k| page.meta(k)));
    site_names.extend(url.map(host_names).unwrap_or_default());

    let title_candidates: Vec<String> = [
        page.meta("og:title"),
        page.meta("twitter:title"),
        ld.headline.clone(),
        page.meta("headline"),
        page.meta("rnews:headline"),
        page.meta("dc.title"),
        page.title.clone(),
    ]
    .into_iter()
    .flatten()
    .collect();
    let title = title::choose_title(&title_candidates, &page.h1s, &site_names);

    Metadata {
        title,
        author: find_author(&page, &ld, site_name.as_deref()),
        published_at: find_published(&page, &ld, url).map(Stamp::to_rfc3339),
        modified_at: find_modified(&page, &ld).map(Stamp::to_rfc3339),
        canonical_url: page
            .canonical
            .as_deref()
            .and_then(|h| resolve(h, url))
            .or_else(|| page.meta("og:url").and_then(|h| resolve(&h, url))),
        site_name,
    }
}

/// Language of the article text (ISO 639-3), if whatlang is reliable on it.
/// Looks at the first few kilobytes only: enough for a verdict, and bounded.
pub fn detect_language(text: &str) -> Option<String> {
    const SAMPLE: usize = 4096;
    let mut end = text.len().min(SAMPLE);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let sample = &text[..end];
    if sample.chars().filter(|c| c.is_alphabetic()).count() < 20 {
        return None;
    }
    let info = whatlang::detect(sample)?;
    info.is_reliable().then(|| info.lang().code().to_string())
}

fn find_published(page: &Page, ld: &jsonld::JsonLd, url: Option<&Url>) -> Option<Stamp> {
    let strong = ld
        .date_published
        .as_deref()
        .and_then(dates::parse_stamp)
        .or_else(|| first_stamp(PUBLISHED_METAS.iter().flat_map(|k| page.metas_for(k))))
        .or_else(|| first_stamp(page.itemprop_published.iter().map(String::as_str)))
        .or_else(|| first_stamp(page.pubdate_times.iter().map(String::as_str)));
    if strong.is_some() {
        return strong;
    }
    let weak = first_stamp(page.times.iter().map(String::as_str))
        .or_else(|| first_stamp(page.date_hints.iter().map(String::as_str)));
    let from_url = url.and_then(dates::url_stamp);
    match (weak, from_url) {
        // A date widget or a related-story date on another day than the URL's.
        (Some(w), Some(u)) if w.date() != u.date() => Some(u),
        (w, u) => w.or(u),
    }
}

fn find_modified(page: &Page, ld: &jsonld::JsonLd) -> Option<Stamp> {
    ld.date_modified
        .as_deref()
        .and_then(dates::parse_stamp)
        .or_else(|| first_stamp(MODIFIED_METAS.iter().flat_map(|k| page.metas_for(k))))
        .or_else(|| first_stamp(page.itemprop_modified.iter().map(String::as_str)))
}

fn first_stamp<'a>(mut values: impl Iterator<Item = &'a str>) -> Option<Stamp> {
    values.find_map(dates::parse_stamp)
}

fn find_author(page: &Page, ld: &jsonld::JsonLd, site_name: Option<&str>) -> Option<String> {
    let not_site = |n: &String| site_name.is_none_or(|s| !s.eq_ignore_ascii_case(n));
    let from_ld: Vec<String> = ld
        .authors
        .iter()
        .filter_map(|a| author::clean_author(a))
        .collect();
    if let Some(joined) = author::join_names(&from_ld) {
        return Some(joined);
    }
    let strong = AUTHOR_METAS
        .iter()
        .flat_map(|k| page.metas_for(k))
        .filter(|v| !jsonld::looks_like_url(v))
        .chain(page.itemprop_authors.iter().map(String::as_str))
        .filter_map(author::clean_author);
    let weak = page
        .rel_authors
        .iter()
        .chain(&page.byline_hints)
        .filter_map(|a| author::clean_author(a))
        .filter(|a| author::looks_like_name(a));
    strong.chain(weak).find(not_site)
}

/// Resolve `href` against the page URL; only http(s) results count.
fn resolve(href: &str, base: Option<&Url>) -> Option<String> {
    let href = href.trim();
    if href.is_empty() {
        return None;
    }
    let u = match base {
        Some(b) => b.join(href).ok()?,
        None => Url::parse(href).ok()?,
    };
    matches!(u.scheme(), "http" | "https").then(|| u.to_string())
}

/// Names a host suggests for its site ("theguardian" for www.theguardian.com),
/// without the TLD and generic labels.
fn host_names(url: &Url) -> Vec<String> {
    const GENERIC: &[&str] = &[
        "www", "m", "mobile", "news", "blog", "blogs", "edition", "en", "com", "net", "org", "gov",
        "edu", "co", "ac",
    ];
    let Some(host) = url.host_str() else {
        return Vec::new();
    };
    let labels: Vec<&str> = host.split('.').collect();
    let n = labels.len().saturating_sub(1);
    labels[..n]
        .iter()
        .filter(|l| l.len() >= 3 && !GENERIC.contains(l))
        .map(|l| l.to_string())
        .collect()
}

/// Every metadata source on the page, gathered in one pass.
#[derive(Default)]
struct Page {
    /// (lower-cased property/name/itemprop/http-equiv, content), in page order.
    metas: Vec<(String, String)>,
    title: Option<String>,
    h1s: Vec<String>,
    canonical: Option<String>,
    ld_json: Vec<String>,
    itemprop_published: Vec<String>,
    itemprop_modified: Vec<String>,
    itemprop_authors: Vec<String>,
    pubdate_times: Vec<String>,
    times: Vec<String>,
    rel_authors: Vec<String>,
    byline_hints: Vec<String>,
    date_hints: Vec<String>,
}

impl Page {
    fn collect(doc: &scraper::Html) -> Page {
        let mut page = Page::default();
        for el in doc.root_element().descendent_elements() {
            page.visit(el);
        }
        page
    }

    fn visit(&mut self, el: ElementRef) {
        let v = el.value();
        let in_html_ns = &*v.name.ns == "http://www.w3.org/1999/xhtml";
        match v.name() {
            "meta" => {
                let content = v.attr("content").unwrap_or("").trim();
                if !content.is_empty() {
                    for key in ["property", "name", "itemprop", "http-equiv"] {
                        if let Some(k) = v.attr(key) {
                            self.metas
                                .push((k.trim().to_ascii_lowercase(), content.to_string()));
                        }
                    }
                }
            }
            "link" if self.canonical.is_none() && has_token(v.attr("rel"), "canonical") => {
                self.canonical = v.attr("href").map(str::to_string);
            }
            "title" if in_html_ns && self.title.is_none() => {
                self.title = Some(el.text().collect::<String>()).filter(|t| !t.trim().is_empty());
            }
            "h1" if self.h1s.len() < 5 => {
                if let Some(t) = bounded_text(el, 1000, false) {
                    self.h1s.push(t);
                }
            }
            "script" => {
                let ty = v.attr("type").unwrap_or("").trim();
                if ty.eq_ignore_ascii_case("application/ld+json") && self.ld_json.len() < 50 {
                    self.ld_json.push(el.text().collect());
                }
            }
            "time" if self.times.len() < MAX_HINTS && !in_chrome(el) => {
                let value = v
                    .attr("datetime")
                    .map(str::to_string)
                    .or_else(|| bounded_text(el, HINT_TEXT_LIMIT, true));
                if let Some(value) = value {
                    if v.attr("pubdate").is_some() {
                        self.pubdate_times.push(value.clone());
                    }
                    self.times.push(value);
                }
            }
            "a" if has_token(v.attr("rel"), "author") && self.rel_authors.len() < MAX_HINTS => {
                if let Some(t) = bounded_text(el, HINT_TEXT_LIMIT, true) {
                    self.rel_authors.push(t);
                }
            }
            _ => {}
        }
        if let Some(prop) = v.attr("itemprop") {
            self.visit_itemprop(el, prop);
        }
        if v.attr("class").is_some() || v.id().is_some() {
            self.visit_hints(el);
        }
    }

    fn visit_itemprop(&mut self, el: ElementRef, prop: &str) {
        let v = el.value();
        let value = || {
            v.attr("datetime")
                .or_else(|| v.attr("content"))
                .map(str::to_string)
                .or_else(|| bounded_text(el, HINT_TEXT_LIMIT, true))
        };
        for p in prop.split_ascii_whitespace() {
            let list = if p.eq_ignore_ascii_case("datePublished") {
                &mut self.itemprop_published
            } else if p.eq_ignore_ascii_case("dateModified") {
                &mut self.itemprop_modified
            } else if p.eq_ignore_ascii_case("author") || p.eq_ignore_ascii_case("creator") {
                // The name is often a nested itemprop=name.
                let nested = el
                    .descendent_elements()
                    .find(|d| has_token(d.value().attr("itemprop"), "name"))
                    .and_then(|d| {
                        d.value()
                            .attr("content")
                            .map(str::to_string)
                            .or_else(|| bounded_text(d, HINT_TEXT_LIMIT, true))
                    });
                if let Some(name) = nested.or_else(value) {
                    if self.itemprop_authors.len() < MAX_HINTS {
                        self.itemprop_authors.push(name);
                    }
                }
                continue;
            } else {
                continue;
            };
            if list.len() < MAX_HINTS {
                if let Some(x) = value() {
                    list.push(x);
                }
            }
        }
    }

    /// Elements whose class or id says "byline" or "date": short texts only,
    /// not in comments, and not in the page header/nav/footer (where the
    /// "today's date" widget lives).
    fn visit_hints(&mut self, el: ElementRef) {
        let v = el.value();
        let attrs = [v.attr("class").unwrap_or(""), v.id().unwrap_or("")];
        let any = |needles: &[&str]| {
            attrs
                .iter()
                .any(|a| needles.iter().any(|n| contains_ci(a, n)))
        };
        if any(&["comment", "related"]) {
            return;
        }
        // Cheap tests first; the ancestor walk only for real candidates.
        let byline =
            self.byline_hints.len() < MAX_HINTS && any(&["byline", "author", "writer", "reporter"]);
        let date = self.date_hints.len() < MAX_HINTS
            && any(&[
                "date", "time", "publish", "posted", "dateline", "meta", "info",
            ]);
        if !(byline || date) || in_chrome(el) || in_comments(el) {
            return;
        }
        if let Some(t) = bounded_text(el, HINT_TEXT_LIMIT, true) {
            if byline {
                self.byline_hints.push(t.clone());
            }
            if date {
                self.date_hints.push(t);
            }
        }
    }

    /// First non-empty content for a meta key.
    fn meta(&self, key: &str) -> Option<String> {
        self.metas_for(key)
            .next()
            .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" "))
    }

    fn metas_for<'s>(&'s self, key: &'s str) -> impl Iterator<Item = &'s str> + 's {
        self.metas
            .iter()
            .filter(move |(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// Collapsed text of an element, `None` if empty or longer than `limit`
/// bytes (checked while reading, so a huge container costs little).
/// `spaced` puts a space between text nodes (`<span>By</span><a>Jo</a>`).
fn bounded_text(el: ElementRef, limit: usize, spaced: bool) -> Option<String> {
    let mut s = String::new();
    for t in el.text() {
        s.push_str(t);
        if spaced {
            s.push(' ');
        }
        if s.len() > limit {
            return None;
        }
    }
    let collapsed = s.split_whitespace().collect::<Vec<_>>().join(" ");
    (!collapsed.is_empty()).then_some(collapsed)
}

/// Inside the page's header, nav or footer — but an `<article>`'s own
/// `<header>` (headline, byline, date) is content, so an `<article>` or
/// `<main>` ancestor clears it.
fn in_chrome(el: ElementRef) -> bool {
    let mut chrome = false;
    for a in el.ancestors().filter_map(ElementRef::wrap) {
        let v = a.value();
        match v.name() {
            "article" | "main" => return false,
            "header" | "nav" | "footer" => chrome = true,
            _ => {
                let role = v.attr("role").unwrap_or("");
                chrome |= ["banner", "navigation", "contentinfo"]
                    .iter()
                    .any(|r| role.eq_ignore_ascii_case(r));
            }
        }
    }
    chrome
}

/// Inside a comment thread or a related-stories block.
fn in_comments(el: ElementRef) -> bool {
    el.ancestors().filter_map(ElementRef::wrap).any(|a| {
        let v = a.value();
        [v.attr("class").unwrap_or(""), v.id().unwrap_or("")]
            .iter()
            .any(|s| contains_ci(s, "comment") || contains_ci(s, "related"))
    })
}

fn has_token(attr: Option<&str>, token: &str) -> bool {
    attr.is_some_and(|a| {
        a.split_ascii_whitespace()
            .any(|t| t.eq_ignore_ascii_case(token))
    })
}

fn contains_ci(hay: &str, needle: &str) -> bool {
    hay.as_bytes()
        .windows(needle.len())
        .any(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
}
