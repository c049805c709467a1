//! Article writes on PostgreSQL: the `Article`, `Refetched` and `SiteRule`
//! ops of a write batch, in the batch's transaction, and the re-clean.
//!
//! In: [`NewArticle`]s and [`SiteRuleUpdate`]s. Out: rows in `articles`,
//! `article_urls`, `article_versions`, `article_html`, the line tables and
//! `site_rules`, and [`WriteOutcome`]s. What an article's writes decide is
//! in `rules::article`; this store gives it its [`primitives`].
//!
//! Many processes write at once. An article's writes start by taking its
//! site's learning lock ([`lock_site`], a transaction-level advisory lock),
//! so the transactions storing one site's articles run one after another:
//! each sees what the ones before it committed (dedup by URL and content,
//! near-duplicates, line counts), as one process would. Batches write
//! their articles site by site, one short transaction per site
//! ([`site_by_site`]), so a site's lock is held only while its lines are
//! counted: batches of different processes overlap. A transaction holding
//! articles of several sites should lock them all first, in id order
//! ([`lock_sites`]); else two may wait on each other's sites, which the
//! server breaks by failing one with a deadlock error that
//! [`is_retryable`] recognises: the transaction is then run again, whole.
//!
//! Statements go out prepared once per connection
//! ([`write_article_prepared`] with the store's [`Prepared`]); each
//! article needs about seven (see [`sql`]).

mod current_counts;
mod locks;
mod primitives;
mod reclean;
mod sql;

use postgres::types::Type;
use postgres::Transaction;

use crate::store::rules;
use crate::store::{NewArticle, SiteRuleUpdate, StoreError, WriteOutcome};
pub(super) use current_counts::boilerplate_hashes;
pub(super) use locks::{is_retryable, learning_sites, lock_sites, site_by_site, Commit};
use locks::{lock_site, site_id_in};
pub(super) use sql::{Prepared, Tx};

/// Store one extracted article (`refetch`: an article's URL fetched again
/// to catch updates) in the batch's transaction, each statement sent whole:
/// what tests of concurrent writers drive.
#[cfg(test)]
pub(super) fn write_article(
    tx: &mut Transaction<'_>,
    article: NewArticle,
    refetch: bool,
) -> Result<WriteOutcome, StoreError> {
    rules::article::write(&mut Tx::plain(tx), &article, refetch)
}

/// Store one extracted article in the batch's transaction, the statements
/// prepared once on the connection and kept in `prepared` (the
/// connection's own: `PgStore::article_sql`): the server plans them once
/// instead of for every article.
pub(super) fn write_article_prepared(
    tx: &mut Transaction<'_>,
    prepared: &mut Prepared,
    article: NewArticle,
    refetch: bool,
) -> Result<WriteOutcome, StoreError> {
    let tx = &mut Tx::prepared(tx, prepared);
    rules::article::write(tx, &article, refetch)
}

/// Articles written without a frontier: what the tests of article writes
/// (equivalence with SQLite, concurrency, speed) drive.
#[cfg(test)]
impl super::PgStore {
    /// Store articles (`refetch`: a stored article's URL fetched again),
    /// each site's in a transaction of its own ([`site_by_site`]: its
    /// learning lock held only while its articles are written), run again
    /// when the server fails it as a deadlock's victim. The article half of
    /// the crawl's write batch.
    pub fn store_articles(
        &mut self,
        articles: &[(NewArticle, bool)],
    ) -> Result<Vec<WriteOutcome>, StoreError> {
        let sites: Vec<Option<&str>> = articles.iter().map(|(a, _)| Some(&*a.site)).collect();
        let prepared = &mut self.article_sql;
        let write = |tx: &mut Transaction<'_>, i: usize| {
            let (a, refetch) = &articles[i];
            write_article_prepared(tx, prepared, a.clone(), *refetch)
        };
        let out = site_by_site(&mut self.client, &sites, Commit::Durable, write, || {})?;
        Ok(out.into_iter().flatten().collect())
    }
}

/// Record a `tree` article page's use of its site's rule (the counts are
/// raised in SQL, so processes add up).
pub(super) fn record_site_rule(
    tx: &mut Transaction<'_>,
    update: SiteRuleUpdate,
) -> Result<WriteOutcome, StoreError> {
    let tx = &mut Tx::plain(tx);
    let u = &update;
    let site_id = site_id_in(tx, &u.site)?;
    tx.execute_typed(
        "INSERT INTO site_rules AS r (site_id, pages_by_rule, pages_by_tree, dropped)
         VALUES ($1, $2, $3, $4)
         ON CONFLICT (site_id) DO UPDATE SET pages_by_rule = r.pages_by_rule + excluded.pages_by_rule,
             pages_by_tree = r.pages_by_tree + excluded.pages_by_tree,
             dropped = r.dropped + excluded.dropped", &[(&site_id, Type::INT8), (&i64::from(u.by_rule), Type::INT8), (&i64::from(!u.by_rule), Type::INT8), (&i64::from(u.dropped), Type::INT8)])?;
    if u.dropped {
        tx.execute_typed(
            "UPDATE site_rules SET rule = NULL, display = NULL WHERE site_id = $1",
            &[(&site_id, Type::INT8)],
        )?;
    }
    if let Some((json, display)) = &u.learned {
        tx.execute_typed(
            "UPDATE site_rules SET rule = $2, display = $3 WHERE site_id = $1",
            &[
                (&site_id, Type::INT8),
                (json, Type::TEXT),
                (display, Type::TEXT),
            ],
        )?;
    }
    Ok(WriteOutcome::RuleRecorded)
}

#[cfg(test)]
mod tests;
