//! Full-text search on SQLite (FTS5). In: a user query and a site filter.
//! Out: hits, best first.
//!
//! Search never passes user text to FTS5 as syntax: the query is parsed
//! ([`super::query`]: words, phrases, OR, NOT, prefixes) and every term is
//! quoted, so `AND`, `NEAR`, `(` or `:` in a query are just text. Alphabetic queries
//! use `articles_fts` (unicode61, bm25 with the title weighted up). Queries
//! containing CJK use the trigram table `articles_fts_cjk` (which indexes
//! only articles with CJK text, migration 0003) when every term has
//! ≥ 3 characters (a trigram index cannot match shorter strings) and every
//! match must hold CJK text; other CJK queries fall back to a LIKE scan
//! ranked by occurrence count.

use super::portable::selection::Args;
use super::portable::{search_start, substring_search, Substrings};
use super::query::{Query, QueryError, Term, MAX_PREFIX_WORDS};
use super::rows::search_hit;
use super::rules::search::{
    in_cjk_index, like_pattern, like_snippet, one_line, MAX_RANKED, SNIPPET_WINDOW,
};
use super::{SearchHit, Selection, Store, StoreError};
use crate::store::sql::Sql;

/// bm25 column weights (title, text): a hit in the title counts 10×.
const TITLE_WEIGHT: f64 = 10.0;
/// Tokens of context around a hit in a snippet.
const SNIPPET_TOKENS: i64 = 16;
/// The same for the trigram table, whose tokens are single characters
/// (64 is FTS5's maximum).
const SNIPPET_CHARS_CJK: i64 = 48;

impl Store {
    /// Full-text search, best first, in the syntax of [`Query`], among the
    /// selected articles (an unknown site is an error). A query with no
    /// searchable term, or too many, is a [`QueryError`]; no query text can
    /// cause an SQL error.
    pub fn search_in(
        &self,
        query: &str,
        limit: usize,
        sel: &Selection,
    ) -> Result<Vec<SearchHit>, StoreError> {
        let Some((query, cond, args)) = search_start(&mut &self.conn, query, limit, sel)? else {
            return Ok(Vec::new());
        };
        let sel = (cond.as_str(), args);
        if !query.has_cjk() {
            self.check_prefixes(&query)?;
            return self.fts_search("articles_fts", &query, limit, sel);
        }
        // A trigram index cannot match strings shorter than 3 characters,
        // and holds only the articles with text of `in_cjk_index`: a query
        // that another article could match scans them all instead.
        if query.needs_char(in_cjk_index) && query.terms().all(|t| t.text.chars().count() >= 3) {
            return self.fts_search("articles_fts_cjk", &query, limit, sel);
        }
        self.like_search(&query, limit, sel)
    }

    /// FTS5 search: the best `limit` rows are chosen first and only they get
    /// a snippet (computed for every match, `snippet()` made a common word
    /// cost seconds on a large corpus). An article longer than
    /// [`SNIPPET_WINDOW`] gets its snippet from that window's text instead
    /// (`snippet()` reads the whole text, and its cost grows faster than
    /// the text's hits).
    fn fts_search(
        &self,
        table: &str,
        query: &Query,
        limit: usize,
        (cond, mut args): (&str, Args),
    ) -> Result<Vec<SearchHit>, StoreError> {
        let cjk = table == "articles_fts_cjk";
        let tokens = if cjk {
            SNIPPET_CHARS_CJK
        } else {
            SNIPPET_TOKENS
        };
        let fts = args.text(fts_expression(query, !cjk));
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
        let exact_sql: String = exact
            .into_iter()
            .map(|x| {
                let x = args.text(x);
                format!(" AND (instr(a.text, {x}) > 0 OR instr(coalesce(a.title, ''), {x}) > 0)")
            })
            .collect();
        // Ranking is the cost (bm25 per matching row): a query matching
        // most of a large corpus ranks its MAX_RANKED newest matches only
        // (articles are numbered as they are stored), found in rowid order
        // without ranking.
        let mut floor_args = args.clone();
        let cap = floor_args.int(MAX_RANKED);
        let floor_sql = format!(
            "SELECT coalesce(min(id), 0) FROM (
                SELECT {table}.rowid AS id FROM {table} JOIN articles a ON a.id = {table}.rowid
                WHERE {table} MATCH {fts}{cond}{exact_sql}
                ORDER BY {table}.rowid DESC LIMIT {cap})"
        );
        let conn: &mut dyn Sql = &mut &self.conn;
        let floor = conn.one(&floor_sql, &floor_args.values(), |r| r.int(0))?;
        let (floor, limit) = (args.int(floor), args.int(limit));
        let sql = format!(
            "WITH top AS (
                SELECT {table}.rowid AS id, bm25({table}, {TITLE_WEIGHT}, 1.0) AS score
                FROM {table} JOIN articles a ON a.id = {table}.rowid
                WHERE {table} MATCH {fts} AND {table}.rowid >= {floor}{cond}{exact_sql}
                ORDER BY score LIMIT {limit})
             SELECT a.id, a.url, s.name, a.title,
                    CASE WHEN length(a.text) <= {SNIPPET_WINDOW}
                         THEN snippet({table}, 1, '[', ']', '…', {tokens})
                         ELSE substr(a.text, 1, {SNIPPET_WINDOW}) END,
                    -top.score, length(a.text) > {SNIPPET_WINDOW}
             FROM top JOIN {table} ON {table}.rowid = top.id
             JOIN articles a ON a.id = top.id
             JOIN sites s ON s.id = a.site_id
             WHERE {table} MATCH {fts}
             ORDER BY top.score, a.id"
        );
        let first = query.clauses[0][0].text.as_str();
        conn.rows(&sql, &args.values(), |r| {
            let window = r.int(6)? != 0;
            search_hit(r, |s| {
                if window {
                    like_snippet(&s, first)
                } else {
                    one_line(&s)
                }
            })
        })
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

    /// Substring search for short CJK terms (see `store::portable`).
    fn like_search(
        &self,
        query: &Query,
        limit: usize,
        sel: (&str, Args),
    ) -> Result<Vec<SearchHit>, StoreError> {
        let term = |t: &Term, args: &mut Args| {
            // instr() is a plain byte search, several times faster than
            // LIKE; LIKE only where ASCII case must be folded.
            if t.text.chars().any(|c| c.is_ascii_alphabetic()) {
                let p = args.text(like_pattern(&t.text));
                format!("a.text LIKE {p} ESCAPE '\\' OR a.title LIKE {p} ESCAPE '\\'")
            } else {
                let p = args.text(t.text.as_str());
                format!("instr(a.text, {p}) > 0 OR instr(coalesce(a.title, ''), {p}) > 0")
            }
        };
        let parts = Substrings {
            term: &term,
            // The trigram table's rowids without MATCH are those of its
            // content table, `articles`: every article.
            cjk_only: None,
            snippet: &like_snippet,
        };
        substring_search(&mut &self.conn, query, limit, sel, &parts)
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
    query.expression(quoted, [" OR ", " AND ", " NOT "])
}
