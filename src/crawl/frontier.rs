//! URL normalisation, priorities and trap guards for the frontier (pure); the
//! queue itself is persisted in the store (`urls` table, `store::Store`).
//!
//! In: a parsed URL (and its kind and depth). Out: the one spelling under
//! which the frontier knows it, its priority, and whether it looks like a
//! crawler trap (endless calendars, repeated path segments, query spaces).

use url::Url;

use super::shapes::ShapeClass;
use crate::config::SiteSettings;
use crate::store::UrlKind;
use crate::urls::{normalize_with, TrailingSlash};

/// The frontier spelling of a URL found for `site`: [`normalize_with`],
/// then the site's www/bare merge ([`SiteSettings::merge_host`]).
pub fn normalize_for(site: &SiteSettings, url: &Url, trailing: TrailingSlash) -> Option<Url> {
    normalize_with(url, trailing).map(|u| site.merge_host(u))
}

/// [`normalize_for`] of a URL that is already [`crate::urls::normalize`]d
/// (links from `discover`): the same result, without normalising it again
/// unless the trailing-slash rule has something to do.
pub fn respell_normalized(site: &SiteSettings, url: Url, trailing: TrailingSlash) -> Option<Url> {
    match trailing {
        TrailingSlash::Keep => Some(site.merge_host(url)),
        TrailingSlash::Strip => normalize_for(site, &url, trailing),
    }
}

/// Priority of a URL in the frontier: higher is fetched first (fresh feed and
/// sitemap entries and article URLs before index pages and other pages).
///
/// Feeds and the site's own sitemaps (configured, named by robots.txt:
/// depth 0) come first because each one yields many articles; the
/// sitemaps found below them come after the articles already known;
/// articles come before index pages at any depth (the gaps between the bases
/// exceed the largest depth penalty), and within a kind shallower is first.
pub fn priority(kind: UrlKind, depth: u32) -> i32 {
    let base = match kind {
        UrlKind::Feed => 400,
        UrlKind::Sitemap if depth == 0 => 400,
        // A sitemap found below the site's own (an index's child, one a
        // page announces) comes after every article already known, before
        // index pages: an index may list 50,000 of them, and fetched first
        // they starved the articles for hours.
        UrlKind::Sitemap => 150,
        UrlKind::Seed => 300,
        UrlKind::Article => 200,
        UrlKind::Index => 100,
        UrlKind::Page => 0,
    };
    let penalty = i32::try_from(depth.min(MAX_DEPTH_PENALTY)).unwrap_or(0);
    base - penalty
}

/// Depth beyond which the priority no longer drops (keeps kinds apart).
const MAX_DEPTH_PENALTY: u32 = 50;

/// [`priority`] plus a bonus for a fresh feed or sitemap entry (published
/// within two days: +50, within a week: +25), so today's news is fetched
/// before a sitemap's years-old backlog. The bonus never lifts an article
/// above a feed or lowers it below an index page.
pub fn entry_priority(kind: UrlKind, depth: u32, published: Option<&str>, now_ms: i64) -> i32 {
    const DAY_MS: i64 = 24 * 3600 * 1000;
    let age_ms = published
        .and_then(|p| chrono::DateTime::parse_from_rfc3339(p).ok())
        .map(|d| now_ms.saturating_sub(d.timestamp_millis()));
    let bonus = match age_ms {
        // Slightly in the future (clock skew, time zones) counts as fresh.
        Some(a) if a < 2 * DAY_MS => 50,
        Some(a) if a < 7 * DAY_MS => 25,
        _ => 0,
    };
    priority(kind, depth) + bonus
}

/// How a link found on an HTML page of a site without patterns is queued,
/// by the class of its URL's learned shape: article shapes as articles
/// (fetched first), index shapes as index pages (revisited), shapes of
/// other pages (about, sign-in) not at all. A link of unknown shape is
/// explored (as a plain page, within the site's exploration budget:
/// `Some((Page, true))`), unless it sits on an article page of a site that
/// already knows its article shapes: inside an article, a link is followed
/// as far as its shape earns.
pub fn shaped_link(
    class: ShapeClass,
    from_article: bool,
    knows_articles: bool,
) -> Option<(UrlKind, bool)> {
    match class {
        ShapeClass::Article => Some((UrlKind::Article, false)),
        ShapeClass::Index => Some((UrlKind::Index, false)),
        ShapeClass::Other => None,
        ShapeClass::Unknown if from_article && knows_articles => None,
        ShapeClass::Unknown => Some((UrlKind::Page, true)),
    }
}

