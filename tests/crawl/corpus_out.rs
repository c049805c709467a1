//! The corpus leaves the box: kept HTML, `reextract` and every export format,
//! on a crawl of the simulated web (127.0.0.1).
//!
//! One crawl per test into a temporary database, then the library calls the
//! CLI makes. The WARC check is a strict reader written against the WARC/1.1
//! specification (`warc_reader` below): every record its own gzip member,
//! the version line, CRLF header lines, the mandatory fields, a
//! Content-Length that is the block's exact length, the block followed by
//! CRLF CRLF, and both digests recomputed.

use std::collections::HashMap;
use std::path::Path;

use crate::support::{start_web, stored_in};
use crate::warc_reader;
use newshound::config::Config;
use newshound::export::{self, Format, FIELDS};
use newshound::extract::{Algorithm, ExtractOptions};
use newshound::reextract::{self, ReextractLimits};
use newshound::simweb::SimWebSpec;
use newshound::store::{AnyStore, Selection, Store, StoredArticle};

/// [`support::crawl_into`](crate::support::crawl_into), which must store
/// articles.
pub(crate) async fn crawl_into(cfg: &Config, db: &Path) {
    let summary = crate::support::crawl_into(cfg, db).await;
    assert!(summary.articles_stored > 0, "{summary}");
}

/// The SQLite store inside a test's [`AnyStore`].
fn sqlite(store: &AnyStore) -> &Store {
    match store {
        AnyStore::Sqlite(s) => s,
        AnyStore::Pg(_) => unreachable!("these tests crawl into SQLite"),
    }
}

fn spec(seed: u64) -> SimWebSpec {
    SimWebSpec {
        sites: 3,
        articles_per_site: 12,
        seed,
        faults: false,
    }
}

