//! Reading the corpus back from PostgreSQL: one article by id or URL, a
//! streaming export, per-site figures and top lines, with the meaning and
//! errors of the SQLite store's (`store::search`, `store::stats`).
//!
//! In: an article reference, a [`Selection`], a site. Out: the same
//! [`StoredArticle`] and [`SiteStats`] values either store gives.

use postgres::types::ToSql;
use postgres::Row;

use super::super::{ArticleRef, Selection, StoreError, StoredArticle, StoredHtml};
use super::PgStore;
use crate::store::rows::Cell;
use crate::store::rows::{stored_article, stored_html, ARTICLE_COLUMNS, KEPT_COLUMNS};
use crate::store::rules::search::article_id;
use crate::store::rules::to_u64;

/// Articles read per round trip by an export.
const EXPORT_ROWS: i32 = 500;

/// `a.published_at` (RFC 3339 text) as a time; NULL for text that is not a
/// date, so such rows drop out of date bounds (as SQLite's `julianday`
/// gives them NULL) rather than failing the whole query. A date without an
/// offset is read in the session's zone: callers set it to UTC first.
pub(super) const PUBLISHED: &str = "(CASE WHEN a.published_at ~ '^\\d{4}-\\d{2}-\\d{2}' \
    THEN a.published_at::timestamptz END)";

/// A [`Selection`] as SQL conditions on `a` (articles), with their values.
pub(super) struct SelectionSql {
    /// ` AND …` conditions; placeholders numbered from the `first` given.
    pub sql: String,
    pub params: Vec<Box<dyn ToSql + Sync>>,
}

impl SelectionSql {
    /// Conditions for `sel`, numbering placeholders from `$first`. An
    /// unknown site is [`StoreError::UnknownSite`].
    pub(super) fn new(
        client: &mut postgres::Client,
        sel: &Selection,
        first: usize,
    ) -> Result<SelectionSql, StoreError> {
        let mut out = SelectionSql {
            sql: String::new(),
            params: Vec::new(),
        };
        let mut next = first;
        let mut push = |out: &mut SelectionSql, cond: &str, v: Box<dyn ToSql + Sync>| {
            out.sql.push_str(&cond.replace("$?", &format!("${next}")));
            out.params.push(v);
            next += 1;
        };
        if let Some(site) = &sel.site {
            let id = site_id(client, site)?.ok_or_else(|| StoreError::UnknownSite(site.clone()))?;
            push(&mut out, " AND a.site_id = $?", Box::new(id));
        }
        if sel.published_since.is_some() || sel.published_until.is_some() {
            // A date written without an offset is UTC, as SQLite's julianday
            // reads it, not the server's local time.
            client.batch_execute("SET TIME ZONE 'UTC'")?;
        }
        if let Some(since) = sel.published_since {
            let cond = format!(" AND {PUBLISHED} >= ($?::text)::timestamptz");
            push(&mut out, &cond, Box::new(since.to_rfc3339()));
        }
        if let Some(until) = sel.published_until {
            let cond = format!(" AND {PUBLISHED} <= ($?::text)::timestamptz");
            push(&mut out, &cond, Box::new(until.to_rfc3339()));
        }
        if let Some(lang) = &sel.language {
            push(&mut out, " AND a.language = $?", Box::new(lang.clone()));
        }
        Ok(out)
    }

    pub(super) fn refs(&self) -> Vec<&(dyn ToSql + Sync)> {
        self.params.iter().map(|p| p.as_ref()).collect()
    }
}

pub(super) fn site_id(
    client: &mut postgres::Client,
    name: &str,
) -> Result<Option<i64>, StoreError> {
    Ok(client
        .query_opt("SELECT id FROM sites WHERE name = $1", &[&name])?
        .map(|r| r.get(0)))
}

impl crate::store::rows::Columns for Row {
    type Error = StoreError;
    fn int(&self, i: usize) -> Result<i64, StoreError> {
        Ok(self.try_get(i)?)
    }
    fn text(&self, i: usize) -> Result<String, StoreError> {
        Ok(self.try_get(i)?)
    }
    fn opt_text(&self, i: usize) -> Result<Option<String>, StoreError> {
        Ok(self.try_get(i)?)
    }
    fn bytes(&self, i: usize) -> Result<Vec<u8>, StoreError> {
        Ok(self.try_get(i)?)
    }
    fn flag(&self, i: usize) -> Result<bool, StoreError> {
        Ok(self.try_get(i)?)
    }
    fn cell(&self, i: usize) -> Result<Cell, StoreError> {
        super::sql::cell_of(self, i)
    }
    fn undecodable(&self, _: usize, e: std::io::Error) -> StoreError {
        StoreError::Io(e)
    }
}

