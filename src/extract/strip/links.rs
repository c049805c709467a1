//! The link attributes of a page, collected by the prepass while it reads the
//! tags anyway, so that a crawler needs no second pass over an article page.
//!
//! In: tags as the prepass reads them (name, attribute byte ranges). Out:
//! [`LinkAttrs`], raw attribute values in document order, exactly as a
//! lol_html pass with these selectors would collect them:
//! `a[href], area[href]` (at most `max_links` hrefs), the first `base[href]`,
//! `link[href][rel]` (the first canonical; alternates with a feed type),
//! `meta[property=og:url][content]` (the first) and meta refresh targets.
//! Values are not decoded or resolved: that is the crawler's job.
//!
//! Also counted here: the page's form fields ([`FormFields`]). The prepass
//! drops `<input>` and `<textarea>` before parsing, so the DOM never shows
//! them, and the crawler's page judgement needs to know a sign-in, search or
//! contact form when it sees one.

/// Raw link attribute values of one page, in document order.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct LinkAttrs {
    /// The first `<base href>`.
    pub base: Option<String>,
    /// `a[href]` and `area[href]` values (at most [`LinkAttrs::max_links`]),
    /// and meta refresh targets.
    pub links: Vec<String>,
    /// The first `link[rel~=canonical][href]`.
    pub canonical: Option<String>,
    /// The first `meta[property=og:url][content]`.
    pub og_url: Option<String>,
    /// `link[rel~=alternate][href]` with a feed type.
    pub feeds: Vec<String>,
    /// Anchor hrefs kept at most: a link farm page holds hundreds of
    /// thousands.
    pub max_links: usize,
    /// The fields of the page's forms.
    pub form_fields: FormFields,
}

/// The form fields of a page, by what they ask for: `<input>` by its `type`
/// (and a search box by its `name`), `<textarea>` as text. Hidden fields,
/// buttons, check boxes and radio buttons ask the reader for nothing.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct FormFields {
    /// Text, e-mail, telephone, number and URL inputs and text areas.
    pub text: u32,
    pub password: u32,
    /// `type=search`, or a text input named `q`, `s`, `query` or `search`.
    pub search: u32,
    /// Text areas named for a reader comment (`name` or `id` holding
    /// "comment", "kommentar", "comentario", "komentarz"): a story's
    /// comment form, not a sign-in or contact page's.
    pub comment: u32,
}

impl FormFields {
    fn input<'v>(&mut self, attr: &impl Fn(&str) -> Option<&'v str>) {
        let ty = attr("type").unwrap_or("text").trim().to_ascii_lowercase();
        let named_search = attr("name").is_some_and(|n| {
            ["q", "s", "query", "search", "keywords"]
                .iter()
                .any(|k| n.trim().eq_ignore_ascii_case(k))
        });
        match ty.as_str() {
            "password" => self.password += 1,
            "search" => self.search += 1,
            "text" | "" if named_search => self.search += 1,
            "text" | "" | "email" | "tel" | "number" | "url" => self.text += 1,
            _ => {}
        }
    }

    /// A text area: text, and a comment box when it is named for one.
    fn textarea<'v>(&mut self, attr: &impl Fn(&str) -> Option<&'v str>) {
        self.text += 1;
        let for_comments = |v: &str| {
            let v = v.to_ascii_lowercase();
            ["comment", "kommentar", "comentario", "komentarz"]
                .iter()
                .any(|w| v.contains(w))
        };
        if attr("name").is_some_and(for_comments) || attr("id").is_some_and(for_comments) {
            self.comment += 1;
        }
    }

    /// Every field that asks the reader for something.
    pub fn total(&self) -> u32 {
        self.text + self.password + self.search
    }
}

/// `type`s of an alternate link that announce a feed.
pub const FEED_TYPES: &[&str] = &[
    "application/rss+xml",
    "application/atom+xml",
    "application/feed+json",
    "application/json",
    "application/rdf+xml",
    "text/xml",
    "application/xml",
];

impl LinkAttrs {
    /// An empty collection keeping at most `max_links` anchor hrefs.
    pub fn new(max_links: usize) -> LinkAttrs {
        LinkAttrs {
            max_links,
            ..LinkAttrs::default()
        }
    }

    /// Whether a start tag of this (lower-case) name can carry a link.
    pub fn wants(name: &[u8]) -> bool {
        matches!(
            name,
            b"a" | b"area" | b"base" | b"link" | b"meta" | b"input" | b"textarea"
        )
    }

    /// One start tag of a name [`LinkAttrs::wants`]; `attr(name)` gives the
    /// value of the tag's first attribute of that (lower-case) name, `""`
    /// for a bare attribute, `None` when absent.
    pub fn tag<'v>(&mut self, name: &[u8], attr: impl Fn(&str) -> Option<&'v str>) {
        match name {
            b"a" | b"area" if self.links.len() < self.max_links => {
                if let Some(h) = attr("href") {
                    self.links.push(h.to_string());
                }
            }
            // Only the first <base href> counts (HTML spec).
            b"base" if self.base.is_none() => {
                self.base = attr("href").map(str::to_string);
            }
            b"link" => self.link(&attr),
            b"meta" => self.meta(&attr),
            b"input" => self.form_fields.input(&attr),
            b"textarea" => self.form_fields.textarea(&attr),
            _ => {}
        }
    }

    fn link<'v>(&mut self, attr: &impl Fn(&str) -> Option<&'v str>) {
        let (Some(href), Some(rel)) = (attr("href"), attr("rel")) else {
            return;
        };
        let rel = rel.to_ascii_lowercase();
        let (mut canonical, mut alternate) = (false, false);
        for r in rel.split_ascii_whitespace() {
            canonical |= r == "canonical";
            alternate |= r == "alternate";
        }
        if canonical && self.canonical.is_none() {
            self.canonical = Some(href.to_string());
        } else if alternate {
            let ty = attr("type").unwrap_or_default().trim().to_ascii_lowercase();
            if FEED_TYPES.contains(&ty.as_str()) {
                self.feeds.push(href.to_string());
            }
        }
    }

    fn meta<'v>(&mut self, attr: &impl Fn(&str) -> Option<&'v str>) {
        let Some(content) = attr("content") else {
            return;
        };
        if let Some(prop) = attr("property") {
            if prop.eq_ignore_ascii_case("og:url") && self.og_url.is_none() {
                self.og_url = Some(content.to_string());
            }
        }
        // <meta http-equiv="refresh" content="0; url=/moved.html">: a
        // redirect some sites use instead of HTTP 3xx.
        if attr("http-equiv").is_some_and(|e| e.eq_ignore_ascii_case("refresh")) {
            if let Some(target) = refresh_target(content) {
                self.links.push(target.to_string());
            }
        }
    }
}

/// The URL of a meta refresh `content` (`5;URL='x'`, `0; url=x`).
pub fn refresh_target(content: &str) -> Option<&str> {
    let (_, rest) = content.split_once([';', ','])?;
    let rest = rest.trim_start();
    let value = rest
        .get(..3)
        .filter(|k| k.eq_ignore_ascii_case("url"))
        .map(|_| rest[3..].trim_start())?
        .strip_prefix('=')?
        .trim();
    let value = value.trim_matches(|c| c == '\'' || c == '"').trim();
    (!value.is_empty()).then_some(value)
}
