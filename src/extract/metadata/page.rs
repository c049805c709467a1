//! One pass over a parsed page → every raw metadata source ([`Page`]).
//!
//! In: the DOM. Out: meta tags by key, `<title>`, `<h1>`s, canonical link,
//! JSON-LD texts, `itemprop` values, `<time>` values, and short texts of
//! elements whose class or id says byline or date, or that carry a
//! "Published:"-style label. Nothing is interpreted here; the field logic in
//! the parent module decides what each source is worth.

use scraper::ElementRef;

use super::signals::PageSignals;
pub(super) use labels::is_modified_label;
use labels::DateLabel;
use place::{hint, hint_words, in_chrome_or_comments, in_rail};

mod labels;
mod place;
mod teasers;

/// Byline-ish texts longer than this are paragraphs, not bylines.
const HINT_TEXT_LIMIT: usize = 300;
/// How many hint elements of each kind to keep.
const MAX_HINTS: usize = 20;
/// How many expensive looks (element texts, ancestor walks) one page gets.
/// A look costs at most [`NODE_BUDGET`] + [`MAX_ANCESTORS`] node visits.
const MAX_SPENT: usize = 500;
/// How many `<h1>` elements to read at most.
const MAX_H1_SEEN: usize = 10;
/// Nodes one element-text read may visit.
const NODE_BUDGET: usize = 1_000;
/// Ancestors one chrome/comments check may visit (real pages nest far less).
const MAX_ANCESTORS: usize = 256;
/// A labelled date lives in a short text node.
const LABEL_TEXT_LIMIT: usize = 160;
/// How many `h2`–`h4` headings are looked at for teaser links (each look
/// walks the heading's ancestors); a section front has a few dozen.
const MAX_HEADINGS_SEEN: usize = 200;

/// Every metadata source on the page, gathered in one pass.
#[derive(Default)]
pub(super) struct Page {
    /// (lower-cased property/name/itemprop/http-equiv, content), in page order.
    pub(super) metas: Vec<(String, String)>,
    pub(super) title: Option<String>,
    pub(super) h1s: Vec<String>,
    pub(super) canonical: Option<String>,
    pub(super) ld_json: Vec<String>,
    pub(super) itemprop_published: Vec<String>,
    pub(super) itemprop_modified: Vec<String>,
    pub(super) itemprop_authors: Vec<String>,
    pub(super) pubdate_times: Vec<String>,
    pub(super) times: Vec<String>,
    pub(super) rel_authors: Vec<String>,
    pub(super) byline_hints: Vec<String>,
    pub(super) byline_name_hints: Vec<String>,
    pub(super) date_hints: Vec<String>,
    pub(super) labelled_published: Vec<String>,
    pub(super) labelled_modified: Vec<String>,
    /// The page's build and declarations, for judging its kind (the
    /// declarations are filled in by the caller, from the sources above).
    pub(super) signals: PageSignals,
    /// `h2`–`h4` headings looked at so far.
    headings_seen: usize,
    /// Text nodes after the last teaser heading still read for its summary.
    summary_texts_left: usize,
    /// Reused buffer for lower-cased class/id values.
    scratch: String,
    /// Expensive looks (texts, ancestor walks) taken so far; bounds the work
    /// on huge or hostile pages.
    spent: usize,
    /// `<h1>`s looked at so far.
    h1_seen: usize,
}

impl Page {
    pub(super) fn collect(doc: &scraper::Html) -> Page {
        let mut page = Page::default();
        for node in doc.root_element().descendants() {
            if let Some(el) = ElementRef::wrap(node) {
                page.visit(el);
            } else if let Some(text) = node.value().as_text() {
                page.visit_text(node, text);
            }
        }
        page
    }