impl PgStore {
    /// One article by id, or by any URL that led to it (aliases included;
    /// the URL is also tried normalised, then as a canonical URL).
    pub fn article(&mut self, r: ArticleRef) -> Result<Option<StoredArticle>, StoreError> {
        let Some(id) = article_id(r, |url| {
            let row = self.client().query_opt(
                "SELECT article_id FROM article_urls WHERE url = $1
                 UNION ALL SELECT id FROM articles WHERE url = $1
                 UNION ALL SELECT id FROM articles WHERE canonical_url = $1
                 LIMIT 1",
                &[&url],
            )?;
            Ok::<_, StoreError>(row.map(|r| r.get(0)))
        })?
        else {
            return Ok(None);
        };
        let sql = format!(
            "SELECT {ARTICLE_COLUMNS} FROM articles a JOIN sites s ON s.id = a.site_id
             WHERE a.id = $1"
        );
        self.client()
            .query_opt(&sql, &[&id])?
            .map(|row| stored_article(&row))
            .transpose()
    }

    /// Stream the selected articles in id order to `f` (read through a
    /// cursor: constant memory); returns how many. An unknown site is an
    /// error.
    pub fn export(
        &mut self,
        sel: &Selection,
        f: &mut dyn FnMut(&StoredArticle) -> std::io::Result<()>,
    ) -> Result<u64, StoreError> {
        let cond = SelectionSql::new(self.client(), sel, 1)?;
        let sql = format!(
            "SELECT {ARTICLE_COLUMNS} FROM articles a JOIN sites s ON s.id = a.site_id
             WHERE true {} ORDER BY a.id",
            cond.sql
        );
        let mut tx = self.client().transaction()?;
        let portal = tx.bind(&sql, &cond.refs())?;
        let mut n = 0;
        loop {
            let rows = tx.query_portal(&portal, EXPORT_ROWS)?;
            if rows.is_empty() {
                break;
            }
            for row in &rows {
                f(&stored_article(row)?)?;
                n += 1;
            }
        }
        tx.commit()?;
        Ok(n)
    }

    /// The kept pages of the selected articles in id order to `f` (read
    /// through a cursor); returns `(written, selected without a kept page)`.
    pub fn export_html(
        &mut self,
        sel: &Selection,
        f: &mut dyn FnMut(&StoredHtml) -> std::io::Result<()>,
    ) -> Result<(u64, u64), StoreError> {
        let cond = SelectionSql::new(self.client(), sel, 1)?;
        let sql = format!(
            "SELECT {KEPT_COLUMNS}
             FROM articles a JOIN sites s ON s.id = a.site_id
             LEFT JOIN article_html k ON k.article_id = a.id
             WHERE true {} ORDER BY a.id",
            cond.sql
        );
        let mut tx = self.client().transaction()?;
        let portal = tx.bind(&sql, &cond.refs())?;
        let (mut written, mut missing) = (0, 0);
        loop {
            let rows = tx.query_portal(&portal, EXPORT_ROWS)?;
            if rows.is_empty() {
                break;
            }
            for row in &rows {
                if row.try_get::<_, Option<i64>>(0)?.is_none() {
                    missing += 1;
                    continue;
                }
                f(&stored_html(row)?)?;
                written += 1;
            }
        }
        tx.commit()?;
        Ok((written, missing))
    }

    /// The site's `n` most recurring lines seen more than once (an unknown
    /// site has none).
    pub fn top_lines(&mut self, site: &str, n: usize) -> Result<Vec<(String, u64)>, StoreError> {
        let Some(id) = site_id(self.client(), site)? else {
            return Ok(Vec::new());
        };
        let limit = i64::try_from(n).unwrap_or(i64::MAX);
        Ok(self
            .client()
            .query(
                "SELECT sample, count FROM line_hashes WHERE site_id = $1 AND count > 1
                 ORDER BY count DESC, first_seen ASC LIMIT $2",
                &[&id, &limit],
            )?
            .iter()
            .map(|r| (r.get(0), to_u64(r.get(1))))
            .collect())
    }
}
