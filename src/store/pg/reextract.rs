//! The store's half of `reextract` on PostgreSQL: the pg twin of
//! `store::reextract` (the reasoning is there), behind the same
//! [`ReextractStore`] trait the command's core calls.
//!
//! In: a [`Selection`], a cursor key naming it, and per batch the articles
//! extracted again from their kept pages ([`Reextracted`]). Out: kept pages
//! (`article_html`) in id order after a cursor and, per applied batch, what
//! changed ([`ReextractCounts`]). Each batch is one transaction that also
//! moves the cursor (`reextract_progress`) and holds the learning locks of
//! the batch's sites, so a crawl storing articles of those sites meanwhile
//! waits rather than counting lines under it. The search column is
//! generated from `title` and `text`: it follows each update by itself.

use std::collections::HashMap;

use postgres::types::ToSql;
use postgres::{Statement, Transaction};

use super::articles::{clean_with_current_counts, lock_sites};
use super::read::{stored_html, SelectionSql, KEPT_COLUMNS};
use super::PgStore;
use crate::boilerplate::LineSettings;
use crate::extract::tree::rule::SiteRule;
use crate::store::articles::content_hash;
use crate::store::reextract::{kept_text, meta_of, rewrite_of, Current, Rewrite};
use crate::store::{
    method_name, ReextractCounts, ReextractCursor, ReextractStore, Reextracted, Selection,
    StoreError, StoredHtml,
};
use crate::words::word_count;

fn count(v: i64) -> u64 {
    u64::try_from(v).unwrap_or(0)
}