    /// A short text node that starts with a date label.
    fn visit_text(&mut self, node: ego_tree::NodeRef<scraper::Node>, text: &str) {
        let in_text = node
            .parent()
            .and_then(ElementRef::wrap)
            .is_none_or(|p| !matches!(p.value().name(), "script" | "style" | "title"));
        if in_text {
            self.signals.text_bytes += text.trim().len();
            if self.summary_texts_left > 0 {
                self.summary_texts_left -= 1;
                self.read_summary(node, text);
            }
        }
        if text.len() > LABEL_TEXT_LIMIT || self.labelled_published.len() >= MAX_HINTS {
            return;
        }
        let Some((label, label_end)) = labels::date_label(text) else {
            return;
        };
        if !self.spend() {
            return;
        }
        let Some(parent) = node.parent().and_then(ElementRef::wrap) else {
            return;
        };
        if in_chrome_or_comments(parent) {
            return;
        }
        let rest = text[label_end..].trim();
        let value = if !rest.is_empty() {
            Some(rest.to_string())
        } else {
            // The date sits in a sibling: "<b>Posted:</b> <span>…</span>", so
            // read the enclosing element (or the one above it).
            std::iter::successors(Some(parent), |e| e.parent().and_then(ElementRef::wrap))
                .take(3)
                .filter_map(|e| bounded_text(e, HINT_TEXT_LIMIT, true))
                .find(|t| t.len() > text.trim().len() + 4)
        };
        if let Some(v) = value {
            if label == DateLabel::Published {
                self.labelled_published.push(v);
            } else {
                self.labelled_modified.push(v);
            }
        }
    }

    /// The attributes read here must be on the strip prepass's keep list,
    /// which drops all others before parsing.
    fn visit(&mut self, el: ElementRef) {
        let v = el.value();
        self.visit_structure(el);
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
            "title" if self.title.is_none() && &*v.name.ns == "http://www.w3.org/1999/xhtml" => {
                self.title = Some(el.text().collect::<String>()).filter(|t| !t.trim().is_empty());
            }
            "h1" if self.h1s.len() < 5 && self.h1_seen < MAX_H1_SEEN => {
                self.h1_seen += 1;
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
            "time" if self.times.len() < MAX_HINTS => {
                if !self.spend() || in_chrome_or_comments(el) {
                    return;
                }
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
            // XML islands of old CMSs: <DATE>, <PublicationDate>.
            "date" | "publicationdate" | "pubdate" if self.date_hints.len() < MAX_HINTS => {
                if !self.spend() {
                    return;
                }
                if let Some(t) = bounded_text(el, HINT_TEXT_LIMIT, true) {
                    self.date_hints.push(t);
                }
            }
            "a" if has_token(v.attr("rel"), "author") && self.rel_authors.len() < MAX_HINTS => {
                if !self.spend() {
                    return;
                }
                if let Some(t) = bounded_text(el, HINT_TEXT_LIMIT, true) {
                    self.rel_authors.push(t);
                }
            }
            _ => {}
        }
        // One scan of the attributes: `attr()` interns its argument on every
        // call, which is the main cost of this pass on large pages.
        let (mut class, mut id, mut itemprop) = (None, None, None);
        for (name, value) in v.attrs() {
            match name {
                "class" => class = Some(value),
                "id" => id = Some(value),
                "itemprop" => itemprop = Some(value),
                _ => {}
            }
        }
        if let Some(prop) = itemprop {
            self.visit_itemprop(el, prop);
        }
        if class.is_some() || id.is_some() {
            self.visit_hints(el, class.unwrap_or(""), id.unwrap_or(""));
        }
    }

    /// The counts of [`PageSignals`] that say how the page is built.
    fn visit_structure(&mut self, el: ElementRef) {
        let name = el.value().name();
        if matches!(name, "h1" | "h2" | "h3" | "h4" | "h5" | "h6") {
            // A teaser's summary comes before the next heading.
            self.summary_texts_left = 0;
        }
        let s = &mut self.signals;
        match name {
            "article" => s.article_elements += 1,
            "form" => s.forms += 1,
            "a" => s.link_bytes += text_bytes(el),
            "h1" if !s.article_headline => {
                s.article_headline = el
                    .ancestors()
                    .take(MAX_ANCESTORS)
                    .filter_map(ElementRef::wrap)
                    .any(|a| a.value().name() == "article");
            }
            "h2" | "h3" | "h4" if self.headings_seen < MAX_HEADINGS_SEEN => {
                self.headings_seen += 1;
                let linked = el
                    .parent()
                    .and_then(ElementRef::wrap)
                    .is_some_and(|p| p.value().name() == "a")
                    || el
                        .descendent_elements()
                        .take(16)
                        .any(|d| d.value().name() == "a");
                if linked && !in_chrome_or_comments(el) && !in_rail(el) {
                    self.signals.linked_headings += 1;
                    self.keep_teaser(el);
                }
            }
            _ => {}
        }
    }

    fn visit_itemprop(&mut self, el: ElementRef, prop: &str) {
        if !self.spend() {
            return;
        }
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
                    .take(NODE_BUDGET)
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
    fn visit_hints(&mut self, el: ElementRef, class: &str, id: &str) {
        // One lower-cased copy of class + id, reused across elements: this
        // runs for most elements of a page, so it must be cheap.
        let key = &mut self.scratch;
        key.clear();
        key.push_str(class);
        key.push(' ');
        key.push_str(id);
        key.make_ascii_lowercase();
        let found = hint_words(key.as_bytes());
        if found & hint::SKIP != 0 {
            return;
        }
        let key_has_name = found & hint::NAME != 0;
        let byline = self.byline_hints.len() < MAX_HINTS && found & hint::BYLINE != 0;
        let date = self.date_hints.len() < MAX_HINTS && found & hint::DATE != 0;
        if !(byline || date) {
            return;
        }
        if !self.spend() {
            return;
        }
        // Each text node on a line of its own: a byline's names are often
        // one element each, with no separator between them.
        let Some(lines) = bounded_lines(el, HINT_TEXT_LIMIT) else {
            return;
        };
        let t = lines.replace('\n', " ");
        // A date-classed "Last updated: …" (class `updated`) dates a change.
        let date = date && t.bytes().any(|b| b.is_ascii_digit()) && !is_modified_label(&t);
        // The ancestor walk only for texts worth keeping.
        if !(byline || date) || in_chrome_or_comments(el) {
            return;
        }
        if byline {
            // "byline-name" beats the "byline" around it, which also holds
            // the job title ("BBC, Washington").
            if key_has_name {
                self.byline_name_hints.push(lines);
            } else {
                self.byline_hints.push(lines);
            }
        }
        if date {
            self.date_hints.push(t);
        }
    }

    /// First non-empty content for a meta key.
    fn spend(&mut self) -> bool {
        self.spent += 1;
        self.spent <= MAX_SPENT
    }

    pub(super) fn meta(&self, key: &str) -> Option<String> {
        self.metas_for(key)
            .next()
            .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" "))
    }

