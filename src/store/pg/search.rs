//! Full-text search on PostgreSQL, in the syntax of the SQLite store's
//! (`store::query`: words, `"phrases"`, `OR`, `-word`/`NOT`, `prefix*`),
//! with the same refusals (no words, only exclusions, too many words).
//!
//! In: the query text, a limit, a [`Selection`]. Out: [`SearchHit`]s, best
//! first.
//!
//! - Alphabetic queries go through `articles.search`, a stored tsvector
//!   (`'simple'` configuration: no stemming, no stop words, like FTS5's
//!   unicode61) with a GIN index. Every term becomes its own tsquery built
//!   by the server from the user's text (`phraseto_tsquery`, so nothing the
//!   user typed is tsquery syntax; a prefix is assembled from its
//!   alphanumeric pieces only), combined with `&&`, `||` and `!!`. Ranked by
//!   `ts_rank_cd` with a title hit weighing 10× a text hit (as the SQLite
//!   store's bm25 weights), among the newest [`MAX_RANKED`] matches (the
//!   SQLite store's cap); snippets by `ts_headline` for the shown hits
//!   only, from the first `SNIPPET_WINDOW` characters of their text.
//!   A broad prefix is not refused here: GIN expands it in the index
//!   without the cost that made the SQLite store cap it.
//! - Queries with Chinese or Japanese match as substrings (`ILIKE`, case
//!   folded as the trigram index folds it) through `pg_trgm` on the
//!   `articles_trgm` expression index (partial: articles with Han or kana
//!   only), ranked by how often the first term occurs.

use super::super::query::{Query, Term};
use super::super::{SearchHit, Selection, StoreError};
use super::PgStore;
use crate::store::portable::selection::Args;
use crate::store::portable::{search_start, substring_search, Substrings};
use crate::store::rows::search_hit;
use crate::store::rules::search::{
    like_pattern, like_snippet, one_line, MAX_RANKED, SNIPPET_WINDOW,
};
use crate::store::sql::Sql;

/// `ts_rank_cd` weights for D, C, B, A: title (A) 10× text (B).
const WEIGHTS: &str = "'{0.1, 0.2, 0.1, 1.0}'::float4[]";

/// `ts_headline` options: one fragment of about 16–32 words, hits `[…]`.
const HEADLINE: &str =
    "StartSel=\"[\", StopSel=\"]\", MinWords=16, MaxWords=32, MaxFragments=1, FragmentDelimiter=\"…\"";

/// The text the trigram index covers (the expression of `articles_trgm`,
/// written the same way so the planner uses the index).
const HAYSTACK: &str = "(coalesce(a.title, '') || ' ' || a.text)";

/// The predicate of the partial `articles_trgm` index (migration 0001),
/// character for character: Han (extension A, unified) and kana.
const CJK_CLASS: &str = "[㐀-䶿一-鿿ぁ-ヿ]";

impl PgStore {
    /// Full-text search, best first, among the selected articles (an
    /// unknown site is [`StoreError::UnknownSite`]).
    pub fn search_in(
        &mut self,
        query: &str,
        limit: usize,
        sel: &Selection,
    ) -> Result<Vec<SearchHit>, StoreError> {
        let Some((query, cond, args)) = search_start(self.client(), query, limit, sel)? else {
            return Ok(Vec::new());
        };
        if query.has_cjk() {
            self.substring_search(&query, limit, (&cond, args))
        } else {
            self.word_search(&query, limit, (&cond, args))
        }
    }

