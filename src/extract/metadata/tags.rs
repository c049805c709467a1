//! The publisher's own tags and keywords for a story → a list of tags.
//!
//! In: the page's metas and JSON-LD `keywords`, and the names the site goes
//! by. Out: the tags of the first source that gives any, in this order:
//! `article:tag` (one meta per tag, or one of comma-separated tags),
//! `news_keywords` (the story's keywords for news aggregators), JSON-LD
//! `keywords` (where CMSs also put their flags and facets), `keywords`
//! (often the site's own words on every page).
//!
//! What a CMS writes there besides tags is left out:
//! - the site's own name, URLs and domains, identifiers (UUIDs, numbers);
//! - a source made of upper-case codes ("AER, INDG08, MEAST": a wire
//!   service's subject codes), which the next source replaces;
//! - keywords prefixed by a taxonomy ("Subject: Justice",
//!   "sections/sverige") are their term when the taxonomy is one of topics
//!   (subject, topic, category, section, tag, keyword, person,
//!   organization, place), and go when it describes the page instead ("Day:
//!   Friday", "Page Type: Article", "WC: 1000-1999"); another prefix is
//!   part of the tag ("Star Wars: Andor");
//! - CMS flags ("_commerce").
//!
//! Keywords written without commas but with spaces between Chinese or
//! Japanese words are split at the spaces (such a tag has none).

use super::jsonld::{looks_like_url, JsonLd};
use super::page::Page;
use crate::words::is_cjk;

/// Longest tag, and most tags, kept.
const MAX_TAG_CHARS: usize = 100;
const MAX_TAGS: usize = 50;
/// A source of at least this many tags, all upper-case codes, is codes.
const MIN_CODES: usize = 5;
/// Taxonomies of a CMS's keywords that describe the page, not its story
/// (lower case).
const PAGE_TAXONOMIES: &[&str] = &[
    "day",
    "time",
    "date",
    "page type",
    "article type",
    "content type",
    "template",
    "layout",
    "wc",
    "word count",
    "partner",
    "language",
    "nlp category",
    "paywall",
];
/// Taxonomies whose terms are the story's topics (singular, lower case).
const TOPIC_TAXONOMIES: &[&str] = &[
    "subject",
    "topic",
    "category",
    "section",
    "tag",
    "keyword",
    "person",
    "people",
    "organization",
    "organisation",
    "place",
    "location",
];

/// Whitespace collapsed, separators around it trimmed (" - Politik"):
/// how a tag, and a section, is written without its page's decoration.
pub(super) fn clean_label(s: &str) -> String {
    let collapsed = s.split_whitespace().collect::<Vec<_>>().join(" ");
    collapsed
        .trim_matches(|c: char| c.is_whitespace() || "-–—|:,;".contains(c))
        .to_string()
}

/// The story's tags (see the module doc).
pub(super) fn tags(page: &Page, ld: &JsonLd, site: &[String]) -> Vec<String> {
    let metas = |key: &str| split_tags(&page.metas_for(key).collect::<Vec<_>>());
    let sources: [Vec<String>; 4] = [
        metas("article:tag"),
        metas("news_keywords"),
        ld.keywords.clone(),
        metas("keywords"),
    ];
    for source in sources {
        if is_codes(&source) {
            continue;
        }
        let mut out: Vec<String> = Vec::new();
        for raw in &source {
            let term = match taxonomy_term(raw) {
                Some((Taxonomy::Topics, term)) => term,
                Some((Taxonomy::Page, _)) => continue,
                None => raw.as_str(),
            };
            let t = clean_label(term);
            let keep = !t.is_empty()
                && t.chars().count() <= MAX_TAG_CHARS
                && !t.starts_with('_')
                && !looks_like_url(&t)
                && !looks_like_domain(&t)
                && !is_identifier(&t)
                && !names_site(&t, site)
                && !out.iter().any(|o| o.eq_ignore_ascii_case(&t));
            if keep && out.len() < MAX_TAGS {
                out.push(t);
            }
        }
        if !out.is_empty() {
            return out;
        }
    }
    Vec::new()
}

/// Tag metas: one tag each, or comma-separated tags in one; Chinese or
/// Japanese keywords without commas split at their spaces.
fn split_tags(values: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for v in values {
        if !v.contains([',', '，', '、']) && v.chars().any(is_cjk) {
            out.extend(v.split_whitespace().map(str::to_string));
        } else {
            out.extend(v.split([',', '，', '、']).map(str::to_string));
        }
    }
    out
}

/// What a taxonomy prefix says of its term.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Taxonomy {
    /// A topic of the story: the term is a tag.
    Topics,
    /// A property of the page: the term is no tag.
    Page,
}

