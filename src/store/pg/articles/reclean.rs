//! The re-clean on PostgreSQL: one site's transaction, holding the site's
//! learning lock so that a crawl still storing the site's articles waits
//! rather than races it, and the article primitives ([`Tx`]) whose
//! transaction the re-clean's own statements run on; the rules and those
//! statements are `rules::reclean`.
//!
//! In: a site id and its [`LineSettings`]. Out: articles' `text` and
//! `word_count` rewritten where cleaning with the current counts changes
//! them, and how many ([`Recleaned`]).

use super::lock_site;
use super::sql::Tx;
use crate::boilerplate::LineSettings;
use crate::store::pg::PgStore;
use crate::store::rules::reclean::{reclean_site, Recleaned, Which};
use crate::store::StoreError;

impl PgStore {
    /// One site's re-clean (see `rules::reclean`), in a transaction of its
    /// own holding the site's learning lock.
    pub(crate) fn reclean_site(
        &mut self,
        site_id: i64,
        settings: &LineSettings,
        which: Which,
    ) -> Result<Recleaned, StoreError> {
        let mut tx = self.client.transaction()?;
        let mut w = Tx::prepared(&mut tx, &mut self.article_sql);
        lock_site(&mut w, site_id)?;
        let done = reclean_site(&mut w, site_id, settings, which)?;
        tx.commit()?;
        Ok(done)
    }
}
