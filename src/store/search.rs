//! Reading articles back: full-text search, one article by id or URL, and a
//! streaming export. In: a user query / reference / site filter. Out: rows.
//!
//! Search never passes user text to FTS5 as syntax: every term is quoted, so
//! `AND`, `"`, `*`, `(` or `-` in a query are just text. Alphabetic queries
//! use `articles_fts` (unicode61, bm25 with the title weighted up). Queries
//! containing CJK use the trigram table `articles_fts_cjk` (which indexes
//! only articles with CJK text, migration 0003) when every term has
//! ≥ 3 characters (a trigram index cannot match shorter strings); shorter CJK
//! queries fall back to a LIKE scan ranked by occurrence count.

use rusqlite::{OptionalExtension, Row, ToSql};
use url::Url;

use super::frontier::find_site;
use super::{ArticleRef, SearchHit, Selection, Store, StoreError, StoredArticle};
use crate::extract::Article;
use crate::urls::normalize;
use crate::words::is_han_or_kana;

/// bm25 column weights (title, text): a hit in the title counts 10×.
const TITLE_WEIGHT: f64 = 10.0;
/// Tokens of context around a hit in a snippet.
const SNIPPET_TOKENS: i64 = 16;
/// The same for the trigram table, whose tokens are single characters
/// (64 is FTS5's maximum).
const SNIPPET_CHARS_CJK: i64 = 48;
/// Characters of context either side of the first hit in a LIKE snippet.
const LIKE_CONTEXT: usize = 40;

const ARTICLE_COLUMNS: &str = "a.id, a.url, s.name, a.fetched_at, a.word_count, a.title,
    a.author, a.published_at, a.modified_at, a.language, a.canonical_url, a.site_name, a.text";

/// SQL conditions on `a` (articles) for a [`Selection`], with its named
/// parameters `:site`, `:since`, `:until` and `:lang`. SQLite's `julianday` reads any
/// RFC 3339 offset, so dates written in different zones compare correctly.
pub(super) const SELECTION_SQL: &str = " AND (:site IS NULL OR a.site_id = :site)
    AND (:since IS NULL OR julianday(a.published_at) >= julianday(:since))
    AND (:until IS NULL OR julianday(a.published_at) <= julianday(:until))
    AND (:lang IS NULL OR a.language = :lang)";

/// Which slice of the ranked hits a search returns.
#[derive(Debug, Clone, Copy)]
struct Page {
    limit: i64,
    offset: i64,
}

/// The bound values of [`SELECTION_SQL`].
pub(super) struct SelectionArgs {
    site: Option<i64>,
    since: Option<String>,
    until: Option<String>,
    lang: Option<String>,
}

impl SelectionArgs {
    pub(super) fn new(store: &Store, sel: &Selection) -> Result<Self, StoreError> {
        let utc = |d: &chrono::DateTime<chrono::FixedOffset>| {
            d.with_timezone(&chrono::Utc)
                .to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
        };
        Ok(SelectionArgs {
            site: sel
                .site
                .as_deref()
                .map(|s| find_site(&store.conn, s))
                .transpose()?,
            since: sel.published_since.as_ref().map(utc),
            until: sel.published_until.as_ref().map(utc),
            lang: sel.language.clone(),
        })
    }

    pub(super) fn params(&self) -> [(&'static str, &dyn ToSql); 4] {
        [
            (":site", &self.site),
            (":since", &self.since),
            (":until", &self.until),
            (":lang", &self.lang),
        ]
    }
}

impl Store {
    /// Full-text search, best first. A query with no searchable term returns
    /// nothing; no query text can cause an error.
    pub fn search(&self, query: &str, limit: usize) -> Result<Vec<SearchHit>, StoreError> {
        self.search_in(query, limit, &Selection::default())
    }

    /// [`Store::search`] among the selected articles (an unknown site is an
    /// error).
    pub fn search_in(
        &self,
        query: &str,
        limit: usize,
        sel: &Selection,
    ) -> Result<Vec<SearchHit>, StoreError> {
        self.search_page(query, limit, 0, sel)
    }

