//! The line judgement with a site's counts as they are, learning nothing,
//! for the Markdown export on PostgreSQL: `rules::learning` over a plain
//! transaction.
//!
//! In: a transaction, a site id, a text and the site's [`LineSettings`].
//! Out: the hashes of its lines judged boilerplate.

use std::collections::HashSet;

use postgres::Transaction;

use super::sql::Tx;
use crate::boilerplate::{LineHash, LineSettings};
use crate::store::rules::learning;
use crate::store::StoreError;

/// The hashes of the lines of `text` the site's counts, as they are, judge
/// boilerplate (none with learning off).
pub(in crate::store::pg) fn boilerplate_hashes(
    tx: &mut Transaction<'_>,
    site_id: i64,
    text: &str,
    settings: &LineSettings,
) -> Result<HashSet<LineHash>, StoreError> {
    learning::boilerplate_hashes(&mut Tx::plain(tx), site_id, text, settings)
}
