//! Reading articles back: full-text search, one article by id or URL, and a
//! streaming export. In: a user query / reference / site filter. Out: rows.
//!
//! Search never passes user text to FTS5 as syntax: the query is parsed
//! ([`super::query`]: words, phrases, OR, NOT, prefixes) and every term is
//! quoted, so `AND`, `NEAR`, `(` or `:` in a query are just text. Alphabetic queries
//! use `articles_fts` (unicode61, bm25 with the title weighted up). Queries
//! containing CJK use the trigram table `articles_fts_cjk` (which indexes
//! only articles with CJK text, migration 0003) when every term has
//! ≥ 3 characters (a trigram index cannot match shorter strings); shorter CJK
//! queries fall back to a LIKE scan ranked by occurrence count.

use rusqlite::{OptionalExtension, Row, ToSql};

use super::frontier::find_site;
use super::query::{Query, QueryError, Term, MAX_PREFIX_WORDS};
use super::rows::{stored_article, ARTICLE_COLUMNS};
use super::rules::search::{article_id, like_pattern, like_snippet, one_line, MAX_RANKED};
use super::{ArticleRef, SearchHit, Selection, Store, StoreError, StoredArticle};
use crate::words::is_han_or_kana;

/// bm25 column weights (title, text): a hit in the title counts 10×.
const TITLE_WEIGHT: f64 = 10.0;
/// Tokens of context around a hit in a snippet.
const SNIPPET_TOKENS: i64 = 16;
/// The same for the trigram table, whose tokens are single characters
/// (64 is FTS5's maximum).
const SNIPPET_CHARS_CJK: i64 = 48;

