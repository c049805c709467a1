//! Batched writes: a list of [`WriteOp`]s in, one [`WriteOutcome`] per op out,
//! all in ONE transaction (any failing op rolls the whole batch back).
//!
//! Articles are de-duplicated twice: by URL (`article_urls`, so a URL stored
//! twice is a no-op) and by content (MD5 of the extracted text per site, so
//! the same body reached by several URLs is stored once with every URL
//! recorded). A body that is mostly one stored article's (a republished
//! copy with small edits, [`near_dup`]) is recorded as a version of it.
//! New bodies go through the site's line filter
//! ([`lines::learn_and_clean`]) inside the same transaction, so a crash never
//! double-counts a page in the line table. The batch's new articles enter
//! the search indexes together at its end ([`search_index`]).

use md5::{Digest, Md5};
use rusqlite::{params, OptionalExtension, Transaction};

use super::frontier::{add_urls_in, site_id_in, SiteUrlCounts};
use super::lines::{self, Cleaned};
use super::near_dup;
use super::search_index;
use super::NewUrl;
use super::{
    FetchRecord, NewArticle, NextState, SkipRecord, Store, StoreError, UrlKind, WriteOp,
    WriteOutcome,
};
use crate::boilerplate::split_lines;
use crate::words::word_count;

impl Store {
    /// Apply a batch of writes in one transaction. On error nothing of the
    /// batch is kept.
    pub fn write_batch(&mut self, ops: Vec<WriteOp>) -> Result<Vec<WriteOutcome>, StoreError> {
        let out = write_batch_in(
            &mut self.conn,
            self.max_urls_per_site,
            &mut self.url_counts,
            ops,
        );
        match out {
            Ok(_) => self.after_commit(),
            // Rolled back: the counts of its URLs are wrong.
            Err(_) => self.url_counts.forget(),
        }
        out
    }
}

fn write_batch_in(
    conn: &mut rusqlite::Connection,
    cap: u64,
    counts: &mut SiteUrlCounts,
    ops: Vec<WriteOp>,
) -> Result<Vec<WriteOutcome>, StoreError> {
    let tx = conn.transaction()?;
    let mut indexed = search_index::last_article_id(&tx)?;
    let mut out = Vec::with_capacity(ops.len());
    // Summed and added last, in one order (see `url_shapes::summed`).
    let mut shapes = Vec::new();
    for op in ops {
        if matches!(op, WriteOp::Refetched(_)) {
            // It may update an article of this batch: index those first.
            indexed = search_index::index_after(&tx, indexed)?;
        }
        out.push(match op {
            WriteOp::AddUrls(urls) => {
                WriteOutcome::UrlsAdded(add_urls_in(&tx, &urls, cap, counts)?)
            }
            WriteOp::Fetched(rec) => {
                record_fetch(&tx, &rec)?;
                WriteOutcome::FetchRecorded
            }
            WriteOp::Known(urls) => WriteOutcome::UrlsAdded(add_known(&tx, &urls, counts)?),
            WriteOp::Skipped(rec) => {
                record_skip(&tx, &rec)?;
                WriteOutcome::FetchRecorded
            }
            WriteOp::Article(a) => store_article(&tx, &a)?,
            WriteOp::Refetched(a) => refetched(&tx, &a)?,
            WriteOp::SiteRule(u) => {
                super::site_rules::apply_update(&tx, &u)?;
                WriteOutcome::RuleRecorded
            }
            WriteOp::Shapes(u) => {
                shapes.push(u);
                WriteOutcome::ShapesRecorded
            }
            WriteOp::Promote(urls) => WriteOutcome::UrlsPromoted(promote(&tx, &urls)?),
        });
    }
    super::url_shapes::apply_updates(&tx, &shapes)?;
    search_index::index_after(&tx, indexed)?;
    tx.commit()?;
    Ok(out)
}

