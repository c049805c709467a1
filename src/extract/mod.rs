//! HTML → [`Article`]: the pure extraction stage.
//!
//! In: page bytes (or already-decoded HTML) and the page URL. Out: the article
//! text (one paragraph per line, blocks separated by a blank line) plus
//! metadata. Never fails: a page with no article yields empty text, and
//! [`Method::NotArticle`] says why; a page with one (≥ 50 words of
//! paragraph text) never does with `auto` ([`fallback`]). The text never
//! holds the headline (it is the title) nor, unless asked, reader comments
//! ([`comments`]); [`markdown`] renders the same selection.
//!
//! Steps: 1. charset → UTF-8 ([`charset`]); 2. strip non-content with a byte
//! prepass and lol_html ([`strip`]); 3. parse into a DOM (scraper/html5ever) and flatten the body
//! into an arena with per-node statistics ([`dom`]); 4. scoring and selection
//! ([`density`] for the CETD family, [`select`] for `auto`; the other methods
//! of the research: [`htd`], [`ceds`], [`punct`], and the learned block
//! classifiers [`nb`] and [`tree`] over [`blocks`], with [`model`] files);
//! 5. text assembly ([`text`]); 6. metadata ([`metadata`]) from the same
//! parsed DOM.

pub mod ablation;
pub mod batch;
pub mod blocks;
pub mod candidate;
pub mod ceds;
pub mod charset;
pub mod comments;
pub mod density;
pub mod dom;
pub mod fallback;
pub mod furniture;
pub mod headline;
pub mod heuristics;
pub mod htd;
pub mod markdown;
pub mod metadata;
pub mod model;
pub mod nb;
pub mod punct;
pub mod select;
pub mod sniff;
pub mod strip;
pub mod tail;
pub mod text;
pub mod tree;

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use url::Url;

use model::BlockModel;

