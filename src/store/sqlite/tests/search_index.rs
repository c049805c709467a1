//! The search indexes are written once per batch (migration 0010): every
//! stored article is found, the trigram index still holds only CJK ones,
//! and an article updated in the batch that stored it stays consistent.

use super::search::{fts_check, trigram_rows};
use super::*;

/// Rows of the unicode61 index's data table: one or more per segment.
fn fts_data_rows(s: &Store) -> i64 {
    s.conn
        .query_row("SELECT count(*) FROM articles_fts_data", [], |r| r.get(0))
        .unwrap()
}

fn topic(n: usize) -> String {
    const WORDS: [&str; 8] = [
        "harbour", "council", "bridge", "orchard", "railway", "museum", "library", "market",
    ];
    format!("{} {}", WORDS[n % 8], WORDS[(n / 8) % 8])
}

#[test]
fn articles_of_one_batch_are_indexed_and_found() {
    let mut s = Store::open_in_memory().unwrap();
    let mut ops: Vec<WriteOp> = (0..40)
        .map(|n| {
            let text = format!("The {} story, number {n}.", topic(n));
            WriteOp::Article(article(&format!("https://a.test/{n}"), "a", "T", &text))
        })
        .collect();
    ops.push(WriteOp::Article(article(
        "https://a.test/cjk",
        "a",
        "新闻",
        "国务院常务会议召开。",
    )));
    s.write_batch(ops).unwrap();
    fts_check(&s).unwrap();
    // "harbour council" is article 8 only ("council harbour" is 1).
    assert_eq!(s.search("\"harbour council\"", 100).unwrap().len(), 1);
    // Articles 0–7, 8, 16, 24, 32.
    assert_eq!(s.search("harbour", 100).unwrap().len(), 12);
    assert_eq!(s.search("国务院", 10).unwrap().len(), 1);
    assert_eq!(trigram_rows(&s, "国务院"), 1);
    assert_eq!(trigram_rows(&s, "harbour"), 0);
}

#[test]
fn regression_each_stored_article_was_flushed_to_its_own_fts_segment() {
    // The insert trigger made FTS5 flush at every article: 200 articles of
    // one batch left far more index rows than the same articles indexed
    // together.
    let batch = |s: &mut Store, from: usize| {
        let ops = (from..from + 200)
            .map(|n| {
                let text = format!("The {} story, number {n}.", topic(n));
                WriteOp::Article(article(&format!("https://a.test/{n}"), "a", "T", &text))
            })
            .collect();
        s.write_batch(ops).unwrap();
    };
    let mut s = Store::open_in_memory().unwrap();
    batch(&mut s, 0);
    let one_batch = fts_data_rows(&s);
    // The same 200 articles through the trigger of migration 0001.
    let mut t = Store::open_in_memory().unwrap();
    t.conn
        .execute_batch(
            "INSERT INTO sites(id, name) VALUES (1, 'a');
             CREATE TRIGGER articles_ai AFTER INSERT ON articles BEGIN
                 INSERT INTO articles_fts(rowid, title, text) VALUES (new.id, new.title, new.text);
             END;",
        )
        .unwrap();
    let tx = t.conn.transaction().unwrap();
    for n in 0..200 {
        tx.execute(
            "INSERT INTO articles(url, site_id, title, text, raw_text, content_hash, word_count,
                                  fetched_at)
             VALUES (?1, 1, 'T', ?2, '', ?1, 1, 1)",
            rusqlite::params![
                format!("u{n}"),
                format!("The {} story, number {n}.", topic(n))
            ],
        )
        .unwrap();
    }
    tx.commit().unwrap();
    let per_article = fts_data_rows(&t);
    println!("fts data rows: one batch {one_batch}, a flush per article {per_article}");
    assert!(per_article > 2 * one_batch, "{per_article} vs {one_batch}");
}

