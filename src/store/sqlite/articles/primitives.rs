//! The SQL primitives of article writes and learning on SQLite
//! ([`ArticleSql`] for [`Sqlite`]): each a prepared statement (prepared
//! once per connection, `prepare_cached`) run once per line of a batch.
//!
//! In: a connection, inside the caller's transaction when it writes. Out:
//! rows. Line hashes are stored as 16-byte BLOBs.

use std::collections::HashMap;
use std::sync::LazyLock;

use rusqlite::{params, Connection, OptionalExtension};

use crate::boilerplate::LineHash;
use crate::store::portable::writes::site_id_created;
use crate::store::rules::details::{self, Details};
use crate::store::rules::{to_u64, ArticleRow, ArticleSql, AtUrl, NewLines, PageCounts};
use crate::store::sql::Sql;
use crate::store::{method_name, StoreError};

/// An article's row, its details from `?17` on.
static INSERT_ARTICLE: LazyLock<String> = LazyLock::new(|| {
    format!(
        "INSERT INTO articles(url_id, url, canonical_url, site_id, title, author, published_at,
                              modified_at, language, site_name, text, raw_text, content_hash,
                              word_count, fetched_at, method, {})
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, {})",
        details::columns_of(None),
        details::placeholders('?', 17)
    )
});

/// A connection (a transaction, for writes) seen through [`ArticleSql`].
pub(crate) struct Sqlite<'c>(pub(crate) &'c Connection);

impl ArticleSql for Sqlite<'_> {
    fn sql(&mut self) -> &mut dyn Sql {
        &mut self.0
    }

    fn article_site(&mut self, name: &str) -> Result<i64, StoreError> {
        // One writer: nothing to lock.
        site_id_created(&mut self.0, name)
    }

    fn locked_at_url(&mut self, found: AtUrl, _url: &str) -> Result<Option<AtUrl>, StoreError> {
        Ok(Some(found))
    }

    fn insert_article(
        &mut self,
        row: &ArticleRow<'_>,
        lines: &NewLines,
        urls: &[&str],
    ) -> Result<i64, StoreError> {
        let m = row.article;
        let details = Details::of(m);
        let [authors, description, section, tags, image, paywalled, facets] = details.values();
        self.0.prepare_cached(&INSERT_ARTICLE)?.execute(params![
            row.url_id,
            row.url,
            m.canonical_url,
            row.site_id,
            m.title,
            m.author(),
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
            authors,
            description,
            section,
            tags,
            image,
            paywalled,
            facets,
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

    fn page_lines(
        &mut self,
        site_id: i64,
        md5s: &[LineHash],
        max_owners: i64,
    ) -> Result<PageCounts, StoreError> {
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

    fn count_lines(
        &mut self,
        site_id: i64,
        lines: &[(LineHash, &str)],
        rc: i64,
    ) -> Result<Vec<(LineHash, u64)>, StoreError> {
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

    fn record_changes(&mut self, site_id: i64, md5s: &[LineHash]) -> Result<(), StoreError> {
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
    ) -> Result<(), StoreError> {
        let mut insert = self.0.prepare_cached(
            "INSERT OR IGNORE INTO article_shared_lines (site_id, md5, article_id)
             VALUES (?1, ?2, ?3)",
        )?;
        for hash in md5s {
            insert.execute(params![site_id, &hash[..], article_id])?;
        }
        Ok(())
    }

    fn line_counts(
        &mut self,
        site_id: i64,
        md5s: &[LineHash],
    ) -> Result<HashMap<LineHash, u64>, StoreError> {
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
