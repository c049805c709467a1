//! The store's half of `reextract`: kept pages out in batches, re-extracted
//! articles back in, with a cursor so that a killed run resumes.
//!
//! In: a [`Selection`], a cursor key naming it, and per batch the articles
//! extracted again from their kept pages ([`Reextracted`]). Out: kept pages
//! ([`Store::kept_html_batch`]) and, per applied batch, what changed
//! ([`ReextractCounts`]). Each batch is one transaction that also moves the
//! cursor (`reextract_progress`, migration 0007), so a kill loses at most
//! the batch in flight and a rerun with the same selection starts after
//! the last committed batch.
//!
//! Boilerplate: the new text goes through the site's line table as it is
//! now, learning nothing (the article was counted when it was first stored).
//!
//! The command's core sees this half through
//! [`AnyStore`](super::AnyStore), on either store (the PostgreSQL one is in
//! `store::pg::reextract`).

use crate::store::portable::kept_html;
use rusqlite::{params, OptionalExtension, ToSql};

use super::articles::Sqlite;
use super::kept::StoredHtml;
use super::rules::reextract::{self, Current, NewRow, ReextractSql};
use super::search::{SelectionArgs, SELECTION_SQL};
use super::{Selection, Store, StoreError};
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
    /// Up to `limit` kept pages of the selected articles with ids above
    /// `after_id`, in id order.
    pub fn kept_html_batch(
        &self,
        sel: &Selection,
        after_id: i64,
        limit: usize,
    ) -> Result<Vec<StoredHtml>, StoreError> {
        let args = SelectionArgs::new(self, sel)?;
        let sql = format!(
            "SELECT k.article_id FROM article_html k JOIN articles a ON a.id = k.article_id
             WHERE a.id > :after {SELECTION_SQL} ORDER BY a.id LIMIT :limit"
        );
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let mut params: Vec<(&str, &dyn ToSql)> = vec![(":after", &after_id), (":limit", &limit)];
        params.extend(args.params());
        let ids: Vec<i64> = self
            .conn
            .prepare_cached(&sql)?
            .query_map(params.as_slice(), |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        let mut pages = Vec::with_capacity(ids.len());
        for id in ids {
            if let Some(page) = kept_html(&mut &self.conn, id)? {
                pages.push(page);
            }
        }
        Ok(pages)
    }

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

impl ReextractSql for Sqlite<'_> {
    fn current(&mut self, article_id: i64) -> Result<Option<Current>, StoreError> {
        Ok(self
            .0
            .prepare_cached(
                "SELECT a.site_id, s.name, a.text, a.content_hash, a.title, a.author,
                        a.published_at, a.modified_at, a.language, a.site_name, a.method
                 FROM articles a JOIN sites s ON s.id = a.site_id WHERE a.id = ?1",
            )?
            .query_row([article_id], |row| {
                Ok(Current {
                    site_id: row.get(0)?,
                    site: row.get(1)?,
                    text: row.get(2)?,
                    content_hash: row.get(3)?,
                    meta: [
                        row.get(4)?,
                        row.get(5)?,
                        row.get(6)?,
                        row.get(7)?,
                        row.get(8)?,
                        row.get(9)?,
                    ],
                    method: row.get(10)?,
                })
            })
            .optional()?)
    }

    fn hash_taken(
        &mut self,
        site_id: i64,
        hash: &str,
        article_id: i64,
    ) -> Result<bool, StoreError> {
        Ok(self
            .0
            .prepare_cached(
                "SELECT id FROM articles WHERE site_id = ?1 AND content_hash = ?2 AND id <> ?3",
            )?
            .query_row(params![site_id, hash, article_id], |row| {
                row.get::<_, i64>(0)
            })
            .optional()?
            .is_some())
    }

    fn set_method(&mut self, article_id: i64, method: &str) -> Result<(), StoreError> {
        self.0
            .prepare_cached("UPDATE articles SET method = ?2 WHERE id = ?1")?
            .execute(params![article_id, method])?;
        Ok(())
    }

    fn rewrite(&mut self, article_id: i64, row: &NewRow<'_>) -> Result<(), StoreError> {
        let m = row.meta;
        self.0
            .prepare_cached(
                "UPDATE articles SET title = ?2, author = ?3, published_at = ?4,
                    modified_at = ?5, language = ?6, site_name = ?7, text = ?8, raw_text = ?9,
                    content_hash = ?10, word_count = ?11, method = ?12
                 WHERE id = ?1",
            )?
            .execute(params![
                article_id,
                m[0],
                m[1],
                m[2],
                m[3],
                m[4],
                m[5],
                row.text,
                row.raw,
                row.content_hash,
                row.word_count,
                row.method,
            ])?;
        Ok(())
    }

    fn advance_cursor(
        &mut self,
        key: &str,
        last_id: i64,
        seen: i64,
        changed: i64,
    ) -> Result<(), StoreError> {
        self.0
            .prepare_cached(
                "INSERT INTO reextract_progress(selection, last_id, seen, changed)
                 VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT(selection) DO UPDATE SET last_id = excluded.last_id,
                     seen = seen + excluded.seen, changed = changed + excluded.changed",
            )?
            .execute(params![key, last_id, seen, changed])?;
        Ok(())
    }
}