#[test]
fn regression_each_cjk_article_of_a_batch_was_flushed_to_its_own_trigram_segment() {
    // A statement per Chinese article opened a savepoint each, and FTS5
    // flushes its terms at every savepoint: 200 Chinese articles of one
    // batch left their trigram index far more rows than the unicode61
    // index holds for the same articles, indexed by one statement.
    const HAN: [&str; 8] = [
        "国务院",
        "常务会议",
        "港口",
        "铁路",
        "博物馆",
        "图书馆",
        "市场",
        "议会",
    ];
    let ops = (0..200)
        .map(|n| {
            let text = format!("{}{}第{n}号新闻。", HAN[n % 8], HAN[(n / 8) % 8]);
            WriteOp::Article(article(&format!("https://a.test/{n}"), "a", "新闻", &text))
        })
        .collect();
    let mut s = Store::open_in_memory().unwrap();
    s.write_batch(ops).unwrap();
    let rows = |table: &str| -> i64 {
        let q = format!("SELECT count(*) FROM {table}");
        s.conn.query_row(&q, [], |r| r.get(0)).unwrap()
    };
    let (trigram, unicode) = (rows("articles_fts_cjk_data"), rows("articles_fts_data"));
    println!("data rows: trigram {trigram}, unicode61 {unicode}");
    assert!(trigram <= 2 * unicode, "{trigram} vs {unicode}");
    // Every article with 国务院 is found through the index.
    assert_eq!(trigram_rows(&s, "国务院"), 53);
}

#[test]
fn an_article_refetched_in_the_batch_that_stored_it_keeps_the_index_consistent() {
    let mut s = Store::open_in_memory().unwrap();
    let first = article("https://a.test/1", "a", "T", "Harbour strike begins.");
    let mut again = article("https://a.test/1", "a", "T", "Harbour strike ends.");
    again.fetched_at += 1;
    let out = s
        .write_batch(vec![WriteOp::Article(first), WriteOp::Refetched(again)])
        .unwrap();
    assert!(
        matches!(out[1], WriteOutcome::ArticleUpdated { .. }),
        "{out:?}"
    );
    fts_check(&s).unwrap();
    assert_eq!(s.search("ends", 10).unwrap().len(), 1);
    assert!(s.search("begins", 10).unwrap().is_empty());
}

#[test]
fn the_trigram_index_holds_the_rows_the_migrations_glob_selects() {
    let mut s = Store::open_in_memory().unwrap();
    // Characters at and beside the edges of the three blocks, in the title
    // or the text.
    let edges = [
        '\u{3040}',
        '\u{3041}',
        '\u{30FF}',
        '\u{3100}',
        '\u{33FF}',
        '\u{3400}',
        '\u{4DBF}',
        '\u{4DC0}',
        '\u{4DFF}',
        '\u{4E00}',
        '\u{9FFF}',
        '\u{A000}',
        '\u{AC00}',
        '\u{FF11}',
        '\u{20000}',
        'é',
        '“',
    ];
    let ops = edges
        .iter()
        .enumerate()
        .flat_map(|(n, c)| {
            [
                article(
                    &format!("https://a.test/t{n}"),
                    "a",
                    &format!("Title {c}"),
                    &format!("Plain text {n}."),
                ),
                article(
                    &format!("https://a.test/x{n}"),
                    "a",
                    "Title",
                    &format!("Text {n} with {c} inside."),
                ),
            ]
        })
        .map(WriteOp::Article)
        .collect();
    s.write_batch(ops).unwrap();
    let ids = |sql: &str| -> Vec<i64> {
        let mut st = s.conn.prepare(sql).unwrap();
        let rows = st.query_map([], |r| r.get(0)).unwrap();
        rows.collect::<Result<_, _>>().unwrap()
    };
    let indexed = ids("SELECT id FROM articles_fts_cjk_docsize ORDER BY id");
    let selected = ids(
        "SELECT id FROM articles WHERE (coalesce(title, '') || text) GLOB '*[㐀-䶿一-鿿ぁ-ヿ]*'
         ORDER BY id",
    );
    // Six of the characters are CJK (the blocks' edges), in the title or the text.
    assert_eq!(selected.len(), 12);
    assert_eq!(indexed, selected);
    fts_check(&s).unwrap();
}
