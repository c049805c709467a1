//! `search`, `show`, `stats` and `export` on PostgreSQL (`--db
//! postgres://…` or `[store] url`) against a real server: the demo corpus
//! copied there answers as the SQLite original does, with the same errors.

use std::collections::BTreeSet;
use std::path::Path;

use crate::pg_testing::TestDb;

use crate::support::{assert_clean_failure, demo_db, newshound, stderr, stdout};

/// The demo corpus in `dir/demo.db` and copied to a new PostgreSQL database.
fn demo_on_both(dir: &Path) -> TestDb {
    demo_db(dir, 6);
    let pg = TestDb::new();
    let out = newshound(&["copy", "--from", "demo.db", "--to", &pg.url], dir);
    assert!(out.status.success(), "copy: {}", stderr(&out));
    pg
}

fn run_ok(args: &[&str], dir: &Path) -> String {
    let out = newshound(args, dir);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    stdout(&out)
}

/// The ids of a search's hits (the first column of each hit's first line).
fn hit_ids(db: &str, query: &str, dir: &Path) -> BTreeSet<i64> {
    run_ok(&["--db", db, "search", query, "--limit", "200"], dir)
        .lines()
        .filter(|l| !l.starts_with("        "))
        .filter_map(|l| l.split_whitespace().next()?.parse().ok())
        .collect()
}

#[test]
fn search_on_postgres_finds_the_articles_sqlite_finds() {
    let dir = tempfile::tempdir().unwrap();
    let pg = demo_on_both(dir.path());
    let mut with_hits = Vec::new();
    for q in [
        "council",
        "the",
        "\"the city council\"",
        "teach*",
        "council -city",
        "NOT city council",
        "shelters OR pension",
        "市政府",
        "经济",
        "市政府 -粮食",
        "zzqq",
    ] {
        let sqlite = hit_ids("demo.db", q, dir.path());
        let postgres = hit_ids(&pg.url, q, dir.path());
        assert_eq!(sqlite, postgres, "search {q:?}");
        if !sqlite.is_empty() {
            with_hits.push(q);
        }
    }
    // Equal empty answers would prove nothing: most queries must find some.
    assert!(with_hits.len() >= 7, "few queries had hits: {with_hits:?}");

    // The best hit is ranked first on both: an article's own title, as a
    // phrase, finds that article first.
    let export = run_ok(
        &["--db", "demo.db", "export", "--site", "dailyplanet"],
        dir.path(),
    );
    let article: serde_json::Value =
        serde_json::from_str(export.lines().next().expect("an article")).unwrap();
    let title = format!("\"{}\"", article["title"].as_str().expect("a title"));
    for db in ["demo.db", pg.url.as_str()] {
        let hits = run_ok(&["--db", db, "search", &title, "--json"], dir.path());
        let hits: serde_json::Value = serde_json::from_str(&hits).unwrap();
        assert_eq!(hits[0]["id"], article["id"], "{db}: {title}");
        assert!(hits[0]["snippet"].as_str().is_some(), "{hits}");
    }

    // Site and date filters select the same articles.
    for args in [
        ["--site", "dailyplanet", "--since", "2026-01-01"],
        ["--site", "huaxia-news", "--until", "2030-01-01"],
    ] {
        let ids = |db: &str| {
            let mut a = vec!["--db", db, "search", "the"];
            a.extend(args);
            run_ok(&a, dir.path())
        };
        assert_eq!(ids("demo.db").lines().count(), ids(&pg.url).lines().count());
    }
}

#[test]
fn show_stats_and_export_on_postgres_print_what_sqlite_prints() {
    let dir = tempfile::tempdir().unwrap();
    let pg = demo_on_both(dir.path());
    let url = run_ok(&["--db", "demo.db", "show", "--json", "3"], dir.path());
    let url = serde_json::from_str::<serde_json::Value>(&url).unwrap()["url"]
        .as_str()
        .unwrap()
        .to_string();
    for args in [
        vec!["show", "3"],
        vec!["show", "--json", "4"],
        vec!["show", url.as_str()],
        vec!["stats"],
        vec!["stats", "--top", "3"],
        vec!["stats", "--json", "--top", "2"],
        vec!["export"],
        vec!["export", "--format", "csv"],
        vec!["export", "--site", "globe", "--since", "2026-01-01"],
    ] {
        let on = |db: &str| {
            let mut a = vec!["--db", db];
            a.extend(&args);
            run_ok(&a, dir.path())
        };
        let sqlite = on("demo.db");
        assert!(!sqlite.trim().is_empty(), "{args:?} printed nothing");
        assert_eq!(sqlite, on(&pg.url), "{args:?}");
    }

    // WARC: the kept pages, record for record after the warcinfo record
    // (which carries the time of the export).
    let responses = |db: &str| {
        let out = newshound(&["--db", db, "export", "--format", "warc"], dir.path());
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(stderr(&out).contains("exported"), "{}", stderr(&out));
        let mut text = Vec::new();
        std::io::Read::read_to_end(
            &mut flate2::read::MultiGzDecoder::new(&out.stdout[..]),
            &mut text,
        )
        .expect("gzip");
        let text = String::from_utf8_lossy(&text).into_owned();
        let records: Vec<String> = text.split("WARC/1.1\r\n").map(String::from).collect();
        assert!(records.len() > 3, "too few WARC records");
        records[2..].to_vec()
    };
    assert_eq!(responses("demo.db"), responses(&pg.url), "WARC records");

    // `[store] url` in the config names the database as --db does.
    std::fs::write(
        dir.path().join("pg.toml"),
        format!("[store]\nurl = \"{}\"\n", pg.url),
    )
    .unwrap();
    let via_config = run_ok(&["--config", "pg.toml", "show", "3"], dir.path());
    assert_eq!(
        via_config,
        run_ok(&["--db", "demo.db", "show", "3"], dir.path())
    );
}

