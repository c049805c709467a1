//! What a crawl did for each site: articles stored, pages that were not
//! articles, and, for a site with patterns, the links that matched none of
//! them (never followed) — so a wrong pattern is named, not silent.
//!
//! In: per-site events counted while the crawl runs ([`SiteTallies`]).
//! Out: a [`SiteReport`] per site, and the hint for a site whose patterns
//! matched nothing ([`SiteReport::hint`]).

use std::collections::{BTreeMap, HashSet};
use std::sync::Mutex;

use serde::Serialize;

/// Examples of unmatched links kept per site.
pub const UNMATCHED_EXAMPLES: usize = 3;
/// Distinct unmatched links counted per site at most (a memory bound; the
/// report then says "at least").
pub const UNMATCHED_TRACKED: usize = 100_000;

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
}

impl SiteReport {
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
