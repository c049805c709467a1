//! What the Markdown export reads on PostgreSQL (see `store::portable`'s
//! `with_html`): one transaction for the whole export, and the line
//! judgement with a site's counts as they are, in it (nothing learned).

use postgres::Transaction;

use super::articles::Tx;
use super::PgStore;
use crate::store::any::WithHtml;
use crate::store::portable::{articles_with_html, Judge};
use crate::store::rules::learning::boilerplate_hashes;
use crate::store::{Selection, StoreError};

impl PgStore {
    /// Stream the selected articles in id order to `f`, each with its kept
    /// page and the line table to judge its lines by (see
    /// [`AnyStore::articles_with_html`](crate::store::AnyStore::articles_with_html)).
    pub fn articles_with_html(
        &mut self,
        sel: &Selection,
        f: &mut WithHtml<'_>,
    ) -> Result<u64, StoreError> {
        let mut tx = self.client.transaction()?;
        let judge: &mut Judge<'_, Transaction<'_>> = &mut |tx, site_id, text, settings| {
            boilerplate_hashes(&mut Tx::plain(tx), site_id, text, settings)
        };
        let written = articles_with_html(&mut tx, sel, f, judge)?;
        tx.commit()?;
        Ok(written)
    }
}
