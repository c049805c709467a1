//! The store's half of `reextract`: kept pages out in batches, re-extracted
//! articles back in, with a cursor so that a killed run resumes.
//!
//! In: a cursor key naming a selection, and per batch the articles
//! extracted again from their kept pages ([`Reextracted`]) (the kept pages
//! are read in `store::portable`). Out: per applied batch, what changed
//! ([`ReextractCounts`]). Each batch is one transaction that also moves the
//! cursor (`reextract_progress`, migration 0007), so a kill loses at most
//! the batch in flight and a rerun with the same selection starts after
//! the last committed batch.
//!
//! Boilerplate: the new text goes through the site's line table as it is
//! now, learning nothing (the article was counted when it was first stored).
//!
//! The command's core sees this half through
//! [`AnyStore`](super::AnyStore), on either store (what each row becomes
//! is decided in `rules::reextract`; the PostgreSQL transaction is in
//! `store::pg::reextract`).

use super::articles::Sqlite;
use super::rules::reextract;
use super::{Store, StoreError};
use crate::boilerplate::LineSettings;
use crate::extract::Article;

/// An article extracted again from its kept page.
#[derive(Debug, Clone)]
pub struct Reextracted {
    pub article_id: i64,
    pub article: Article,
}

/// What applying re-extracted articles did. `changed` counts articles whose
/// stored text (after boilerplate removal) changed; metadata changes alone
/// are written but not counted there.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReextractCounts {
    /// Articles looked at.
    pub seen: u64,
    /// Articles whose text changed.
    pub changed: u64,
    /// Articles whose metadata (or extraction method) changed but not their
    /// text.
    pub metadata_only: u64,
    /// Left as stored: the new extraction found no text.
    pub empty: u64,
    /// Left as stored: the new text is another stored article's of the site
    /// (one row per body, as when crawling).
    pub duplicates: u64,
}

impl ReextractCounts {
    pub fn add(&mut self, other: &ReextractCounts) {
        self.seen += other.seen;
        self.changed += other.changed;
        self.metadata_only += other.metadata_only;
        self.empty += other.empty;
        self.duplicates += other.duplicates;
    }
}

/// Where an interrupted run of a selection stopped.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReextractCursor {
    /// The last article id done (0: nothing yet).
    pub last_id: i64,
    /// Counted so far: articles seen and articles whose text changed.
    pub seen: u64,
    pub changed: u64,
}

impl Store {
    /// Write one batch of re-extracted articles and move `key`'s cursor to
    /// `last_id`, in one transaction. `settings_for(site)` gives the line
    /// filter's settings.
    pub fn apply_reextracted(
        &mut self,
        key: &str,
        batch: &[Reextracted],
        last_id: i64,
        settings_for: impl Fn(&str) -> LineSettings,
    ) -> Result<ReextractCounts, StoreError> {
        let tx = self.conn.transaction()?;
        let counts = reextract::apply_batch(&mut Sqlite(&tx), key, batch, last_id, &settings_for)?;
        tx.commit()?;
        Ok(counts)
    }
}
