//! The summary in words: what a run did, each site's report, the hints,
//! what waits and until when, what failed, what was refused.
//!
//! In: a [`CrawlSummary`]. Out: its multi-line human `Display`.

use std::fmt;

use super::{site_report, CrawlSummary};
use crate::crawl::kinds::CapKind;
use crate::store::OutlookRow;

/// A unix time in ms as `2026-11-26 17:45:00 UTC`.
pub(super) fn utc(ms: i64) -> String {
    crate::store::ms_to_rfc3339(ms)
        .map(|t| format!("{} UTC", t[..t.len().min(19)].replace('T', " ")))
        .unwrap_or_default()
}

impl fmt::Display for CrawlSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secs = self.elapsed.as_secs_f64();
        let rate = if secs > 0.0 {
            self.pages_fetched as f64 / secs
        } else {
            0.0
        };
        writeln!(f, "crawl finished in {secs:.1} s")?;
        writeln!(
            f,
            "  pages fetched:    {} ({rate:.1}/s, {} not modified)",
            self.pages_fetched, self.not_modified
        )?;
        writeln!(f, "  articles stored:  {}", self.articles_stored)?;
        writeln!(f, "  not articles:     {}", self.pages_not_articles)?;
        writeln!(f, "  duplicates:       {}", self.duplicates)?;
        if self.near_duplicates > 0 {
            writeln!(
                f,
                "  near-duplicates:  {} (stored as versions)",
                self.near_duplicates
            )?;
        }
        if self.articles_updated > 0 {
            writeln!(f, "  articles updated: {}", self.articles_updated)?;
        }
        writeln!(f, "  boilerplate lines dropped: {}", self.lines_dropped)?;
        writeln!(f, "  articles re-cleaned: {}", self.articles_recleaned)?;
        self.fmt_discovered(f)?;
        if !self.skipped.is_empty() {
            let total: u64 = self.skipped.values().sum();
            writeln!(f, "  skipped:          {total}")?;
            for (kind, n) in &self.skipped {
                writeln!(f, "    {kind:<22} {n}")?;
            }
        }
        if !self.caps.is_empty() {
            writeln!(f, "  caps reached:")?;
            for (setting, n) in &self.caps {
                let counted = CapKind::ALL
                    .iter()
                    .find(|k| k.setting() == setting)
                    .map_or("times", |k| k.counted());
                writeln!(f, "    {setting:<30} {n} {counted}")?;
            }
        }
        if self.requeued > 0 {
            writeln!(
                f,
                "  queued again:     {} failed or refused URLs",
                self.requeued
            )?;
        }
        if self.waits_lifted > 0 {
            writeln!(
                f,
                "  waits lifted:     {} URLs that waited after a failure were tried now",
                self.waits_lifted
            )?;
        }
        if self.pages_rejudged > 0 {
            writeln!(
                f,
                "  judged again:     {} pages, on evidence that came later (a feed listed them, \
                 their URL shape was learned)",
                self.pages_rejudged
            )?;
        }
        if self.errors.is_empty() {
            write!(f, "  errors:           none")?;
        } else {
            write!(f, "  errors:           {}", self.error_total())?;
            for (kind, n) in &self.errors {
                write!(f, "\n    {kind:<22} {n}")?;
            }
        }
        self.fmt_sites(f)?;
        self.fmt_outlook(f)
    }
}

impl CrawlSummary {
    fn fmt_sites(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.sites.is_empty() {
            return Ok(());
        }
        write!(f, "\n  by site:")?;
        for (name, r) in &self.sites {
            write!(
                f,
                "\n    {name}: {} articles stored, {} pages not articles",
                r.articles_stored, r.pages_not_articles
            )?;
            if r.patterns && r.unmatched_links > 0 {
                let more = if r.unmatched_links as usize >= site_report::UNMATCHED_TRACKED {
                    "at least "
                } else {
                    ""
                };
                write!(
                    f,
                    ", {more}{} links matched no pattern (e.g. {})",
                    r.unmatched_links,
                    r.unmatched_examples.join(", ")
                )?;
            }
            if !r.found_by_probing.is_empty() {
                write!(f, "; found by probing: {}", r.found_by_probing.join(", "))?;
            }
        }
        for hint in self.hints() {
            write!(f, "\n  hint: {hint}")?;
        }
        Ok(())
    }

    /// What the URLs discovered are: the pages they led to this run, the
    /// URLs left queued, and the links not followed.
    fn fmt_discovered(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let queued: u64 = self.outlook.queued.values().sum();
        writeln!(
            f,
            "  URLs discovered:  {} links to the sites' pages, counted each time found: \
             {} stored as articles, {} pages not articles, {queued} URLs queued for later",
            self.urls_discovered, self.articles_stored, self.pages_not_articles
        )?;
        if self.links_outside > 0 {
            writeln!(
                f,
                "  not followed:     {} links outside the sites (other hosts, traps)",
                self.links_outside
            )?;
        }
        Ok(())
    }

    fn fmt_outlook(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sections: [(&str, &str, &[OutlookRow]); 3] = [
            (
                "waiting:         ",
                "`newshound crawl --retry-failed` tries them now",
                &self.outlook.waiting,
            ),
            (
                "failed (all runs):",
                "`newshound crawl --retry-failed` queues them again",
                &self.outlook.failed,
            ),
            (
                "refused (all runs):",
                "robots.txt asks crawlers to stay out: tried again when `respect_robots` \
                 or the user agent changes",
                &self.outlook.refused,
            ),
        ];
        for (title, what, list) in sections.into_iter().filter(|s| !s.2.is_empty()) {
            let total: u64 = list.iter().map(|r| r.urls).sum();
            write!(f, "\n  {title} {total} ({what})")?;
            for r in list {
                let until = r.until.map(|t| format!(" until {}", utc(t)));
                let until = until.unwrap_or_default();
                write!(f, "\n    {:<22} {:<22} {}{until}", r.site, r.reason, r.urls)?;
            }
        }
        Ok(())
    }
}
