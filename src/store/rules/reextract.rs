//! Re-extraction's write: one article extracted again from its kept page,
//! compared with its stored row and written where it differs.
//!
//! In: a backend's [`ArticleSql`] inside the batch's transaction, a
//! [`Reextracted`] article and its site's [`LineSettings`]. Out: the
//! article's row updated (only what differs: every write of a title or
//! text re-indexes it) and the batch's [`ReextractCounts`]. An empty
//! extraction, or a text another article of the site already has, leaves
//! the row as stored.

use super::article::content_hash;
use super::details::{self, Details};
use super::learning::clean_stored_with_current_counts;
use super::ArticleSql;
use crate::boilerplate::LineSettings;
use crate::extract::Article;
use crate::store::sql::{int, Sql};
use crate::store::{method_name, StoreError};
use crate::words::word_count;

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

/// The stored row an update is compared with (`meta` is title, author,
/// published_at, modified_at, language, site_name; `details` the rest).
pub(crate) struct Current {
    pub(crate) site_id: i64,
    pub(crate) site: String,
    pub(crate) text: String,
    pub(crate) content_hash: String,
    pub(crate) meta: [Option<String>; 6],
    pub(crate) details: Details,
    pub(crate) method: Option<String>,
}

/// A re-extracted article's new row.
pub(crate) struct NewRow<'a> {
    pub(crate) meta: &'a [Option<String>; 6],
    pub(crate) details: &'a Details,
    pub(crate) text: &'a str,
    pub(crate) raw: &'a str,
    pub(crate) content_hash: &'a str,
    pub(crate) word_count: i64,
    pub(crate) method: &'a str,
}

/// The stored row of an article (`None`: deleted meanwhile).
fn current(sql: &mut dyn Sql, article_id: i64) -> Result<Option<Current>, StoreError> {
    let query = format!(
        "SELECT a.site_id, s.name, a.text, a.content_hash, a.title, a.author,
                a.published_at, a.modified_at, a.language, a.site_name, a.method, {}
         FROM articles a JOIN sites s ON s.id = a.site_id WHERE a.id = ?1",
        details::columns_of(Some("a"))
    );
    sql.first(&query, &[article_id.into()], |r| {
        Ok(Current {
            site_id: r.int(0)?,
            site: r.text(1)?,
            text: r.text(2)?,
            content_hash: r.text(3)?,
            meta: [
                r.opt_text(4)?,
                r.opt_text(5)?,
                r.opt_text(6)?,
                r.opt_text(7)?,
                r.opt_text(8)?,
                r.opt_text(9)?,
            ],
            method: r.opt_text(10)?,
            details: Details::read(r, 11)?,
        })
    })
}

/// True when another article of the site has this content hash.
fn hash_taken(
    sql: &mut dyn Sql,
    site_id: i64,
    hash: &str,
    article_id: i64,
) -> Result<bool, StoreError> {
    let found = sql.first(
        "SELECT id FROM articles WHERE site_id = ?1 AND content_hash = ?2 AND id <> ?3
         LIMIT 1",
        &[site_id.into(), hash.into(), article_id.into()],
        |r| r.int(0),
    )?;
    Ok(found.is_some())
}

/// Write the whole row.
fn rewrite(sql: &mut dyn Sql, article_id: i64, row: &NewRow<'_>) -> Result<(), StoreError> {
    let m = row.meta;
    let query = format!(
        "UPDATE articles SET title = ?2, author = ?3, published_at = ?4,
            modified_at = ?5, language = ?6, site_name = ?7, text = ?8, raw_text = ?9,
            content_hash = ?10, word_count = ?11, method = ?12, {}
         WHERE id = ?1",
        details::assignments(13)
    );
    let mut params = vec![
        article_id.into(),
        m[0].as_ref().into(),
        m[1].as_ref().into(),
        m[2].as_ref().into(),
        m[3].as_ref().into(),
        m[4].as_ref().into(),
        m[5].as_ref().into(),
        row.text.into(),
        row.raw.into(),
        row.content_hash.into(),
        row.word_count.into(),
        row.method.into(),
    ];
    params.extend(row.details.values());
    sql.execute(&query, &params).map(drop)
}

/// Move the cursor of `key` to `last_id`, adding a batch's articles seen
/// and changed to its counts (the cursor created if need be).
fn advance_cursor(
    sql: &mut dyn Sql,
    key: &str,
    last_id: i64,
    seen: u64,
    changed: u64,
) -> Result<(), StoreError> {
    sql.execute(
        "INSERT INTO reextract_progress(selection, last_id, seen, changed)
         VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT(selection) DO UPDATE SET last_id = excluded.last_id,
             seen = reextract_progress.seen + excluded.seen,
             changed = reextract_progress.changed + excluded.changed",
        &[key.into(), last_id.into(), int(seen), int(changed)],
    )
    .map(drop)
}

