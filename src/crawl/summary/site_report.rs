//! What a crawl did for each site: articles stored, pages that were not
//! articles and why, and, for a site with patterns, the links that matched
//! none of them (never followed) — so a wrong pattern is named, not silent.
//!
//! In: per-site events counted while the crawl runs ([`SiteTallies`]).
//! Out: a [`SiteReport`] per site, the hint for a site whose patterns
//! matched nothing ([`SiteReport::hint`]), and the word on a site known by
//! its address that stored (nearly) nothing ([`SiteReport::stored_nothing`]).

use std::collections::{BTreeMap, HashSet};
use std::sync::Mutex;

use serde::Serialize;

/// Examples of unmatched links kept per site.
pub const UNMATCHED_EXAMPLES: usize = 3;
/// Distinct unmatched links counted per site at most (a memory bound; the
/// report then says "at least").
pub const UNMATCHED_TRACKED: usize = 100_000;
/// Example URLs kept per reason pages were judged not articles.
pub const REASON_EXAMPLES: usize = 2;
/// Reasons a site that stored nothing is told by.
pub const TOP_REASONS: usize = 3;

/// What one run did for one site.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct SiteReport {
    /// New articles stored.
    pub articles_stored: u64,
    /// HTML pages fetched and processed that gave no article to store
    /// (start and index pages, pages of no article shape or pattern,
    /// pages judged not to be articles).
    pub pages_not_articles: u64,
    /// The site gives `article_patterns` or `index_patterns`.
    pub patterns: bool,
    /// Links found that matched an article pattern (feeds and sitemaps
    /// included, duplicates too).
    pub article_links: u64,
    /// Distinct links of the site (anchors, feed and sitemap entries) that
    /// matched none of its patterns: anchors of those are not followed.
    pub unmatched_links: u64,
    /// Up to [`UNMATCHED_EXAMPLES`] of them, first found first.
    pub unmatched_examples: Vec<String>,
    /// Feeds and sitemaps found by probing the usual paths (the site
    /// announced none).
    pub found_by_probing: Vec<String>,
    /// Why pages were judged not articles (a site without patterns), most
    /// pages first.
    pub not_article_reasons: Vec<ReasonTally>,
    /// Distinct feed and sitemap entries of a site without patterns.
    pub listed_entries: u64,
}

/// Pages judged not articles for one reason.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ReasonTally {
    pub reason: String,
    pub pages: u64,
    /// Up to [`REASON_EXAMPLES`] of them, first judged first.
    pub examples: Vec<String>,
}

impl SiteReport {
    /// For a site without patterns that has `stored` articles in all
    /// after this run: when that is none, or under a tenth of the feed and
    /// sitemap entries seen, why its pages were judged not articles (the
    /// top reasons, with examples) and what to do next.
    pub fn stored_nothing(&self, site: &str, stored: u64) -> Option<String> {
        let judged = self
            .not_article_reasons
            .iter()
            .map(|r| r.pages)
            .sum::<u64>();
        let few = stored == 0 || stored * 10 < self.listed_entries;
        if self.patterns || judged == 0 || !few {
            return None;
        }
        let what = if stored == 0 {
            "no articles".to_string()
        } else {
            format!(
                "{stored} articles for {} feed and sitemap entries",
                self.listed_entries
            )
        };
        let mut out = format!(
            "site {site:?} has {what}; its {judged} pages judged not articles were, most often:"
        );
        for r in self.not_article_reasons.iter().take(TOP_REASONS) {
            let pages = if r.pages == 1 { "page" } else { "pages" };
            out.push_str(&format!(
                "\n      {} ({} {pages}, e.g. {})",
                r.reason,
                r.pages,
                r.examples.join(", ")
            ));
        }
        out.push_str(&format!(
            "\n    next: `newshound sites check {site} --fetch 5` shows what each page declares \
             and what was found on it; if the site's articles share a URL form, give it as \
             `article_patterns` in the site's [[sites]] block"
        ));
        Some(out)
    }

