//! Tests of the learning step on an in-memory database with the real schema.

use super::*;
use crate::boilerplate::Variant;
use crate::store::rules::reclean::reclean_all;
use rusqlite::OptionalExtension;

fn db() -> Connection {
    let conn = Connection::open_in_memory().unwrap();
    crate::store::sqlite::open::migrate_bare(&conn).unwrap();
    conn.execute("INSERT INTO sites (id, name) VALUES (1, 'a'), (2, 'b')", [])
        .unwrap();
    conn
}

fn plain() -> LineSettings {
    LineSettings {
        variant: Variant {
            mask_digits: true,
            guard_long_interior: false,
            guard_mostly_dropped: false,
        },
        ..LineSettings::default()
    }
}

fn learn(conn: &mut Connection, site: i64, text: &str, s: &LineSettings) -> Cleaned {
    let tx = conn.transaction().unwrap();
    let out = learn_and_clean(&tx, site, text, s).unwrap();
    tx.commit().unwrap();
    out
}

fn lc(conn: &Connection, site: i64, line: &str) -> Option<i64> {
    let h = crate::boilerplate::line_hash(&crate::boilerplate::normalize_line(line));
    conn.query_row(
        "SELECT count FROM line_hashes WHERE site_id = ?1 AND md5 = ?2",
        params![site, &h[..]],
        |r| r.get(0),
    )
    .optional()
    .unwrap()
}

fn store_article(conn: &Connection, site: i64, n: i64, raw: &str, text: &str) {
    conn.execute(
        "INSERT INTO articles (url, site_id, text, raw_text, content_hash, word_count, fetched_at)
         VALUES (?1, ?2, ?3, ?4, ?1, 0, 0)",
        params![format!("u{site}-{n}"), site, text, raw],
    )
    .unwrap();
    let id = conn.last_insert_rowid();
    crate::store::sqlite::search_index::index_after(conn, id - 1).unwrap();
}

#[test]
fn a_line_counts_once_per_article() {
    let mut conn = db();
    learn(&mut conn, 1, "Share\nbody\n\nShare\n\nshare  ", &plain());
    assert_eq!(lc(&conn, 1, "Share"), Some(1));
    assert_eq!(lc(&conn, 1, "share"), Some(1));
    assert_eq!(site_rc(&conn, 1).unwrap(), 1);
    learn(&mut conn, 1, "Share\nother", &plain());
    assert_eq!(lc(&conn, 1, "Share"), Some(2));
    assert_eq!(site_rc(&conn, 1).unwrap(), 2);
    // Sites are independent.
    assert_eq!(lc(&conn, 2, "Share"), None);
    assert_eq!(site_rc(&conn, 2).unwrap(), 0);
}

#[test]
fn decision_uses_counts_including_this_article() {
    let mut conn = db();
    let first = learn(&mut conn, 1, "Menu\n\nStory one.", &plain());
    assert_eq!(first.text, "Menu\n\nStory one.");
    // RC = 2, LC(Menu) = 2 > int(1 + 2/50) = 1: dropped at once.
    let second = learn(&mut conn, 1, "Menu\n\nStory two.", &plain());
    assert_eq!(second.text, "Story two.");
    assert_eq!(second.dropped, 1);
}

