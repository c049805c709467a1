//! Per-site figures (`stats`, the crawl summary), read and assembled the
//! same way on both stores.
//!
//! In: a store's [`Sql`] and the line window L of `[boilerplate]`. Out:
//! one [`SiteStats`] per site, sites in name order: which lines count as
//! boilerplate (the plain rule's threshold for the site's RC) and how
//! fetch outcomes split into pages fetched, errors and skips are decided
//! here.

use crate::boilerplate::LineRule;
use crate::store::portable::{rule_stats, top_shapes};
use crate::store::sql::{Sql, Value};
use crate::store::{SiteStats, StoreError};

/// Per site: URLs known, pages fetched, articles, RC, line-table size,
/// lines currently judged boilerplate under window `line_window`, failed
/// fetches by kind, skips by reason, the `tree` rule's figures and shapes.
pub(crate) fn site_stats(
    sql: &mut dyn Sql,
    line_window: u64,
) -> Result<Vec<SiteStats>, StoreError> {
    let rule = LineRule {
        window: line_window,
    };
    let by_name = sql.dialect().bytewise();
    let sites = sql.rows(
        &format!(
            "SELECT s.id, s.name,
                (SELECT count(*) FROM urls u WHERE u.site_id = s.id),
                (SELECT count(*) FROM articles a WHERE a.site_id = s.id),
                coalesce((SELECT articles_processed FROM site_stats t WHERE t.site_id = s.id), 0)
             FROM sites s ORDER BY s.name{by_name}"
        ),
        &[],
        |r| Ok((r.int(0)?, r.text(1)?, r.count(2)?, r.count(3)?, r.count(4)?)),
    )?;
    let mut out = Vec::new();
    for (id, name, urls_known, articles, processed) in sites {
        let count = |sql: &mut dyn Sql, cond: &str, params: &[Value<'_>]| {
            let query = format!("SELECT count(*) FROM line_hashes WHERE site_id = ?1{cond}");
            sql.one(&query, params, |r| r.count(0))
        };
        let mut stats = SiteStats {
            urls_known,
            pages_fetched: 0,
            articles,
            articles_processed: processed,
            lines_tracked: count(sql, "", &[id.into()])?,
            boilerplate_lines: count(
                sql,
                " AND count > ?2",
                &[id.into(), crate::store::sql::int(rule.threshold(processed))],
            )?,
            errors: Vec::new(),
            skipped: Vec::new(),
            site_rule: rule_stats(sql, id)?,
            url_shapes: top_shapes(sql, id)?,
            site: name,
        };
        let outcomes = sql.rows(
            "SELECT f.error_kind, f.skipped, count(*) AS n FROM fetches f
             JOIN urls u ON u.id = f.url_id
             WHERE u.site_id = ?1 GROUP BY f.error_kind, f.skipped
             ORDER BY n DESC, f.error_kind",
            &[id.into()],
            |r| Ok((r.opt_text(0)?, r.flag(1)?, r.count(2)?)),
        )?;
        for (kind, skipped, n) in outcomes {
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
