//! Storing an extracted article, and the refetch of a stored article's URL.
//!
//! In: a [`NewArticle`] and a backend's [`ArticleSql`] inside the batch's
//! transaction. Out: a [`WriteOutcome`] and the rows the primitives write.
//!
//! Articles are de-duplicated twice: by URL (a URL stored twice is a
//! no-op; a canonical URL the frontier holds for the site leads to its
//! article) and by content (MD5 of the extracted text per site, so the
//! same body reached by several URLs is stored once with every URL
//! recorded). A body that is mostly one stored article's (a republished
//! copy with small edits, [`near_dup`]) is recorded as a version of it.
//! New bodies go through the site's line filter ([`learning`]) in the same
//! transaction, so a crash never double-counts a page in the line table.

use md5::{Digest, Md5};

use super::learning::{self, Cleaned};
use super::{near_dup, ArticleRow, ArticleSql, AtUrl};
use crate::boilerplate::split_lines;
use crate::store::{NewArticle, StoreError, WriteOutcome};
use crate::words::word_count;

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

fn row<'a>(a: &'a NewArticle, site_id: i64, text: &'a str, hash: &'a str) -> ArticleRow<'a> {
    ArticleRow {
        url_id: a.url_id,
        url: &a.url,
        site_id,
        article: &a.article,
        text,
        raw: &a.article.text,
        content_hash: hash,
        word_count: i64::try_from(word_count(text)).unwrap_or(i64::MAX),
        fetched_at: a.fetched_at,
    }
}

/// Store one extracted article (`refetch`: its URL fetched again to catch
/// updates, see [`refetched`]).
pub(crate) fn write<S: ArticleSql + ?Sized>(
    sql: &mut S,
    a: &NewArticle,
    refetch: bool,
) -> Result<WriteOutcome, StoreError> {
    if refetch {
        refetched(sql, a)
    } else {
        store(sql, a)
    }
}

/// Store a newly extracted article: a duplicate (by URL, canonical URL or
/// content) records its URL against the stored one; a near-duplicate is
/// recorded as a version; a new body is learned from, cleaned and stored.
pub(crate) fn store<S: ArticleSql + ?Sized>(
    sql: &mut S,
    a: &NewArticle,
) -> Result<WriteOutcome, StoreError> {
    let raw = a.article.text.as_str();
    if raw.trim().is_empty() {
        return Ok(WriteOutcome::ArticleEmpty);
    }
    // Before anything is read: what follows must see every article of the
    // site stored before (see `ArticleSql::article_site`).
    let site_id = sql.article_site(&a.site)?;
    let hash = content_hash(raw);
    let (by_url, by_hash) = sql.known_article(&a.url, site_id, &hash)?;
    if let Some(id) = by_url {
        return Ok(WriteOutcome::ArticleDuplicate { id });
    }
    // A canonical URL the crawler recorded for this site (a `Known` URL):
    // the article is that page, whatever URL it was fetched under.
    let canonical = match a.article.canonical_url.as_deref() {
        Some(c) if c != a.url && sql.is_site_url(c, site_id)? => Some(c),
        _ => None,
    };
    if let Some(c) = canonical {
        if let Some(id) = sql.article_by_url(c)? {
            sql.add_alias(&a.url, id)?;
            return Ok(WriteOutcome::ArticleDuplicate { id });
        }
    }
    if let Some(id) = by_hash {
        sql.add_alias(&a.url, id)?;
        return Ok(WriteOutcome::ArticleDuplicate { id });
    }
    // Near-duplicates are judged before learning, so a copy teaches nothing.
    // Only with learning on: without it, the template lines are not known.
    // The lines are split and hashed once, for both.
    let (page, cleaned) = if a.lines.enabled {
        let pieces = split_lines(raw, &a.lines.variant);
        let page = near_dup::read(sql, site_id, &pieces)?;
        if let Some(v) = near_dup::find(sql, &page)? {
            sql.record_version(&a.url, v, raw, &hash, a.fetched_at)?;
            sql.add_alias(&a.url, v.article_id)?;
            return Ok(WriteOutcome::ArticleNearDuplicate { id: v.article_id });
        }
        let cleaned = learning::learn_and_clean(sql, site_id, &pieces, &a.lines)?;
        (Some(page), cleaned)
    } else {
        // Stored without learning: this site's next re-clean walks it all.
        sql.forget_cleaned_with(site_id)?;
        (None, learning::unchanged(raw))
    };
    if cleaned.text.trim().is_empty() {
        return Ok(WriteOutcome::ArticleEmpty);
    }
    // Every line of the article becomes findable by its hash: the
    // distinctive ones in article_lines, the rest in article_shared_lines
    // (what near-duplicates and the re-clean look up).
    let lines = page.as_ref().map(|p| p.new_lines()).unwrap_or_default();
    let urls: Vec<&str> = std::iter::once(a.url.as_str()).chain(canonical).collect();
    let id = sql.insert_article(&row(a, site_id, &cleaned.text, &hash), &lines, &urls)?;
    if let Some(html) = &a.html {
        sql.put_html(id, html, false)?;
    }
    Ok(WriteOutcome::ArticleStored {
        id,
        lines_dropped: cleaned.dropped,
    })
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
pub(crate) fn refetched<S: ArticleSql + ?Sized>(
    sql: &mut S,
    a: &NewArticle,
) -> Result<WriteOutcome, StoreError> {
    let raw = a.article.text.as_str();
    let Some(found) = sql.article_at_url(&a.url)? else {
        return match sql.article_by_url(&a.url)? {
            Some(id) => Ok(WriteOutcome::ArticleUnchanged { id }),
            None => store(sql, a),
        };
    };
    // The article's own site (a site renamed in the config keeps its
    // rows), read again under its lock.
    let Some(AtUrl {
        id,
        content_hash: old_hash,
        site_id,
    }) = sql.locked_at_url(found, &a.url)?
    else {
        return Ok(WriteOutcome::ArticleEmpty);
    };
    let hash = content_hash(raw);
    if raw.trim().is_empty() || hash == old_hash {
        return Ok(WriteOutcome::ArticleUnchanged { id });
    }
    if sql.article_by_hash(site_id, &hash)?.is_some() {
        return Ok(WriteOutcome::ArticleUnchanged { id });
    }
    let cleaned: Cleaned =
        learning::clean_stored_with_current_counts(sql, site_id, id, raw, &a.lines)?;
    let text = if cleaned.text.trim().is_empty() {
        raw
    } else {
        cleaned.text.as_str()
    };
    sql.update_article(id, &row(a, site_id, text, &hash))?;
    if let Some(html) = &a.html {
        sql.put_html(id, html, true)?;
    }
    Ok(WriteOutcome::ArticleUpdated { id })
}