fn record_fetch(tx: &Transaction<'_>, rec: &FetchRecord) -> rusqlite::Result<()> {
    tx.prepare_cached(
        "INSERT INTO fetches(url_id, started_at, status, error_kind, bytes, elapsed_ms,
                             final_url, content_type, judged, judge_reason)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
    )?
    .execute(params![
        rec.url_id,
        rec.started_at,
        rec.status,
        rec.error_kind,
        i64::try_from(rec.bytes).unwrap_or(i64::MAX),
        i64::try_from(rec.elapsed_ms).unwrap_or(i64::MAX),
        rec.final_url,
        rec.content_type,
        rec.judgement.map(|j| j.verdict()),
        rec.judgement.map(|j| j.reason),
    ])?;
    let (state, next_at) = match rec.next {
        NextState::Done => ("done", None),
        NextState::At(t) => ("queued", Some(t)),
        NextState::Failed => ("failed", None),
    };
    // `attempts` counts consecutive failures (the backoff exponent): a
    // success resets it. A success also records when the page was fetched,
    // which the per-site page budget counts.
    let changed = tx
        .prepare_cached(
            "UPDATE urls SET
                state = ?2,
                next_fetch_at = coalesce(?3, next_fetch_at),
                etag = coalesce(?4, etag),
                last_modified = coalesce(?5, last_modified),
                attempts = CASE WHEN ?6 IS NULL THEN 0 ELSE attempts + 1 END,
                last_status = ?7,
                last_error = ?6,
                fetched_at = CASE WHEN ?6 IS NULL THEN ?8 ELSE fetched_at END,
                refused_under = ?9
             WHERE id = ?1",
        )?
        .execute(params![
            rec.url_id,
            state,
            next_at,
            rec.etag,
            rec.last_modified,
            rec.error_kind,
            rec.status,
            rec.started_at,
            rec.refused_under,
        ])?;
    if changed == 0 {
        // The fetch log insert already enforces this through the foreign key;
        // kept explicit so the batch fails even with foreign keys off.
        return Err(rusqlite::Error::QueryReturnedNoRows);
    }
    Ok(())
}

/// URLs known without a fetch: inserted as `done` (or a queued one set
/// `done`). `fetched_at` stays empty, so they cost no page budget.
fn add_known(
    tx: &Transaction<'_>,
    urls: &[NewUrl],
    counts: &mut SiteUrlCounts,
) -> rusqlite::Result<usize> {
    // Known URLs (canonical aliases) are never capped: they are not fetched.
    let added = add_urls_in(tx, urls, 0, counts)?;
    let mut done =
        tx.prepare_cached("UPDATE urls SET state = 'done' WHERE url = ?1 AND state = 'queued'")?;
    for u in urls {
        done.execute([&u.url])?;
    }
    Ok(added)
}

/// Queued plain pages among `urls` given their kind and priority (see
/// [`WriteOp::Promote`]); returns how many changed.
fn promote(tx: &Transaction<'_>, urls: &[NewUrl]) -> rusqlite::Result<usize> {
    let mut update = tx.prepare_cached(
        "UPDATE urls SET kind = ?2, priority = max(priority, ?3)
         WHERE url = ?1 AND kind = 'page' AND state = 'queued'",
    )?;
    let mut changed = 0;
    for u in urls.iter().filter(|u| u.kind != UrlKind::Page) {
        changed += update.execute(params![u.url, u.kind.as_str(), u.priority])?;
    }
    Ok(changed)
}

/// A skip: logged, the URL rescheduled or set aside, its failure count and
/// last status untouched.
fn record_skip(tx: &Transaction<'_>, rec: &SkipRecord) -> rusqlite::Result<()> {
    tx.prepare_cached(
        "INSERT INTO fetches(url_id, started_at, error_kind, bytes, elapsed_ms, skipped)
         VALUES (?1, ?2, ?3, 0, 0, 1)",
    )?
    .execute(params![rec.url_id, rec.at, rec.reason])?;
    let (state, next_at) = match rec.next {
        NextState::Done => ("done", None),
        NextState::At(t) => ("queued", Some(t)),
        NextState::Failed => ("skipped", None),
    };
    let changed = tx
        .prepare_cached(
            "UPDATE urls SET state = ?2, next_fetch_at = coalesce(?3, next_fetch_at),
                last_error = ?4, refused_under = ?5
             WHERE id = ?1",
        )?
        .execute(params![
            rec.url_id,
            state,
            next_at,
            rec.reason,
            rec.refused_under
        ])?;
    if changed == 0 {
        return Err(rusqlite::Error::QueryReturnedNoRows);
    }
    Ok(())
}