    pub(super) fn metas_for<'s>(&'s self, key: &'s str) -> impl Iterator<Item = &'s str> + 's {
        self.metas
            .iter()
            .filter(move |(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// Bytes of an element's trimmed text nodes (at most [`NODE_BUDGET`] nodes
/// read).
fn text_bytes(el: ElementRef) -> usize {
    el.descendants()
        .take(NODE_BUDGET)
        .filter_map(|n| n.value().as_text().map(|t| t.trim().len()))
        .sum()
}

/// Collapsed text of an element, `None` if empty, longer than `limit`
/// bytes, or spread over more than [`NODE_BUDGET`] nodes (checked while
/// reading, so a huge container costs little).
/// `spaced` puts a space between text nodes (`<span>By</span><a>Jo</a>`).
fn bounded_text(el: ElementRef, limit: usize, spaced: bool) -> Option<String> {
    let mut s = String::new();
    for (i, node) in el.descendants().enumerate() {
        if i > NODE_BUDGET {
            return None;
        }
        if let Some(t) = node.value().as_text() {
            s.push_str(t);
            if spaced {
                s.push(' ');
            }
            if s.len() > limit {
                return None;
            }
        }
    }
    let collapsed = s.split_whitespace().collect::<Vec<_>>().join(" ");
    (!collapsed.is_empty()).then_some(collapsed)
}

/// The element's text nodes, each collapsed, one per line; `None` as for
/// [`bounded_text`].
fn bounded_lines(el: ElementRef, limit: usize) -> Option<String> {
    let mut s = String::new();
    for (i, node) in el.descendants().enumerate() {
        if i > NODE_BUDGET {
            return None;
        }
        let Some(t) = node.value().as_text() else {
            continue;
        };
        let mut words = t.split_whitespace().peekable();
        if words.peek().is_none() {
            continue;
        }
        if !s.is_empty() {
            s.push('\n');
        }
        for (j, w) in words.enumerate() {
            if j > 0 {
                s.push(' ');
            }
            s.push_str(w);
        }
        if s.len() > limit {
            return None;
        }
    }
    (!s.is_empty()).then_some(s)
}

fn has_token(attr: Option<&str>, token: &str) -> bool {
    attr.is_some_and(|a| {
        a.split_ascii_whitespace()
            .any(|t| t.eq_ignore_ascii_case(token))
    })
}
