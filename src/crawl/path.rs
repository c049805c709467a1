//! The one page path: a fetched page → what it is and what it says (pure).
//!
//! In: a [`PageIn`] — a page's bytes as they arrived (from an HTTP fetch,
//! `crawl`, or from a web-archive record, `import`: the source has already
//! undone its transport's encodings), its URL, its site, and what the
//! source knew of the URL. Out: an [`Outcome`] — the article if the page is
//! one, the [`Judgement`] that says so and why, the page's links (when the
//! caller asked for them) and its canonical URL.
//!
//! The path is a straight line; nothing in it knows which source fed it,
//! and nothing goes back up:
//!
//! 1. decode: the charset (`extract::charset`: HTTP header, byte order
//!    mark, `<meta>` prescan, detection) → UTF-8;
//! 2. extract: one parse gives the text, the metadata, the signals the
//!    judgement weighs and the page's link attributes (`extract`);
//! 3. judge: the site's patterns when it has them, else the page's
//!    evidence and the site's learned URL shapes ([`super::judge`]);
//! 4. the canonical URL, in the frontier's spelling, when it is the site's.
//!
//! Then [`record`] turns the outcome into the writer's operations (the
//! article with its kept page, the `tree` rule's use, the URL shape's
//! counts), for both commands alike. What the crawl alone adds — the links
//! admitted to the frontier, feeds and sitemaps — is `super::page`'s.

pub mod record;

use url::Url;

use super::discover::{self, RawPageLinks};
use super::frontier;
use super::judge::{judge, Evidence, Judgement};
use super::shapes::ShapeTable;
use crate::config::SiteSettings;
use crate::extract::tree::rule::{RuleOutcome, SiteRule};
use crate::extract::{self, Article, ExtractOptions, Extraction, Extractor, Page};
use crate::store::UrlKind;
use crate::urls::TrailingSlash;

/// A page as the path takes it, whichever source fed it.
pub struct PageIn<'a> {
    /// The page's URL (after redirects).
    pub url: &'a Url,
    /// Whether the source reached it through redirects from another URL.
    pub redirected: bool,
    /// The response's `Content-Type`, whose charset decodes the body.
    pub content_type: Option<&'a str>,
    /// The body as the server sent it, transport encodings undone.
    pub body: &'a [u8],
    pub site: &'a SiteSettings,
    /// What the source knew of the URL: the kind the frontier queued it as
    /// (an article of a site's feed is `Article` before it is judged), or,
    /// for an archived page, what the site's patterns say of its URL.
    pub kind: UrlKind,
    pub extract: &'a ExtractOptions,
    /// `tree`: the site's content rule, if one is learned.
    pub site_rule: Option<&'a SiteRule>,
    /// A site without patterns: its learned URL shapes (evidence for the
    /// judgement); `None` for a site with patterns (they decide).
    pub shapes: Option<&'a ShapeTable>,
    /// `[crawler] trailing_slash`: the canonical URL's spelling.
    pub trailing_slash: TrailingSlash,
    /// Anchors to collect (`[crawler] max_links_per_page`) for the
    /// frontier; `None` when nobody follows links: then a page that is not
    /// extracted is not read at all.
    pub max_links: Option<usize>,
}

/// What the path made of one page.
#[derive(Debug)]
pub struct Outcome {
    /// The article, exactly when the judgement says article; its
    /// `canonical_url` is [`Outcome::canonical`].
    pub article: Option<Article>,
    pub judgement: Judgement,
    /// `tree`: what the article page did to its site's rule.
    pub rule: Option<RuleOutcome>,
    /// The page's links: anchors up to [`PageIn::max_links`], the
    /// canonical URL and feeds as found (`None` for a page not read at
    /// all: not extracted, and no links asked for).
    pub links: Option<RawPageLinks>,
    /// The canonical URL (`link rel=canonical`, else `og:url`) in the
    /// frontier's spelling, when it is on the site.
    pub canonical: Option<Url>,
    /// What the judgement weighed (`None` when patterns decided).
    pub evidence: Option<Evidence>,
}

/// Whether a page is extracted, and judged: a site with article patterns
/// has its article pages extracted (its patterns say so, the judgement is
/// theirs); a site without has every page but those of its index patterns
/// extracted and judged from the evidence.
fn plan(input: &PageIn<'_>) -> (bool, bool) {
    // An index pattern is still the user's word that a page is none (a
    // learned index shape is not: its pages are judged too).
    let judged = input.site.article_patterns.is_empty()
        && (input.kind != UrlKind::Index || input.site.index_patterns.is_empty());
    // A URL queued as an article that redirected to a non-article page (a
    // section front, a login wall) is not stored.
    let by_pattern =
        input.kind == UrlKind::Article && (!input.redirected || input.site.is_article(input.url));
    (by_pattern, judged)
}

/// Run the path (see the module doc).
pub fn run(input: &PageIn<'_>) -> Outcome {
    let (by_pattern, judged) = plan(input);
    let extracted = by_pattern || judged;
    if !extracted && input.max_links.is_none() {
        return Outcome {
            article: None,
            judgement: Judgement::by_pattern(false),
            rule: None,
            links: None,
            canonical: None,
            evidence: None,
        };
    }
    // 1. Decode.
    let decoded = extract::charset::decode(input.body, input.content_type, Some(input.url));
    // 2. Extract (its pass collects the link attributes too).
    let mut judgement = Judgement::by_pattern(by_pattern);
    let mut rule = None;
    let mut weighed = None;
    let (attrs, mut article) = if extracted {
        let opts = ExtractOptions {
            timezone: input.site.timezone,
            ..input.extract.clone()
        };
        let mut attrs = discover::link_attrs_for(input.max_links.unwrap_or(0));
        let page = Page::from_html(&decoded.text)
            .url(input.url)
            .site_rule(input.site_rule)
            .collect_links(&mut attrs);
        let Extraction {
            article,
            signals,
            rule_outcome,
            ..
        } = Extractor::new(opts).extract(page);
        // 3. Judge.
        if judged {
            // Listed: a bare site's feed and sitemap entries, and links of a
            // learned article shape, are queued as articles.
            let listed = input.kind == UrlKind::Article;
            let shape_hint = input.shapes.and_then(|t| t.classify(input.url).hint());
            let evidence = Evidence::of(&article, &signals, attrs.form_fields, listed, shape_hint);
            judgement = judge(&evidence);
            weighed = Some(evidence);
        }
        // A page that is no article teaches the site's content rule nothing.
        let article = judgement.is_article().then_some(article);
        if article.is_some() {
            rule = rule_outcome;
        }
        (Some(attrs), article)
    } else {
        (None, None)
    };
    let max_links = input.max_links.unwrap_or(0);
    let links = discover::raw_page_links(&decoded.text, attrs, input.url, max_links);
    // 4. The canonical URL, if it is the site's.
    let canonical = links
        .canonical
        .as_ref()
        .and_then(|c| frontier::normalize_for(input.site, c, input.trailing_slash))
        .filter(|c| input.site.owns(c));
    if let (Some(a), Some(c)) = (&mut article, &canonical) {
        a.canonical_url = Some(c.as_str().into());
    }
    Outcome {
        article,
        judgement,
        rule,
        links: Some(links),
        canonical,
        evidence: weighed,
    }
}