/// What a re-extracted article changes in its stored row.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Rewrite {
    /// Nothing differs.
    Nothing,
    /// Only the method (NULL for articles stored before 0009): written
    /// without touching the indexed columns.
    MethodOnly,
    /// Text, raw text, hash or metadata differ: the whole row is written.
    Row,
}

/// The metadata of `m` in [`Current::meta`]'s order.
fn meta_of(m: &Article) -> [Option<String>; 6] {
    [
        m.title.clone(),
        m.author(),
        m.published_at.clone(),
        m.modified_at.clone(),
        m.language.clone(),
        m.site_name.clone(),
    ]
}

/// Which rows to write for the new `text`, `hash`, `meta` and `method`
/// against the stored `cur`, counted in `counts`.
pub(crate) fn rewrite_of(
    cur: &Current,
    text: &str,
    hash: &str,
    (meta, details): (&[Option<String>; 6], &Details),
    method: &str,
    counts: &mut ReextractCounts,
) -> Rewrite {
    let text_changed = text != cur.text;
    let same_meta = *meta == cur.meta && *details == cur.details;
    if !text_changed && same_meta && hash == cur.content_hash {
        if cur.method.as_deref() == Some(method) {
            return Rewrite::Nothing;
        }
        counts.metadata_only += 1;
        return Rewrite::MethodOnly;
    }
    if text_changed {
        counts.changed += 1;
    } else {
        counts.metadata_only += 1;
    }
    Rewrite::Row
}

/// Write a batch of re-extracted articles one by one and move `key`'s
/// cursor past it to `last_id`, inside the batch's transaction, holding
/// the learning locks of the batch's sites (a crawl storing their articles
/// meanwhile waits rather than counting lines under it); what the batch
/// changed.
pub(crate) fn apply_batch<S: ArticleSql + ?Sized>(
    sql: &mut S,
    key: &str,
    batch: &[Reextracted],
    last_id: i64,
    settings_for: &dyn Fn(&str) -> LineSettings,
) -> Result<ReextractCounts, StoreError> {
    let ids: Vec<i64> = batch.iter().map(|r| r.article_id).collect();
    sql.lock_article_sites(&ids)?;
    let mut counts = ReextractCounts::default();
    for r in batch {
        counts.seen += 1;
        apply_one(sql, r, settings_for, &mut counts)?;
    }
    advance_cursor(sql.sql(), key, last_id, counts.seen, counts.changed)?;
    Ok(counts)
}

/// Write one re-extracted article (see the module doc); counted in `counts`.
fn apply_one<S: ArticleSql + ?Sized>(
    sql: &mut S,
    r: &Reextracted,
    settings_for: &dyn Fn(&str) -> LineSettings,
    counts: &mut ReextractCounts,
) -> Result<(), StoreError> {
    // Deleted since the batch was read: nothing to update.
    let Some(cur) = current(sql.sql(), r.article_id)? else {
        return Ok(());
    };
    let m = &r.article;
    let raw = m.text.as_str();
    if raw.trim().is_empty() {
        counts.empty += 1;
        return Ok(());
    }
    let hash = content_hash(raw);
    if hash != cur.content_hash && hash_taken(sql.sql(), cur.site_id, &hash, r.article_id)? {
        counts.duplicates += 1;
        return Ok(());
    }
    let settings = settings_for(&cur.site);
    // Also indexes the new text's lines for the end-of-crawl re-clean.
    let cleaned = clean_stored_with_current_counts(sql, cur.site_id, r.article_id, raw, &settings)?;
    // As for a refetch, an all-template page keeps its extracted text
    // rather than becoming empty.
    let text = if cleaned.text.trim().is_empty() {
        raw
    } else {
        cleaned.text.as_str()
    };
    let meta = meta_of(m);
    let details = Details::of(m);
    let method = method_name(m.method);
    match rewrite_of(&cur, text, &hash, (&meta, &details), method, counts) {
        Rewrite::Nothing => Ok(()),
        Rewrite::MethodOnly => {
            let set = "UPDATE articles SET method = ?2 WHERE id = ?1";
            sql.sql()
                .execute(set, &[r.article_id.into(), method.into()])
                .map(drop)
        }
        Rewrite::Row => rewrite(
            sql.sql(),
            r.article_id,
            &NewRow {
                meta: &meta,
                details: &details,
                text,
                raw,
                content_hash: &hash,
                word_count: i64::try_from(word_count(text)).unwrap_or(i64::MAX),
                method,
            },
        ),
    }
}