fn store_article(tx: &Transaction<'_>, a: &NewArticle) -> rusqlite::Result<WriteOutcome> {
    let raw = a.article.text.as_str();
    if raw.trim().is_empty() {
        return Ok(WriteOutcome::ArticleEmpty);
    }
    if let Some(id) = article_by_url(tx, &a.url)? {
        return Ok(WriteOutcome::ArticleDuplicate { id });
    }
    let site_id = site_id_in(tx, &a.site)?;
    // A canonical URL the crawler recorded for this site (a `Known` URL):
    // the article is that page, whatever URL it was fetched under.
    let canonical = match a.article.canonical_url.as_deref() {
        Some(c) if c != a.url && is_site_url(tx, c, site_id)? => Some(c),
        _ => None,
    };
    if let Some(c) = canonical {
        if let Some(id) = article_by_url(tx, c)? {
            add_alias(tx, &a.url, id)?;
            return Ok(WriteOutcome::ArticleDuplicate { id });
        }
    }
    let hash = content_hash(raw);
    let same_body: Option<i64> = tx
        .prepare_cached("SELECT id FROM articles WHERE site_id = ?1 AND content_hash = ?2")?
        .query_row(params![site_id, hash], |r| r.get(0))
        .optional()?;
    if let Some(id) = same_body {
        add_alias(tx, &a.url, id)?;
        return Ok(WriteOutcome::ArticleDuplicate { id });
    }
    // Near-duplicates are judged before learning, so a copy teaches nothing.
    // Only with learning on: without it, the template lines are not known.
    // The lines are split and hashed once, for both.
    let (page, cleaned) = if a.lines.enabled {
        let pieces = split_lines(raw, &a.lines.variant);
        let page = near_dup::read(tx, site_id, &pieces)?;
        if let Some(v) = near_dup::find(tx, site_id, &page)? {
            near_dup::record_version(tx, &a.url, v, raw, &hash, a.fetched_at)?;
            add_alias(tx, &a.url, v.article_id)?;
            return Ok(WriteOutcome::ArticleNearDuplicate { id: v.article_id });
        }
        let cleaned = lines::learn_and_clean_pieces(tx, site_id, &pieces, &a.lines)?;
        (Some(page), cleaned)
    } else {
        // Stored without learning: this site's next re-clean walks it all.
        lines::forget_cleaned_with(tx, site_id)?;
        let cleaned = Cleaned {
            text: raw.to_string(),
            dropped: 0,
        };
        (None, cleaned)
    };
    if cleaned.text.trim().is_empty() {
        return Ok(WriteOutcome::ArticleEmpty);
    }
    let m = &a.article;
    tx.prepare_cached(
        "INSERT INTO articles(url_id, url, canonical_url, site_id, title, author, published_at,
                              modified_at, language, site_name, text, raw_text, content_hash,
                              word_count, fetched_at, method)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)",
    )?
    .execute(params![
        a.url_id,
        a.url,
        m.canonical_url,
        site_id,
        m.title,
        m.author,
        m.published_at,
        m.modified_at,
        m.language,
        m.site_name,
        cleaned.text,
        raw,
        hash,
        i64::try_from(word_count(&cleaned.text)).unwrap_or(i64::MAX),
        a.fetched_at,
        super::method_name(m.method),
    ])?;
    let id = tx.last_insert_rowid();
    if let Some(page) = &page {
        // Every line of the article is now findable by its hash: the
        // distinctive ones in article_lines, the rest in
        // article_shared_lines (what the end-of-crawl re-clean looks up).
        near_dup::index(tx, site_id, id, page)?;
        lines::index_shared(tx, site_id, id, page.seen_before())?;
    }
    if let Some(html) = &a.html {
        super::kept::put(tx, id, html, super::kept::Put::New)?;
    }
    add_alias(tx, &a.url, id)?;
    if let Some(c) = canonical {
        add_alias(tx, c, id)?;
    }
    Ok(WriteOutcome::ArticleStored {
        id,
        lines_dropped: cleaned.dropped,
    })
}