    fn word_search(
        &mut self,
        query: &Query,
        limit: usize,
        (cond, mut params): (&str, Args),
    ) -> Result<Vec<SearchHit>, StoreError> {
        let limit = params.int(limit);
        let expr = query.expression(|t| tsquery(t, &mut params), [" || ", " && ", " && !!"]);
        let statement = format!(
            "WITH q AS (SELECT {expr} AS q),
             matches AS (
                SELECT a.id FROM articles a, q WHERE a.search @@ q.q {cond}
                ORDER BY a.id DESC LIMIT {MAX_RANKED}),
             top AS (
                SELECT a.id, ts_rank_cd({WEIGHTS}, a.search, q.q)::float8 AS score
                FROM articles a JOIN matches m ON m.id = a.id, q
                ORDER BY score DESC, a.id LIMIT {limit})
             SELECT a.id, a.url, s.name, a.title,
                    ts_headline('simple', left(a.text, {SNIPPET_WINDOW}), q.q, '{HEADLINE}'),
                    top.score
             FROM top JOIN articles a ON a.id = top.id JOIN sites s ON s.id = a.site_id, q
             ORDER BY top.score DESC, a.id"
        );
        let sql: &mut dyn Sql = self.client();
        sql.rows(&statement, &params.values(), |r| {
            search_hit(r, |s| one_line(&s))
        })
    }

    /// Substring search (see `store::portable`), case folded as the
    /// trigram index folds it, over the index's own expression.
    fn substring_search(
        &mut self,
        query: &Query,
        limit: usize,
        sel: (&str, Args),
    ) -> Result<Vec<SearchHit>, StoreError> {
        let term = |t: &Term, args: &mut Args| {
            format!("{HAYSTACK} ILIKE {}", args.text(like_pattern(&t.text)))
        };
        let only = format!(" AND {HAYSTACK} ~ '{CJK_CLASS}'");
        let parts = Substrings {
            term: &term,
            // Only rows with Han or kana are in the (partial) trigram
            // index: say so in the index's own words.
            cjk_only: Some(&only),
            snippet: &like_snippet,
        };
        substring_search(self.client(), query, limit, sel, &parts)
    }
}

/// One term as a tsquery expression whose text is a bound value: a word or
/// phrase through `phraseto_tsquery` (its words next to each other, as an
/// FTS5 phrase); a prefix as its alphanumeric pieces, the last one `:*`.
fn tsquery(t: &Term, params: &mut Args) -> String {
    if !t.prefix {
        return format!(
            "phraseto_tsquery('simple', {})",
            params.text(t.text.as_str())
        );
    }
    let lower = t.text.to_lowercase();
    let pieces: Vec<String> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|p| !p.is_empty())
        .map(|p| format!("'{p}'"))
        .collect();
    let text = format!("{}:*", pieces.join(" <-> "));
    format!("to_tsquery('simple', {})", params.text(text))
}

#[cfg(test)]
mod tests {
    use super::super::testing::TestDb;
    use super::*;