/// The taxonomy and term of "Subject: Justice" or "sections/sverige", when
/// the prefix is a known taxonomy (a tag such as "Star Wars: Andor" or
/// "AC/DC" is left whole).
fn taxonomy_term(raw: &str) -> Option<(Taxonomy, &str)> {
    let (prefix, term) = raw.split_once(':').or_else(|| raw.split_once('/'))?;
    let prefix = prefix.trim().to_lowercase();
    let singular = prefix.strip_suffix('s').unwrap_or(&prefix);
    let kind =
        if TOPIC_TAXONOMIES.contains(&prefix.as_str()) || TOPIC_TAXONOMIES.contains(&singular) {
            Taxonomy::Topics
        } else if PAGE_TAXONOMIES.contains(&prefix.as_str()) {
            Taxonomy::Page
        } else {
            return None;
        };
    let term = term.trim();
    (!term.is_empty()).then_some((kind, term))
}

/// Every tag of the source an upper-case code (letters, digits, `:` `-`).
fn is_codes(source: &[String]) -> bool {
    let items: Vec<&str> = source
        .iter()
        .map(|s| s.trim())
        .filter(|s| !s.is_empty())
        .collect();
    items.len() >= MIN_CODES
        && items.iter().all(|s| {
            !s.contains(' ')
                && s.chars().any(|c| c.is_ascii_uppercase())
                && s.chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || ":-_".contains(c))
        })
}

/// "theprovince.com": a site's address, not a topic.
fn looks_like_domain(t: &str) -> bool {
    let Some((host, tld)) = t.rsplit_once('.') else {
        return false;
    };
    !t.contains(' ')
        && !host.is_empty()
        && (2..=6).contains(&tld.len())
        && tld.chars().all(|c| c.is_ascii_lowercase())
}

/// A UUID, a hash or a number: an id the CMS tags with.
fn is_identifier(t: &str) -> bool {
    let hexish = t.chars().all(|c| c.is_ascii_hexdigit() || c == '-');
    let digits = t.chars().filter(char::is_ascii_digit).count();
    (hexish && t.len() >= 16 && digits > 0) || t.chars().all(|c| c.is_ascii_digit())
}

/// The tag is the site's name (letters and digits compared, case aside).
fn names_site(t: &str, site: &[String]) -> bool {
    let squash = |s: &str| -> String { s.chars().filter(|c| c.is_alphanumeric()).collect() };
    let t = squash(t);
    site.iter().any(|s| {
        let s = squash(s);
        !s.is_empty() && s.eq_ignore_ascii_case(&t)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of_ld(keywords: &[&str]) -> Vec<String> {
        let ld = JsonLd {
            keywords: keywords.iter().map(|s| s.to_string()).collect(),
            ..JsonLd::default()
        };
        let doc = scraper::Html::parse_document("<p>x</p>");
        tags(&Page::collect(&doc), &ld, &["The Province".to_string()])
    }

    #[test]
    fn taxonomy_prefixed_keywords_keep_their_topics() {
        assert_eq!(
            of_ld(&[
                "Category: Life",
                "Category: Wine",
                "NLP Category: General",
                "Wine Guy",
                "cce15240-c52a-4887-a61a-cd64701d6596",
                "theprovince.com",
                "The Province",
            ]),
            ["Life", "Wine", "Wine Guy"]
        );
        assert_eq!(
            of_ld(&[
                "Day: Friday",
                "WC: 1000-1999",
                "Subject: Justice",
                "Page Type: Article"
            ]),
            ["Justice"]
        );
        assert_eq!(
            of_ld(&["sections/sverige", "topic/misshandel & överfall"]),
            ["sverige", "misshandel & överfall"]
        );
        // A prefix that names no taxonomy is part of the tag.
        assert_eq!(
            of_ld(&["AC/DC", "Star Wars: Andor", "_commerce"]),
            ["AC/DC", "Star Wars: Andor"]
        );
    }

    #[test]
    fn wire_codes_are_no_tags_and_cjk_keywords_split_at_spaces() {
        assert!(is_codes(
            &["AER", "AERO", "INDG08", "RSBI:HUMAN-RIGHTS", "NP"].map(String::from)
        ));
        assert!(!is_codes(
            &["ICJ", "UNRWA", "Israel", "UN", "EU"].map(String::from)
        ));
        assert_eq!(
            split_tags(&["深空探测 探月工程 太空"]),
            ["深空探测", "探月工程", "太空"]
        );
        assert_eq!(split_tags(&["Harbour, Port"]), ["Harbour", " Port"]);
    }
}
