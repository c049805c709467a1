//! The SQL primitives of article writes and learning on SQLite
//! ([`ArticleSql`] for [`Sqlite`]): each a prepared statement (prepared
//! once per connection, `prepare_cached`) run once per line of a batch.
//!
//! In: a connection, inside the caller's transaction when it writes. Out:
//! rows. Line hashes are stored as 16-byte BLOBs.

use std::collections::HashMap;

use rusqlite::{params, Connection, OptionalExtension};

use crate::boilerplate::LineHash;
use crate::store::rules::{to_u64, ArticleRow, ArticleSql, AtUrl, NewLines, PageCounts, Version};
use crate::store::sqlite::frontier::site_id_in;
use crate::store::sqlite::kept::{self, Put};
use crate::store::{method_name, KeptHtml};

/// A connection (a transaction, for writes) seen through [`ArticleSql`].
pub(crate) struct Sqlite<'c>(pub(crate) &'c Connection);

fn hashes_of(
    rows: impl Iterator<Item = rusqlite::Result<Vec<u8>>>,
) -> rusqlite::Result<Vec<LineHash>> {
    let mut out = Vec::new();
    for md5 in rows {
        if let Ok(hash) = LineHash::try_from(md5?.as_slice()) {
            out.push(hash);
        }
    }
    Ok(out)
}