    /// For a site whose patterns matched none of the links found while
    /// some were found: what to do, naming the site.
    pub fn hint(&self, site: &str) -> Option<String> {
        if !self.patterns || self.article_links > 0 || self.unmatched_links == 0 {
            return None;
        }
        Some(format!(
            "site {site:?}: its patterns matched none of the {} links found, so nothing was \
             stored; a pattern must match a part of the whole URL (`/news/2026/` matches \
             `https://host/news/2026/x`, `^/news/` matches nothing: the URL starts with \
             `https://`); run `newshound sites check {site}` to see how each link is labelled",
            self.unmatched_links
        ))
    }
}

/// One site's counts while the run goes on.
#[derive(Debug, Default)]
struct Tally {
    report: SiteReport,
    unmatched: HashSet<u128>,
    listed: HashSet<u128>,
}

/// Per-site counts of a run, shared by its tasks.
#[derive(Debug, Default)]
pub struct SiteTallies {
    by_site: Mutex<BTreeMap<String, Tally>>,
}

impl SiteTallies {
    fn with(&self, site: &str, f: impl FnOnce(&mut Tally)) {
        let mut map = self.by_site.lock().unwrap_or_else(|p| p.into_inner());
        match map.get_mut(site) {
            Some(t) => f(t),
            None => f(map.entry(site.to_string()).or_default()),
        }
    }

    /// A new article of `site` stored.
    pub fn article_stored(&self, site: &str) {
        self.with(site, |t| t.report.articles_stored += 1);
    }

    /// Articles of `site` stored so far in this run.
    pub fn articles_stored(&self, site: &str) -> u64 {
        let map = self.by_site.lock().unwrap_or_else(|p| p.into_inner());
        map.get(site).map_or(0, |t| t.report.articles_stored)
    }

    /// A page of `site` processed: `patterns` says whether the site has
    /// any; `article` whether the page gave an article to store;
    /// `article_links` and `unmatched` (fingerprint, URL) what its links
    /// came to.
    pub fn page(
        &self,
        site: &str,
        patterns: bool,
        article: Option<bool>,
        article_links: usize,
        unmatched: &[(u128, std::sync::Arc<str>)],
    ) {
        self.with(site, |t| {
            t.report.patterns = patterns;
            if article == Some(false) {
                t.report.pages_not_articles += 1;
            }
            t.report.article_links += article_links as u64;
            for (fp, url) in unmatched {
                if t.unmatched.len() >= UNMATCHED_TRACKED || !t.unmatched.insert(*fp) {
                    continue;
                }
                t.report.unmatched_links += 1;
                if t.report.unmatched_examples.len() < UNMATCHED_EXAMPLES {
                    t.report.unmatched_examples.push(url.to_string());
                }
            }
        });
    }

    /// A page of `site` at `url` judged not an article for `reason`.
    pub fn not_article(&self, site: &str, reason: &str, url: &str) {
        self.with(site, |t| {
            let reasons = &mut t.report.not_article_reasons;
            let i = match reasons.iter().position(|r| r.reason == reason) {
                Some(i) => i,
                None => {
                    reasons.push(ReasonTally {
                        reason: reason.to_string(),
                        ..ReasonTally::default()
                    });
                    reasons.len() - 1
                }
            };
            let r = &mut reasons[i];
            r.pages += 1;
            if r.examples.len() < REASON_EXAMPLES {
                r.examples.push(url.to_string());
            }
            // Most pages first (a stable sort keeps first-seen order).
            reasons.sort_by_key(|r| std::cmp::Reverse(r.pages));
        });
    }

    /// Feed and sitemap entries of `site` seen (by fingerprint).
    pub fn listed(&self, site: &str, entries: impl IntoIterator<Item = u128>) {
        self.with(site, |t| {
            for fp in entries {
                if t.listed.len() < UNMATCHED_TRACKED && t.listed.insert(fp) {
                    t.report.listed_entries += 1;
                }
            }
        });
    }

    /// `site`'s usual paths were probed: `found` answered as feeds or
    /// sitemaps.
    pub fn probed(&self, site: &str, found: &[String]) {
        self.with(site, |t| {
            for url in found {
                if !t.report.found_by_probing.contains(url) {
                    t.report.found_by_probing.push(url.clone());
                }
            }
        });
    }

