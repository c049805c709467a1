//! The stage's one entry: [`Extractor::new`]`(options)`, then
//! [`Extractor::extract`]`(page)` for each page.
//!
//! In: a [`Page`] — its bytes as fetched (with the HTTP `Content-Type`,
//! whose charset decodes them) or its already-decoded HTML, its URL, and
//! what the crawl adds per page (the site's `tree` rule, a sink for the
//! page's link attributes). Out: an [`Extraction`]: the [`Article`], the
//! headline found next to the text, and what the site's rule did.
//!
//! The options say what to compute for every page (algorithm, model, time
//! zone, comments, furniture kept, ablations, Markdown, text only); the page
//! carries what belongs to one page. One pass serves every caller: the
//! crawler, re-extraction, `extract`, `eval`, the Markdown export.

use url::Url;

use super::metadata::PageSignals;
use super::model::BlockModel;
use super::strip::links::LinkAttrs;
use super::tree::rule::{RuleOutcome, SiteRule};
use super::{
    article_and_signals_of, charset, dom, select_document, strip, Algorithm, Article,
    ExtractOptions, Selection,
};

/// Extracts pages with one set of options; cheap to build, and shared by
/// reference across threads (it holds no state between pages).
#[derive(Debug, Clone, Default)]
pub struct Extractor {
    options: ExtractOptions,
}

/// One page to extract. Built with [`Page::from_bytes`] or
/// [`Page::from_html`], then the optional parts.
#[derive(Debug)]
pub struct Page<'a> {
    body: Body<'a>,
    url: Option<&'a Url>,
    rule: RuleUse<'a>,
    links: Option<&'a mut LinkAttrs>,
}

#[derive(Debug)]
enum Body<'a> {
    Bytes {
        bytes: &'a [u8],
        content_type: Option<&'a str>,
    },
    Html(&'a str),
}

/// Whether the page goes through its site's `tree` rule.
#[derive(Debug, Clone, Copy)]
enum RuleUse<'a> {
    /// The model's own text; nothing is learned (the default).
    Off,
    /// The rule's element when it matches, else the tree's text and a rule
    /// learned from this page (no rule yet: `None`).
    Site(Option<&'a SiteRule>),
}

/// What extraction yields for one page.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Extraction {
    /// The text and, unless [`ExtractOptions::text_only`], the metadata.
    pub article: Article,
    /// The on-page heading that opens the article, if one was found next to
    /// the text (kept apart: the headline is the title, never text).
    pub headline: Option<String>,
    /// What the site's rule did ([`Page::site_rule`] with `tree`); `None`
    /// otherwise.
    pub rule_outcome: Option<RuleOutcome>,
    /// The charset the page's bytes were decoded with (its WHATWG name, such
    /// as `windows-1252`); `None` for a page given as decoded HTML.
    pub encoding: Option<&'static str>,
    /// What the page shows about its own kind, read in the metadata pass
    /// (default with `text_only`): the crawler judges articles from it.
    pub(crate) signals: PageSignals,
}

impl<'a> Page<'a> {
    /// A page's bytes as fetched: decoded by the HTTP charset, then the byte
    /// order mark, the `<meta>` prescan and detection.
    pub fn from_bytes(bytes: &'a [u8], content_type: Option<&'a str>) -> Page<'a> {
        Page::of(Body::Bytes {
            bytes,
            content_type,
        })
    }

    /// A page already decoded to text.
    pub fn from_html(html: &'a str) -> Page<'a> {
        Page::of(Body::Html(html))
    }

    fn of(body: Body<'a>) -> Page<'a> {
        Page {
            body,
            url: None,
            rule: RuleUse::Off,
            links: None,
        }
    }

    /// The page's URL: it resolves relative links (canonical URL) and its
    /// top-level domain helps charset detection.
    pub fn url(mut self, url: impl Into<Option<&'a Url>>) -> Page<'a> {
        self.url = url.into();
        self
    }

    /// Extract through the site's learned `tree` rule (`None`: the site has
    /// none yet): the text of the rule's element when it matches, else the
    /// tree's, and the rule to use from then on in
    /// [`Extraction::rule_outcome`]. Other algorithms ignore the rule.
    pub fn site_rule(mut self, rule: Option<&'a SiteRule>) -> Page<'a> {
        self.rule = RuleUse::Site(rule);
        self
    }

    /// Also collect the page's link attributes into `links`, in the strip
    /// pass that extraction makes anyway: the crawler discovers an article
    /// page's links without parsing it twice.
    pub(crate) fn collect_links(mut self, links: &'a mut LinkAttrs) -> Page<'a> {
        self.links = Some(links);
        self
    }
}

impl Extractor {
    pub fn new(options: ExtractOptions) -> Extractor {
        Extractor { options }
    }

    pub fn options(&self) -> &ExtractOptions {
        &self.options
    }

    /// Steps 1–6 on one page (the stage's module doc numbers them). Never
    /// fails: a page with no article yields empty text.
    pub fn extract(&self, page: Page<'_>) -> Extraction {
        let Page {
            body,
            url,
            rule,
            links,
        } = page;
        let decoded;
        let (html, encoding) = match body {
            Body::Bytes {
                bytes,
                content_type,
            } => {
                decoded = charset::decode(bytes, content_type, url);
                (decoded.text.as_str(), Some(decoded.encoding.name()))
            }
            Body::Html(html) => (html, None),
        };
        let stripped = match links {
            Some(links) => strip::strip_collecting(html, links),
            None => strip::strip(html),
        };
        let doc = super::parser::parse(&stripped);
        let (mut selection, rule_outcome) = self.select(&doc, rule);
        let headline = selection.headline.take();
        if self.options.text_only {
            let Selection {
                text,
                method,
                markdown,
                ..
            } = selection;
            let article = Article {
                text,
                method,
                markdown,
                ..Article::default()
            };
            return Extraction {
                article,
                headline,
                rule_outcome,
                encoding,
                signals: PageSignals::default(),
            };
        }
        let (article, signals) = article_and_signals_of(&doc, html, selection, url, &self.options);
        Extraction {
            article,
            headline,
            rule_outcome,
            encoding,
            signals,
        }
    }

    /// Steps 3–5, through the site's rule when `tree` runs with one.
    fn select(&self, doc: &scraper::Html, rule: RuleUse<'_>) -> (Selection, Option<RuleOutcome>) {
        let opts = &self.options;
        let RuleUse::Site(rule) = rule else {
            return (select_document(doc, opts), None);
        };
        let model = opts
            .model
            .as_deref()
            .or(BlockModel::default_for(Algorithm::Tree));
        match model {
            Some(m) if opts.algorithm == Algorithm::Tree => {
                let dom = dom::Dom::build(doc);
                let (text, outcome) = m.extract_by_rule(&dom, rule);
                (Selection::of_text(text), Some(outcome))
            }
            _ => (select_document(doc, opts), None),
        }
    }
}
