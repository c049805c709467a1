//! Per-site figures (`stats`, the crawl summary), assembled the same way on
//! both stores from a few counts each backend reads.
//!
//! In: a backend's [`StatsSql`] and the line window L of `[boilerplate]`.
//! Out: one [`SiteStats`] per site, sites in name order: which lines count
//! as boilerplate (the plain rule's threshold for the site's RC) and how
//! fetch outcomes split into pages fetched, errors and skips are decided
//! here.

use crate::boilerplate::LineRule;
use crate::store::{ShapeCounts, SiteRuleStats, SiteStats};

/// A site's row: its id and name, URLs known, articles and RC.
pub(crate) struct SiteCounts {
    pub id: i64,
    pub name: String,
    pub urls_known: u64,
    pub articles: u64,
    pub articles_processed: u64,
}

/// Fetches of one outcome: the error kind (`None`: fetched), whether they
/// were skips, how many.
pub(crate) type FetchOutcome = (Option<String>, bool, u64);

/// What [`site_stats`] reads.
pub(crate) trait StatsSql {
    type Error;
    /// Every site, in name order (byte order).
    fn sites(&mut self) -> Result<Vec<SiteCounts>, Self::Error>;
    /// Rows of the site's line table.
    fn lines_tracked(&mut self, site_id: i64) -> Result<u64, Self::Error>;
    /// Lines of the site seen more than `threshold` times.
    fn lines_above(&mut self, site_id: i64, threshold: u64) -> Result<u64, Self::Error>;
    /// The site's fetches by outcome, most frequent first.
    fn fetch_outcomes(&mut self, site_id: i64) -> Result<Vec<FetchOutcome>, Self::Error>;
    /// The site's `tree` rule and its figures.
    fn rule_stats(&mut self, site_id: i64) -> Result<SiteRuleStats, Self::Error>;
    /// The site's most judged URL shapes.
    fn top_shapes(&mut self, site_id: i64) -> Result<Vec<ShapeCounts>, Self::Error>;
}

/// Per site: URLs known, pages fetched, articles, RC, line-table size,
/// lines currently judged boilerplate under window `line_window`, failed
/// fetches by kind, skips by reason, the `tree` rule's figures and shapes.
pub(crate) fn site_stats<S: StatsSql>(
    sql: &mut S,
    line_window: u64,
) -> Result<Vec<SiteStats>, S::Error> {
    let rule = LineRule {
        window: line_window,
    };
    let mut out = Vec::new();
    for site in sql.sites()? {
        let mut stats = SiteStats {
            urls_known: site.urls_known,
            pages_fetched: 0,
            articles: site.articles,
            articles_processed: site.articles_processed,
            lines_tracked: sql.lines_tracked(site.id)?,
            boilerplate_lines: sql.lines_above(site.id, rule.threshold(site.articles_processed))?,
            errors: Vec::new(),
            skipped: Vec::new(),
            site_rule: sql.rule_stats(site.id)?,
            url_shapes: sql.top_shapes(site.id)?,
            site: site.name,
        };
        for (kind, skipped, n) in sql.fetch_outcomes(site.id)? {
            match (kind, skipped) {
                (None, _) => stats.pages_fetched += n,
                (Some(kind), false) => stats.errors.push((kind, n)),
                (Some(kind), true) => stats.skipped.push((kind, n)),
            }
        }
        out.push(stats);
    }
    Ok(out)
}