    /// [`Store::search_in`] from the `offset`-th hit on (paging).
    pub fn search_page(
        &self,
        query: &str,
        limit: usize,
        offset: usize,
        sel: &Selection,
    ) -> Result<Vec<SearchHit>, StoreError> {
        let sel = SelectionArgs::new(self, sel)?;
        let page = Page {
            limit: i64::try_from(limit).unwrap_or(i64::MAX),
            offset: i64::try_from(offset).unwrap_or(i64::MAX),
        };
        let terms: Vec<&str> = query
            .split_whitespace()
            .filter(|t| t.chars().any(char::is_alphanumeric))
            .collect();
        if terms.is_empty() || limit == 0 {
            return Ok(Vec::new());
        }
        if !terms.iter().any(|t| t.chars().any(is_han_or_kana)) {
            return self.fts_search("articles_fts", &fts_query(&terms, true), page, &sel);
        }
        // Substring matching: punctuation (，。、「」 or ASCII) only separates terms.
        let terms: Vec<&str> = query
            .split(|c: char| !c.is_alphanumeric())
            .filter(|t| !t.is_empty())
            .collect();
        if terms.iter().all(|t| t.chars().count() >= 3) {
            return self.fts_search("articles_fts_cjk", &fts_query(&terms, false), page, &sel);
        }
        self.like_search(&terms, page, &sel)
    }