    /// A store holding these `(title, text)` articles of one site.
    fn store_with(db: &TestDb, articles: &[(&str, &str)]) -> PgStore {
        let mut store = PgStore::open(&db.url).expect("open");
        let c = store.client();
        c.execute("INSERT INTO sites (id, name) VALUES (1, 'site')", &[])
            .expect("site");
        for (i, (title, text)) in articles.iter().enumerate() {
            let (url, hash) = (format!("http://site.test/{i}"), format!("h{i}"));
            c.execute(
                "INSERT INTO articles (url, site_id, title, text, raw_text, content_hash,
                                       word_count, fetched_at)
                 VALUES ($1, 1, $2, $3, $3, $4, 1, 0)",
                &[&url, title, text, &hash],
            )
            .expect("article");
        }
        store
    }

    fn ids(store: &mut PgStore, q: &str) -> Vec<i64> {
        let mut hits: Vec<i64> = store
            .search_in(q, 50, &Selection::default())
            .unwrap_or_else(|e| panic!("{q:?}: {e}"))
            .iter()
            .map(|h| h.id)
            .collect();
        hits.sort_unstable();
        hits
    }

    #[test]
    fn no_query_text_is_tsquery_or_like_syntax() {
        let db = TestDb::new();
        let mut store = store_with(
            &db,
            &[
                ("Budget", "The council's budget: 100% agreed & signed!"),
                ("Other", "Nothing to see here"),
            ],
        );
        for q in [
            "budget:*",
            "a:b",
            "'x'",
            "foo&bar",
            "!budget",
            "a|b",
            "<->",
            "\\",
            "100%",
            "(budget",
            "budget*)",
            "agreed & signed",
            "council's",
            "bud*",
            "'",
        ] {
            // No SQL error, whatever the text: hits, or the parser's refusal.
            match store.search_in(q, 10, &Selection::default()) {
                Ok(_) | Err(StoreError::Query(_)) => {}
                Err(e) => panic!("{q:?}: {e}"),
            }
        }
        assert_eq!(ids(&mut store, "bud*"), vec![1]);
        assert_eq!(ids(&mut store, "\"agreed signed\""), vec![1]);
        assert_eq!(ids(&mut store, "budget -signed"), Vec::<i64>::new());
        assert_eq!(ids(&mut store, "budget OR nothing"), vec![1, 2]);
    }

    #[test]
    fn cjk_substrings_are_found_and_a_title_hit_ranks_a_word_first() {
        let db = TestDb::new();
        let mut store = store_with(
            &db,
            &[
                ("市政府会议", "今天市政府召开会议。"),
                ("经济", "经济增长。"),
                // Only a compatibility ideograph (outside the index's class).
                ("Compat", "\u{F900} here"),
                ("Pension", "a word about the pension"),
                ("Other", "pension pension"),
            ],
        );
        assert_eq!(ids(&mut store, "市政府"), vec![1]);
        assert_eq!(ids(&mut store, "经济 OR 会议"), vec![1, 2]);
        assert_eq!(ids(&mut store, "市政府 -会议"), Vec::<i64>::new());
        assert_eq!(ids(&mut store, "\u{F900}"), vec![3]);
        let ranked = store
            .search_in("pension", 10, &Selection::default())
            .expect("search");
        assert_eq!(ranked[0].id, 4, "the title hit first: {ranked:?}");
    }

    #[test]
    fn regression_snippets_were_made_from_the_whole_text_of_huge_articles() {
        // `ts_headline` reads the text it is given: only the window of it.
        let filler = "Quiet words fill the middle of this long text. ".repeat(2_000);
        let text = format!("The harbour opened at dawn. {filler}A zeppelin came at the end.");
        assert!(text.len() > SNIPPET_WINDOW);
        let db = TestDb::new();
        let mut store = store_with(&db, &[("Long", text.as_str())]);
        let hits = store
            .search_in("zeppelin", 10, &Selection::default())
            .expect("search");
        assert_eq!(hits.len(), 1);
        assert!(!hits[0].snippet.contains("zeppelin"), "{}", hits[0].snippet);
        assert!(hits[0].snippet.starts_with("The"), "{}", hits[0].snippet);
        let hits = store
            .search_in("harbour", 10, &Selection::default())
            .expect("search");
        assert!(hits[0].snippet.contains("[harbour]"), "{}", hits[0].snippet);
    }

    /// The search's CJK condition is the partial index's predicate, so the
    /// planner can use `articles_trgm` (checked with sequential scans off).
    #[test]
    fn the_cjk_condition_matches_the_partial_trigram_index() {
        let db = TestDb::new();
        let mut store = store_with(&db, &[("市政府", "文")]);
        let c = store.client();
        c.batch_execute("SET enable_seqscan = off").expect("set");
        let plan: Vec<String> = c
            .query(
                &format!(
                    "EXPLAIN SELECT a.id FROM articles a
                     WHERE {HAYSTACK} ILIKE '%市政府%' AND {HAYSTACK} ~ '{CJK_CLASS}'"
                ),
                &[],
            )
            .expect("explain")
            .iter()
            .map(|r| r.get(0))
            .collect();
        assert!(
            plan.iter().any(|l| l.contains("articles_trgm")),
            "{plan:#?}"
        );
    }
}
