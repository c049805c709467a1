//! What the Markdown export reads on SQLite (see `store::portable`'s
//! `with_html`): the line judgement, over this connection, with a site's
//! counts as they are (the one `reextract` and `reclean` apply, nothing
//! learned).

use rusqlite::Connection;

use super::any::WithHtml;
use super::lines;
use super::portable::{articles_with_html, Judge};
use super::{Selection, Store, StoreError};

impl Store {
    /// Stream the selected articles in id order to `f`, each with its kept
    /// page and the line table to judge its lines by (see
    /// [`AnyStore::articles_with_html`](super::AnyStore::articles_with_html)).
    pub fn articles_with_html(
        &mut self,
        sel: &Selection,
        f: &mut WithHtml<'_>,
    ) -> Result<u64, StoreError> {
        let judge: &mut Judge<'_, &Connection> = &mut |conn, site_id, text, settings| {
            lines::boilerplate_hashes(conn, site_id, text, settings)
        };
        // One read transaction: the pages of articles see one snapshot, as
        // a single statement would.
        let tx = self.conn.transaction()?;
        let written = articles_with_html(&mut &*tx, sel, f, judge)?;
        tx.commit()?;
        Ok(written)
    }
}
