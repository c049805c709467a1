//! The line judgement with a site's counts as they are, learning nothing,
//! for the pg store's commands outside the article writes (`reextract`,
//! `export --format markdown`): the pg twins of
//! `store::lines::clean_stored_with_current_counts` and
//! `store::lines::boilerplate_hashes`.
//!
//! In: a transaction, a site id, a text and the site's [`LineSettings`].
//! Out: the text cleaned (its lines indexed for the re-clean), or the
//! hashes of its lines judged boilerplate.

use std::collections::HashSet;

use postgres::Transaction;

use super::lines::{clean_stored_with_current_counts, line_counts, site_rc};
use super::sql::Tx;
use crate::boilerplate::{judge, split_lines, Filtered, LineHash, LineSettings, Piece, SiteCounts};

/// Clean a stored article's new text with the counts as they are; its lines
/// are indexed for the re-clean (see `lines::clean_stored_with_current_counts`).
pub(in crate::store::pg) fn clean_with_current_counts(
    tx: &mut Transaction<'_>,
    site_id: i64,
    article_id: i64,
    raw_text: &str,
    settings: &LineSettings,
) -> Result<Filtered, postgres::Error> {
    clean_stored_with_current_counts(&mut Tx::plain(tx), site_id, article_id, raw_text, settings)
}

/// The hashes of the lines of `text` the site's counts, as they are, judge
/// boilerplate (none with learning off).
pub(in crate::store::pg) fn boilerplate_hashes(
    tx: &mut Transaction<'_>,
    site_id: i64,
    text: &str,
    settings: &LineSettings,
) -> Result<HashSet<LineHash>, postgres::Error> {
    if !settings.enabled {
        return Ok(HashSet::new());
    }
    let tx = &mut Tx::plain(tx);
    let pieces = split_lines(text, &settings.variant);
    let counts = SiteCounts {
        rc: site_rc(tx, site_id)?,
        lc: line_counts(tx, site_id, &pieces)?,
    };
    let drop = judge(&pieces, &settings.rule, &settings.variant, &counts);
    Ok(pieces
        .iter()
        .zip(drop)
        .filter_map(|(piece, d)| match piece {
            Piece::Line(line) if d => Some(line.hash),
            _ => None,
        })
        .collect())
}
