//! The SQL primitives of article writes and learning on PostgreSQL
//! ([`ArticleSql`] for [`Tx`]): one statement each, an article's lines
//! passed as arrays (`unnest`), so an article costs a handful of round
//! trips whatever its length.
//!
//! In: a transaction. Out: rows. Every count is raised in SQL
//! (`count = l.count + 1`), never written back from what was read, and
//! line rows are touched in md5 order, so processes writing at once add up
//! and cannot deadlock over them; a site's learning is serialised by its
//! lock ([`ArticleSql::article_site`], see [`super::locks`]).

use std::collections::HashMap;
use std::sync::LazyLock;

use postgres::types::Type;

use super::locks::{lock_site, locked_site};
use super::sql::Tx;
use crate::boilerplate::LineHash;
use crate::store::rules::details::{self, Details};
use crate::store::rules::{to_u64, ArticleRow, ArticleSql, AtUrl, NewLines, PageCounts};
use crate::store::sql::Sql;
use crate::store::{method_name, StoreError};

fn hash_of(md5: &[u8]) -> Option<LineHash> {
    LineHash::try_from(md5).ok()
}

fn md5s_of(hashes: &[LineHash]) -> Vec<&[u8]> {
    hashes.iter().map(|h| &h[..]).collect()
}

/// One statement inserts the article (its details from `$21` on), its
/// lines and its URLs.
static INSERT_ARTICLE: LazyLock<String> = LazyLock::new(|| {
    format!(
        "WITH a AS (
             INSERT INTO articles (url_id, url, canonical_url, site_id, title, author,
                 published_at, modified_at, language, site_name, text, raw_text,
                 content_hash, word_count, fetched_at, method, {})
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16,
                 {})
             RETURNING id),
         distinctive AS (
             INSERT INTO article_lines (site_id, md5, article_id, chars)
             SELECT $4, u.md5, a.id, u.chars
             FROM a, unnest($17::bytea[], $18::int[]) AS u(md5, chars)
             ON CONFLICT DO NOTHING),
         shared AS (
             INSERT INTO article_shared_lines (site_id, md5, article_id)
             SELECT $4, u.md5, a.id FROM a, unnest($19::bytea[]) AS u(md5)
             ON CONFLICT DO NOTHING),
         urls AS (
             INSERT INTO article_urls (url, article_id)
             SELECT u.url, a.id FROM a, unnest($20::text[]) AS u(url)
             ON CONFLICT DO NOTHING)
         SELECT id FROM a",
        details::columns_of(None),
        details::placeholders('$', 21)
    )
});

impl ArticleSql for Tx<'_, '_> {
    fn sql(&mut self) -> &mut dyn Sql {
        self
    }

    fn article_site(&mut self, name: &str) -> Result<i64, StoreError> {
        locked_site(self, name)
    }

    fn locked_at_url(&mut self, found: AtUrl, url: &str) -> Result<Option<AtUrl>, StoreError> {
        // Another process may have just updated the row.
        lock_site(self, found.site_id)?;
        self.article_at_url(url)
    }

    fn lock_sites(&mut self, site_ids: &[i64]) -> Result<(), StoreError> {
        Ok(site_ids.iter().try_for_each(|&id| lock_site(self, id))?)
    }

    fn lock_article_sites(&mut self, article_ids: &[i64]) -> Result<(), StoreError> {
        let sites: Vec<i64> = self
            .query_typed(
                "SELECT DISTINCT site_id FROM articles WHERE id = ANY($1) ORDER BY site_id",
                &[(&article_ids, Type::INT8_ARRAY)],
            )?
            .iter()
            .map(|r| r.get(0))
            .collect();
        self.lock_sites(&sites)
    }

    /// One statement inserts the article, its lines and its URLs.
    fn insert_article(
        &mut self,
        row: &ArticleRow<'_>,
        lines: &NewLines,
        urls: &[&str],
    ) -> Result<i64, StoreError> {
        let (distinctive, chars): (Vec<&[u8]>, Vec<i32>) = lines
            .distinctive
            .iter()
            .map(|(hash, chars)| (&hash[..], i32::try_from(*chars).unwrap_or(i32::MAX)))
            .unzip();
        let shared = md5s_of(&lines.shared);
        let m = row.article;
        let author = m.author();
        let details = Details::of(m);
        let [authors, description, section, tags, image, paywalled, facets] = details.values();
        Ok(self
            .query_typed_one(
                &INSERT_ARTICLE,
                &[
                    (&row.url_id, Type::INT8),
                    (&row.url, Type::TEXT),
                    (&m.canonical_url, Type::TEXT),
                    (&row.site_id, Type::INT8),
                    (&m.title, Type::TEXT),
                    (&author, Type::TEXT),
                    (&m.published_at, Type::TEXT),
                    (&m.modified_at, Type::TEXT),
                    (&m.language, Type::TEXT),
                    (&m.site_name, Type::TEXT),
                    (&row.text, Type::TEXT),
                    (&row.raw, Type::TEXT),
                    (&row.content_hash, Type::TEXT),
                    (&row.word_count, Type::INT8),
                    (&row.fetched_at, Type::INT8),
                    (&method_name(m.method), Type::TEXT),
                    (&distinctive, Type::BYTEA_ARRAY),
                    (&chars, Type::INT4_ARRAY),
                    (&shared, Type::BYTEA_ARRAY),
                    (&urls, Type::TEXT_ARRAY),
                    (&authors, Type::TEXT),
                    (&description, Type::TEXT),
                    (&section, Type::TEXT),
                    (&tags, Type::TEXT),
                    (&image, Type::TEXT),
                    (&paywalled, Type::BOOL),
                    (&facets, Type::TEXT),
                ],
            )?
            .get(0))
    }

