//! The store's half of `reextract` on PostgreSQL, what the command's core
//! calls through [`AnyStore`](crate::store::AnyStore): the kept pages, the
//! cursor, and the SQL of `rules::reextract` ([`ReextractSql`]).
//!
//! In: a [`Selection`], a cursor key naming it, and per batch the articles
//! extracted again from their kept pages ([`Reextracted`]). Out: kept pages
//! (`article_html`) in id order after a cursor and, per applied batch, what
//! changed ([`ReextractCounts`]). Each batch is one transaction that also
//! moves the cursor (`reextract_progress`) and holds the learning locks of
//! the batch's sites, so a crawl storing articles of those sites meanwhile
//! waits rather than counting lines under it. The search column is
//! generated from `title` and `text`: it follows each update by itself.

use postgres::types::{ToSql, Type};

use super::articles::{lock_sites, Tx};
use super::read::SelectionSql;
use super::PgStore;
use crate::boilerplate::LineSettings;
use crate::store::rows::{stored_html, KEPT_COLUMNS};
use crate::store::rules::reextract::{self, Current, NewRow, ReextractSql};
use crate::store::{ReextractCounts, Reextracted, Selection, StoreError, StoredHtml};

impl PgStore {
    pub fn kept_html_batch(
        &mut self,
        sel: &Selection,
        after_id: i64,
        limit: usize,
    ) -> Result<Vec<StoredHtml>, StoreError> {
        let cond = SelectionSql::new(&mut self.client, sel, 3)?;
        let sql = format!(
            "SELECT {KEPT_COLUMNS} FROM article_html k JOIN articles a ON a.id = k.article_id
             JOIN sites s ON s.id = a.site_id
             WHERE a.id > $1 {} ORDER BY a.id LIMIT $2",
            cond.sql
        );
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let mut params: Vec<&(dyn ToSql + Sync)> = vec![&after_id, &limit];
        params.extend(cond.refs());
        self.client
            .query(&sql, &params)?
            .iter()
            .map(stored_html)
            .collect()
    }

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

impl ReextractSql for Tx<'_, '_> {
    fn current(&mut self, article_id: i64) -> Result<Option<Current>, StoreError> {
        Ok(self
            .query_typed_opt(
                "SELECT a.site_id, s.name, a.text, a.content_hash, a.title, a.author,
                        a.published_at, a.modified_at, a.language, a.site_name, a.method
                 FROM articles a JOIN sites s ON s.id = a.site_id WHERE a.id = $1",
                &[(&article_id, Type::INT8)],
            )?
            .map(|row| Current {
                site_id: row.get(0),
                site: row.get(1),
                text: row.get(2),
                content_hash: row.get(3),
                meta: [
                    row.get(4),
                    row.get(5),
                    row.get(6),
                    row.get(7),
                    row.get(8),
                    row.get(9),
                ],
                method: row.get(10),
            }))
    }

    fn hash_taken(
        &mut self,
        site_id: i64,
        hash: &str,
        article_id: i64,
    ) -> Result<bool, StoreError> {
        Ok(self
            .query_typed_opt(
                "SELECT id FROM articles WHERE site_id = $1 AND content_hash = $2 AND id <> $3
                 LIMIT 1",
                &[
                    (&site_id, Type::INT8),
                    (&hash, Type::TEXT),
                    (&article_id, Type::INT8),
                ],
            )?
            .is_some())
    }

    fn set_method(&mut self, article_id: i64, method: &str) -> Result<(), StoreError> {
        self.execute_typed(
            "UPDATE articles SET method = $2 WHERE id = $1",
            &[(&article_id, Type::INT8), (&method, Type::TEXT)],
        )?;
        Ok(())
    }

    fn rewrite(&mut self, article_id: i64, row: &NewRow<'_>) -> Result<(), StoreError> {
        let m = row.meta;
        self.execute_typed(
            "UPDATE articles SET title = $2, author = $3, published_at = $4,
                modified_at = $5, language = $6, site_name = $7, text = $8,
                raw_text = $9, content_hash = $10, word_count = $11, method = $12
             WHERE id = $1",
            &[
                (&article_id, Type::INT8),
                (&m[0], Type::TEXT),
                (&m[1], Type::TEXT),
                (&m[2], Type::TEXT),
                (&m[3], Type::TEXT),
                (&m[4], Type::TEXT),
                (&m[5], Type::TEXT),
                (&row.text, Type::TEXT),
                (&row.raw, Type::TEXT),
                (&row.content_hash, Type::TEXT),
                (&row.word_count, Type::INT8),
                (&row.method, Type::TEXT),
            ],
        )?;
        Ok(())
    }

    fn advance_cursor(
        &mut self,
        key: &str,
        last_id: i64,
        seen: i64,
        changed: i64,
    ) -> Result<(), StoreError> {
        self.execute_typed(
            "INSERT INTO reextract_progress(selection, last_id, seen, changed)
             VALUES ($1, $2, $3, $4)
             ON CONFLICT(selection) DO UPDATE SET last_id = excluded.last_id,
                 seen = reextract_progress.seen + excluded.seen,
                 changed = reextract_progress.changed + excluded.changed",
            &[
                (&key, Type::TEXT),
                (&last_id, Type::INT8),
                (&seen, Type::INT8),
                (&changed, Type::INT8),
            ],
        )?;
        Ok(())
    }
}