fn is_site_url(tx: &Transaction<'_>, url: &str, site_id: i64) -> rusqlite::Result<bool> {
    Ok(tx
        .prepare_cached("SELECT 1 FROM urls WHERE url = ?1 AND site_id = ?2")?
        .query_row(params![url, site_id], |_| Ok(()))
        .optional()?
        .is_some())
}

/// A refetch of a stored article's URL. When the extracted body differs
/// from the stored raw text, the row is updated in place: metadata, raw
/// text, content hash, and the text cleaned with the site's line counts as
/// they are — without learning. The line table counts each article once
/// (LC = articles containing a line, RC = articles seen); learning the new
/// version would count the same article twice and its unchanged template
/// lines would look more common than they are. Left unchanged: a URL that
/// is only an alias of another article (the body belongs to that URL), an
/// empty extraction, and a new body that another article of the site
/// already has (the content-hash dedup keeps one row per body).
/// A URL with no article yet (the first fetch stored none) is stored as new.
fn refetched(tx: &Transaction<'_>, a: &NewArticle) -> rusqlite::Result<WriteOutcome> {
    let raw = a.article.text.as_str();
    let existing: Option<(i64, String, i64)> = tx
        .prepare_cached("SELECT id, content_hash, site_id FROM articles WHERE url = ?1")?
        .query_row([&a.url], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .optional()?;
    let Some((id, old_hash, site_id)) = existing else {
        return match article_by_url(tx, &a.url)? {
            Some(id) => Ok(WriteOutcome::ArticleUnchanged { id }),
            None => store_article(tx, a),
        };
    };
    let hash = content_hash(raw);
    if raw.trim().is_empty() || hash == old_hash {
        return Ok(WriteOutcome::ArticleUnchanged { id });
    }
    let taken: Option<i64> = tx
        .prepare_cached("SELECT id FROM articles WHERE site_id = ?1 AND content_hash = ?2")?
        .query_row(params![site_id, hash], |r| r.get(0))
        .optional()?;
    if taken.is_some() {
        return Ok(WriteOutcome::ArticleUnchanged { id });
    }
    let cleaned = lines::clean_stored_with_current_counts(tx, site_id, id, raw, &a.lines)?;
    let text = if cleaned.text.trim().is_empty() {
        raw.to_string()
    } else {
        cleaned.text
    };
    let m = &a.article;
    tx.prepare_cached(
        "UPDATE articles SET title = ?2, author = ?3, published_at = ?4, modified_at = ?5,
            language = ?6, site_name = ?7, text = ?8, raw_text = ?9, content_hash = ?10,
            word_count = ?11, fetched_at = ?12,
            canonical_url = coalesce(?13, canonical_url), method = ?14
         WHERE id = ?1",
    )?
    .execute(params![
        id,
        m.title,
        m.author,
        m.published_at,
        m.modified_at,
        m.language,
        m.site_name,
        text,
        raw,
        hash,
        i64::try_from(word_count(&text)).unwrap_or(i64::MAX),
        a.fetched_at,
        m.canonical_url,
        super::method_name(m.method),
    ])?;
    if let Some(html) = &a.html {
        super::kept::put(tx, id, html, super::kept::Put::Replace)?;
    }
    Ok(WriteOutcome::ArticleUpdated { id })
}

fn article_by_url(tx: &Transaction<'_>, url: &str) -> rusqlite::Result<Option<i64>> {
    tx.prepare_cached(
        "SELECT article_id FROM article_urls WHERE url = ?1
         UNION ALL SELECT id FROM articles WHERE url = ?1
         LIMIT 1",
    )?
    .query_row([url], |r| r.get(0))
    .optional()
}

fn add_alias(tx: &Transaction<'_>, url: &str, id: i64) -> rusqlite::Result<()> {
    tx.prepare_cached("INSERT OR IGNORE INTO article_urls(url, article_id) VALUES (?1, ?2)")?
        .execute(params![url, id])?;
    Ok(())
}

/// MD5 hex of the extracted text: the duplicate key within a site.
pub fn content_hash(text: &str) -> String {
    use std::fmt::Write;
    let digest = Md5::digest(text.as_bytes());
    let mut hex = String::with_capacity(32);
    for b in digest.iter() {
        // Writing to a String cannot fail.
        let _ = write!(hex, "{b:02x}");
    }
    hex
}
