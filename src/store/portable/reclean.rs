//! The re-clean of a store's sites, whichever store: the sites listed
//! once, each re-cleaned in a transaction of its own (on PostgreSQL holding
//! the site's learning lock; the rules are `rules::reclean`).
//!
//! In: a site (or every site), which articles, and each site's
//! [`LineSettings`]. Out: how many articles were read and how many changed
//! ([`Recleaned`]).

use super::super::rules::reclean::{each_site, reclean_site, sites, Recleaned, Which};
use super::super::sqlite::articles::Sqlite;
use super::super::{AnyStore, StoreError};
use crate::boilerplate::LineSettings;

impl AnyStore {
    /// Re-clean the stored articles of one site (or every site) from their
    /// raw text with the current line counts, one transaction a site:
    /// every article ([`Which::All`], the `reclean` command: a site with
    /// learning off is left as it is), or at the end of a crawl only those
    /// having a line whose status changed since they were cleaned
    /// ([`Which::Changed`], which leaves the same texts). An unknown site
    /// changes nothing.
    pub fn reclean(
        &mut self,
        site: Option<&str>,
        which: Which,
        settings_for: &dyn Fn(&str) -> LineSettings,
    ) -> Result<Recleaned, StoreError> {
        let sites = sites(self.sql(), site)?;
        each_site(sites, which, settings_for, |id, settings| match self {
            AnyStore::Sqlite(s) => {
                let tx = s.conn.transaction()?;
                let done = reclean_site(&mut Sqlite(&tx), id, settings, which)?;
                tx.commit()?;
                Ok(done)
            }
            AnyStore::Pg(s) => s.reclean_site(id, settings, which),
        })
    }
}
