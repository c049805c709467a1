//! The SQL the article rules run ([`ArticleSql`]): what both stores say in
//! one text is written here once, over the store's [`Sql`]; each backend
//! implements the rest, the batches of lines it sends its own way.
//!
//! In: a backend's transaction. Out: the rows the rules read and write.

use std::collections::HashMap;

use super::details::{self, Details};
use super::{ArticleRow, AtUrl, NewLines, PageCounts, Version};
use crate::boilerplate::LineHash;
use crate::store::sql::{int, Sql, Value};
use crate::store::{method_name, KeptHtml, StoreError};

/// The SQL primitives of article writes and learning, in one transaction.
/// Line lists come sorted by hash (the order PostgreSQL touches rows in,
/// so two transactions cannot deadlock over them). What both stores say
/// in one text is written here once, over [`ArticleSql::sql`]; a backend
/// implements the rest: the site's lock, and the batches of lines it sends
/// its own way (PostgreSQL's `unnest`, SQLite's prepared loops).
pub(crate) trait ArticleSql {
    /// The transaction, for the statements both stores run as one text.
    fn sql(&mut self) -> &mut dyn Sql;

    /// The id of the named site (created if new), before anything of an
    /// article is read. A backend that many processes share holds the
    /// site's learning lock from here to the end of the transaction, so
    /// that what follows sees every article of the site stored before.
    fn article_site(&mut self, name: &str) -> Result<i64, StoreError>;
    /// The article stored under `url` as [`ArticleSql::article_site`] does for
    /// a site's name: read again holding its site's learning lock (`None`:
    /// it went away meanwhile).
    fn locked_at_url(&mut self, found: AtUrl, url: &str) -> Result<Option<AtUrl>, StoreError>;
    /// Hold these sites' learning locks (ids sorted, each once, so that two
    /// transactions taking several cannot deadlock) to the end of the
    /// transaction, so that a crawl storing their articles meanwhile waits;
    /// a store with one writer has nothing to lock.
    fn lock_sites(&mut self, site_ids: &[i64]) -> Result<(), StoreError> {
        let _ = site_ids;
        Ok(())
    }
    /// [`ArticleSql::lock_sites`] of the sites of these articles.
    fn lock_article_sites(&mut self, article_ids: &[i64]) -> Result<(), StoreError> {
        let _ = article_ids;
        Ok(())
    }
    /// Insert an article with its lines' index rows and its URLs; its id.
    fn insert_article(
        &mut self,
        row: &ArticleRow<'_>,
        lines: &NewLines,
        urls: &[&str],
    ) -> Result<i64, StoreError>;

    /// LC of the given lines of a site (lines absent left out) and, for
    /// those with LC ≤ `max_owners`, the stored articles having them
    /// (`article_lines` and `article_shared_lines`, each pair once).
    fn page_lines(
        &mut self,
        site_id: i64,
        md5s: &[LineHash],
        max_owners: i64,
    ) -> Result<PageCounts, StoreError>;
    /// LC += 1 of each line (rows created at LC 1, first and last seen at
    /// `rc`; a line's sample written when it recurs); each line's new LC.
    fn count_lines(
        &mut self,
        site_id: i64,
        lines: &[(LineHash, &str)],
        rc: i64,
    ) -> Result<Vec<(LineHash, u64)>, StoreError>;
    /// Record that these lines (distinct, sorted) changed status now.
    fn record_changes(&mut self, site_id: i64, md5s: &[LineHash]) -> Result<(), StoreError>;
    /// Index lines of a stored article in `article_shared_lines`.
    fn index_shared(
        &mut self,
        site_id: i64,
        article_id: i64,
        md5s: &[LineHash],
    ) -> Result<(), StoreError>;
    /// LC of the given lines (lines absent left out).
    fn line_counts(
        &mut self,
        site_id: i64,
        md5s: &[LineHash],
    ) -> Result<HashMap<LineHash, u64>, StoreError>;