fn to_i64(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

impl ReextractStore for PgStore {
    fn reextract_cursor(&mut self, key: &str) -> Result<Option<ReextractCursor>, StoreError> {
        Ok(self
            .client
            .query_opt(
                "SELECT last_id, seen, changed FROM reextract_progress WHERE selection = $1",
                &[&key],
            )?
            .map(|r| ReextractCursor {
                last_id: r.get(0),
                seen: count(r.get(1)),
                changed: count(r.get(2)),
            }))
    }

    fn clear_reextract_cursor(&mut self, key: &str) -> Result<(), StoreError> {
        self.client.execute(
            "DELETE FROM reextract_progress WHERE selection = $1",
            &[&key],
        )?;
        Ok(())
    }

    fn kept_html_batch(
        &mut self,
        sel: &Selection,
        after_id: i64,
        limit: usize,
    ) -> Result<Vec<StoredHtml>, StoreError> {
        let cond = SelectionSql::new(&mut self.client, sel, 3)?;
        let sql = format!(
            "SELECT {KEPT_COLUMNS} FROM article_html k JOIN articles a ON a.id = k.article_id
             JOIN sites s ON s.id = a.site_id
             WHERE a.id > $1 {} ORDER BY a.id LIMIT $2",
            cond.sql
        );
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let mut params: Vec<&(dyn ToSql + Sync)> = vec![&after_id, &limit];
        params.extend(cond.refs());
        self.client
            .query(&sql, &params)?
            .iter()
            .map(|r| stored_html(r.get(0), r))
            .collect()
    }

    fn apply_reextracted(
        &mut self,
        key: &str,
        batch: &[Reextracted],
        last_id: i64,
        settings_for: &dyn Fn(&str) -> LineSettings,
    ) -> Result<ReextractCounts, StoreError> {
        let mut tx = self.client.transaction()?;
        let ids: Vec<i64> = batch.iter().map(|r| r.article_id).collect();
        let sites: Vec<String> = tx
            .query(
                "SELECT DISTINCT s.name FROM articles a JOIN sites s ON s.id = a.site_id
                 WHERE a.id = ANY($1)",
                &[&ids],
            )?
            .iter()
            .map(|r| r.get(0))
            .collect();
        let names: Vec<&str> = sites.iter().map(String::as_str).collect();
        lock_sites(&mut tx, &names)?;
        let statements = Statements::prepare(&mut tx)?;
        let mut counts = ReextractCounts::default();
        for r in batch {
            counts.seen += 1;
            apply_one(&mut tx, &statements, r, settings_for, &mut counts)?;
        }
        tx.execute(
            "INSERT INTO reextract_progress(selection, last_id, seen, changed)
             VALUES ($1, $2, $3, $4)
             ON CONFLICT(selection) DO UPDATE SET last_id = excluded.last_id,
                 seen = reextract_progress.seen + excluded.seen,
                 changed = reextract_progress.changed + excluded.changed",
            &[
                &key,
                &last_id,
                &to_i64(counts.seen),
                &to_i64(counts.changed),
            ],
        )?;
        tx.commit()?;
        Ok(counts)
    }

    fn learned_site_rules(&mut self) -> Result<HashMap<String, SiteRule>, StoreError> {
        Ok(self
            .site_rules()?
            .into_iter()
            .filter_map(|(site, json)| SiteRule::from_json(&json).map(|r| (site, r)))
            .collect())
    }
}

/// A batch's statements, planned once for its articles.
struct Statements {
    current: Statement,
    taken: Statement,
    method: Statement,
    update: Statement,
}

impl Statements {
    fn prepare(tx: &mut Transaction<'_>) -> Result<Statements, postgres::Error> {
        Ok(Statements {
            current: tx.prepare(
                "SELECT a.site_id, s.name, a.text, a.content_hash, a.title, a.author,
                        a.published_at, a.modified_at, a.language, a.site_name, a.method
                 FROM articles a JOIN sites s ON s.id = a.site_id WHERE a.id = $1",
            )?,
            taken: tx.prepare(
                "SELECT id FROM articles WHERE site_id = $1 AND content_hash = $2 AND id <> $3
                 LIMIT 1",
            )?,
            method: tx.prepare("UPDATE articles SET method = $2 WHERE id = $1")?,
            update: tx.prepare(
                "UPDATE articles SET title = $2, author = $3, published_at = $4,
                    modified_at = $5, language = $6, site_name = $7, text = $8,
                    raw_text = $9, content_hash = $10, word_count = $11, method = $12
                 WHERE id = $1",
            )?,
        })
    }
}

/// One re-extracted article written as `store::reextract::apply_one` writes
/// it on SQLite: left as stored when empty or another article's text, only
/// the differing rows written.
fn apply_one(
    tx: &mut Transaction<'_>,
    sql: &Statements,
    r: &Reextracted,
    settings_for: &dyn Fn(&str) -> LineSettings,
    counts: &mut ReextractCounts,
) -> Result<(), postgres::Error> {
    let current = tx
        .query_opt(&sql.current, &[&r.article_id])?
        .map(|row| Current {
            site_id: row.get(0),
            site: row.get(1),
            text: row.get(2),
            content_hash: row.get(3),
            meta: [
                row.get(4),
                row.get(5),
                row.get(6),
                row.get(7),
                row.get(8),
                row.get(9),
            ],
            method: row.get(10),
        });
    // Deleted since the batch was read: nothing to update.
    let Some(cur) = current else { return Ok(()) };
    let m = &r.article;
    let raw = m.text.as_str();
    if raw.trim().is_empty() {
        counts.empty += 1;
        return Ok(());
    }
    let hash = content_hash(raw);
    if hash != cur.content_hash {
        let taken = tx.query_opt(&sql.taken, &[&cur.site_id, &hash, &r.article_id])?;
        if taken.is_some() {
            counts.duplicates += 1;
            return Ok(());
        }
    }
    let settings = settings_for(&cur.site);
    // Also indexes the new text's lines for the end-of-crawl re-clean.
    let cleaned = clean_with_current_counts(tx, cur.site_id, r.article_id, raw, &settings)?;
    let text = kept_text(cleaned.text, raw);
    let meta = meta_of(m);
    let method = method_name(m.method);
    match rewrite_of(&cur, &text, &hash, &meta, method, counts) {
        Rewrite::Nothing => return Ok(()),
        Rewrite::MethodOnly => {
            tx.execute(&sql.method, &[&r.article_id, &method])?;
            return Ok(());
        }
        Rewrite::Row => {}
    }
    let words = i64::try_from(word_count(&text)).unwrap_or(i64::MAX);
    tx.execute(
        &sql.update,
        &[
            &r.article_id,
            &meta[0],
            &meta[1],
            &meta[2],
            &meta[3],
            &meta[4],
            &meta[5],
            &text,
            &raw,
            &hash,
            &words,
            &method,
        ],
    )?;
    Ok(())
}
