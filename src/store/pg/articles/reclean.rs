//! The re-clean on PostgreSQL: its SQL ([`RecleanSql`] for [`Tx`]) and the
//! store's entry points (the rules are `rules::reclean`).
//!
//! In: a site (or every site) and its [`LineSettings`]. Out: articles'
//! `text` and `word_count` rewritten where cleaning with the current counts
//! changes them, and how many ([`Recleaned`]). One transaction per site,
//! holding the site's learning lock, so a crawl still storing the site's
//! articles waits rather than races it.

use postgres::types::Type;

use super::lock_site;
use super::sql::Tx;
use crate::boilerplate::LineSettings;
use crate::store::pg::PgStore;
use crate::store::rules::reclean::Recleaned;
use crate::store::rules::reclean::{each_site, reclean_site, RecleanSql, StoredText, Which};
use crate::store::StoreError;

impl PgStore {
    /// The end-of-crawl re-clean of one site (or every site): the articles
    /// having a line whose status changed after they were cleaned; how many
    /// were read and how many changed.
    pub fn reclean_changed(
        &mut self,
        site: Option<&str>,
        settings_for: impl Fn(&str) -> LineSettings,
    ) -> Result<Recleaned, StoreError> {
        self.reclean_sites(site, settings_for, Which::Changed)
    }

    /// Re-clean every stored article of one site (or every site) with the
    /// current counts (the `reclean` command); returns how many changed.
    /// A site with learning off is left as it is.
    pub fn reclean(
        &mut self,
        site: Option<&str>,
        settings_for: impl Fn(&str) -> LineSettings,
    ) -> Result<usize, StoreError> {
        Ok(self.reclean_sites(site, settings_for, Which::All)?.changed)
    }

    /// The named site (or every site) re-cleaned, one transaction a site
    /// holding the site's learning lock.
    fn reclean_sites(
        &mut self,
        site: Option<&str>,
        settings_for: impl Fn(&str) -> LineSettings,
        which: Which,
    ) -> Result<Recleaned, StoreError> {
        let sites = self
            .client()
            .query_typed(
                "SELECT id, name FROM sites WHERE $1::TEXT IS NULL OR name = $1 ORDER BY id",
                &[(&site, Type::TEXT)],
            )?
            .iter()
            .map(|r| (r.get(0), r.get(1)))
            .collect();
        each_site(sites, which, settings_for, |id, settings| {
            let mut tx = self.client.transaction()?;
            let mut w = Tx::prepared(&mut tx, &mut self.article_sql);
            lock_site(&mut w, id)?;
            let done = reclean_site(&mut w, id, settings, which)?;
            tx.commit()?;
            Ok(done)
        })
    }
}

impl RecleanSql for Tx<'_, '_> {
    fn cleaned_with(&mut self, site_id: i64) -> Result<Option<String>, StoreError> {
        Ok(self
            .query_typed_opt(
                "SELECT cleaned_with FROM site_stats WHERE site_id = $1",
                &[(&site_id, Type::INT8)],
            )?
            .and_then(|r| r.get(0)))
    }

    fn articles_after(
        &mut self,
        site_id: i64,
        after_id: i64,
        limit: usize,
    ) -> Result<Vec<StoredText>, StoreError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let rows = self.query_typed(
            "SELECT id, text, raw_text FROM articles
             WHERE site_id = $1 AND id > $2 ORDER BY id LIMIT $3",
            &[
                (&site_id, Type::INT8),
                (&after_id, Type::INT8),
                (&limit, Type::INT8),
            ],
        )?;
        Ok(rows
            .iter()
            .map(|r| (r.get(0), r.get(1), r.get(2)))
            .collect())
    }

    fn articles_with_changed_lines(&mut self, site_id: i64) -> Result<Vec<i64>, StoreError> {
        Ok(self
            .query_typed(
                "SELECT l.article_id FROM line_changes c
                 JOIN article_lines l ON l.site_id = c.site_id AND l.md5 = c.md5
                 WHERE c.site_id = $1 AND l.article_id <= c.before_id
                 UNION
                 SELECT l.article_id FROM line_changes c
                 JOIN article_shared_lines l ON l.site_id = c.site_id AND l.md5 = c.md5
                 WHERE c.site_id = $1 AND l.article_id <= c.before_id
                 ORDER BY 1",
                &[(&site_id, Type::INT8)],
            )?
            .iter()
            .map(|r| r.get(0))
            .collect())
    }

    fn articles_by_id(&mut self, site_id: i64, ids: &[i64]) -> Result<Vec<StoredText>, StoreError> {
        let rows = self.query_typed(
            "SELECT id, text, raw_text FROM articles
             WHERE id = ANY($1) AND site_id = $2 ORDER BY id",
            &[(&ids, Type::INT8_ARRAY), (&site_id, Type::INT8)],
        )?;
        Ok(rows
            .iter()
            .map(|r| (r.get(0), r.get(1), r.get(2)))
            .collect())
    }

    fn set_text(&mut self, id: i64, text: &str, word_count: i64) -> Result<(), StoreError> {
        self.execute_typed(
            "UPDATE articles SET text = $2, word_count = $3 WHERE id = $1",
            &[
                (&id, Type::INT8),
                (&text, Type::TEXT),
                (&word_count, Type::INT8),
            ],
        )?;
        Ok(())
    }

    fn finish_reclean(&mut self, site_id: i64, key: &str) -> Result<(), StoreError> {
        self.execute_typed(
            "DELETE FROM line_changes WHERE site_id = $1",
            &[(&site_id, Type::INT8)],
        )?;
        self.execute_typed(
            "UPDATE site_stats SET cleaned_with = $2 WHERE site_id = $1",
            &[(&site_id, Type::INT8), (&key, Type::TEXT)],
        )?;
        Ok(())
    }
}
