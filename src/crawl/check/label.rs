//! What `sites check` calls a link, and why (pure).
//!
//! In: a link of a site (normalised), where it was found, what blocks it
//! (another site, the address guard, robots.txt, the trap guard), the
//! site's patterns and its learned URL shapes. Out: a [`LinkLabel`] and a
//! reason a user can act on. The order of the rules is the crawl's: what
//! blocks a link first, then the site's patterns (the user's word), then
//! the learned shapes, then where the link came from.

use url::Url;

use crate::config::SiteSettings;
use crate::crawl::shapes::{shape_of, ShapeClass, ShapeTable};

/// What the crawl would make of a link.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LinkLabel {
    /// Fetched first and stored as an article.
    Article,
    /// Followed for its links (and revisited).
    Index,
    /// Not an article nor an index page: not followed, or explored only
    /// within the site's budget (the reason says which).
    Other,
    /// Never fetched: another site, the address guard, robots.txt, a trap.
    Blocked,
}

impl LinkLabel {
    pub fn as_str(self) -> &'static str {
        match self {
            LinkLabel::Article => "article",
            LinkLabel::Index => "index",
            LinkLabel::Other => "other",
            LinkLabel::Blocked => "blocked",
        }
    }
}

/// Where a link was found (the strongest source when found in several).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LinkSource {
    /// A link of a start page.
    Page,
    /// A URL of a sitemap.
    SitemapEntry,
    /// An entry of a feed.
    FeedEntry,
}

/// Why a link is never fetched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Blocked {
    /// On a host that is not the site's.
    AnotherSite,
    /// The address guard refuses the host (the refusal, e.g.
    /// `127.0.0.1 (loopback)`).
    Address(String),
    RobotsDisallowed,
    /// robots.txt could not be fetched: the crawl waits for it.
    RobotsUnavailable,
    /// The frontier's trap guard (calendars, repeated segments, query spaces).
    Trap,
}

/// The label of `url` (a link of `site` found as `source`) and its reason.
pub fn label(
    site: &SiteSettings,
    table: &ShapeTable,
    url: &Url,
    source: LinkSource,
    blocked: Option<&Blocked>,
) -> (LinkLabel, String) {
    if let Some(b) = blocked {
        let why = match b {
            Blocked::AnotherSite => format!(
                "another site: {} is not one of the site's hosts ({})",
                url.host_str().unwrap_or("?"),
                site.hosts.join(", ")
            ),
            Blocked::Address(why) => format!(
                "address guard: {why} is refused ([fetch] allow_private_addresses = true allows it)"
            ),
            Blocked::RobotsDisallowed => "robots.txt disallows it".to_string(),
            Blocked::RobotsUnavailable => {
                "robots.txt of its host is unavailable: the crawl waits for it".to_string()
            }
            Blocked::Trap => {
                "trap guard: a calendar, a repeated path segment or a query space".to_string()
            }
        };
        return (LinkLabel::Blocked, why);
    }
    if !site.article_patterns.is_empty() || !site.index_patterns.is_empty() {
        return by_patterns(site, url);
    }
    let shape = shape_of(url);
    let (_, key) = table.class_with_key(&shape);
    let class = table.link_class(&shape);
    let evidence = |key: &str| match table.counts(key) {
        Some(c) => format!("learned shape {key}: {}", c.judged_text()),
        None => format!("learned shape {key}"),
    };
    match (class, key) {
        (ShapeClass::Article, Some(k)) => (LinkLabel::Article, evidence(k)),
        (ShapeClass::Index, Some(k)) => (LinkLabel::Index, evidence(k)),
        (ShapeClass::Other, Some(k)) if source == LinkSource::Page => {
            (LinkLabel::Other, format!("{}; not followed", evidence(k)))
        }
        (ShapeClass::Other, Some(k)) => (
            LinkLabel::Other,
            format!(
                "{}; an entry of a feed or sitemap, so fetched and judged",
                evidence(k)
            ),
        ),
        _ => {
            let mixed = key.map_or(String::new(), |k| format!(" ({})", evidence(k)));
            match source {
                LinkSource::FeedEntry => (
                    LinkLabel::Article,
                    format!("a feed entry, shape {} not learned yet{mixed}", shape.exact),
                ),
                LinkSource::SitemapEntry => (
                    LinkLabel::Article,
                    format!(
                        "a sitemap entry, shape {} not learned yet{mixed}",
                        shape.exact
                    ),
                ),
                LinkSource::Page => (
                    LinkLabel::Other,
                    format!(
                        "shape {} not learned yet{mixed}: explored within the site's budget \
                         ([crawler] explore_per_site), fetched and judged",
                        shape.exact
                    ),
                ),
            }
        }
    }
}