    /// One query: each line's LC and the owners of the distinctive ones.
    fn page_lines(
        &mut self,
        site_id: i64,
        md5s: &[LineHash],
        max_owners: i64,
    ) -> Result<PageCounts, StoreError> {
        let md5s = md5s_of(md5s);
        let rows = self.query_typed(
            "WITH page AS (
                 SELECT u.md5, coalesce(l.count, 0) AS lc FROM unnest($2::bytea[]) AS u(md5)
                 LEFT JOIN line_hashes l ON l.site_id = $1 AND l.md5 = u.md5)
             SELECT p.md5, p.lc, o.article_id FROM page p
             LEFT JOIN LATERAL (
                 SELECT article_id FROM article_lines a WHERE a.site_id = $1 AND a.md5 = p.md5
                 UNION
                 SELECT article_id FROM article_shared_lines s
                 WHERE s.site_id = $1 AND s.md5 = p.md5
             ) o ON p.lc <= $3",
            &[
                (&site_id, Type::INT8),
                (&md5s, Type::BYTEA_ARRAY),
                (&max_owners, Type::INT8),
            ],
        )?;
        let mut counts = HashMap::with_capacity(md5s.len());
        let mut owners = Vec::new();
        for row in &rows {
            let Some(hash) = hash_of(row.get::<_, &[u8]>(0)) else {
                continue;
            };
            counts.insert(hash, row.get(1));
            if let Some(id) = row.get::<_, Option<i64>>(2) {
                owners.push((hash, id));
            }
        }
        Ok((counts, owners))
    }

    /// One statement for all the lines, inserted in md5 order.
    fn count_lines(
        &mut self,
        site_id: i64,
        lines: &[(LineHash, &str)],
        rc: i64,
    ) -> Result<Vec<(LineHash, u64)>, StoreError> {
        let hashes: Vec<&[u8]> = lines.iter().map(|(h, _)| &h[..]).collect();
        let samples: Vec<&str> = lines.iter().map(|(_, s)| *s).collect();
        let rows = self.query_typed(
            "INSERT INTO line_hashes AS l (site_id, md5, count, first_seen, last_seen, sample)
             SELECT $1, u.md5, 1, $3, $3, ''
             FROM unnest($2::bytea[]) WITH ORDINALITY AS u(md5, n)
             ORDER BY u.n
             ON CONFLICT (site_id, md5) DO UPDATE SET count = l.count + 1, last_seen = $3,
                 sample = CASE WHEN l.sample = ''
                               THEN ($4::text[])[array_position($2::bytea[], excluded.md5)]
                               ELSE l.sample END
             RETURNING l.md5, l.count",
            &[
                (&site_id, Type::INT8),
                (&hashes, Type::BYTEA_ARRAY),
                (&rc, Type::INT8),
                (&samples, Type::TEXT_ARRAY),
            ],
        )?;
        Ok(rows
            .iter()
            .filter_map(|r| Some((hash_of(r.get::<_, &[u8]>(0))?, to_u64(r.get(1)))))
            .collect())
    }

    fn record_changes(&mut self, site_id: i64, md5s: &[LineHash]) -> Result<(), StoreError> {
        let md5s = md5s_of(md5s);
        self.execute_typed(
            "INSERT INTO line_changes AS c (site_id, md5, before_id)
             SELECT $1, u.md5, (SELECT coalesce(max(id), 0) FROM articles)
             FROM unnest($2::bytea[]) AS u(md5) ORDER BY u.md5
             ON CONFLICT (site_id, md5) DO UPDATE
                 SET before_id = greatest(c.before_id, excluded.before_id)",
            &[(&site_id, Type::INT8), (&md5s, Type::BYTEA_ARRAY)],
        )?;
        Ok(())
    }

    fn index_shared(
        &mut self,
        site_id: i64,
        article_id: i64,
        md5s: &[LineHash],
    ) -> Result<(), StoreError> {
        if md5s.is_empty() {
            return Ok(());
        }
        let md5s = md5s_of(md5s);
        self.execute_typed(
            "INSERT INTO article_shared_lines (site_id, md5, article_id)
             SELECT $1, u.md5, $3 FROM unnest($2::bytea[]) AS u(md5)
             ON CONFLICT DO NOTHING",
            &[
                (&site_id, Type::INT8),
                (&md5s, Type::BYTEA_ARRAY),
                (&article_id, Type::INT8),
            ],
        )?;
        Ok(())
    }

    fn line_counts(
        &mut self,
        site_id: i64,
        md5s: &[LineHash],
    ) -> Result<HashMap<LineHash, u64>, StoreError> {
        let md5s = md5s_of(md5s);
        let rows = self.query_typed(
            "SELECT md5, count FROM line_hashes WHERE site_id = $1 AND md5 = ANY($2::bytea[])",
            &[(&site_id, Type::INT8), (&md5s, Type::BYTEA_ARRAY)],
        )?;
        Ok(rows
            .iter()
            .filter_map(|r| Some((hash_of(r.get::<_, &[u8]>(0))?, to_u64(r.get(1)))))
            .collect())
    }
}