#[test]
fn errors_on_postgres_are_the_sqlite_ones() {
    let dir = tempfile::tempdir().unwrap();
    let pg = demo_on_both(dir.path());
    let db = pg.url.as_str();
    for (args, needle) in [
        (vec!["search", ""], "has no words to look for"),
        (vec!["search", "NOT city"], "only excludes words"),
        (
            vec!["search", "x", "--site", "nope"],
            "unknown site \"nope\"",
        ),
        (vec!["show", "99999"], "no article with id 99999"),
        (
            vec!["show", "http://127.0.0.1:9/none.html"],
            "no stored article has this URL",
        ),
    ] {
        let mut a = vec!["--db", db];
        a.extend(&args);
        let out = newshound(&a, dir.path());
        assert_clean_failure(&out, needle);
    }
    let too_many: String = (0..20).map(|i| format!("w{i} ")).collect();
    for db in ["demo.db", db] {
        let out = newshound(&["--db", db, "search", &too_many], dir.path());
        assert_clean_failure(&out, "distinct words");
    }
    // A server that is not there is named, with the reason.
    let out = newshound(
        &["--db", "postgres://nobody@127.0.0.1:9/none", "stats"],
        dir.path(),
    );
    assert_clean_failure(&out, "127.0.0.1:9/none: cannot connect to PostgreSQL");
}

#[test]
fn export_and_search_filter_by_author_section_and_tag_alike_on_both_stores() {
    let dir = tempfile::tempdir().unwrap();
    let pg = demo_on_both(dir.path());
    let export = run_ok(&["--db", "demo.db", "export"], dir.path());
    let records: Vec<serde_json::Value> = export
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let with_section = records
        .iter()
        .find(|r| r["section"].is_string() && !r["tags"].as_array().unwrap().is_empty())
        .expect("an article with a section and tags");
    let author = with_section["authors"][0].as_str().expect("an author");
    let section = with_section["section"].as_str().unwrap();
    let tag = with_section["tags"][0].as_str().unwrap();
    let ids = |db: &str, args: &[&str]| -> Vec<i64> {
        let mut a = vec!["--db", db, "export"];
        a.extend(args);
        run_ok(&a, dir.path())
            .lines()
            .map(|l| {
                serde_json::from_str::<serde_json::Value>(l).unwrap()["id"]
                    .as_i64()
                    .unwrap()
            })
            .collect()
    };
    let shouting = author.to_uppercase();
    for args in [
        vec!["--author", shouting.as_str()],
        vec!["--section", section],
        vec!["--tag", tag],
        vec!["--author", author, "--section", section],
    ] {
        let sqlite = ids("demo.db", &args);
        assert!(!sqlite.is_empty(), "{args:?} selected nothing");
        assert!(sqlite.len() < records.len(), "{args:?} selected everything");
        assert_eq!(sqlite, ids(&pg.url, &args), "{args:?}");
    }
    assert!(ids("demo.db", &["--tag", "no such tag"]).is_empty());
    // Search takes the same filters: a word of the article's title finds
    // it among the author's articles.
    let word = with_section["title"]
        .as_str()
        .unwrap()
        .split_whitespace()
        .max_by_key(|w| w.chars().count())
        .unwrap()
        .trim_matches(|c: char| !c.is_alphanumeric())
        .to_string();
    for db in ["demo.db", pg.url.as_str()] {
        let hits = run_ok(
            &["--db", db, "search", &word, "--author", author, "--json"],
            dir.path(),
        );
        let hits: serde_json::Value = serde_json::from_str(&hits).unwrap();
        assert!(!hits.as_array().unwrap().is_empty(), "{db}");
    }
}