/// A segment repeated this often in one path is a relative-link loop
/// (`/a/b/a/b/a/b/`).
const MAX_SEGMENT_REPEATS: usize = 3;
/// Deeper paths than this are generated, not written by an editor.
const MAX_PATH_DEPTH: usize = 12;
const MAX_QUERY_PARAMS: usize = 6;
const MAX_QUERY_LEN: usize = 300;
const MAX_URL_LEN: usize = 2048;
/// Query keys of calendar and archive widgets that page through dates forever.
/// (Single letters like `d` are too common in ordinary queries to count.)
const CALENDAR_KEYS: &[&str] = &[
    "date", "day", "month", "year", "week", "cal", "calendar", "caldate", "ym", "ymd",
];

/// Whether a URL looks like a crawler trap: a path segment repeated ≥ 3
/// times, a path deeper than 12, more than 6 query parameters or a very long
/// query, or a date-paging calendar (`?month=11&year=2031`, `/calendar/2031/`).
pub fn looks_like_trap(url: &Url) -> bool {
    if url.as_str().len() > MAX_URL_LEN {
        return true;
    }
    let segments: Vec<&str> = url
        .path_segments()
        .map(|s| s.filter(|s| !s.is_empty()).collect())
        .unwrap_or_default();
    if segments.len() > MAX_PATH_DEPTH {
        return true;
    }
    for (i, s) in segments.iter().enumerate() {
        if segments[i..].iter().filter(|t| *t == s).count() >= MAX_SEGMENT_REPEATS {
            return true;
        }
    }
    let calendar_path = segments.windows(2).any(|w| {
        matches!(w[0].to_ascii_lowercase().as_str(), "calendar" | "cal") && is_date_like(w[1])
    });
    if calendar_path {
        return true;
    }
    let Some(q) = url.query() else { return false };
    if q.len() > MAX_QUERY_LEN {
        return true;
    }
    let pairs: Vec<&str> = q.split('&').filter(|p| !p.is_empty()).collect();
    if pairs.len() > MAX_QUERY_PARAMS {
        return true;
    }
    pairs.iter().any(|p| {
        let (k, v) = p.split_once('=').unwrap_or((p, ""));
        CALENDAR_KEYS.contains(&k.to_ascii_lowercase().as_str()) && is_date_like(v)
    })
}

