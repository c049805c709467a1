//! HTML → [`Article`]: the pure extraction stage.
//!
//! The API is one entry: [`Extractor::new`]`(`[`ExtractOptions`]`)`, then
//! [`Extractor::extract`]`(`[`Page`]`)` per page, giving an [`Extraction`].
//! The options pick the algorithm (and the `nb`/`tree` [`BlockModel`]),
//! the time zone of dates, comments and furniture kept, ablated steps,
//! Markdown, and text only (no metadata); the page is bytes with their
//! `Content-Type` or decoded HTML, its URL, and optionally the site's
//! `tree` rule ([`SiteRule`]). Everything else in this module is internal.
//!
//! In: page bytes (or already-decoded HTML) and the page URL. Out: the article
//! text (one paragraph per line, blocks separated by a blank line) plus
//! metadata. Never fails: a page with no article yields empty text, and
//! [`Method::NotArticle`] says why; a page with one (≥ 50 words of
//! paragraph text) never does with `auto` (`fallback`). The text never
//! holds the headline (it is the title) nor, unless asked, reader comments
//! (`comments`); `markdown` renders the same selection.
//!
//! Steps: 1. charset → UTF-8 (`charset`); 2. strip non-content with a byte
//! prepass and lol_html (`strip`); 3. parse into a DOM (scraper/html5ever) and flatten the body
//! into an arena with per-node statistics (`dom`); 4. scoring and selection
//! (`density` for the CETD family, `select` for `auto`; the other methods
//! of the research: `htd`, `ceds`, `punct`, and the learned block
//! classifiers `nb` and `tree` over `blocks`, with `model` files);
//! 5. text assembly (`text`); 6. metadata (`metadata`) from the same
//! parsed DOM.

pub(crate) mod ablation;
pub(crate) mod blocks;
pub(crate) mod calendar;
pub(crate) mod candidate;
pub(crate) mod ceds;
pub(crate) mod charset;
pub(crate) mod comments;
pub(crate) mod density;
pub(crate) mod dom;
mod extractor;
pub(crate) mod fallback;
pub(crate) mod furniture;
pub(crate) mod headline;
pub(crate) mod heuristics;
pub(crate) mod htd;
mod key_hash;
mod link_pruning;
pub(crate) mod markdown;
pub(crate) mod metadata;
pub(crate) mod model;
pub(crate) mod nb;
mod next_story;
mod parser;
pub(crate) mod punct;
pub(crate) mod select;
pub(crate) mod sniff;
pub(crate) mod strip;
pub(crate) mod tail;
pub(crate) mod text;
pub(crate) mod tree;
mod word_finder;

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use url::Url;

pub use ablation::{Ablations, Step};
pub use extractor::{Extraction, Extractor, Page};
pub use furniture::Keep;
pub use model::{BlockModel, ModelError};
pub use tree::rule::{RuleOutcome, SiteRule};

/// Which content-selection algorithm to run (`--algorithm`, `[extract] algorithm`);
/// [`Algorithm::about`] says what each does.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Algorithm {
    Td,
    Ctd,
    #[default]
    Auto,
    Ceds,
    Punct,
    Nb,
    Tree,
    Htd,
}

impl Algorithm {
    /// Every algorithm, in the order `eval --algorithm all` reports them.
    pub const ALL: [Algorithm; 8] = [
        Algorithm::Auto,
        Algorithm::Td,
        Algorithm::Ctd,
        Algorithm::Htd,
        Algorithm::Ceds,
        Algorithm::Punct,
        Algorithm::Nb,
        Algorithm::Tree,
    ];

