//! Boilerplate maintenance over the whole store: re-cleaning stored articles
//! with the lines learned since (warm-up repair) and listing a site's most
//! recurring lines. In: site names and settings; out: counts and lines.

use rusqlite::OptionalExtension;

use super::lines::{self, LineSettings};
use super::{Store, StoreError};

impl Store {
    /// Re-clean the stored articles of one site (or every site) from their
    /// pre-filter text with the current line counts; one transaction per
    /// site. Returns how many articles changed. An unknown site changes nothing.
    pub fn reclean(
        &mut self,
        site: Option<&str>,
        settings_for: impl Fn(&str) -> LineSettings,
    ) -> Result<usize, StoreError> {
        let sites: Vec<(i64, String)> = {
            let mut stmt = self
                .conn
                .prepare("SELECT id, name FROM sites WHERE ?1 IS NULL OR name = ?1 ORDER BY id")?;
            let rows = stmt.query_map([site], |r| Ok((r.get(0)?, r.get(1)?)))?;
            rows.collect::<Result<_, _>>()?
        };
        let mut changed = 0;
        for (id, name) in sites {
            let settings = settings_for(&name);
            if !settings.enabled {
                continue;
            }
            let tx = self.conn.transaction()?;
            changed += lines::reclean_site(&tx, id, &settings)?;
            tx.commit()?;
        }
        Ok(changed)
    }

    /// A site's `n` most recurring lines with their counts (LC); lines seen
    /// in only one article do not recur and are left out.
    pub fn top_lines(&self, site: &str, n: usize) -> Result<Vec<(String, u64)>, StoreError> {
        let id: Option<i64> = self
            .conn
            .query_row("SELECT id FROM sites WHERE name = ?1", [site], |r| r.get(0))
            .optional()?;
        match id {
            Some(id) => {
                let mut top = lines::top_lines(&self.conn, id, n)?;
                top.retain(|(_, count)| *count > 1);
                Ok(top)
            }
            None => Ok(Vec::new()),
        }
    }
}