impl ArticleSql for Sqlite<'_> {
    type Error = rusqlite::Error;

    fn article_site(&mut self, name: &str) -> rusqlite::Result<i64> {
        // One writer: nothing to lock.
        site_id_in(self.0, name)
    }

    fn locked_at_url(&mut self, found: AtUrl, _url: &str) -> rusqlite::Result<Option<AtUrl>> {
        Ok(Some(found))
    }

    fn known_article(
        &mut self,
        url: &str,
        site_id: i64,
        hash: &str,
    ) -> rusqlite::Result<(Option<i64>, Option<i64>)> {
        Ok((
            self.article_by_url(url)?,
            self.article_by_hash(site_id, hash)?,
        ))
    }

    fn article_by_url(&mut self, url: &str) -> rusqlite::Result<Option<i64>> {
        self.0
            .prepare_cached(
                "SELECT article_id FROM article_urls WHERE url = ?1
                 UNION ALL SELECT id FROM articles WHERE url = ?1
                 LIMIT 1",
            )?
            .query_row([url], |r| r.get(0))
            .optional()
    }

    fn article_by_hash(&mut self, site_id: i64, hash: &str) -> rusqlite::Result<Option<i64>> {
        self.0
            .prepare_cached("SELECT id FROM articles WHERE site_id = ?1 AND content_hash = ?2")?
            .query_row(params![site_id, hash], |r| r.get(0))
            .optional()
    }

    fn article_at_url(&mut self, url: &str) -> rusqlite::Result<Option<AtUrl>> {
        self.0
            .prepare_cached("SELECT id, content_hash, site_id FROM articles WHERE url = ?1")?
            .query_row([url], |r| {
                Ok(AtUrl {
                    id: r.get(0)?,
                    content_hash: r.get(1)?,
                    site_id: r.get(2)?,
                })
            })
            .optional()
    }

    fn is_site_url(&mut self, url: &str, site_id: i64) -> rusqlite::Result<bool> {
        Ok(self
            .0
            .prepare_cached("SELECT 1 FROM urls WHERE url = ?1 AND site_id = ?2")?
            .query_row(params![url, site_id], |_| Ok(()))
            .optional()?
            .is_some())
    }

    fn add_alias(&mut self, url: &str, id: i64) -> rusqlite::Result<()> {
        self.0
            .prepare_cached("INSERT OR IGNORE INTO article_urls(url, article_id) VALUES (?1, ?2)")?
            .execute(params![url, id])?;
        Ok(())
    }

    fn insert_article(
        &mut self,
        row: &ArticleRow<'_>,
        lines: &NewLines,
        urls: &[&str],
    ) -> rusqlite::Result<i64> {
        let m = row.article;
        self.0
            .prepare_cached(
                "INSERT INTO articles(url_id, url, canonical_url, site_id, title, author,
                                      published_at, modified_at, language, site_name, text,
                                      raw_text, content_hash, word_count, fetched_at, method)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)",
            )?
            .execute(params![
                row.url_id,
                row.url,
                m.canonical_url,
                row.site_id,
                m.title,
                m.author,
                m.published_at,
                m.modified_at,
                m.language,
                m.site_name,
                row.text,
                row.raw,
                row.content_hash,
                row.word_count,
                row.fetched_at,
                method_name(m.method),
            ])?;
        let id = self.0.last_insert_rowid();
        let mut distinctive = self.0.prepare_cached(
            "INSERT OR IGNORE INTO article_lines(site_id, md5, article_id, chars)
             VALUES (?1, ?2, ?3, ?4)",
        )?;
        for (hash, chars) in &lines.distinctive {
            let chars = i64::try_from(*chars).unwrap_or(i64::MAX);
            distinctive.execute(params![row.site_id, &hash[..], id, chars])?;
        }
        self.index_shared(row.site_id, id, &lines.shared)?;
        for url in urls {
            self.add_alias(url, id)?;
        }
        Ok(id)
    }

    fn update_article(&mut self, id: i64, row: &ArticleRow<'_>) -> rusqlite::Result<()> {
        let m = row.article;
        self.0
            .prepare_cached(
                "UPDATE articles SET title = ?2, author = ?3, published_at = ?4,
                    modified_at = ?5, language = ?6, site_name = ?7, text = ?8, raw_text = ?9,
                    content_hash = ?10, word_count = ?11, fetched_at = ?12,
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
                row.text,
                row.raw,
                row.content_hash,
                row.word_count,
                row.fetched_at,
                m.canonical_url,
                method_name(m.method),
            ])?;
        Ok(())
    }

    fn put_html(&mut self, id: i64, html: &KeptHtml, replace: bool) -> rusqlite::Result<()> {
        let how = if replace { Put::Replace } else { Put::New };
        kept::put(self.0, id, html, how)
    }

    fn page_lines(
        &mut self,
        site_id: i64,
        md5s: &[LineHash],
        max_owners: i64,
    ) -> rusqlite::Result<PageCounts> {
        let mut lc = self
            .0
            .prepare_cached("SELECT count FROM line_hashes WHERE site_id = ?1 AND md5 = ?2")?;
        let mut owners_of = self.0.prepare_cached(
            "SELECT article_id FROM article_lines WHERE site_id = ?1 AND md5 = ?2
             UNION
             SELECT article_id FROM article_shared_lines WHERE site_id = ?1 AND md5 = ?2",
        )?;
        let mut counts = HashMap::with_capacity(md5s.len());
        let mut owners = Vec::new();
        for hash in md5s {
            let count: Option<i64> = lc
                .query_row(params![site_id, &hash[..]], |r| r.get(0))
                .optional()?;
            if let Some(count) = count {
                counts.insert(*hash, count);
            }
            if count.unwrap_or(0) <= max_owners {
                let ids = owners_of.query_map(params![site_id, &hash[..]], |r| r.get(0))?;
                for id in ids {
                    owners.push((*hash, id?));
                }
            }
        }
        Ok((counts, owners))
    }

    fn distinctive_chars(&mut self, article_id: i64) -> rusqlite::Result<i64> {
        self.0
            .prepare_cached(
                "SELECT coalesce(sum(chars), 0) FROM article_lines WHERE article_id = ?1",
            )?
            .query_row([article_id], |r| r.get(0))
    }

    fn record_version(
        &mut self,
        url: &str,
        v: Version,
        raw_text: &str,
        content_hash: &str,
        fetched_at: i64,
    ) -> rusqlite::Result<()> {
        self.0
            .prepare_cached(
                "INSERT OR IGNORE INTO article_versions(url, article_id, raw_text, content_hash,
                                                        shared, fetched_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?
            .execute(params![
                url,
                v.article_id,
                raw_text,
                content_hash,
                v.shared,
                fetched_at
            ])?;
        Ok(())
    }

    fn count_article(&mut self, site_id: i64, judgement_key: &str) -> rusqlite::Result<(i64, i64)> {
        self.0
            .prepare_cached(
                "INSERT INTO site_stats (site_id, articles_processed, cleaned_with)
                 VALUES (?1, 1, CASE WHEN EXISTS (SELECT 1 FROM articles WHERE site_id = ?1)
                                     THEN NULL ELSE ?2 END)
                 ON CONFLICT (site_id) DO UPDATE SET articles_processed = articles_processed + 1
                 RETURNING articles_processed, last_prune_rc",
            )?
            .query_row(params![site_id, judgement_key], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
    }

    fn count_lines(
        &mut self,
        site_id: i64,
        lines: &[(LineHash, &str)],
        rc: i64,
    ) -> rusqlite::Result<Vec<(LineHash, u64)>> {
        let mut upsert = self.0.prepare_cached(
            "INSERT INTO line_hashes (site_id, md5, count, first_seen, last_seen, sample)
             VALUES (?1, ?2, 1, ?3, ?3, '')
             ON CONFLICT (site_id, md5) DO UPDATE SET count = count + 1, last_seen = ?3,
                 sample = CASE WHEN sample = '' THEN ?4 ELSE sample END
             RETURNING count",
        )?;
        let mut out = Vec::with_capacity(lines.len());
        for (hash, sample) in lines {
            let lc: i64 =
                upsert.query_row(params![site_id, &hash[..], rc, sample], |r| r.get(0))?;
            out.push((*hash, to_u64(lc)));
        }
        Ok(out)
    }

    fn lines_counted_within(
        &mut self,
        site_id: i64,
        ranges: [(i64, i64); 2],
    ) -> rusqlite::Result<Vec<LineHash>> {
        let [(lo1, hi1), (lo2, hi2)] = ranges;
        let mut stmt = self.0.prepare_cached(
            "SELECT md5 FROM line_hashes WHERE site_id = ?1
             AND ((count > ?2 AND count <= ?3) OR (count > ?4 AND count <= ?5))",
        )?;
        let rows = stmt.query_map(params![site_id, lo1, hi1, lo2, hi2], |r| r.get(0))?;
        hashes_of(rows)
    }

    fn prune_lines(&mut self, site_id: i64, limit: i64, rc: i64) -> rusqlite::Result<()> {
        self.0
            .prepare_cached("DELETE FROM line_hashes WHERE site_id = ?1 AND count <= ?2")?
            .execute(params![site_id, limit])?;
        self.0
            .prepare_cached("UPDATE site_stats SET last_prune_rc = ?2 WHERE site_id = ?1")?
            .execute(params![site_id, rc])?;
        Ok(())
    }

    fn record_changes(&mut self, site_id: i64, md5s: &[LineHash]) -> rusqlite::Result<()> {
        let before_id: i64 = self
            .0
            .prepare_cached("SELECT coalesce(max(id), 0) FROM articles")?
            .query_row([], |r| r.get(0))?;
        let mut upsert = self.0.prepare_cached(
            "INSERT INTO line_changes (site_id, md5, before_id) VALUES (?1, ?2, ?3)
             ON CONFLICT (site_id, md5) DO UPDATE SET before_id = max(before_id, excluded.before_id)",
        )?;
        for hash in md5s {
            upsert.execute(params![site_id, &hash[..], before_id])?;
        }
        Ok(())
    }

    fn index_shared(
        &mut self,
        site_id: i64,
        article_id: i64,
        md5s: &[LineHash],
    ) -> rusqlite::Result<()> {
        let mut insert = self.0.prepare_cached(
            "INSERT OR IGNORE INTO article_shared_lines (site_id, md5, article_id)
             VALUES (?1, ?2, ?3)",
        )?;
        for hash in md5s {
            insert.execute(params![site_id, &hash[..], article_id])?;
        }
        Ok(())
    }

    fn forget_cleaned_with(&mut self, site_id: i64) -> rusqlite::Result<()> {
        self.0
            .prepare_cached(
                "UPDATE site_stats SET cleaned_with = NULL
                 WHERE site_id = ?1 AND cleaned_with IS NOT NULL",
            )?
            .execute([site_id])?;
        Ok(())
    }

    fn site_rc(&mut self, site_id: i64) -> rusqlite::Result<u64> {
        let rc: Option<i64> = self
            .0
            .prepare_cached("SELECT articles_processed FROM site_stats WHERE site_id = ?1")?
            .query_row(params![site_id], |r| r.get(0))
            .optional()?;
        Ok(rc.map(to_u64).unwrap_or(0))
    }

    fn line_counts(
        &mut self,
        site_id: i64,
        md5s: &[LineHash],
    ) -> rusqlite::Result<HashMap<LineHash, u64>> {
        let mut lookup = self
            .0
            .prepare_cached("SELECT count FROM line_hashes WHERE site_id = ?1 AND md5 = ?2")?;
        let mut counts = HashMap::with_capacity(md5s.len());
        for hash in md5s {
            let lc: Option<i64> = lookup
                .query_row(params![site_id, &hash[..]], |r| r.get(0))
                .optional()?;
            if let Some(lc) = lc {
                counts.insert(*hash, to_u64(lc));
            }
        }
        Ok(counts)
    }
}