/// SQL conditions on `a` (articles) for a [`Selection`], with its named
/// parameters `:site`, `:since`, `:until` and `:lang`. SQLite's `julianday`
/// reads any RFC 3339 offset, so dates written in different zones compare
/// correctly.
pub(super) const SELECTION_SQL: &str = " AND (:site IS NULL OR a.site_id = :site)
    AND (:since IS NULL OR julianday(a.published_at) >= julianday(:since))
    AND (:until IS NULL OR julianday(a.published_at) <= julianday(:until))
    AND (:lang IS NULL OR a.language = :lang)";

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
    /// Full-text search, best first, in the syntax of [`Query`]. A query
    /// with no searchable term, or too many, is a [`QueryError`]; no query
    /// text can cause an SQL error.
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
        let query = Query::parse(query)?;
        let sel = SelectionArgs::new(self, sel)?;
        if limit == 0 {
            return Ok(Vec::new());
        }
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        if !query.has_cjk() {
            self.check_prefixes(&query)?;
            return self.fts_search("articles_fts", &query, limit, &sel);
        }
        // A trigram index cannot match strings shorter than 3 characters.
        if query.terms().all(|t| t.text.chars().count() >= 3) {
            return self.fts_search("articles_fts_cjk", &query, limit, &sel);
        }
        self.like_search(&query, limit, &sel)
    }

    /// FTS5 search: the best `limit` rows are chosen first and only they get
    /// a snippet (computed for every match, `snippet()` made a common word
    /// cost seconds on a large corpus).
    fn fts_search(
        &self,
        table: &str,
        query: &Query,
        limit: i64,
        sel: &SelectionArgs,
    ) -> Result<Vec<SearchHit>, StoreError> {
        let cjk = table == "articles_fts_cjk";
        let tokens = if cjk {
            SNIPPET_CHARS_CJK
        } else {
            SNIPPET_TOKENS
        };
        let fts = fts_expression(query, !cjk);
        // Numbers (`7.1`) are split by the word index; check them as written.
        let exact: Vec<String> = if cjk {
            Vec::new()
        } else {
            query
                .clauses
                .iter()
                .filter(|c| c.len() == 1 && c[0].exact)
                .map(|c| c[0].text.clone())
                .collect()
        };
        let exact_sql: String = (0..exact.len())
            .map(|i| {
                format!(
                    " AND (instr(a.text, :x{i}) > 0 OR instr(coalesce(a.title, ''), :x{i}) > 0)"
                )
            })
            .collect();
        let names: Vec<String> = (0..exact.len()).map(|i| format!(":x{i}")).collect();
        let mut filter_args: Vec<(&str, &dyn ToSql)> = vec![(":fts", &fts)];
        filter_args.extend(sel.params());
        for (name, value) in names.iter().zip(&exact) {
            filter_args.push((name.as_str(), value));
        }
        // Ranking is the cost (bm25 per matching row): a query matching
        // most of a large corpus ranks its MAX_RANKED newest matches only
        // (articles are numbered as they are stored), found in rowid order
        // without ranking.
        let cap = MAX_RANKED;
        let floor_sql = format!(
            "SELECT coalesce(min(id), 0) FROM (
                SELECT {table}.rowid AS id FROM {table} JOIN articles a ON a.id = {table}.rowid
                WHERE {table} MATCH :fts {SELECTION_SQL}{exact_sql}
                ORDER BY {table}.rowid DESC LIMIT :cap)"
        );
        let mut floor_args = filter_args.clone();
        floor_args.push((":cap", &cap));
        let floor: i64 = self
            .conn
            .prepare_cached(&floor_sql)?
            .query_row(floor_args.as_slice(), |r| r.get(0))?;
        let sql = format!(
            "WITH top AS (
                SELECT {table}.rowid AS id, bm25({table}, {TITLE_WEIGHT}, 1.0) AS score
                FROM {table} JOIN articles a ON a.id = {table}.rowid
                WHERE {table} MATCH :fts AND {table}.rowid >= :floor {SELECTION_SQL}{exact_sql}
                ORDER BY score LIMIT :limit)
             SELECT a.id, a.url, s.name, a.title,
                    snippet({table}, 1, '[', ']', '…', {tokens}), top.score
             FROM top JOIN {table} ON {table}.rowid = top.id
             JOIN articles a ON a.id = top.id
             JOIN sites s ON s.id = a.site_id
             WHERE {table} MATCH :fts
             ORDER BY top.score, a.id"
        );
        let mut stmt = self.conn.prepare_cached(&sql)?;
        let mut args = filter_args;
        args.push((":limit", &limit));
        args.push((":floor", &floor));
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

    /// Refuse a `prefix*` that stands for more than [`MAX_PREFIX_WORDS`]
    /// indexed words, counted in a temporary fts5vocab table (temporary:
    /// read-only databases get one too, and the schema is untouched).
    fn check_prefixes(&self, query: &Query) -> Result<(), StoreError> {
        let prefixes: Vec<String> = query
            .terms()
            .filter(|t| t.prefix)
            .filter_map(|t| {
                t.text
                    .rsplit(|c: char| !c.is_alphanumeric())
                    .next()
                    .filter(|w| !w.is_empty())
                    .map(str::to_lowercase)
            })
            .collect();
        if prefixes.is_empty() {
            return Ok(());
        }
        self.conn.execute_batch(
            "CREATE VIRTUAL TABLE IF NOT EXISTS temp.articles_fts_words
             USING fts5vocab(main, articles_fts, 'row')",
        )?;
        let mut stmt = self.conn.prepare_cached(
            "SELECT count(*) FROM (SELECT 1 FROM temp.articles_fts_words
             WHERE term >= ?1 AND term < ?2 LIMIT ?3)",
        )?;
        let cap = i64::try_from(MAX_PREFIX_WORDS).unwrap_or(i64::MAX);
        for prefix in prefixes {
            let upper = format!("{prefix}\u{10FFFF}");
            let count: i64 =
                stmt.query_row(rusqlite::params![prefix, upper, cap + 1], |r| r.get(0))?;
            if count > cap {
                return Err(QueryError::PrefixTooBroad {
                    prefix,
                    max: MAX_PREFIX_WORDS,
                }
                .into());
            }
        }
        Ok(())
    }

    /// Substring search for short CJK terms; ranked by the occurrences of
    /// the first term.
    fn like_search(
        &self,
        query: &Query,
        limit: i64,
        sel: &SelectionArgs,
    ) -> Result<Vec<SearchHit>, StoreError> {
        let first = query.clauses[0][0].text.clone();
        let mut sql = format!(
            "SELECT a.id, a.url, s.name, a.title, a.text,
                    (length(a.text) - length(replace(a.text, :first, ''))) / length(:first) AS hits
             FROM articles a JOIN sites s ON s.id = a.site_id WHERE 1 {SELECTION_SQL}"
        );
        // Only articles in the trigram index hold Han or kana: when every
        // alternative of a clause needs them, the scan can skip the others.
        if query.needs_char(is_han_or_kana) {
            sql.push_str(" AND a.id IN (SELECT rowid FROM articles_fts_cjk)");
        }
        let mut patterns: Vec<(String, String)> = Vec::new();
        let mut any_of = |terms: &[Term], sql: &mut String| {
            let mut alternatives = Vec::new();
            for t in terms {
                let name = format!(":p{}", patterns.len());
                // instr() is a plain byte search, several times faster than
                // LIKE; LIKE only where ASCII case must be folded.
                if t.text.chars().any(|c| c.is_ascii_alphabetic()) {
                    alternatives.push(format!(
                        "a.text LIKE {name} ESCAPE '\\' OR a.title LIKE {name} ESCAPE '\\'"
                    ));
                    patterns.push((name, like_pattern(&t.text)));
                } else {
                    alternatives.push(format!(
                        "instr(a.text, {name}) > 0 OR instr(coalesce(a.title, ''), {name}) > 0"
                    ));
                    patterns.push((name, t.text.clone()));
                }
            }
            sql.push_str(&alternatives.join(" OR "));
        };
        for clause in &query.clauses {
            sql.push_str(" AND (");
            any_of(clause, &mut sql);
            sql.push(')');
        }
        if !query.excluded.is_empty() {
            sql.push_str(" AND NOT (");
            any_of(&query.excluded, &mut sql);
            sql.push(')');
        }
        sql.push_str(" ORDER BY hits DESC, a.id LIMIT :limit");
        let mut args: Vec<(&str, &dyn ToSql)> = vec![(":first", &first), (":limit", &limit)];
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
                snippet: like_snippet(&text, &first),
                rank: r.get::<_, f64>(5)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// One article by id, or by any URL that led to it (aliases included;
    /// the URL is also tried in normalised form, then as a canonical URL).
    pub fn article(&self, r: ArticleRef) -> Result<Option<StoredArticle>, StoreError> {
        let mut at = self.conn.prepare_cached(
            "SELECT article_id FROM article_urls WHERE url = ?1
             UNION ALL SELECT id FROM articles WHERE url = ?1
             UNION ALL SELECT id FROM articles WHERE canonical_url = ?1
             LIMIT 1",
        )?;
        let Some(id) = article_id(r, |url| at.query_row([url], |r| r.get(0)).optional())? else {
            return Ok(None);
        };
        let sql = format!(
            "SELECT {ARTICLE_COLUMNS} FROM articles a JOIN sites s ON s.id = a.site_id
             WHERE a.id = ?1"
        );
        Ok(self
            .conn
            .prepare_cached(&sql)?
            .query_row([id], |r| stored_article(r))
            .optional()?)
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

impl super::rows::Columns for Row<'_> {
    type Error = rusqlite::Error;
    fn int(&self, i: usize) -> rusqlite::Result<i64> {
        self.get(i)
    }
    fn text(&self, i: usize) -> rusqlite::Result<String> {
        self.get(i)
    }
    fn opt_text(&self, i: usize) -> rusqlite::Result<Option<String>> {
        self.get(i)
    }
    fn bytes(&self, i: usize) -> rusqlite::Result<Vec<u8>> {
        self.get(i)
    }
    fn flag(&self, i: usize) -> rusqlite::Result<bool> {
        self.get(i)
    }
    fn cell(&self, i: usize) -> rusqlite::Result<crate::store::rows::Cell> {
        Ok(super::sql::cell_of(self.get_ref(i)?))
    }
    fn undecodable(&self, i: usize, e: std::io::Error) -> rusqlite::Error {
        rusqlite::Error::FromSqlConversionFailure(i, rusqlite::types::Type::Blob, Box::new(e))
    }
}

/// The query as an FTS5 expression: every term a quoted string (`"`
/// doubled inside), so nothing the user typed is FTS5 syntax; clauses
/// ANDed, alternatives ORed, exclusions after one NOT. With `prefixes`, a
/// prefix term keeps its `*` (trigram tables need none: they match
/// substrings anyway).
fn fts_expression(query: &Query, prefixes: bool) -> String {
    let quoted = |t: &Term| {
        let star = if t.prefix && prefixes { "*" } else { "" };
        format!("\"{}\"{star}", t.text.replace('"', "\"\""))
    };
    let any_of = |terms: &[Term]| {
        let alternatives: Vec<String> = terms.iter().map(quoted).collect();
        format!("({})", alternatives.join(" OR "))
    };
    let all: Vec<String> = query.clauses.iter().map(|c| any_of(c)).collect();
    let mut expr = all.join(" AND ");
    if !query.excluded.is_empty() {
        expr = format!("({expr}) NOT {}", any_of(&query.excluded));
    }
    expr
}
