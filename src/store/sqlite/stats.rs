//! Per-site figures for `stats` and the crawl summary on SQLite: the reads
//! of `rules::stats` ([`StatsSql`] for [`Sqlite`]).

use rusqlite::params;

use super::articles::Sqlite;
use super::{lines, SiteStats, Store, StoreError};
use crate::store::rules::stats::{self, FetchOutcome, SiteCounts, StatsSql};
use crate::store::rules::{to_i64, to_u64};
use crate::store::{ShapeCounts, SiteRuleStats};

impl Store {
    /// One [`SiteStats`] per site, in name order (see `rules::stats`).
    pub fn site_stats(&self, line_window: u64) -> Result<Vec<SiteStats>, StoreError> {
        Ok(stats::site_stats(&mut Sqlite(&self.conn), line_window)?)
    }
}

impl StatsSql for Sqlite<'_> {
    type Error = rusqlite::Error;

    fn sites(&mut self) -> rusqlite::Result<Vec<SiteCounts>> {
        self.0
            .prepare(
                "SELECT s.id, s.name,
                    (SELECT count(*) FROM urls u WHERE u.site_id = s.id),
                    (SELECT count(*) FROM articles a WHERE a.site_id = s.id),
                    coalesce((SELECT articles_processed FROM site_stats t
                              WHERE t.site_id = s.id), 0)
                 FROM sites s ORDER BY s.name",
            )?
            .query_map([], |r| {
                Ok(SiteCounts {
                    id: r.get(0)?,
                    name: r.get(1)?,
                    urls_known: to_u64(r.get(2)?),
                    articles: to_u64(r.get(3)?),
                    articles_processed: to_u64(r.get(4)?),
                })
            })?
            .collect()
    }

    fn lines_tracked(&mut self, site_id: i64) -> rusqlite::Result<u64> {
        lines::table_size(self.0, site_id)
    }

    fn lines_above(&mut self, site_id: i64, threshold: u64) -> rusqlite::Result<u64> {
        let n: i64 = self
            .0
            .prepare_cached("SELECT count(*) FROM line_hashes WHERE site_id = ?1 AND count > ?2")?
            .query_row(params![site_id, to_i64(threshold)], |r| r.get(0))?;
        Ok(to_u64(n))
    }

    fn fetch_outcomes(&mut self, site_id: i64) -> rusqlite::Result<Vec<FetchOutcome>> {
        self.0
            .prepare_cached(
                "SELECT f.error_kind, f.skipped, count(*) AS n FROM fetches f
                 JOIN urls u ON u.id = f.url_id
                 WHERE u.site_id = ?1 GROUP BY f.error_kind, f.skipped
                 ORDER BY n DESC, f.error_kind",
            )?
            .query_map([site_id], |r| Ok((r.get(0)?, r.get(1)?, to_u64(r.get(2)?))))?
            .collect()
    }

    fn rule_stats(&mut self, site_id: i64) -> rusqlite::Result<SiteRuleStats> {
        super::site_rules::rule_stats(self.0, site_id)
    }

    fn top_shapes(&mut self, site_id: i64) -> rusqlite::Result<Vec<ShapeCounts>> {
        super::url_shapes::top_shapes(self.0, site_id)
    }
}