/// Which content-selection algorithm to run (`--algorithm`, `[extract] algorithm`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Algorithm {
    /// CETD text density (C/T) with DensitySum selection.
    Td,
    /// CETD composite text density with DensitySum selection.
    Ctd,
    /// The best-scoring combination (default).
    #[default]
    Auto,
    /// CEDS (Yu & Jin): leaf levels, block fusion, ContentImportance threshold.
    Ceds,
    /// Punctuation statistics (Li & Jiang): noise nodes out, punctuated text in.
    Punct,
    /// Naive Bayes block classifier (a trained model; `--model`).
    Nb,
    /// C4.5 decision tree block classifier (a trained model; `--model`).
    Tree,
    /// CETD hybrid text density: CTD weighted by approximated visual importance.
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

    /// Runs a trained block model.
    pub fn is_learned(self) -> bool {
        matches!(self, Algorithm::Nb | Algorithm::Tree)
    }
}

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
pub struct Selection {
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
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Article {
    pub title: Option<String>,
    pub author: Option<String>,
    /// RFC 3339.
    pub published_at: Option<String>,
    /// RFC 3339.
    pub modified_at: Option<String>,
    /// ISO 639-3 code from whatlang (e.g. `eng`, `cmn`).
    pub language: Option<String>,
    pub canonical_url: Option<String>,
    pub site_name: Option<String>,
    /// One paragraph per line; blocks separated by one blank line.
    pub text: String,
    /// How the text was found (not stored).
    #[serde(default)]
    pub method: Method,
    /// The text as Markdown (headings, lists, quotes, tables), when
    /// [`ExtractOptions::markdown`] asked for it (not stored).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub markdown: Option<String>,
}

/// Extract from raw bytes: decode (HTTP charset → BOM → meta → detection), then
/// [`extract_html`].
pub fn extract_bytes(
    bytes: &[u8],
    content_type: Option<&str>,
    url: Option<&Url>,
    opts: &ExtractOptions,
) -> Article {
    let html = charset::decode(bytes, content_type, url);
    extract_html(&html.text, url, opts)
}

/// Extract from decoded HTML.
pub fn extract_html(html: &str, url: Option<&Url>, opts: &ExtractOptions) -> Article {
    let stripped = strip::strip(html);
    let doc = scraper::Html::parse_document(&stripped);
    let selection = select_document(&doc, opts);
    article_of(&doc, html, selection, url, opts)
}

/// [`extract_html`] for `tree` with a site's rule ([`tree::rule`]): the
/// text of the rule's element when it matches, else the tree's (learning a
/// rule). Other algorithms ignore the rule and report no rule outcome.
pub fn extract_html_by_rule(
    html: &str,
    url: Option<&Url>,
    opts: &ExtractOptions,
    rule: Option<&tree::rule::SiteRule>,
) -> (Article, Option<tree::rule::RuleOutcome>) {
    extract_html_by_rule_with_links(html, url, opts, rule, None)
}

/// [`extract_html_by_rule`], also collecting the page's link attributes into
/// `links` in the same pass ([`strip::strip_collecting`]): the crawler
/// discovers an article page's links without parsing it twice.
pub fn extract_html_by_rule_with_links(
    html: &str,
    url: Option<&Url>,
    opts: &ExtractOptions,
    rule: Option<&tree::rule::SiteRule>,
    links: Option<&mut strip::links::LinkAttrs>,
) -> (Article, Option<tree::rule::RuleOutcome>) {
    let (article, _, outcome) = extract_page(html, url, opts, rule, links);
    (article, outcome)
}

/// [`extract_html_by_rule_with_links`], also giving what the page shows
/// about its own kind ([`metadata::PageSignals`], read in the metadata pass):
/// the crawler judges from them whether a page is an article.
pub fn extract_page(
    html: &str,
    url: Option<&Url>,
    opts: &ExtractOptions,
    rule: Option<&tree::rule::SiteRule>,
    links: Option<&mut strip::links::LinkAttrs>,
) -> (
    Article,
    metadata::PageSignals,
    Option<tree::rule::RuleOutcome>,
) {
    let stripped = match links {
        Some(links) => strip::strip_collecting(html, links),
        None => strip::strip(html),
    };
    let doc = scraper::Html::parse_document(&stripped);
    let model = opts
        .model
        .as_deref()
        .or(BlockModel::default_for(Algorithm::Tree));
    let (selection, outcome) = match model {
        Some(m) if opts.algorithm == Algorithm::Tree => {
            let dom = dom::Dom::build(&doc);
            let (text, outcome) = m.extract_by_rule(&dom, rule);
            (Selection::of_text(text), Some(outcome))
        }
        _ => (select_document(&doc, opts), None),
    };
    let (article, signals) = article_and_signals_of(&doc, html, selection, url, opts);
    (article, signals, outcome)
}

/// The article: extracted text plus metadata of the same document.
fn article_of(
    doc: &scraper::Html,
    html: &str,
    selection: Selection,
    url: Option<&Url>,
    opts: &ExtractOptions,
) -> Article {
    article_and_signals_of(doc, html, selection, url, opts).0
}

/// [`article_of`] and the page's signals, read in the same metadata pass.
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
    let article = Article {
        title: meta.title,
        author: meta.author,
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

/// Only the article text of raw bytes: decode, then [`extract_text`]. For
/// outputs that hold nothing but the text (batch `.txt` files, eval): metadata
/// and language detection are ~23 % of [`extract_bytes`]' time (bench).
pub fn extract_bytes_text(
    bytes: &[u8],
    content_type: Option<&str>,
    url: Option<&Url>,
    algorithm: Algorithm,
) -> String {
    let html = charset::decode(bytes, content_type, url);
    extract_text(&html.text, algorithm)
}

/// [`extract_bytes_text`] with all options (the `nb`/`tree` model).
pub fn extract_bytes_text_with(
    bytes: &[u8],
    content_type: Option<&str>,
    url: Option<&Url>,
    opts: &ExtractOptions,
) -> String {
    extract_bytes_selection(bytes, content_type, url, opts).text
}

/// The [`Selection`] of raw bytes (text, headline, method), without metadata.
pub fn extract_bytes_selection(
    bytes: &[u8],
    content_type: Option<&str>,
    url: Option<&Url>,
    opts: &ExtractOptions,
) -> Selection {
    let html = charset::decode(bytes, content_type, url);
    let stripped = strip::strip(&html.text);
    let doc = scraper::Html::parse_document(&stripped);
    select_document(&doc, opts)
}

/// Steps 3–5 on a parsed (stripped) document: the body text, the headline
/// apart, and the path that found them. `auto` runs the never-empty chain.
pub fn select_document(doc: &scraper::Html, opts: &ExtractOptions) -> Selection {
    if opts.algorithm != Algorithm::Auto {
        return Selection::of_text(text_of_document_with(
            doc,
            opts.algorithm,
            opts.model.as_deref(),
        ));
    }
    let dom = dom::Dom::build_with(doc, !opts.ablate.off(ablation::Step::ScriptLinks));
    if dom.is_empty() {
        return Selection {
            method: Method::NotArticle(fallback::NotArticle::NoText),
            ..Selection::default()
        };
    }
    let density = select::auto_select(&dom, dom::doc_title(doc).as_deref(), opts);
    fallback::never_empty(&dom, doc, density)
}

/// Only the article text of decoded HTML (no metadata): steps 2–5.
pub fn extract_text(html: &str, algorithm: Algorithm) -> String {
    let stripped = strip::strip(html);
    let doc = scraper::Html::parse_document(&stripped);
    text_of_document(&doc, algorithm)
}

/// Steps 3–5 on a parsed (stripped) document (`nb`/`tree` with their
/// shipped models).
pub fn text_of_document(doc: &scraper::Html, algorithm: Algorithm) -> String {
    text_of_document_with(doc, algorithm, None)
}

/// Steps 3–5 with an explicit model for `nb`/`tree` (ignored by the others).
pub fn text_of_document_with(
    doc: &scraper::Html,
    algorithm: Algorithm,
    model: Option<&BlockModel>,
) -> String {
    let dom = dom::Dom::build(doc);
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

#[cfg(test)]
mod tests;
