//! Tree site rules in SQLite (migration 0008): per site, the stored id/class
//! path of its content block and how often it was used.
//!
//! In: [`SiteRuleUpdate`]s from the crawl's writer (one per article page
//! extracted with `tree`), written by `portable::writes::record_site_rule`.
//! Out: the stored rules (loaded when a crawl or a `reextract` starts) and
//! per-site figures for `stats`, read in `portable`.

/// What one `tree` article page did to its site's rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SiteRuleUpdate {
    pub site: String,
    /// The page was extracted by the stored rule (the tree did not run).
    pub by_rule: bool,
    /// The stored rule stopped matching and was dropped.
    pub dropped: bool,
    /// A rule learned on this page (JSON, display form) that replaces the
    /// stored one.
    pub learned: Option<(String, String)>,
}

/// One site's rule and its use.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct SiteRuleStats {
    /// `div#main > div.story-body`; `None` while no rule is held.
    pub rule: Option<String>,
    pub pages_by_rule: u64,
    pub pages_by_tree: u64,
    pub dropped: u64,
}

impl SiteRuleStats {
    /// Share of the site's `tree` pages extracted by rule.
    pub fn hit_rate(&self) -> f64 {
        let n = self.pages_by_rule + self.pages_by_tree;
        if n == 0 {
            0.0
        } else {
            self.pages_by_rule as f64 / n as f64
        }
    }
}