    /// The lower-case name (`--algorithm`, config, reports).
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Td => "td",
            Algorithm::Ctd => "ctd",
            Algorithm::Auto => "auto",
            Algorithm::Ceds => "ceds",
            Algorithm::Punct => "punct",
            Algorithm::Nb => "nb",
            Algorithm::Tree => "tree",
            Algorithm::Htd => "htd",
        }
    }

    /// The algorithm of a [`name`](Algorithm::name), in any ASCII case.
    pub fn from_name(name: &str) -> Option<Algorithm> {
        Algorithm::ALL
            .into_iter()
            .find(|a| a.name().eq_ignore_ascii_case(name))
    }

    /// What the algorithm does, in one line (`--algorithm`'s help).
    pub fn about(self) -> &'static str {
        match self {
            Algorithm::Td => "CETD text density (C/T) with DensitySum selection",
            Algorithm::Ctd => "CETD composite text density with DensitySum selection",
            Algorithm::Auto => "The best-scoring combination (default)",
            Algorithm::Ceds => {
                "CEDS (Yu & Jin): leaf levels, block fusion, ContentImportance threshold"
            }
            Algorithm::Punct => {
                "Punctuation statistics (Li & Jiang): noise nodes out, punctuated text in"
            }
            Algorithm::Nb => "Naive Bayes block classifier (a trained model; see --model)",
            Algorithm::Tree => "C4.5 decision tree block classifier (a trained model; see --model)",
            Algorithm::Htd => {
                "CETD hybrid text density: CTD weighted by approximated visual importance"
            }
        }
    }

    /// Runs a trained block model.
    pub fn is_learned(self) -> bool {
        matches!(self, Algorithm::Nb | Algorithm::Tree)
    }
}

/// What [`Extractor`] computes for every page.
#[derive(Debug, Clone, Default)]
pub struct ExtractOptions {
    pub algorithm: Algorithm,
    /// Time zone for dates the page writes without an offset (UTC if none).
    pub timezone: Option<chrono_tz::Tz>,
    /// Model for `nb`/`tree` (`--model`, `[extract] model`); the shipped
    /// model of the algorithm when `None`.
    pub model: Option<Arc<BlockModel>>,
    /// Keep reader comments in the text (`[extract] comments`, `extract
    /// --comments`); by default they are left out.
    pub comments: bool,
    /// Furniture kept in the text (`eval` for gold sets that count it);
    /// none by default.
    pub keep: furniture::Keep,
    /// Heuristics of `auto` switched off (`eval --ablate`; empty otherwise).
    pub ablate: ablation::Ablations,
    /// Also render the selection as Markdown ([`Article::markdown`]).
    pub markdown: bool,
    /// Only the text and how it was found: no metadata, no language
    /// detection (~23 % of the full path's time, bench). For outputs that
    /// hold nothing but the text (`extract DIR --out`, `eval`).
    pub text_only: bool,
}

/// Which path of the never-empty chain produced the text (`"method"` in
/// `extract --json`), or why the page is no article (`"not-article:
/// <reason>"`, with empty text).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "&'static str", try_from = "String")]
pub enum Method {
    /// Density scoring (CETD and the `auto` heuristics), or the algorithm
    /// asked for.
    #[default]
    Density,
    /// The page's own article markup or JSON-LD `articleBody`.
    Schema,
    /// The largest cluster of paragraphs, when the other paths found nothing.
    Fallback,
    /// No path found article text: the page is judged not to be an article
    /// (an index, a widget, an empty page), and its text is empty.
    NotArticle(fallback::NotArticle),
}

impl Method {
    /// Every method, as [`Method::name`] names them.
    pub const ALL: [Method; 5] = [
        Method::Density,
        Method::Schema,
        Method::Fallback,
        Method::NotArticle(fallback::NotArticle::NoText),
        Method::NotArticle(fallback::NotArticle::NoArticleText),
    ];

    /// The name in `extract --json` and the store (`density`, …,
    /// `not-article: no text`).
    pub fn name(self) -> &'static str {
        match self {
            Method::Density => "density",
            Method::Schema => "schema",
            Method::Fallback => "fallback",
            Method::NotArticle(reason) => reason.method_name(),
        }
    }
}

impl From<Method> for &'static str {
    fn from(m: Method) -> &'static str {
        m.name()
    }
}

impl TryFrom<String> for Method {
    type Error = String;

    fn try_from(name: String) -> Result<Method, String> {
        Method::ALL
            .into_iter()
            .find(|m| m.name() == name)
            .ok_or_else(|| format!("unknown method {name:?}"))
    }
}

/// The selected content of one page: the body text, and the headline that
/// was found next to it (kept apart: the headline is `title`, never text).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Selection {
    /// One paragraph per line; blocks separated by one blank line.
    pub text: String,
    /// The on-page heading that opens the article, if one was found.
    pub headline: Option<String>,
    pub method: Method,
    /// The same selection as Markdown, when asked for ([`markdown::render`]).
    pub markdown: Option<String>,
}

