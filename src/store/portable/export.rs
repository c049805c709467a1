//! The selected articles streamed out in id order, as stored or as their
//! kept pages, and the kept pages `reextract` reads in batches: one text
//! for both stores.
//!
//! In: a [`Selection`] and what to do with each row. Out: how many rows
//! went through. Rows come one at a time as the database sends them
//! ([`Sql::each_row`]), so an export of a large corpus never holds it
//! whole.

use super::selection::{conditions, Args};
use crate::store::rows::{stored_article, stored_html, ARTICLE_COLUMNS, KEPT_COLUMNS};
use crate::store::sql::Sql;
use crate::store::{AnyStore, Selection, StoreError, StoredArticle, StoredHtml};

/// Stream the selected articles in id order to `f`; how many were written.
/// An unknown site is an error.
pub(crate) fn export(
    sql: &mut dyn Sql,
    sel: &Selection,
    f: &mut dyn FnMut(&StoredArticle) -> std::io::Result<()>,
) -> Result<u64, StoreError> {
    let mut args = Args::default();
    let cond = conditions(sql, sel, &mut args)?;
    let query = format!(
        "SELECT {ARTICLE_COLUMNS} FROM articles a JOIN sites s ON s.id = a.site_id
         WHERE true{cond} ORDER BY a.id"
    );
    let mut n = 0;
    sql.each_row(&query, &args.values(), &mut |r| {
        f(&stored_article(r)?)?;
        n += 1;
        Ok(())
    })?;
    Ok(n)
}

impl AnyStore {
    /// The selected articles in id order to `f`; how many there were.
    pub fn export(
        &mut self,
        sel: &Selection,
        f: &mut dyn FnMut(&StoredArticle) -> std::io::Result<()>,
    ) -> Result<u64, StoreError> {
        export(self.sql(), sel, f)
    }

    /// The kept pages of the selected articles in id order to `f`:
    /// `(written, selected articles without a kept page)`.
    pub fn export_html(
        &mut self,
        sel: &Selection,
        f: &mut dyn FnMut(&StoredHtml) -> std::io::Result<()>,
    ) -> Result<(u64, u64), StoreError> {
        let sql = self.sql();
        let mut args = Args::default();
        let cond = conditions(sql, sel, &mut args)?;
        let query = format!(
            "SELECT {KEPT_COLUMNS}, k.article_id IS NULL
             FROM articles a JOIN sites s ON s.id = a.site_id
             LEFT JOIN article_html k ON k.article_id = a.id
             WHERE true{cond} ORDER BY a.id"
        );
        let (mut written, mut missing) = (0, 0);
        sql.each_row(&query, &args.values(), &mut |r| {
            if r.flag(11)? {
                missing += 1;
            } else {
                f(&stored_html(r)?)?;
                written += 1;
            }
            Ok(())
        })?;
        Ok((written, missing))
    }

    /// Up to `limit` kept pages of the selected articles with ids above
    /// `after_id`, in id order.
    pub fn kept_html_batch(
        &mut self,
        sel: &Selection,
        after_id: i64,
        limit: usize,
    ) -> Result<Vec<StoredHtml>, StoreError> {
        let sql = self.sql();
        let mut args = Args::default();
        let (after, limit) = (args.int(after_id), args.int(limit));
        let cond = conditions(sql, sel, &mut args)?;
        let query = format!(
            "SELECT {KEPT_COLUMNS} FROM article_html k JOIN articles a ON a.id = k.article_id
             JOIN sites s ON s.id = a.site_id
             WHERE a.id > {after}{cond} ORDER BY a.id LIMIT {limit}"
        );
        sql.rows(&query, &args.values(), |r| stored_html(r))
    }
}
