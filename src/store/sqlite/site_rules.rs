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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::WriteOp;
    use crate::store::{AnyStore, Store};

    fn update(by_rule: bool, dropped: bool, learned: Option<&str>) -> WriteOp {
        WriteOp::SiteRule(SiteRuleUpdate {
            site: "news".into(),
            by_rule,
            dropped,
            learned: learned.map(|d| (format!("{{\"path\":\"{d}\"}}"), d.to_string())),
        })
    }

    #[test]
    fn rule_is_learned_counted_dropped_and_relearned() {
        let mut store = AnyStore::from(Store::open_in_memory().unwrap_or_else(|e| panic!("{e}")));
        store
            .write_batch(vec![
                update(false, false, Some("div#story")),
                update(true, false, None),
                update(true, false, None),
                update(true, false, None),
            ])
            .unwrap_or_else(|e| panic!("{e}"));
        let s = store
            .site_rule_stats("news")
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(s.rule.as_deref(), Some("div#story"));
        assert_eq!((s.pages_by_rule, s.pages_by_tree, s.dropped), (3, 1, 0));
        assert!((s.hit_rate() - 0.75).abs() < 1e-12);
        assert_eq!(store.site_rules().unwrap_or_default().len(), 1);

        // A redesign: the rule is dropped; no new one could be learned.
        store
            .write_batch(vec![update(false, true, None)])
            .unwrap_or_else(|e| panic!("{e}"));
        let s = store
            .site_rule_stats("news")
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((s.rule, s.dropped, s.pages_by_tree), (None, 1, 2));
        assert!(store.site_rules().unwrap_or_default().is_empty());

        // Relearned on the next page; `stats` shows it.
        store
            .write_batch(vec![update(false, false, Some("main > article"))])
            .unwrap_or_else(|e| panic!("{e}"));
        let all = store.site_stats(50).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(all.len(), 1);
        assert_eq!(all[0].site_rule.rule.as_deref(), Some("main > article"));
    }
}
