//! What a page shows about its own kind (an article, or a page of another
//! kind), gathered in the metadata pass: no extra walk over the page.
//!
//! In: the counts [`super::page::Page`] takes while it reads the elements
//! (`<article>` elements, linked headings, link text, forms), and the
//! declarations the metadata fields read anyway (`og:type`, JSON-LD
//! `@type`, a declared publication time). Out: [`PageSignals`]. Nothing is
//! decided here: the crawler's page judgement weighs the signals together.

/// What one page declares and how it is built.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PageSignals {
    /// `og:type`, lower-cased (`article`, `website`, `profile`…).
    pub og_type: Option<String>,
    /// A JSON-LD node is typed as a story: `NewsArticle`, `Article`,
    /// `BlogPosting`, `ReportageNewsArticle`, `AnalysisNewsArticle`…
    pub ld_article: bool,
    /// A JSON-LD node that describes the page is typed as a page of another
    /// kind: `CollectionPage`, `SearchResultsPage`, `ProfilePage`,
    /// `AboutPage`, `ContactPage`, `CheckoutPage`, or an `ItemList` of
    /// stories. Nested nodes (a breadcrumb's `CollectionPage`) and lists of
    /// links or menus (`SiteNavigationElement`) do not count.
    pub ld_not_article: bool,
    /// A publication time is declared (`article:published_time` or another
    /// date meta, JSON-LD `datePublished`, `itemprop=datePublished`, `<time
    /// pubdate>`), not only read from the page's text or URL.
    pub published_declared: bool,
    /// `<article>` elements.
    pub article_elements: u32,
    /// An `<h1>` inside an `<article>`: a story with its headline.
    pub article_headline: bool,
    /// Headings (`h2`–`h4`) that are links or hold one, outside the page's
    /// header, navigation, footer, related-stories and comment blocks: the
    /// teasers of a section front.
    pub linked_headings: u32,
    /// Those teasers' texts (at most [`MAX_TEASER_TEXTS`]): whether the
    /// extracted body holds them tells a section front, whose teasers are
    /// its text, from a story with a rail of teasers beside it.
    pub teasers: Vec<TeaserText>,
    /// Bytes of visible text (scripts and the title aside).
    pub text_bytes: usize,
    /// Of which inside links.
    pub link_bytes: usize,
    /// `<form>` elements.
    pub forms: u32,
}

/// How many teasers' texts are kept.
pub const MAX_TEASER_TEXTS: usize = 64;

/// A teaser's linked heading and the summary under it, as the page writes
/// them (whitespace collapsed).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TeaserText {
    pub heading: String,
    /// The first longer text after the heading, before the next heading,
    /// that is not a link.
    pub summary: Option<String>,
}

impl PageSignals {
    /// Share of the page's text that is link text (0 for a page without text).
    pub fn link_density(&self) -> f64 {
        if self.text_bytes == 0 {
            return 0.0;
        }
        (self.link_bytes as f64 / self.text_bytes as f64).min(1.0)
    }
}