impl Selection {
    fn of_text(text: String) -> Selection {
        Selection {
            text,
            ..Selection::default()
        }
    }
}

/// What extraction yields for one page.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Article {
    pub title: Option<String>,
    /// The authors' names, in the page's order, each once: no "By", no
    /// job titles or share links; an organisation only when the page
    /// names it as the author. [`Article::author`] joins them.
    pub authors: Vec<String>,
    /// RFC 3339.
    pub published_at: Option<String>,
    /// RFC 3339.
    pub modified_at: Option<String>,
    /// ISO 639-3 code from whatlang (e.g. `eng`, `cmn`).
    pub language: Option<String>,
    pub canonical_url: Option<String>,
    pub site_name: Option<String>,
    /// The standfirst or summary the page gives (`og:description`…).
    pub description: Option<String>,
    /// The publisher's section (`article:section`, `articleSection`).
    pub section: Option<String>,
    /// The publisher's own tags and keywords for the story.
    pub tags: Vec<String>,
    /// The lead image's URL.
    pub image: Option<String>,
    /// Whether the page declares the story not free to read (`Some(false)`:
    /// declared free; `None`: it says neither).
    pub paywalled: Option<bool>,
    /// One paragraph per line; blocks separated by one blank line.
    pub text: String,
    /// How the text was found (not stored).
    pub method: Method,
    /// The text as Markdown (headings, lists, quotes, tables), when
    /// [`ExtractOptions::markdown`] asked for it (not stored).
    pub markdown: Option<String>,
}

impl Article {
    /// The authors as one display string, joined with ", " (the `author`
    /// field of the store and the exports); `None` without authors.
    pub fn author(&self) -> Option<String> {
        (!self.authors.is_empty()).then(|| self.authors.join(", "))
    }

    /// Keep at most `max_bytes` of the text, cut after the last whole line
    /// that fits (else at a character boundary): what the store keeps of a
    /// hostile site's 5 MB "article". The text's length before the cut
    /// when it was cut.
    pub fn cap_text(&mut self, max_bytes: usize) -> Option<usize> {
        let len = self.text.len();
        if len <= max_bytes {
            return None;
        }
        let mut end = max_bytes;
        while !self.text.is_char_boundary(end) {
            end -= 1;
        }
        if let Some(line_end) = self.text[..end].rfind('\n') {
            end = line_end;
        }
        self.text.truncate(end);
        self.text.truncate(self.text.trim_end().len());
        Some(len)
    }
}

/// `extract --json`'s and `extract DIR`'s record: every field, `author`
/// (the joined display string) beside `authors`.
impl Serialize for Article {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Record<'a> {
            title: &'a Option<String>,
            author: Option<String>,
            authors: &'a [String],
            published_at: &'a Option<String>,
            modified_at: &'a Option<String>,
            language: &'a Option<String>,
            canonical_url: &'a Option<String>,
            site_name: &'a Option<String>,
            description: &'a Option<String>,
            section: &'a Option<String>,
            tags: &'a [String],
            image: &'a Option<String>,
            paywalled: Option<bool>,
            text: &'a str,
            method: Method,
            #[serde(skip_serializing_if = "Option::is_none")]
            markdown: Option<&'a str>,
        }
        Record {
            title: &self.title,
            author: self.author(),
            authors: &self.authors,
            published_at: &self.published_at,
            modified_at: &self.modified_at,
            language: &self.language,
            canonical_url: &self.canonical_url,
            site_name: &self.site_name,
            description: &self.description,
            section: &self.section,
            tags: &self.tags,
            image: &self.image,
            paywalled: self.paywalled,
            text: &self.text,
            method: self.method,
            markdown: self.markdown.as_deref(),
        }
        .serialize(s)
    }
}

