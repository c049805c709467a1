//! The store's half of `reextract` on PostgreSQL, what the command's core
//! calls through [`AnyStore`](crate::store::AnyStore): the transaction a
//! batch of `rules::reextract` runs in.
//!
//! In: a cursor key naming a selection, and per batch the articles
//! extracted again from their kept pages ([`Reextracted`]). Out: per
//! applied batch, what changed ([`ReextractCounts`]). Each batch is one
//! transaction that also moves the cursor (`reextract_progress`) and holds
//! the learning locks of the batch's sites, so a crawl storing articles of those sites meanwhile
//! waits rather than counting lines under it. The search column is
//! generated from `title` and `text`: it follows each update by itself.

use super::articles::{lock_sites, Tx};
use super::PgStore;
use crate::boilerplate::LineSettings;
use crate::store::rules::reextract;
use crate::store::{ReextractCounts, Reextracted, StoreError};

impl PgStore {
    pub fn apply_reextracted(
        &mut self,
        key: &str,
        batch: &[Reextracted],
        last_id: i64,
        settings_for: &dyn Fn(&str) -> LineSettings,
    ) -> Result<ReextractCounts, StoreError> {
        let mut tx = self.client.transaction()?;
        let ids: Vec<i64> = batch.iter().map(|r| r.article_id).collect();
        let sites: Vec<String> = tx
            .query(
                "SELECT DISTINCT s.name FROM articles a JOIN sites s ON s.id = a.site_id
                 WHERE a.id = ANY($1)",
                &[&ids],
            )?
            .iter()
            .map(|r| r.get(0))
            .collect();
        let names: Vec<&str> = sites.iter().map(String::as_str).collect();
        lock_sites(&mut tx, &names)?;
        let mut sql = Tx::prepared(&mut tx, &mut self.article_sql);
        let counts = reextract::apply_batch(&mut sql, key, batch, last_id, settings_for)?;
        tx.commit()?;
        Ok(counts)
    }
}