/// `2026`, `11`, `2026-11`, `2026-11-26`, `2026/11/26`, `20261126`.
fn is_date_like(v: &str) -> bool {
    let v = v.replace("%2F", "/").replace("%2f", "/");
    let parts: Vec<&str> = v.split(['-', '/', '.']).collect();
    !v.is_empty()
        && parts.len() <= 3
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.len() <= 8 && p.bytes().all(|b| b.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trap(s: &str) -> bool {
        looks_like_trap(&Url::parse(s).unwrap())
    }

    fn site(toml_extra: &str) -> SiteSettings {
        let text = format!(
            "[[sites]]\nname = \"s\"\nstart = [\"https://www.news.test/\", \"http://127.0.0.1:8080/\"]\n{toml_extra}"
        );
        let cfg = crate::config::Config::parse(
            &text,
            std::path::Path::new("t.toml"),
            std::path::Path::new("."),
        )
        .unwrap();
        cfg.sites[0].clone()
    }

    #[test]
    fn www_and_bare_hosts_are_one_site_unless_configured_otherwise() {
        let u = |s: &str| Url::parse(s).unwrap();
        let merged = site("");
        assert!(merged.merge_www, "default is on");
        assert!(merged.owns(&u("https://news.test/a")));
        let f = |s: &SiteSettings, x: &str| {
            normalize_for(s, &u(x), TrailingSlash::Keep).map(String::from)
        };
        assert_eq!(
            f(&merged, "https://NEWS.test/a?utm_source=x").as_deref(),
            Some("https://www.news.test/a")
        );
        assert_eq!(
            f(&merged, "https://www.news.test/a").as_deref(),
            Some("https://www.news.test/a")
        );
        assert_eq!(
            f(&merged, "http://127.0.0.1:8080/x").as_deref(),
            Some("http://127.0.0.1:8080/x")
        );
        assert!(!merged.owns(&u("https://other.test/a")));
        assert_eq!(
            f(&merged, "https://other.test/a").as_deref(),
            Some("https://other.test/a")
        );

        let text = "[crawler]\ntrailing_slash = \"strip\"\n[[sites]]\nname = \"s\"\nstart = [\"https://e.com/\"]\n";
        let cfg = crate::config::Config::parse(
            text,
            std::path::Path::new("t"),
            std::path::Path::new("."),
        )
        .unwrap();
        assert_eq!(cfg.crawler.trailing_slash, TrailingSlash::Strip);
        let bad = text.replace("strip", "drop");
        assert!(crate::config::Config::parse(
            &bad,
            std::path::Path::new("t"),
            std::path::Path::new(".")
        )
        .is_err());

        // A normalised URL is spelt the same either way.
        for x in [
            "https://news.test/a?b=1",
            "https://www.news.test/a/",
            "http://127.0.0.1:8080/x/",
            "https://other.test/",
        ] {
            let n = crate::urls::normalize(&u(x)).unwrap();
            for t in [TrailingSlash::Keep, TrailingSlash::Strip] {
                assert_eq!(
                    respell_normalized(&merged, n.clone(), t),
                    normalize_for(&merged, &n, t),
                    "{x} {t:?}"
                );
            }
        }

        let apart = site("merge_www = false");
        assert!(!apart.owns(&u("https://news.test/a")));
        assert_eq!(
            f(&apart, "https://news.test/a").as_deref(),
            Some("https://news.test/a")
        );
    }

    #[test]
    fn priority_orders_kinds_then_depth() {
        assert!(priority(UrlKind::Feed, 0) > priority(UrlKind::Seed, 0));
        assert!(priority(UrlKind::Seed, 0) > priority(UrlKind::Article, 0));
        assert!(priority(UrlKind::Article, 1000) > priority(UrlKind::Index, 0));
        assert!(priority(UrlKind::Index, 1000) > priority(UrlKind::Page, 0));
        assert!(priority(UrlKind::Article, 1) > priority(UrlKind::Article, 2));
        assert_eq!(priority(UrlKind::Sitemap, 0), priority(UrlKind::Feed, 0));
        // An index's sitemaps come after every article, before index pages.
        assert!(priority(UrlKind::Article, 1000) > priority(UrlKind::Sitemap, 1));
        assert!(priority(UrlKind::Sitemap, 1000) >= priority(UrlKind::Index, 0));
    }

    #[test]
    fn links_of_a_site_without_patterns_are_queued_by_shape() {
        use ShapeClass::*;
        assert_eq!(
            shaped_link(Article, true, true),
            Some((UrlKind::Article, false))
        );
        assert_eq!(
            shaped_link(Index, false, true),
            Some((UrlKind::Index, false))
        );
        assert_eq!(shaped_link(Other, false, false), None);
        // Unknown shapes are explored within the budget...
        assert_eq!(
            shaped_link(Unknown, false, true),
            Some((UrlKind::Page, true))
        );
        assert_eq!(
            shaped_link(Unknown, true, false),
            Some((UrlKind::Page, true))
        );
        // ...but not from inside an article once article shapes are known.
        assert_eq!(shaped_link(Unknown, true, true), None);
    }

    #[test]
    fn fresh_entries_come_first() {
        let now = chrono::DateTime::parse_from_rfc3339("2026-11-26T12:00:00Z")
            .unwrap()
            .timestamp_millis();
        let p = |d: Option<&str>| entry_priority(UrlKind::Article, 1, d, now);
        let today = p(Some("2026-11-26T08:00:00+01:00"));
        let last_week = p(Some("2026-11-21T08:00:00Z"));
        let old = p(Some("2019-01-01T00:00:00Z"));
        assert!(today > last_week && last_week > old);
        assert_eq!(old, priority(UrlKind::Article, 1));
        assert_eq!(p(None), old);
        assert_eq!(p(Some("not a date")), old);
        assert!(today < priority(UrlKind::Seed, 0));
    }

    #[test]
    fn ordinary_news_urls_are_not_traps() {
        for u in [
            "https://www.bbc.com/news/world-europe-12345678",
            "https://www.theguardian.com/world/2026/nov/26/some-story",
            "https://news.sina.com.cn/c/2026-11-26/doc-abc.shtml",
            "https://e.com/section/index.html?page=3",
            "https://e.com/a/b/a/c",
            "https://e.com/search?q=x&page=2&sort=new",
        ] {
            assert!(!trap(u), "{u}");
        }
    }

    #[test]
    fn repeated_segments_and_deep_paths_are_traps() {
        assert!(trap("https://e.com/a/b/a/b/a/b/"));
        assert!(trap("https://e.com/news/news/news/x"));
        assert!(trap("https://e.com/1/2/3/4/5/6/7/8/9/10/11/12/13"));
        assert!(!trap("https://e.com/1/2/3/4/5/6/7/8/9/10/11/12"));
    }

    #[test]
    fn big_query_spaces_are_traps() {
        assert!(trap("https://e.com/s?a=1&b=2&c=3&d=4&e=5&f=6&g=7"));
        assert!(!trap("https://e.com/s?a=1&b=2&c=3&d=4&e=5&f=6"));
        let long = format!("https://e.com/s?q={}", "x".repeat(400));
        assert!(trap(&long));
    }

    #[test]
    fn calendars_are_traps() {
        assert!(trap("https://e.com/events?month=11&year=2031"));
        assert!(trap("https://e.com/archive?date=2026-11-26"));
        assert!(trap("https://e.com/archive?ymd=20261126"));
        assert!(trap("https://e.com/calendar/2031/05/"));
        assert!(!trap("https://e.com/archive?date=today"));
    }
}
