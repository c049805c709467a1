//! Article writes on PostgreSQL: the `Article` and `Refetched` ops of a
//! write batch, in the batch's transaction.
//!
//! In: [`NewArticle`]s. Out: rows in `articles`, `article_urls`,
//! `article_versions`, `article_html` and the line tables, and
//! [`WriteOutcome`]s. What an article's writes decide is
//! in `rules::article`; this store gives it its [`primitives`].
//!
//! Many processes write at once. An article's writes start by taking its
//! site's learning lock (`locks::lock_site`, a transaction-level advisory lock),
//! so the transactions storing one site's articles run one after another:
//! each sees what the ones before it committed (dedup by URL and content,
//! near-duplicates, line counts), as one process would. Batches write
//! their articles site by site, one short transaction per site
//! ([`site_by_site`]), so a site's lock is held only while its lines are
//! counted: batches of different processes overlap. A transaction holding
//! articles of several sites should lock them all first, in id order
//! (`ArticleSql::lock_sites`); else two may wait on each other's sites, which the
//! server breaks by failing one with a deadlock error that
//! [`is_retryable`] recognises: the transaction is then run again, whole.
//!
//! Statements go out prepared once per connection
//! ([`write_article_prepared`] with the store's [`Prepared`]); each
//! article needs about seven (see [`sql`]).

mod locks;
mod primitives;
mod sql;

use postgres::Transaction;

use crate::store::rules;
use crate::store::{NewArticle, StoreError, WriteOutcome};
pub(super) use locks::{is_retryable, learning_sites, site_by_site, Commit};
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

#[cfg(test)]
mod tests;