fn with_algorithm(algorithm: Algorithm) -> ExtractOptions {
    ExtractOptions {
        algorithm,
        ..ExtractOptions::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kept_html_is_the_served_page_with_its_headers() {
    let (web, dir, cfg) = start_web(spec(31)).await;
    let db = dir.path().join("kept.db");
    crawl_into(&cfg, &db).await;
    let articles = stored_in(&mut AnyStore::from(Store::open(&db).unwrap()));
    let mut store = AnyStore::from(Store::open(&db).unwrap());
    let sizes = store.kept_sizes().unwrap();
    assert_eq!(
        sizes.pages,
        articles.len() as u64,
        "one kept page per article"
    );
    assert!(
        sizes.compressed_bytes * 2 < sizes.body_bytes,
        "zstd should at least halve news HTML: {sizes:?}"
    );
    for a in &articles {
        let page = store.kept_html(a.id).unwrap().expect("page kept");
        assert_eq!(page.status, 200);
        assert_eq!(page.site, a.site);
        let ct = page.headers.content_type.as_deref().unwrap_or("");
        assert!(ct.starts_with("text/html"), "{ct}");
        assert!(page.headers.date.is_some() || page.headers.last_modified.is_some());
        let html = String::from_utf8_lossy(&page.body);
        assert!(html.contains("</html>"), "whole page kept: {}", a.url);
        // The kept page extracts to the stored raw text (same options).
        let again = reextract::extract_kept(&page, &cfg, &ExtractOptions::default());
        assert_eq!(again.title, a.article.title, "{}", a.url);
    }
    web.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keep_html_false_keeps_nothing_and_warc_counts_the_skipped() {
    let (web, dir, mut cfg) = start_web(spec(32)).await;
    cfg.store.keep_html = false;
    let db = dir.path().join("nokeep.db");
    crawl_into(&cfg, &db).await;
    let mut store = AnyStore::from(Store::open(&db).unwrap());
    let n = stored_in(&mut store).len() as u64;
    assert_eq!(store.kept_sizes().unwrap().pages, 0);
    let mut warc = Vec::new();
    let summary =
        export::write(&mut store, &Selection::default(), Format::Warc, &mut warc).unwrap();
    assert_eq!((summary.written, summary.skipped), (0, n));
    let records = warc_reader::read_all(&warc).expect("valid WARC");
    assert_eq!(records.len(), 1, "only the warcinfo record");
    // Nothing to re-extract either.
    let r = reextract::reextract(
        &mut store,
        &cfg,
        &with_algorithm(Algorithm::Td),
        &Selection::default(),
        ReextractLimits::default(),
    )
    .unwrap();
    assert_eq!((r.counts.seen, r.changed_total()), (0, 0));
    web.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reextract_after_an_option_change_updates_text_and_search_in_place() {
    let (web, dir, cfg) = start_web(spec(33)).await;
    let db = dir.path().join("re.db");
    crawl_into(&cfg, &db).await;
    let mut store = AnyStore::from(Store::open(&db).unwrap());
    let before = stored_in(&mut store);
    let all = Selection::default();
    let limits = ReextractLimits::default();

    // Same options as the crawl: nothing changes.
    let same = reextract::reextract(&mut store, &cfg, &cfg_opts(&cfg), &all, limits).unwrap();
    assert_eq!(same.counts.seen, before.len() as u64);
    assert_eq!(same.changed_total(), 0, "{same:?}");

    // Another algorithm: the text of (some) articles changes, in place.
    let td = reextract::reextract(
        &mut store,
        &cfg,
        &with_algorithm(Algorithm::Td),
        &all,
        limits,
    )
    .unwrap();
    assert!(td.finished);
    assert!(td.changed_total() > 0, "td should change something: {td:?}");
    let after = stored_in(&mut store);
    assert_eq!(after.len(), before.len(), "no article added or lost");
    let changed: Vec<(&StoredArticle, &StoredArticle)> = before
        .iter()
        .zip(&after)
        .filter(|(b, a)| b.article.text != a.article.text)
        .collect();
    assert_eq!(changed.len() as u64, td.changed_total());
    assert_eq!(
        sqlite(&store).integrity_check().unwrap(),
        "ok",
        "FTS indexes consistent"
    );
    // The search index follows the new text: a word that only the new text
    // of an article has is found in it.
    let (b, a) = changed[0];
    let old_words: std::collections::HashSet<&str> = b.article.text.split_whitespace().collect();
    if let Some(word) = a
        .article
        .text
        .split_whitespace()
        .find(|w| w.len() > 6 && w.chars().all(char::is_alphabetic) && !old_words.contains(w))
    {
        let hits = sqlite(&store)
            .search_in(word, 100, &Selection::default())
            .unwrap();
        assert!(hits.iter().any(|h| h.id == a.id), "{word} finds {}", a.url);
    }

    // And back: the crawl's text again, exactly.
    let back = reextract::reextract(&mut store, &cfg, &cfg_opts(&cfg), &all, limits).unwrap();
    assert_eq!(back.changed_total(), td.changed_total());
    let restored = stored_in(&mut store);
    for (b, r) in before.iter().zip(&restored) {
        assert_eq!(b.article.text, r.article.text, "{}", b.url);
        assert_eq!(b.word_count, r.word_count, "{}", b.url);
    }
    web.shutdown().await;
}

fn cfg_opts(cfg: &Config) -> ExtractOptions {
    ExtractOptions {
        algorithm: cfg.extract.algorithm,
        timezone: cfg.extract.timezone,
        ..ExtractOptions::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reextract_killed_after_a_batch_resumes_where_it_stopped() {
    let (web, dir, cfg) = start_web(spec(34)).await;
    let db = dir.path().join("kill.db");
    crawl_into(&cfg, &db).await;
    // A copy to run uninterrupted, for the expected outcome.
    let twin = dir.path().join("twin.db");
    std::fs::copy(&db, &twin).unwrap();
    let td = with_algorithm(Algorithm::Td);
    let all = Selection::default();
    let whole = {
        let mut s = AnyStore::from(Store::open(&twin).unwrap());
        reextract::reextract(&mut s, &cfg, &td, &all, ReextractLimits::default()).unwrap()
    };

    let mut store = AnyStore::from(Store::open(&db).unwrap());
    let step = ReextractLimits {
        batch: 7,
        max_batches: Some(1),
    };
    let first = reextract::reextract(&mut store, &cfg, &td, &all, step).unwrap();
    assert!(!first.finished);
    assert_eq!(first.counts.seen, 7);
    drop(store); // the "kill": only committed batches survive
    let mut store = AnyStore::from(Store::open(&db).unwrap());
    let cursor = store
        .reextract_cursor(&reextract::selection_key(&all))
        .unwrap()
        .expect("cursor saved");
    assert_eq!(cursor.seen, 7);
    let rest = reextract::reextract(
        &mut store,
        &cfg,
        &td,
        &all,
        ReextractLimits {
            batch: 7,
            max_batches: None,
        },
    )
    .unwrap();
    assert!(rest.finished);
    assert_eq!(rest.resumed_seen, 7, "resumed, not restarted");
    assert_eq!(rest.resumed_seen + rest.counts.seen, whole.counts.seen);
    assert_eq!(rest.changed_total(), whole.changed_total());
    assert!(store
        .reextract_cursor(&reextract::selection_key(&all))
        .unwrap()
        .is_none());
    let mut twin_store = AnyStore::from(Store::open(&twin).unwrap());
    let texts = |s: &mut AnyStore| -> Vec<String> {
        stored_in(s).into_iter().map(|a| a.article.text).collect()
    };
    assert_eq!(texts(&mut store), texts(&mut twin_store));
    web.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_export_format_carries_every_article() {
    let (web, dir, cfg) = start_web(spec(35)).await;
    let db = dir.path().join("export.db");
    crawl_into(&cfg, &db).await;
    let mut store = AnyStore::from(Store::open(&db).unwrap());
    let articles = stored_in(&mut store);
    assert!(
        articles.iter().all(|a| a.method == Some(a.article.method)),
        "the crawl records every article's extraction method"
    );
    let all = Selection::default();
    let mut run = |format| {
        let mut out = Vec::new();
        let summary = export::write(&mut store, &all, format, &mut out).unwrap();
        assert_eq!(summary.written, articles.len() as u64, "{format:?}");
        out
    };

    // JSONL and CSV: the same fields, the same values.
    let jsonl = String::from_utf8(run(Format::Jsonl)).unwrap();
    let objects: Vec<serde_json::Value> = jsonl
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let keys: Vec<&str> = objects[0]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let mut expected = FIELDS.to_vec();
    expected.sort_unstable();
    let mut keys_sorted = keys.clone();
    keys_sorted.sort_unstable();
    assert_eq!(keys_sorted, expected, "CSV columns = JSONL fields");
    let csv = String::from_utf8(run(Format::Csv)).unwrap();
    let rows = parse_rfc4180(&csv);
    assert_eq!(rows[0], FIELDS.to_vec(), "header row");
    assert_eq!(rows.len(), objects.len() + 1);
    for (row, obj) in rows[1..].iter().zip(&objects) {
        for (field, value) in FIELDS.iter().zip(row) {
            let want = match &obj[*field] {
                serde_json::Value::Null => String::new(),
                serde_json::Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            assert_eq!(value, &want, "{field}");
        }
    }

    // Markdown: a heading and the URL line per article, in order.
    let md = String::from_utf8(run(Format::Markdown)).unwrap();
    let lines: Vec<&str> = md.lines().collect();
    let headings: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].starts_with("# "))
        .collect();
    assert_eq!(
        headings.len(),
        articles.len(),
        "{:?}",
        headings.iter().map(|&i| lines[i]).collect::<Vec<_>>()
    );
    for (&i, a) in headings.iter().zip(&articles) {
        assert_eq!(lines[i + 1], format!("<{}>", a.url));
        let title = a.article.title.as_deref().unwrap_or("(untitled)");
        assert_eq!(lines[i], format!("# {}", title.trim()));
    }

    // WARC: a warcinfo record, then one response per article, valid to the spec.
    let warc = run(Format::Warc);
    let records = warc_reader::read_all(&warc).expect("valid WARC");
    assert_eq!(records.len(), articles.len() + 1);
    assert_eq!(records[0].field("WARC-Type"), Some("warcinfo"));
    let by_url: HashMap<&str, &StoredArticle> =
        articles.iter().map(|a| (a.url.as_str(), a)).collect();
    for r in &records[1..] {
        assert_eq!(r.field("WARC-Type"), Some("response"));
        let uri = r.field("WARC-Target-URI").unwrap();
        let a = by_url.get(uri).expect("record of a stored article");
        let page = store.kept_html(a.id).unwrap().unwrap();
        assert_eq!(r.payload(), page.body.as_slice());
        assert!(r.block.starts_with(b"HTTP/1.1 200 OK\r\n"));
    }
    web.shutdown().await;
}

/// A strict RFC 4180 reader: records end with CRLF, quoted fields may hold
/// commas, CRLF and doubled quotes; anything else after a closing quote is
/// an error.
fn parse_rfc4180(s: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let mut row = Vec::new();
    let mut field = String::new();
    let mut chars = s.chars().peekable();
    let mut quoted_done = false;
    while let Some(c) = chars.next() {
        match c {
            '"' if field.is_empty() && !quoted_done => {
                loop {
                    match chars.next().expect("unterminated quoted field") {
                        '"' if chars.peek() == Some(&'"') => {
                            chars.next();
                            field.push('"');
                        }
                        '"' => break,
                        other => field.push(other),
                    }
                }
                quoted_done = true;
            }
            ',' => {
                row.push(std::mem::take(&mut field));
                quoted_done = false;
            }
            '\r' => {
                assert_eq!(chars.next(), Some('\n'), "CR must be followed by LF");
                row.push(std::mem::take(&mut field));
                rows.push(std::mem::take(&mut row));
                quoted_done = false;
            }
            '\n' => panic!("bare LF outside quotes"),
            '"' => panic!("quote inside an unquoted field"),
            other => {
                assert!(!quoted_done, "text after a closing quote");
                field.push(other);
            }
        }
    }
    assert!(
        row.is_empty() && field.is_empty(),
        "last record without CRLF"
    );
    rows
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn regression_reextract_tree_ignored_the_sites_learned_rules() {
    let (web, dir, mut cfg) = start_web(spec(37)).await;
    // Stored text = extracted text, so it can be compared with extraction.
    for site in &mut cfg.sites {
        site.lines.enabled = false;
    }
    let db = dir.path().join("rules.db");
    crawl_into(&cfg, &db).await;
    // A rule naming the comment area of `dailyplanet` pages: text the tree
    // never picks, so only a run that uses the rule stores it.
    let rule = r#"{"path":[{"tag":"div","id":"page"},{"tag":"div","class":"content"},{"tag":"div","class":"story"},{"tag":"div","class":"comments"}]}"#;
    let rule_of = newshound::extract::SiteRule::from_json(rule).unwrap();
    let mut store = AnyStore::from(Store::open(&db).unwrap());
    store
        .write_batch(vec![newshound::store::WriteOp::SiteRule(
            newshound::store::SiteRuleUpdate {
                site: "dailyplanet".into(),
                by_rule: false,
                dropped: false,
                learned: Some((rule.into(), rule_of.display())),
            },
        )])
        .unwrap();
    let tree = with_algorithm(Algorithm::Tree);
    let planet: Vec<StoredArticle> = stored_in(&mut store)
        .into_iter()
        .filter(|a| a.site == "dailyplanet")
        .collect();
    assert!(!planet.is_empty());
    let mut by_rule = HashMap::new();
    for a in &planet {
        let page = store.kept_html(a.id).unwrap().unwrap();
        let with_rule = reextract::extract_kept_by_rule(&page, &cfg, &tree, Some(&rule_of));
        let without = reextract::extract_kept(&page, &cfg, &tree);
        assert_ne!(
            with_rule.text, without.text,
            "the rule must make a difference"
        );
        by_rule.insert(a.id, with_rule.text);
    }
    reextract::reextract(
        &mut store,
        &cfg,
        &tree,
        &Selection::default(),
        ReextractLimits::default(),
    )
    .unwrap();
    for a in stored_in(&mut store)
        .iter()
        .filter(|a| a.site == "dailyplanet")
    {
        assert_eq!(
            a.article.text, by_rule[&a.id],
            "{}: extracted by the rule",
            a.url
        );
    }
    // The rule was used, not learned again or counted.
    assert_eq!(
        store.site_rules().unwrap(),
        vec![("dailyplanet".to_string(), rule.to_string())]
    );
    web.shutdown().await;
}
