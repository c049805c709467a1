//! Article writes on PostgreSQL against a real server ([`TestDb`]): the
//! same outcomes, texts and line counts as the SQLite store, concurrent
//! writers adding up to one writer, deadlocks retried.
//!
//! [`TestDb`]: crate::store::pg::testing::TestDb

mod concurrent;
mod fixtures;
mod same_as_sqlite;
mod site_by_site;
mod speed;

use crate::boilerplate::LineSettings;
use crate::store::pg::PgStore;
use crate::store::rules::reclean::{each_site, reclean_site, sites, Recleaned, Which};
use crate::store::StoreError;

impl PgStore {
    /// The re-clean as `AnyStore::reclean` runs it.
    pub(crate) fn reclean(
        &mut self,
        site: Option<&str>,
        which: Which,
        settings_for: impl Fn(&str) -> LineSettings,
    ) -> Result<Recleaned, StoreError> {
        let sites = sites(self.client(), site)?;
        each_site(sites, which, settings_for, |id, s| {
            self.in_article_transaction(|w| reclean_site(w, id, s, which))
        })
    }
}