    /// The reports so far, by site name.
    pub fn reports(&self) -> BTreeMap<String, SiteReport> {
        let map = self.by_site.lock().unwrap_or_else(|p| p.into_inner());
        map.iter()
            .map(|(k, t)| (k.clone(), t.report.clone()))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::crawl::seen::fingerprint;

    fn links(urls: &[&str]) -> Vec<(u128, Arc<str>)> {
        urls.iter()
            .map(|u| (fingerprint(u), Arc::from(*u)))
            .collect()
    }

    #[test]
    fn unmatched_links_are_counted_once_with_three_examples() {
        let t = SiteTallies::default();
        let page = links(&[
            "http://h/news/2026/a",
            "http://h/news/2026/b",
            "http://h/news/2026/c",
            "http://h/news/2026/d",
        ]);
        t.page("s", true, Some(false), 0, &page);
        // The same links on the next page are not counted again.
        t.page("s", true, Some(false), 0, &page[..2]);
        let r = &t.reports()["s"];
        assert_eq!(r.unmatched_links, 4);
        assert_eq!(r.pages_not_articles, 2);
        assert_eq!(
            r.unmatched_examples,
            [
                "http://h/news/2026/a",
                "http://h/news/2026/b",
                "http://h/news/2026/c"
            ]
        );
    }

    #[test]
    fn a_site_whose_patterns_matched_nothing_gets_a_hint_naming_sites_check() {
        let t = SiteTallies::default();
        t.page(
            "mine",
            true,
            Some(false),
            0,
            &links(&["http://h/news/2026/a"]),
        );
        let hint = t.reports()["mine"].hint("mine").expect("a hint");
        assert!(hint.contains("newshound sites check mine"), "{hint}");
        assert!(hint.contains("matched none of the 1 links"), "{hint}");
    }

    #[test]
    fn a_site_known_by_its_address_that_stored_nothing_is_told_why_with_examples() {
        let t = SiteTallies::default();
        for n in 0..5 {
            t.not_article("plain", "undated", &format!("http://h/world/story-{n}/"));
        }
        t.not_article("plain", "form_page", "http://h/sign-in");
        t.not_article("plain", "teaser_list", "http://h/");
        t.not_article("plain", "teaser_list", "http://h/world/");
        t.not_article("plain", "thin_text", "http://h/tag/x/");
        t.listed("plain", 0..8u128);
        t.listed("plain", 0..8u128);
        let r = &t.reports()["plain"];
        assert_eq!(r.listed_entries, 8);
        let why = r.stored_nothing("plain", 0).expect("told why");
        assert!(
            why.starts_with("site \"plain\" has no articles; its 9 pages"),
            "{why}"
        );
        assert!(
            why.contains(
                "undated (5 pages, e.g. http://h/world/story-0/, http://h/world/story-1/)"
            ),
            "{why}"
        );
        assert!(why.contains("teaser_list (2 pages"), "{why}");
        assert!(!why.contains("thin_text"), "top three only: {why}");
        assert!(
            why.contains("newshound sites check plain --fetch 5"),
            "{why}"
        );
        assert!(why.contains("article_patterns"), "{why}");
        // Under a tenth of its entries is nearly nothing; more is not.
        assert!(r.stored_nothing("plain", 0).is_some());
        let mut many = r.clone();
        many.listed_entries = 40;
        assert!(many
            .stored_nothing("plain", 3)
            .is_some_and(|w| w.contains("3 articles for 40")));
        assert_eq!(many.stored_nothing("plain", 4), None);
        // A site with patterns has the other hint; a site that judged no
        // page has nothing to tell.
        let mut with = r.clone();
        with.patterns = true;
        assert_eq!(with.stored_nothing("plain", 0), None);
        assert_eq!(SiteReport::default().stored_nothing("x", 0), None);
    }

    #[test]
    fn no_hint_when_a_pattern_matched_or_the_site_has_none() {
        let t = SiteTallies::default();
        t.page("ok", true, Some(false), 3, &links(&["http://h/about"]));
        t.page("bare", false, Some(false), 0, &[]);
        t.article_stored("ok");
        let r = t.reports();
        assert_eq!(r["ok"].hint("ok"), None);
        assert_eq!(r["ok"].articles_stored, 1);
        assert_eq!(r["bare"].hint("bare"), None);
    }
}
