//! What the Markdown export reads, on PostgreSQL (what it reads on
//! SQLite is in `store::rendering`).
//!
//! In: a [`Selection`]. Out: each selected article in id order with its
//! kept page and a judgement over the site's line table as it is now
//! (nothing learned), one at a time. One read-only transaction: the
//! articles come through a cursor (constant memory), each page and each
//! judgement by a query beside it in the same transaction.

use std::collections::{HashMap, HashSet};

use postgres::Transaction;

use super::articles::boilerplate_hashes;
use super::read::SelectionSql;
use super::PgStore;
use crate::boilerplate::{LineHash, LineSettings};
use crate::store::rows::{stored_article, stored_html, ARTICLE_COLUMNS, KEPT_COLUMNS};

use crate::store::any::WithHtml;
use crate::store::{Selection, StoreError};

/// Articles read per round trip.
const ROWS: i32 = 200;

/// The line table read in the export's transaction, site ids remembered:
/// the hashes of `text`'s lines that `site`'s table judges boilerplate.
fn judge(
    tx: &mut Transaction<'_>,
    site_ids: &mut HashMap<String, Option<i64>>,
    site: &str,
    text: &str,
    settings: &LineSettings,
) -> Result<HashSet<LineHash>, StoreError> {
    let id = match site_ids.get(site) {
        Some(id) => *id,
        None => {
            let id = tx
                .query_opt("SELECT id FROM sites WHERE name = $1", &[&site])?
                .map(|r| r.get(0));
            site_ids.insert(site.to_string(), id);
            id
        }
    };
    // A site that is not there is an error, not "no lines".
    let id = id.ok_or_else(|| StoreError::UnknownSite(site.to_string()))?;
    boilerplate_hashes(tx, id, text, settings)
}

impl PgStore {
    /// Stream the selected articles in id order to `f`, each with its kept
    /// page and the line table to judge its lines by (see
    /// [`AnyStore::articles_with_html`](crate::store::AnyStore::articles_with_html)).
    pub fn articles_with_html(
        &mut self,
        sel: &Selection,
        f: &mut WithHtml<'_>,
    ) -> Result<u64, StoreError> {
        let cond = SelectionSql::new(&mut self.client, sel, 1)?;
        let sql = format!(
            "SELECT {ARTICLE_COLUMNS} FROM articles a JOIN sites s ON s.id = a.site_id
             WHERE true {} ORDER BY a.id",
            cond.sql
        );
        let page_sql = format!(
            "SELECT {KEPT_COLUMNS} FROM article_html k JOIN articles a ON a.id = k.article_id
             JOIN sites s ON s.id = a.site_id WHERE k.article_id = $1"
        );
        let mut tx = self.client.transaction()?;
        let portal = tx.bind(&sql, &cond.refs())?;
        let page_stmt = tx.prepare(&page_sql)?;
        let mut site_ids = HashMap::new();
        let mut written = 0;
        loop {
            let rows = tx.query_portal(&portal, ROWS)?;
            if rows.is_empty() {
                break;
            }
            for row in &rows {
                let article = stored_article(row)?;
                let page = tx
                    .query_opt(&page_stmt, &[&article.id])?
                    .map(|r| stored_html(&r))
                    .transpose()?;
                let mut judge = |site: &str, text: &str, settings: &LineSettings| {
                    judge(&mut tx, &mut site_ids, site, text, settings)
                };
                f(&mut judge, &article, page.as_ref())?;
                written += 1;
            }
        }
        tx.commit()?;
        Ok(written)
    }
}
