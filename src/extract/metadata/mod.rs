//! DOM → [`Metadata`]: title, dates, authors, canonical URL, site name,
//! description, section, tags, lead image, paywall; plus language detection
//! on the article text.
//!
//! In: a parsed page and its URL. Out: [`Metadata`], every field `None` when
//! the page does not say (never a guess from nothing, never a panic).
//!
//! One pass over the elements ([`Page::collect`]) gathers every source; then
//! each field takes the first usable value in this order:
//! - title: the story's JSON-LD headline (its og:title when that is the
//!   headline with a kicker or an end clause cut off); else og:title,
//!   twitter:title, `meta name=headline` (and rnews:/DC variants), `<title>` — each
//!   without its site suffix — arbitrated by `<h1>` ([`title`]);
//! - published: JSON-LD `datePublished`, `article:published_time` and other
//!   date metas, `itemprop=datePublished`, `<time pubdate>`; then the weaker
//!   `<time datetime>`, "Published: …" texts and date-classed elements
//!   (overruled by a URL date on another day), then the date in the URL or
//!   the canonical URL (/2019/09/05/, 20190905) ([`dates`]); last, a date
//!   line near the headline: under the `<h1>`, else around the text that
//!   reads as the title ([`dateline`]);
//! - modified: JSON-LD `dateModified`, `article:modified_time` and kin,
//!   `itemprop=dateModified`, "Updated: …" texts;
//! - authors: JSON-LD author names, `meta name=author`, `article:author` (not a
//!   URL), other author metas, `itemprop=author`, `rel=author`, byline
//!   classes, each split into names ([`authors`]);
//! - canonical: `link rel=canonical` resolved against the URL, else og:url;
//! - site name: og:site_name, JSON-LD publisher / WebSite name,
//!   application-name;
//! - description, section, tags, image, paywalled: [`details`].

mod author;
mod authors;
mod dateline;
mod dates;
mod details;
mod jsonld;
mod language;
mod page;
mod signals;
mod tags;
#[cfg(test)]
mod tests;
mod title;

#[cfg(test)]
use dates::parse_date;
pub use language::detect_language;
pub use signals::{PageSignals, TeaserText};
pub(crate) use title::squash;

use chrono_tz::Tz;
use dates::Stamp;
use page::Page;
use url::Url;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Metadata {
    pub title: Option<String>,
    /// In the page's order, each once.
    pub authors: Vec<String>,
    pub published_at: Option<String>,
    pub modified_at: Option<String>,
    pub canonical_url: Option<String>,
    pub site_name: Option<String>,
    pub details: Details,
}

pub use details::Details;

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
/// Metas naming the author, each a source of its own ([`authors`]).
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

/// Read metadata from a parsed page (JSON-LD, OpenGraph, meta tags, `<time>`,
/// `<h1>`, `<title>`, URL date patterns); dates without an offset are read
/// as UTC. The tests' shorthand: extraction reads metadata with the page's
/// time zone and its signals ([`metadata_and_signals`]).
#[cfg(test)]
pub fn extract_metadata(doc: &scraper::Html, url: Option<&Url>) -> Metadata {
    extract_metadata_in(doc, url, None)
}

/// JSON-LD `articleBody` of the page's article node, paragraphs one per line
/// (the schema step of the never-empty chain; a full page walk, so only
/// called when the DOM gave no text).
pub fn json_ld_article_body(doc: &scraper::Html) -> Option<String> {
    jsonld::article_body(&Page::collect(doc).ld_json)
}

/// [`extract_metadata`], reading dates without an offset in `zone` (the
/// site's time zone).
pub fn extract_metadata_in(doc: &scraper::Html, url: Option<&Url>, zone: Option<Tz>) -> Metadata {
    metadata_and_signals(doc, url, zone).0
}