    fn fts_search(
        &self,
        table: &str,
        fts: &str,
        page: Page,
        sel: &SelectionArgs,
    ) -> Result<Vec<SearchHit>, StoreError> {
        let tokens = if table == "articles_fts_cjk" {
            SNIPPET_CHARS_CJK
        } else {
            SNIPPET_TOKENS
        };
        let sql = format!(
            "SELECT a.id, a.url, s.name, a.title,
                    snippet({table}, 1, '[', ']', '…', {tokens}),
                    bm25({table}, {TITLE_WEIGHT}, 1.0) AS score
             FROM {table} JOIN articles a ON a.id = {table}.rowid
             JOIN sites s ON s.id = a.site_id
             WHERE {table} MATCH :fts {SELECTION_SQL}
             ORDER BY score LIMIT :limit OFFSET :offset"
        );
        let mut stmt = self.conn.prepare_cached(&sql)?;
        let mut args: Vec<(&str, &dyn ToSql)> = vec![
            (":fts", &fts),
            (":limit", &page.limit),
            (":offset", &page.offset),
        ];
        args.extend(sel.params());
        let rows = stmt.query_map(args.as_slice(), |r| {
            Ok(SearchHit {
                id: r.get(0)?,
                url: r.get(1)?,
                site: r.get(2)?,
                title: r.get(3)?,
                snippet: one_line(&r.get::<_, String>(4)?),
                rank: -r.get::<_, f64>(5)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    fn like_search(
        &self,
        terms: &[&str],
        page: Page,
        sel: &SelectionArgs,
    ) -> Result<Vec<SearchHit>, StoreError> {
        // All terms must occur (as with FTS); rank by occurrences of the first.
        let mut sql = format!(
            "SELECT a.id, a.url, s.name, a.title, a.text,
                    (length(a.text) - length(replace(a.text, :first, ''))) / length(:first) AS hits
             FROM articles a JOIN sites s ON s.id = a.site_id WHERE 1 {SELECTION_SQL}"
        );
        let mut patterns = Vec::new();
        for (i, t) in terms.iter().enumerate() {
            sql.push_str(&format!(
                " AND (a.text LIKE :p{i} ESCAPE '\\' OR a.title LIKE :p{i} ESCAPE '\\')"
            ));
            patterns.push((format!(":p{i}"), like_pattern(t)));
        }
        sql.push_str(" ORDER BY hits DESC, a.id LIMIT :limit OFFSET :offset");
        let mut args: Vec<(&str, &dyn ToSql)> = vec![
            (":first", &terms[0]),
            (":limit", &page.limit),
            (":offset", &page.offset),
        ];
        args.extend(sel.params());
        for (name, p) in &patterns {
            args.push((name.as_str(), p));
        }
        let mut stmt = self.conn.prepare(&sql)?;
        let rows = stmt.query_map(args.as_slice(), |r| {
            let text: String = r.get(4)?;
            Ok(SearchHit {
                id: r.get(0)?,
                url: r.get(1)?,
                site: r.get(2)?,
                title: r.get(3)?,
                snippet: like_snippet(&text, terms[0]),
                rank: r.get::<_, f64>(5)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// One article by id, or by any URL that led to it (aliases included;
    /// the URL is also tried in normalised form, then as a canonical URL).
    pub fn article(&self, r: ArticleRef) -> Result<Option<StoredArticle>, StoreError> {
        let id = match r {
            ArticleRef::Id(id) => Some(id),
            ArticleRef::Url(u) => self.article_id_by_url(&u)?,
        };
        let Some(id) = id else { return Ok(None) };
        let sql = format!(
            "SELECT {ARTICLE_COLUMNS} FROM articles a JOIN sites s ON s.id = a.site_id
             WHERE a.id = ?1"
        );
        Ok(self
            .conn
            .prepare_cached(&sql)?
            .query_row([id], stored_article)
            .optional()?)
    }

    fn article_id_by_url(&self, url: &str) -> Result<Option<i64>, StoreError> {
        let mut candidates = vec![url.to_string()];
        if let Some(n) = Url::parse(url).ok().as_ref().and_then(normalize) {
            candidates.push(n.to_string());
        }
        let mut stmt = self.conn.prepare_cached(
            "SELECT article_id FROM article_urls WHERE url = ?1
             UNION ALL SELECT id FROM articles WHERE url = ?1
             UNION ALL SELECT id FROM articles WHERE canonical_url = ?1
             LIMIT 1",
        )?;
        for c in &candidates {
            if let Some(id) = stmt.query_row([c], |r| r.get(0)).optional()? {
                return Ok(Some(id));
            }
        }
        Ok(None)
    }

    /// Stream the selected articles in id order to `f`; returns how many
    /// were written. An unknown site is an error.
    pub fn export(
        &self,
        sel: &Selection,
        mut f: impl FnMut(&StoredArticle) -> std::io::Result<()>,
    ) -> Result<u64, StoreError> {
        let sel = SelectionArgs::new(self, sel)?;
        let sql = format!(
            "SELECT {ARTICLE_COLUMNS} FROM articles a JOIN sites s ON s.id = a.site_id
             WHERE 1 {SELECTION_SQL} ORDER BY a.id"
        );
        let mut stmt = self.conn.prepare(&sql)?;
        let mut rows = stmt.query(&sel.params()[..])?;
        let mut n = 0;
        while let Some(row) = rows.next()? {
            f(&stored_article(row)?)?;
            n += 1;
        }
        Ok(n)
    }
}

fn stored_article(r: &Row<'_>) -> rusqlite::Result<StoredArticle> {
    Ok(StoredArticle {
        id: r.get(0)?,
        url: r.get(1)?,
        site: r.get(2)?,
        fetched_at: r.get(3)?,
        word_count: u64::try_from(r.get::<_, i64>(4)?).unwrap_or(0),
        article: Article {
            title: r.get(5)?,
            author: r.get(6)?,
            published_at: r.get(7)?,
            modified_at: r.get(8)?,
            language: r.get(9)?,
            canonical_url: r.get(10)?,
            site_name: r.get(11)?,
            text: r.get(12)?,
        },
    })
}

/// Terms as FTS5 strings (`"` doubled inside), implicitly ANDed; with
/// `prefixes`, a trailing `*` stays a prefix query (trigram tables need none:
/// they match substrings anyway).
fn fts_query(terms: &[&str], prefixes: bool) -> String {
    let mut q = String::new();
    for t in terms {
        let (body, prefix) = match t.strip_suffix('*') {
            Some(b) if b.chars().any(char::is_alphanumeric) => (b, if prefixes { "*" } else { "" }),
            _ => (*t, ""),
        };
        if !q.is_empty() {
            q.push(' ');
        }
        q.push('"');
        q.push_str(&body.replace('"', "\"\""));
        q.push('"');
        q.push_str(prefix);
    }
    q
}

fn like_pattern(term: &str) -> String {
    let mut p = String::from("%");
    for c in term.chars() {
        if matches!(c, '%' | '_' | '\\') {
            p.push('\\');
        }
        p.push(c);
    }
    p.push('%');
    p
}

/// Text around the first occurrence of `term`, the hit marked `[…]`.
fn like_snippet(text: &str, term: &str) -> String {
    let Some(at) = text.find(term) else {
        return text.chars().take(2 * LIKE_CONTEXT).collect();
    };
    let before: String = {
        let mut v: Vec<char> = text[..at].chars().rev().take(LIKE_CONTEXT).collect();
        v.reverse();
        v.into_iter().collect()
    };
    let after: String = text[at + term.len()..].chars().take(LIKE_CONTEXT).collect();
    let lead = if before.len() < at { "…" } else { "" };
    let tail = if at + term.len() + after.len() < text.len() {
        "…"
    } else {
        ""
    };
    one_line(&format!("{lead}{before}[{term}]{after}{tail}"))
}

/// Snippets are shown one per line: paragraph breaks become spaces.
fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}