#[test]
fn rows_record_first_last_seen_and_sample() {
    let mut conn = db();
    learn(&mut conn, 1, "a", &plain());
    learn(&mut conn, 1, "b", &plain());
    learn(&mut conn, 1, "  Copyright   2011 ", &plain());
    learn(&mut conn, 1, "Copyright 2012", &plain());
    let row: (i64, i64, i64, String) = conn
        .query_row(
            "SELECT count, first_seen, last_seen, sample FROM line_hashes
             WHERE site_id = 1 AND count = 2",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .unwrap();
    assert_eq!(row, (2, 3, 4, "Copyright #".to_string()));
    let long = "x".repeat(SAMPLE_CHARS * 2);
    learn(&mut conn, 1, &long, &plain());
    // Seen once: no sample yet (most lines never recur).
    let once: String = conn
        .query_row(
            "SELECT sample FROM line_hashes WHERE count = 1 AND first_seen = 5",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(once, "");
    learn(&mut conn, 1, &long, &plain());
    assert_eq!(top_lines(&conn, 1, 1).unwrap()[0].0, "Copyright #");
    let max_sample: i64 = conn
        .query_row("SELECT max(length(sample)) FROM line_hashes", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(max_sample, SAMPLE_CHARS as i64);
}

#[test]
fn pruning_deletes_rare_lines_every_n_articles() {
    let mut conn = db();
    let s = LineSettings {
        prune_every: 10,
        prune_ratio: 0.2,
        ..plain()
    };
    for i in 0..9 {
        learn(
            &mut conn,
            1,
            &format!("Template\n\nunique {}", "x".repeat(i)),
            &s,
        );
    }
    assert_eq!(table_size(&conn, 1).unwrap(), 10);
    learn(&mut conn, 1, "Template\n\nunique last", &s);
    // RC = 10, limit = floor(10 × 0.2) = 2: the ten unique lines go.
    assert_eq!(table_size(&conn, 1).unwrap(), 1);
    assert_eq!(lc(&conn, 1, "Template"), Some(10));
    let last: i64 = conn
        .query_row(
            "SELECT last_prune_rc FROM site_stats WHERE site_id = 1",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(last, 10);
    // Not again before RC = 20.
    learn(&mut conn, 1, "Template\n\nanother", &s);
    assert_eq!(table_size(&conn, 1).unwrap(), 2);
}

#[test]
fn disabled_returns_text_unchanged_and_learns_nothing() {
    let mut conn = db();
    let off = LineSettings {
        enabled: false,
        ..plain()
    };
    let text = "\nMenu\n\n\nBody  \n";
    for _ in 0..3 {
        let out = learn(&mut conn, 1, text, &off);
        assert_eq!(out.text, text);
        assert_eq!(out.dropped, 0);
    }
    assert_eq!(table_size(&conn, 1).unwrap(), 0);
    assert_eq!(site_rc(&conn, 1).unwrap(), 0);
    let out = clean_with_current_counts(&conn, 1, text, &off).unwrap();
    assert_eq!(out.text, text);
}

#[test]
fn clean_with_current_counts_does_not_learn() {
    let mut conn = db();
    learn(&mut conn, 1, "Menu\n\nOne.", &plain());
    learn(&mut conn, 1, "Menu\n\nTwo.", &plain());
    let out = clean_with_current_counts(&conn, 1, "Menu\n\nThree.", &plain()).unwrap();
    assert_eq!(out.text, "Three.");
    assert_eq!(site_rc(&conn, 1).unwrap(), 2);
    assert_eq!(lc(&conn, 1, "Three."), None);
}

#[test]
fn reclean_repairs_warm_up_articles() {
    let mut conn = db();
    let s = plain();
    let raws = [
        "Menu\n\nOne.\n\nFooter",
        "Menu\n\nTwo.\n\nFooter",
        "Menu\n\nThree.\n\nFooter",
    ];
    for (i, raw) in raws.iter().enumerate() {
        let out = learn(&mut conn, 1, raw, &s);
        store_article(&conn, 1, i as i64, raw, &out.text);
    }
    // Another site's article must not be touched.
    store_article(&conn, 2, 0, "Menu\n\nOther.", "Menu\n\nOther.");
    // An all-template page is never emptied.
    store_article(&conn, 1, 9, "Menu\n\nFooter", "Menu\n\nFooter");
    let first: String = conn
        .query_row("SELECT text FROM articles WHERE url = 'u1-0'", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(
        first, raws[0],
        "the first page is cleaned before anything is learned"
    );

    let tx = conn.transaction().unwrap();
    assert_eq!(reclean_all(&mut Sqlite(&tx), 1, &s).unwrap().changed, 1);
    tx.commit().unwrap();
    let texts: Vec<String> = conn
        .prepare("SELECT text FROM articles WHERE site_id = 1 ORDER BY id")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap();
    assert_eq!(texts, ["One.", "Two.", "Three.", "Menu\n\nFooter"]);
    let words: i64 = conn
        .query_row(
            "SELECT word_count FROM articles WHERE url = 'u1-0'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(words, 1);
    // The FTS index followed the update: only the all-template page still
    // has the footer.
    let hits: i64 = conn
        .query_row(
            "SELECT count(*) FROM articles_fts WHERE articles_fts MATCH 'footer'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(hits, 1);
    // Nothing left to change.
    let tx = conn.transaction().unwrap();
    assert_eq!(reclean_all(&mut Sqlite(&tx), 1, &s).unwrap().changed, 0);
    let other: String = tx
        .query_row("SELECT text FROM articles WHERE site_id = 2", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(other, "Menu\n\nOther.");
}

/// A distinct letters-only word per number.
fn word(mut n: usize) -> String {
    let mut w = String::new();
    loop {
        w.push((b'a' + (n % 26) as u8) as char);
        n /= 26;
        if n == 0 {
            return w;
        }
    }
}

#[test]
fn template_lines_vanish_and_unique_lines_stay() {
    let mut conn = db();
    let s = LineSettings::default();
    let template_top = "Home | World | Business | Sport";
    let template_end = "© 2011 The Daily Example. All rights reserved.";
    let mut late_kept_all_body = true;
    for i in 0..300 {
        // Digits are masked, so bodies differ in letters.
        let (w1, w2) = (word(i), word(i * 7919 + 13));
        let body = format!(
            "Story {w1} begins here with its own words.\n\nA second paragraph about {w2} and more."
        );
        let raw = format!("{template_top}\n\n{body}\n\nShare this\n{template_end}");
        let out = learn(&mut conn, 1, &raw, &s);
        // The template outweighs these short bodies, so the mostly-dropped
        // guard waits for LC > 2 (article 2) before dropping it.
        if i >= 2 {
            assert_eq!(out.text, body, "article {i}");
        }
        late_kept_all_body &= out.text.contains(&format!("Story {w1} begins"));
    }
    assert!(late_kept_all_body);
    assert!(table_size(&conn, 1).unwrap() < 20);
    let top = top_lines(&conn, 1, 3).unwrap();
    assert_eq!(top[0].1, 300);
    assert!(top.iter().any(|(l, _)| l == "Share this"));
    assert_eq!(boilerplate_lines(&conn, 1, &s.rule).unwrap(), 3);
}
