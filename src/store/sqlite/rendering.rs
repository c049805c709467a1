//! What the Markdown export reads besides the article rows: each selected
//! article with its kept page, and the lines the site's line table drops.
//!
//! In: a [`Selection`]; per article its site name, extracted plain text and
//! the site's [`LineSettings`]. Out: articles with their kept page streamed
//! one at a time ([`Store::export_with_html`]), and the hashes of the
//! boilerplate lines of a text ([`Store::boilerplate_hashes`]: the judgement
//! `reextract` and `reclean` apply, with the counts as they are, nothing
//! learned). The PostgreSQL side is in `store::pg::rendering`.

use crate::store::portable::kept_html;
use std::collections::HashSet;

use super::any::WithHtml;
use super::frontier::find_site;
use super::lines;
use super::{Selection, Store, StoreError, StoredArticle, StoredHtml};
use crate::boilerplate::{LineHash, LineSettings};

impl Store {
    /// Stream the selected articles in id order to `f`, each with its kept
    /// page and the line table to judge its lines by (see
    /// [`AnyStore::articles_with_html`](super::AnyStore::articles_with_html)).
    pub fn articles_with_html(
        &mut self,
        sel: &Selection,
        f: &mut WithHtml<'_>,
    ) -> Result<u64, StoreError> {
        let store: &Store = self;
        let mut judge = |site: &str, text: &str, settings: &LineSettings| {
            store.boilerplate_hashes(site, text, settings)
        };
        store.export_with_html(sel, |a, page| f(&mut judge, a, page))
    }

    /// Stream the selected articles in id order to `f`, each with its kept
    /// page (`None`: not kept), one at a time. Returns how many were
    /// written.
    pub fn export_with_html(
        &self,
        sel: &Selection,
        mut f: impl FnMut(&StoredArticle, Option<&StoredHtml>) -> std::io::Result<()>,
    ) -> Result<u64, StoreError> {
        // The page is read by a second statement on the same connection
        // while the export's one steps; a failure there ends the stream and
        // is returned as itself rather than as an I/O error.
        let mut failed = None;
        let written = self.export(sel, |a| match kept_html(&mut &self.conn, a.id) {
            Ok(page) => f(a, page.as_ref()),
            Err(e) => {
                failed = Some(e);
                Err(std::io::Error::other("kept page unreadable"))
            }
        });
        match failed {
            Some(e) => Err(e),
            None => written,
        }
    }

    /// The hashes of the lines of `text` that the line table of `site`, as
    /// it is now, judges boilerplate (see [`lines::boilerplate_hashes`]).
    pub fn boilerplate_hashes(
        &self,
        site: &str,
        text: &str,
        settings: &LineSettings,
    ) -> Result<HashSet<LineHash>, StoreError> {
        let site_id = find_site(&self.conn, site)?;
        lines::boilerplate_hashes(&self.conn, site_id, text, settings)
    }
}
