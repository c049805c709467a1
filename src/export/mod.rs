//! Stored articles → JSONL: one JSON object per line (id, url, site,
//! fetched_at, word_count, title, author, published_at, modified_at, language,
//! canonical_url, site_name, text).

use std::io::Write;

use crate::store::{Selection, Store, StoreError};

#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("cannot write export: {0}")]
    Write(#[from] std::io::Error),
}

/// Stream the selected stored articles as JSONL into `out`. Returns the
/// number of articles written.
pub fn write_jsonl(
    store: &Store,
    sel: &Selection,
    out: &mut dyn Write,
) -> Result<u64, ExportError> {
    let n = store.export(sel, |article| {
        // `io::Error::from` gives back the writer's own error (its kind, e.g.
        // BrokenPipe, intact) where `io::Error::other` would bury it.
        serde_json::to_writer(&mut *out, article).map_err(std::io::Error::from)?;
        out.write_all(b"\n")
    })?;
    out.flush()?;
    Ok(n)
}