/// [`extract_metadata_in`], and what the page shows about its own kind
/// ([`PageSignals`], gathered in the same pass) for the crawler's judgement
/// of whether it is an article.
pub fn metadata_and_signals(
    doc: &scraper::Html,
    url: Option<&Url>,
    zone: Option<Tz>,
) -> (Metadata, PageSignals) {
    let mut page = Page::collect(doc);
    let ld = jsonld::read(&page.ld_json);
    let mut signals = std::mem::take(&mut page.signals);
    signals.og_type = page.meta("og:type").map(|t| t.to_ascii_lowercase());
    signals.ld_article = ld.story_typed;
    signals.ld_not_article = ld.other_page_typed;
    signals.published_declared = ld.date_published.is_some()
        || PUBLISHED_METAS
            .iter()
            .filter(|k| **k != "date")
            .any(|k| page.metas_for(k).next().is_some())
        || !page.itemprop_published.is_empty()
        || !page.pubdate_times.is_empty();

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
    let og_title = page.meta("og:title");
    let title = title::choose_title(
        ld.headline.as_deref(),
        og_title.as_deref(),
        &title_candidates,
        &page.h1s,
        &site_names,
    );

    let canonical_url = page
        .canonical
        .as_deref()
        .and_then(|h| resolve(h, url))
        .or_else(|| page.meta("og:url").and_then(|h| resolve(&h, url)));
    // A date in the page's own URL, else in its canonical URL (the address a
    // crawler used may be a short link or carry no date).
    let url_date = url.and_then(dates::url_stamp).or_else(|| {
        let canonical = Url::parse(canonical_url.as_deref()?).ok()?;
        dates::url_stamp(&canonical)
    });
    let modified = find_modified(&page, &ld);
    let published = find_published(&page, &ld, url_date, modified).or_else(|| {
        dateline::date_near_headline(doc, title.as_deref())
            .filter(|p| modified.is_none_or(|m| p.date() <= m.date()))
    });

    let meta = Metadata {
        title,
        authors: authors::find_authors(&page, &ld, site_name.as_deref()),
        details: details::details(&page, &ld, url, &site_names),
        published_at: published.map(|d| d.to_rfc3339(zone)),
        modified_at: modified.map(|d| d.to_rfc3339(zone)),
        canonical_url,
        site_name,
    };
    (meta, signals)
}

/// `modified` vets the weak sources: a page is not modified before it is
/// published, so a weak date after the modification date is a date widget
/// or another story's date.
fn find_published(
    page: &Page,
    ld: &jsonld::JsonLd,
    from_url: Option<Stamp>,
    modified: Option<Stamp>,
) -> Option<Stamp> {
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
        .or_else(|| first_stamp(page.labelled_published.iter().map(String::as_str)))
        .or_else(|| first_stamp(page.date_hints.iter().map(String::as_str)))
        .filter(|w| modified.is_none_or(|m| w.date() <= m.date()));
    match (weak, from_url) {
        // A date widget or a related-story date on another day than the URL's.
        (Some(w), Some(u)) if w.date() != u.date() => Some(u),
        (w, u) => w.or(u),
    }
}

/// WeChat articles give their time only in an inline script
/// (`var ct = "1581465600"`, Unix seconds), which the strip stage removes:
/// read it from the raw page.
pub fn wechat_publish_time(html: &str) -> Option<String> {
    // memmem, not `str::find`: this scans the whole page when no other
    // source gave a date, and the SIMD search is several times faster.
    const MARK: &str = "var ct = \"";
    let at = memchr::memmem::find(html.as_bytes(), MARK.as_bytes())? + MARK.len();
    let digits: String = html[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    let secs: i64 = digits.parse().ok()?;
    let time = chrono::DateTime::from_timestamp(secs, 0)?;
    (2000..=2100)
        .contains(&chrono::Datelike::year(&time))
        .then(|| time.to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true))
}

fn find_modified(page: &Page, ld: &jsonld::JsonLd) -> Option<Stamp> {
    ld.date_modified
        .as_deref()
        .and_then(dates::parse_stamp)
        .or_else(|| first_stamp(MODIFIED_METAS.iter().flat_map(|k| page.metas_for(k))))
        .or_else(|| first_stamp(page.itemprop_modified.iter().map(String::as_str)))
        .or_else(|| first_stamp(page.labelled_modified.iter().map(String::as_str)))
}

fn first_stamp<'a>(mut values: impl Iterator<Item = &'a str>) -> Option<Stamp> {
    values.find_map(dates::parse_stamp)
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

#[cfg(test)]
mod wechat_tests {
    use super::*;

    #[test]
    fn wechat_inline_script_time() {
        let html = r#"<script>var ct = "1581465600"; var other = 1;</script>"#;
        assert_eq!(
            wechat_publish_time(html).as_deref(),
            Some("2020-02-12T00:00:00Z")
        );
        assert_eq!(wechat_publish_time(r#"var ct = "abc""#), None);
        assert_eq!(wechat_publish_time("no script"), None);
    }
}
