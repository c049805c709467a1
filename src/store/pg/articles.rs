//! Article writes on PostgreSQL: the `Article`, `Refetched` and `SiteRule`
//! ops of a write batch, in the batch's transaction, and the re-clean.
//!
//! In: [`NewArticle`]s and [`SiteRuleUpdate`]s. Out: rows in `articles`,
//! `article_urls`, `article_versions`, `article_html`, the line tables and
//! `site_rules`, and [`WriteOutcome`]s.
//!
//! (Seam: the frontier's write batch calls these; until they are built
//! they refuse with [`StoreError::PgUnsupported`].)

use postgres::Transaction;

use crate::boilerplate::LineSettings;
use crate::store::{NewArticle, SiteRuleUpdate, StoreError, WriteOutcome};

use super::PgStore;

/// Store one extracted article (`refetch`: an article's URL fetched again
/// to catch updates) in the batch's transaction.
pub(super) fn write_article(
    tx: &mut Transaction<'_>,
    article: NewArticle,
    refetch: bool,
) -> Result<WriteOutcome, StoreError> {
    let _ = (tx, article, refetch);
    Err(StoreError::PgUnsupported("storing articles"))
}

/// Record a `tree` article page's use of its site's rule.
pub(super) fn record_site_rule(
    tx: &mut Transaction<'_>,
    update: SiteRuleUpdate,
) -> Result<WriteOutcome, StoreError> {
    let _ = (tx, update);
    Err(StoreError::PgUnsupported("site rules"))
}

impl PgStore {
    /// The end-of-crawl re-clean of one site (or every site): the articles
    /// having a line whose status changed after they were cleaned; returns
    /// how many changed.
    pub fn reclean_changed(
        &mut self,
        site: Option<&str>,
        settings_for: impl Fn(&str) -> LineSettings,
    ) -> Result<usize, StoreError> {
        let _ = (site, settings_for);
        Err(StoreError::PgUnsupported("re-cleaning"))
    }
}
