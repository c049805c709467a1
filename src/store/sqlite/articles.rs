//! Batched writes on SQLite: a list of [`WriteOp`]s in, one [`WriteOutcome`]
//! per op out, all in ONE transaction (any failing op rolls the whole batch
//! back).
//!
//! New URLs are added here (the per-site cap in `rules::frontier`); fetch
//! logs, promotions, site rules and shape counts are the statements both
//! stores share (`portable::writes`); an article goes to the rules of
//! [`rules::article`] (de-duplication, near-duplicates, learning in the
//! same transaction) over this store's primitives ([`primitives`]). The batch's
//! new articles enter the search indexes together at its end
//! ([`search_index`]).

mod primitives;

use std::collections::HashMap;

use super::frontier::{add_urls_in, UrlCaps};
use super::portable::writes;
use super::rules;
use super::search_index;
use super::{Store, StoreError, WriteOp, WriteOutcome};
pub(crate) use primitives::Sqlite;

impl Store {
    /// Apply a batch of writes in one transaction. On error nothing of the
    /// batch is kept.
    pub fn write_batch(&mut self, ops: Vec<WriteOp>) -> Result<Vec<WriteOutcome>, StoreError> {
        let (caps, counts) = (self.url_caps, &mut self.url_counts);
        let out = (|| {
            let tx = self.conn.transaction()?;
            let mut indexed = search_index::last_article_id(&tx)?;
            let mut out = Vec::with_capacity(ops.len());
            // Summed and added last, in one order (see `url_shapes::summed`).
            let mut shapes = Vec::new();
            for op in ops {
                if matches!(op, WriteOp::Refetched(_)) {
                    // It may update an article of this batch: index those first.
                    indexed = search_index::index_after(&tx, indexed)?;
                }
                if let Some(outcome) = writes::write_op(&mut &*tx, &op, None, &mut shapes)? {
                    out.push(outcome);
                    continue;
                }
                out.push(match op {
                    WriteOp::AddUrls(urls) => {
                        WriteOutcome::UrlsAdded(add_urls_in(&tx, &urls, caps, counts)?)
                    }
                    // Known without a fetch (canonical aliases): never capped, as
                    // they are not fetched (`writes::known_done`).
                    WriteOp::Known(urls) => {
                        let added = add_urls_in(&tx, &urls, UrlCaps::NONE, counts)?;
                        writes::known_done(&mut &*tx, &urls)?;
                        WriteOutcome::UrlsAdded(added)
                    }
                    WriteOp::Article(a) => rules::article::store(&mut Sqlite(&tx), &a)?,
                    WriteOp::Refetched(a) => rules::article::refetched(&mut Sqlite(&tx), &a)?,
                    _ => unreachable!("writes::write_op writes the other ops"),
                });
            }
            writes::add_shapes(&mut &*tx, &mut HashMap::new(), &shapes)?;
            search_index::index_after(&tx, indexed)?;
            tx.commit()?;
            Ok(out)
        })();
        match out {
            Ok(_) => self.after_commit(),
            // Rolled back: the counts of its URLs are wrong.
            Err(_) => self.url_counts.forget(),
        }
        out
    }
}
