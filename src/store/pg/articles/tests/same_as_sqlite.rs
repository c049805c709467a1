//! One stream of articles into the SQLite store and into PostgreSQL: the
//! same outcomes, rows, texts and counts, before and after the re-clean.

use super::fixtures::{pg_counts, pg_texts, sqlite_counts, sqlite_texts, stream, Mix, SITES};
use crate::boilerplate::LineSettings;
use crate::store::pg::testing::TestDb;
use crate::store::pg::PgStore;
use crate::store::{Store, Which, WriteOp};

fn open(db: &TestDb) -> PgStore {
    PgStore::open(&db.url).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn a_stream_of_articles_gives_the_same_outcomes_texts_and_counts_as_sqlite() {
    let articles = stream(
        Mix {
            // Past 100 articles a site: its line table is pruned once.
            stories: 110,
            dup_every: 6,
            near_every: 7,
            refetch_every: 9,
        },
        15,
    );
    // One site's first pages stored with its line filter off (learning
    // nothing): its next re-clean must walk all its articles.
    let mut articles = articles;
    for (a, _) in articles
        .iter_mut()
        .filter(|(a, _)| a.site == "gamma")
        .take(8)
    {
        a.lines.enabled = false;
    }
    let db = TestDb::new();
    let mut pg = open(&db);
    let mut sqlite = Store::open_in_memory().unwrap_or_else(|e| panic!("{e}"));
    let mut kinds = std::collections::BTreeMap::new();
    for (a, refetch) in &articles {
        let op = if *refetch {
            WriteOp::Refetched(a.clone())
        } else {
            WriteOp::Article(a.clone())
        };
        let want = sqlite
            .write_batch(vec![op])
            .unwrap_or_else(|e| panic!("{e}"));
        let got = pg
            .store_articles(&[(a.clone(), *refetch)])
            .unwrap_or_else(|e| panic!("{}: {e}", a.url));
        assert_eq!(got, want, "{}", a.url);
        let kind = format!("{:?}", want[0]);
        *kinds
            .entry(kind.split([' ', '{']).next().unwrap_or("").to_string())
            .or_insert(0) += 1;
    }
    // The stream exercised every path.
    for kind in [
        "ArticleStored",
        "ArticleDuplicate",
        "ArticleNearDuplicate",
        "ArticleUpdated",
    ] {
        assert!(
            kinds.get(kind).copied().unwrap_or(0) > 0,
            "{kind}: {kinds:?}"
        );
    }

    let (lc, rc) = sqlite_counts(&sqlite);
    assert_eq!(pg_counts(&mut pg), (lc.clone(), rc.clone()));
    assert!(lc.values().any(|&c| c > 20), "template lines were learned");
    assert_eq!(rc.len(), SITES.len());
    assert!(rc.values().all(|&n| n > 100), "{rc:?}");
    assert_eq!(pg_texts(&mut pg), sqlite_texts(&sqlite));
    let side = side_rows_sqlite(&sqlite);
    assert!(
        !side.5.is_empty(),
        "lines changed status since the last re-clean"
    );
    assert_eq!(side_rows_pg(&mut pg), side);

    let want = sqlite
        .reclean(None, Which::Changed, |_| LineSettings::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let got = pg
        .reclean(None, Which::Changed, |_| LineSettings::default())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(got, want);
    assert!(
        want.changed > 0,
        "the first pages of each site were cleaned again"
    );
    let texts = sqlite_texts(&sqlite);
    assert_eq!(pg_texts(&mut pg), texts);
    for (url, (_, _, text, _)) in &texts {
        assert!(!text.contains("Share this story"), "{url}: {text}");
    }
    // And the full walk finds nothing left to change, on both.
    assert_eq!(
        pg.reclean(None, Which::All, |_| LineSettings::default())
            .map(|r| r.changed)
            .ok(),
        Some(0)
    );
}

/// The rows besides `articles`: aliases, versions, the line index and
/// the kept pages, in a comparable form.
type SideRows = (
    Vec<(String, i64)>,
    Vec<(String, i64, String)>,
    i64,
    i64,
    Vec<(i64, String, Vec<u8>)>,
    Vec<(i64, String, i64)>,
);

fn side_rows_sqlite(s: &Store) -> SideRows {
    let q = |sql: &str| -> rusqlite::Statement<'_> {
        s.conn.prepare(sql).unwrap_or_else(|e| panic!("{sql}: {e}"))
    };
    let aliases = q("SELECT url, article_id FROM article_urls ORDER BY url")
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .and_then(|r| r.collect())
        .unwrap_or_else(|e| panic!("{e}"));
    let versions = q("SELECT url, article_id, content_hash FROM article_versions ORDER BY url")
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .and_then(|r| r.collect())
        .unwrap_or_else(|e| panic!("{e}"));
    let count = |sql: &str| -> i64 {
        s.conn
            .query_row(sql, [], |r| r.get(0))
            .unwrap_or_else(|e| panic!("{sql}: {e}"))
    };
    let html = q("SELECT article_id, url, body_zstd FROM article_html ORDER BY article_id")
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .and_then(|r| r.collect())
        .unwrap_or_else(|e| panic!("{e}"));
    (
        aliases,
        versions,
        count("SELECT count(*) FROM article_lines"),
        count("SELECT count(*) FROM article_shared_lines"),
        html,
        q("SELECT site_id, lower(hex(md5)), before_id FROM line_changes ORDER BY 1, 2")
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .and_then(|r| r.collect())
            .unwrap_or_else(|e| panic!("{e}")),
    )
}

fn side_rows_pg(s: &mut PgStore) -> SideRows {
    let c = s.client();
    let mut rows = |sql: &str| c.query(sql, &[]).unwrap_or_else(|e| panic!("{sql}: {e}"));
    let aliases = rows("SELECT url, article_id FROM article_urls ORDER BY url")
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect();
    let versions = rows("SELECT url, article_id, content_hash FROM article_versions ORDER BY url")
        .iter()
        .map(|r| (r.get(0), r.get(1), r.get(2)))
        .collect();
    let lines = rows("SELECT count(*) FROM article_lines")[0].get(0);
    let shared = rows("SELECT count(*) FROM article_shared_lines")[0].get(0);
    let html = rows("SELECT article_id, url, body_zstd FROM article_html ORDER BY article_id")
        .iter()
        .map(|r| (r.get(0), r.get(1), r.get(2)))
        .collect();
    let changes =
        rows("SELECT site_id, encode(md5, 'hex'), before_id FROM line_changes ORDER BY 1, 2")
            .iter()
            .map(|r| (r.get(0), r.get(1), r.get(2)))
            .collect();
    (aliases, versions, lines, shared, html, changes)
}