/// The article (extracted text plus metadata of the same document) and the
/// page's signals, read in the same metadata pass.
fn article_and_signals_of(
    doc: &scraper::Html,
    html: &str,
    selection: Selection,
    url: Option<&Url>,
    opts: &ExtractOptions,
) -> (Article, metadata::PageSignals) {
    let Selection {
        text,
        method,
        markdown,
        ..
    } = selection;
    let (meta, signals) = metadata::metadata_and_signals(doc, url, opts.timezone);
    let language = metadata::detect_language(language_sample(&text));
    let details = meta.details;
    let article = Article {
        title: meta.title,
        authors: meta.authors,
        description: details.description,
        section: details.section,
        tags: details.tags,
        image: details.image,
        paywalled: details.paywalled,
        published_at: meta
            .published_at
            .or_else(|| metadata::wechat_publish_time(html)),
        modified_at: meta.modified_at,
        language,
        canonical_url: meta.canonical_url,
        site_name: meta.site_name,
        text,
        method,
        markdown,
    };
    (article, signals)
}

/// The first few thousand bytes of the text: enough for whatlang, whose cost
/// grows with the input (it was 15 % of extraction time on whole texts).
fn language_sample(text: &str) -> &str {
    const SAMPLE: usize = 2048;
    if text.len() <= SAMPLE {
        return text;
    }
    let mut end = SAMPLE;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// Steps 3–5 on a parsed (stripped) document: the body text, the headline
/// apart, and the path that found them. `auto` runs the never-empty chain.
fn select_document(doc: &scraper::Html, opts: &ExtractOptions) -> Selection {
    if opts.algorithm != Algorithm::Auto {
        return Selection::of_text(text_of_document_with(
            doc,
            opts.algorithm,
            opts.model.as_deref(),
        ));
    }
    let dom = auto_dom(doc, opts.ablate);
    if dom.is_empty() {
        return Selection {
            method: Method::NotArticle(fallback::NotArticle::NoText),
            ..Selection::default()
        };
    }
    let density = select::auto_select(&dom, dom::doc_title(doc).as_deref(), opts);
    fallback::never_empty(&dom, doc, density)
}

/// The arena `auto` selects on: the links written into a paragraph's
/// prose read as its text, unless `prose-links` is off. The papers'
/// algorithms read every link as link text, as the papers do.
fn auto_dom(doc: &scraper::Html, ablate: Ablations) -> dom::Dom<'_> {
    let mut dom = dom::Dom::build_with(doc, ablate);
    if !ablate.off(Step::ProseLinks) {
        dom.read_prose_links_as_text();
    }
    dom
}

/// Steps 3–5 with an explicit model for `nb`/`tree` (ignored by the others).
fn text_of_document_with(
    doc: &scraper::Html,
    algorithm: Algorithm,
    model: Option<&BlockModel>,
) -> String {
    let dom = if algorithm == Algorithm::Auto {
        auto_dom(doc, Ablations::default())
    } else {
        dom::Dom::build(doc)
    };
    if dom.is_empty() {
        return String::new();
    }
    match algorithm {
        Algorithm::Td => select::cetd_text(&dom, density::Density::Text),
        Algorithm::Ctd => select::cetd_text(&dom, density::Density::Composite),
        Algorithm::Auto => {
            let opts = ExtractOptions::default();
            let density = select::auto_select(&dom, dom::doc_title(doc).as_deref(), &opts);
            fallback::never_empty(&dom, doc, density).text
        }
        Algorithm::Ceds => ceds::ceds_text(&dom),
        Algorithm::Punct => punct::punct_text(&dom),
        Algorithm::Htd => htd::htd_text(&dom),
        Algorithm::Nb | Algorithm::Tree => match model.or(BlockModel::default_for(algorithm)) {
            Some(m) => m.extract(&dom),
            None => String::new(),
        },
    }
}

/// Shorthand of the unit tests: the article of decoded HTML.
#[cfg(test)]
pub(crate) fn extract_html(html: &str, url: Option<&Url>, opts: &ExtractOptions) -> Article {
    let page = Page::from_html(html).url(url);
    Extractor::new(opts.clone()).extract(page).article
}

/// Shorthand of the unit tests: only the text of decoded HTML.
#[cfg(test)]
pub(crate) fn extract_text(html: &str, algorithm: Algorithm) -> String {
    let opts = ExtractOptions {
        algorithm,
        text_only: true,
        ..ExtractOptions::default()
    };
    Extractor::new(opts)
        .extract(Page::from_html(html))
        .article
        .text
}

#[cfg(test)]
mod mangled_pages;
#[cfg(test)]
mod news_regressions;
#[cfg(test)]
mod seeded;
#[cfg(test)]
mod tests;