    /// The article a URL leads to (its own or an alias), and the site's
    /// article with this content hash.
    fn known_article(
        &mut self,
        url: &str,
        site_id: i64,
        hash: &str,
    ) -> Result<(Option<i64>, Option<i64>), StoreError> {
        // One round trip: each lookup's rows tagged with the lookup.
        let sql = "SELECT 'url', id FROM (SELECT article_id AS id FROM article_urls WHERE url = ?1
                                      UNION ALL SELECT id FROM articles WHERE url = ?1
                                      LIMIT 1) AS by_url
                   UNION ALL
                   SELECT 'hash', id FROM articles WHERE site_id = ?2 AND content_hash = ?3";
        let params = [url.into(), site_id.into(), hash.into()];
        let mut found = (None, None);
        for (by, id) in self
            .sql()
            .rows(sql, &params, |r| Ok((r.text(0)?, r.int(1)?)))?
        {
            *(if by == "url" {
                &mut found.0
            } else {
                &mut found.1
            }) = Some(id);
        }
        Ok(found)
    }
    /// The article a URL leads to (its own or an alias).
    fn article_by_url(&mut self, url: &str) -> Result<Option<i64>, StoreError> {
        let sql = "SELECT article_id FROM article_urls WHERE url = ?1
                   UNION ALL SELECT id FROM articles WHERE url = ?1
                   LIMIT 1";
        self.sql().first(sql, &[url.into()], |r| r.int(0))
    }
    /// The site's article with this content hash.
    fn article_by_hash(&mut self, site_id: i64, hash: &str) -> Result<Option<i64>, StoreError> {
        let sql = "SELECT id FROM articles WHERE site_id = ?1 AND content_hash = ?2";
        self.sql()
            .first(sql, &[site_id.into(), hash.into()], |r| r.int(0))
    }
    /// The article whose own URL is `url`.
    fn article_at_url(&mut self, url: &str) -> Result<Option<AtUrl>, StoreError> {
        let sql = "SELECT id, content_hash, site_id FROM articles WHERE url = ?1";
        self.sql().first(sql, &[url.into()], |r| {
            Ok(AtUrl {
                id: r.int(0)?,
                content_hash: r.text(1)?,
                site_id: r.int(2)?,
            })
        })
    }
    /// True when the frontier holds `url` for this site.
    fn is_site_url(&mut self, url: &str, site_id: i64) -> Result<bool, StoreError> {
        let sql = "SELECT 1 FROM urls WHERE url = ?1 AND site_id = ?2";
        let found = self
            .sql()
            .first(sql, &[url.into(), site_id.into()], |_| Ok(()))?;
        Ok(found.is_some())
    }
    /// Record `url` as leading to article `id` (a repeat is ignored).
    fn add_alias(&mut self, url: &str, id: i64) -> Result<(), StoreError> {
        let sql = "INSERT INTO article_urls (url, article_id) VALUES (?1, ?2)
                   ON CONFLICT DO NOTHING";
        self.sql().execute(sql, &[url.into(), id.into()])?;
        Ok(())
    }
    /// Replace a stored article's text and metadata (a canonical URL the
    /// new extraction lacks is kept).
    fn update_article(&mut self, id: i64, row: &ArticleRow<'_>) -> Result<(), StoreError> {
        let m = row.article;
        let sql = format!(
            "UPDATE articles SET title = ?2, author = ?3, published_at = ?4,
                 modified_at = ?5, language = ?6, site_name = ?7, text = ?8,
                 raw_text = ?9, content_hash = ?10, word_count = ?11, fetched_at = ?12,
                 canonical_url = coalesce(?13, canonical_url), method = ?14, {}
             WHERE id = ?1",
            details::assignments(15)
        );
        let author = m.author();
        let details = Details::of(m);
        let mut params = vec![
            id.into(),
            m.title.as_ref().into(),
            author.as_ref().into(),
            m.published_at.as_ref().into(),
            m.modified_at.as_ref().into(),
            m.language.as_ref().into(),
            m.site_name.as_ref().into(),
            row.text.into(),
            row.raw.into(),
            row.content_hash.into(),
            row.word_count.into(),
            row.fetched_at.into(),
            m.canonical_url.as_ref().into(),
            method_name(m.method).into(),
        ];
        params.extend(details.values());
        self.sql().execute(&sql, &params)?;
        Ok(())
    }
    /// Store an article's kept page (`replace`: it may have one already).
    ///
    /// Why a plain INSERT for a new article (the upsert only for a changed
    /// refetch): `INSERT OR REPLACE` into a table with a foreign key makes
    /// SQLite open a statement savepoint, and every savepoint makes FTS5
    /// flush the terms it holds for the transaction to a new segment.
    /// Written after each article's insert, it cost a flush and merge work
    /// per article instead of one per batch: 6 % of the crawler's CPU in
    /// `cargo bench --bench crawl` (perf, 5 sites × 1000 articles).
    fn put_html(&mut self, id: i64, h: &KeptHtml, replace: bool) -> Result<(), StoreError> {
        let upsert = match replace {
            true => {
                " ON CONFLICT (article_id) DO UPDATE SET url = excluded.url,
                     status = excluded.status, content_type = excluded.content_type,
                     last_modified = excluded.last_modified, etag = excluded.etag,
                     date = excluded.date, fetched_at = excluded.fetched_at,
                     body_bytes = excluded.body_bytes, body_zstd = excluded.body_zstd"
            }
            false => "",
        };
        let sql = format!(
            "INSERT INTO article_html (article_id, url, status, content_type, last_modified,
                 etag, date, fetched_at, body_bytes, body_zstd)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10){upsert}"
        );
        let params = [
            id.into(),
            h.url.as_str().into(),
            i64::from(h.status).into(),
            h.content_type.as_ref().into(),
            h.last_modified.as_ref().into(),
            h.etag.as_ref().into(),
            h.date.as_ref().into(),
            h.fetched_at.into(),
            int(h.body_bytes),
            h.compressed.as_slice().into(),
        ];
        self.sql().execute(&sql, &params)?;
        Ok(())
    }
    /// Characters of an article's distinctive lines.
    fn distinctive_chars(&mut self, article_id: i64) -> Result<i64, StoreError> {
        let sql = "SELECT CAST(coalesce(sum(chars), 0) AS BIGINT) FROM article_lines
                   WHERE article_id = ?1";
        self.sql().one(sql, &[article_id.into()], |r| r.int(0))
    }
    /// Record the page at `url` as a version of a stored article.
    fn record_version(
        &mut self,
        url: &str,
        v: Version,
        raw_text: &str,
        content_hash: &str,
        fetched_at: i64,
    ) -> Result<(), StoreError> {
        let sql = "INSERT INTO article_versions (url, article_id, raw_text, content_hash,
                       shared, fetched_at)
                   VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                   ON CONFLICT DO NOTHING";
        let params = [
            url.into(),
            v.article_id.into(),
            raw_text.into(),
            content_hash.into(),
            v.shared.into(),
            fetched_at.into(),
        ];
        self.sql().execute(sql, &params)?;
        Ok(())
    }
    /// RC += 1 for the site (its row created, with `cleaned_with` set to
    /// `judgement_key` when the site has no article yet); the new RC and
    /// the RC of the last pruning.
    fn count_article(
        &mut self,
        site_id: i64,
        judgement_key: &str,
    ) -> Result<(i64, i64), StoreError> {
        let sql = "INSERT INTO site_stats (site_id, articles_processed, cleaned_with)
                   VALUES (?1, 1, CASE WHEN EXISTS (SELECT 1 FROM articles WHERE site_id = ?1)
                                       THEN NULL ELSE CAST(?2 AS TEXT) END)
                   ON CONFLICT (site_id) DO UPDATE
                       SET articles_processed = site_stats.articles_processed + 1
                   RETURNING articles_processed, last_prune_rc";
        let params = [site_id.into(), judgement_key.into()];
        self.sql().one(sql, &params, |r| Ok((r.int(0)?, r.int(1)?)))
    }
    /// The site's lines with `lo < LC ≤ hi` for either of two ranges.
    fn lines_counted_within(
        &mut self,
        site_id: i64,
        ranges: [(i64, i64); 2],
    ) -> Result<Vec<LineHash>, StoreError> {
        let [(lo1, hi1), (lo2, hi2)] = ranges;
        let sql = "SELECT md5 FROM line_hashes WHERE site_id = ?1
                   AND ((count > ?2 AND count <= ?3) OR (count > ?4 AND count <= ?5))";
        let params = [site_id, lo1, hi1, lo2, hi2].map(Value::from);
        let md5s = self.sql().rows(sql, &params, |r| r.bytes(0))?;
        Ok(md5s
            .iter()
            .filter_map(|md5| LineHash::try_from(md5.as_slice()).ok())
            .collect())
    }
    /// Delete the site's lines with LC ≤ `limit`; remember `rc` as the
    /// last pruning.
    fn prune_lines(&mut self, site_id: i64, limit: i64, rc: i64) -> Result<(), StoreError> {
        let sql = self.sql();
        let delete = "DELETE FROM line_hashes WHERE site_id = ?1 AND count <= ?2";
        sql.execute(delete, &[site_id.into(), limit.into()])?;
        let pruned = "UPDATE site_stats SET last_prune_rc = ?2 WHERE site_id = ?1";
        sql.execute(pruned, &[site_id.into(), rc.into()])?;
        Ok(())
    }
    /// Mark the site for a full re-clean (`cleaned_with` cleared).
    fn forget_cleaned_with(&mut self, site_id: i64) -> Result<(), StoreError> {
        let sql = "UPDATE site_stats SET cleaned_with = NULL
                   WHERE site_id = ?1 AND cleaned_with IS NOT NULL";
        self.sql().execute(sql, &[site_id.into()])?;
        Ok(())
    }
    /// RC of a site (0 if none yet).
    fn site_rc(&mut self, site_id: i64) -> Result<u64, StoreError> {
        let sql = "SELECT articles_processed FROM site_stats WHERE site_id = ?1";
        let rc = self.sql().first(sql, &[site_id.into()], |r| r.count(0))?;
        Ok(rc.unwrap_or(0))
    }
}