/// A site with patterns: they decide (article patterns win).
fn by_patterns(site: &SiteSettings, url: &Url) -> (LinkLabel, String) {
    let matching = |patterns: &[regex::Regex]| {
        patterns
            .iter()
            .position(|p| p.is_match(url.as_str()))
            .map(|i| (i, patterns[i].as_str().to_string()))
    };
    if let Some((i, p)) = matching(&site.article_patterns) {
        return (
            LinkLabel::Article,
            format!("article_patterns[{i}] '{p}' matches"),
        );
    }
    if let Some((i, p)) = matching(&site.index_patterns) {
        return (
            LinkLabel::Index,
            format!("index_patterns[{i}] '{p}' matches"),
        );
    }
    (
        LinkLabel::Other,
        "matches none of the site's patterns (each is searched in the whole URL): not followed"
            .to_string(),
    )
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::config::Config;
    use crate::crawl::shapes::Judged;

    fn site(extra: &str) -> SiteSettings {
        let text = format!("[[sites]]\nname = \"s\"\nstart = [\"https://news.test/\"]\n{extra}");
        let cfg = Config::parse(&text, Path::new("t.toml"), Path::new(".")).unwrap();
        cfg.sites[0].clone()
    }

    fn url(s: &str) -> Url {
        Url::parse(s).unwrap()
    }

    #[test]
    fn patterns_decide_when_given() {
        let s = site("article_patterns = ['/news/\\d+$']\nindex_patterns = ['/section/']");
        let t = ShapeTable::default();
        let l = |u: &str| label(&s, &t, &url(u), LinkSource::FeedEntry, None);
        let (a, why) = l("https://news.test/news/12");
        assert_eq!(a, LinkLabel::Article);
        assert!(why.contains("article_patterns[0]"), "{why}");
        assert_eq!(l("https://news.test/section/x").0, LinkLabel::Index);
        // A feed entry that matches no pattern is not an article: the
        // patterns are the user's word.
        let (o, why) = l("https://news.test/about");
        assert_eq!(o, LinkLabel::Other);
        assert!(why.contains("none of the site's patterns"), "{why}");
    }

    #[test]
    fn blocked_links_say_what_blocks_them() {
        let s = site("");
        let t = ShapeTable::default();
        let u = url("https://other.test/a");
        let (b, why) = label(&s, &t, &u, LinkSource::Page, Some(&Blocked::AnotherSite));
        assert_eq!(b, LinkLabel::Blocked);
        assert!(
            why.contains("other.test") && why.contains("news.test"),
            "{why}"
        );
        let refused = Blocked::Address("127.0.0.1 (loopback)".into());
        let (_, why) = label(&s, &t, &u, LinkSource::Page, Some(&refused));
        assert!(why.contains("allow_private_addresses"), "{why}");
        let (_, why) = label(
            &s,
            &t,
            &u,
            LinkSource::Page,
            Some(&Blocked::RobotsDisallowed),
        );
        assert!(why.contains("robots.txt"), "{why}");
    }

    #[test]
    fn without_patterns_learned_shapes_then_the_source_decide() {
        let s = site("");
        let mut t = ShapeTable::default();
        for (i, w) in ["one", "two", "three"].into_iter().enumerate() {
            t.observe(
                &shape_of(&url(&format!(
                    "https://news.test/2026/11/2{i}/story-number-{w}.html"
                ))),
                Judged::Article,
            );
            t.observe(&shape_of(&url("https://news.test/privacy")), Judged::Other);
        }
        let l = |u: &str, src| label(&s, &t, &url(u), src, None);
        let (a, why) = l(
            "https://news.test/2026/11/27/new-story-today.html",
            LinkSource::Page,
        );
        assert_eq!(a, LinkLabel::Article);
        assert!(
            why.contains("/{yyyy}/{mm}/{dd}/{slug}.html") && why.contains("3 articles"),
            "{why}"
        );
        assert_eq!(
            l("https://news.test/privacy", LinkSource::Page).0,
            LinkLabel::Other
        );
        let (a, why) = l("https://news.test/p/12345", LinkSource::FeedEntry);
        assert_eq!(a, LinkLabel::Article);
        assert!(why.contains("feed entry"), "{why}");
        let (o, why) = l("https://news.test/p/12345", LinkSource::Page);
        assert_eq!(o, LinkLabel::Other);
        assert!(why.contains("explore_per_site"), "{why}");
    }
}
