//! Per-site figures for `stats` and the crawl summary: the database in,
//! one [`SiteStats`] per site out (sites in name order).

use super::{lines, SiteStats, Store, StoreError};
use crate::boilerplate::LineRule;

impl Store {
    /// Per site: URLs known, pages fetched, articles, RC, line-table size,
    /// lines currently judged boilerplate under window `line_window` (L of
    /// `[boilerplate]`), and failed fetches by error kind.
    pub fn site_stats(&self, line_window: u64) -> Result<Vec<SiteStats>, StoreError> {
        let rule = LineRule {
            window: line_window,
        };
        let mut sites = self.conn.prepare(
            "SELECT s.id, s.name,
                (SELECT count(*) FROM urls u WHERE u.site_id = s.id),
                (SELECT count(*) FROM articles a WHERE a.site_id = s.id),
                coalesce((SELECT articles_processed FROM site_stats t WHERE t.site_id = s.id), 0)
             FROM sites s ORDER BY s.name",
        )?;
        let rows = sites.query_map([], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, i64>(2)?,
                r.get::<_, i64>(3)?,
                r.get::<_, i64>(4)?,
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (id, site, urls_known, articles, rc) = row?;
            let lines_tracked = lines::table_size(&self.conn, id)?;
            let boilerplate_lines = lines::boilerplate_lines(&self.conn, id, &rule)?;
            let fetches = self.fetch_outcomes(id)?;
            out.push(SiteStats {
                site,
                urls_known: count(urls_known),
                pages_fetched: fetches.ok,
                articles: count(articles),
                articles_processed: count(rc),
                lines_tracked,
                boilerplate_lines,
                errors: fetches.errors,
                skipped: fetches.skipped,
                site_rule: super::site_rules::rule_stats(&self.conn, id)?,
                url_shapes: super::url_shapes::top_shapes(&self.conn, id)?,
            });
        }
        Ok(out)
    }

    /// Successful fetches, failed ones by kind and skips by reason (each
    /// most frequent first).
    fn fetch_outcomes(&self, site_id: i64) -> Result<FetchOutcomes, StoreError> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT f.error_kind, f.skipped, count(*) AS n FROM fetches f
             JOIN urls u ON u.id = f.url_id
             WHERE u.site_id = ?1 GROUP BY f.error_kind, f.skipped
             ORDER BY n DESC, f.error_kind",
        )?;
        let rows = stmt.query_map([site_id], |r| {
            Ok((
                r.get::<_, Option<String>>(0)?,
                r.get::<_, bool>(1)?,
                count(r.get(2)?),
            ))
        })?;
        let mut out = FetchOutcomes::default();
        for row in rows {
            match row? {
                (None, _, n) => out.ok += n,
                (Some(kind), false, n) => out.errors.push((kind, n)),
                (Some(kind), true, n) => out.skipped.push((kind, n)),
            }
        }
        Ok(out)
    }
}

fn count(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
}

#[derive(Default)]
struct FetchOutcomes {
    ok: u64,
    errors: Vec<(String, u64)>,
    skipped: Vec<(String, u64)>,
}
