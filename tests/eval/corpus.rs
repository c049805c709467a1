//! Runs `eval` on every set of the corpus (tests/corpus) with every algorithm, prints
//! the P/R/F1 table, and fails if a set's mean F1 falls below its floor in
//! tests/eval_floors.toml (raise floors as extraction improves; never lower
//! them silently), or if `auto` returns empty text on a page whose gold has
//! at least 50 words. `nb` and `tree` are scored as `eval` scores them: by
//! held-out folds by site.

use std::path::{Path, PathBuf};

use newshound::eval::methods::{corpus_sets, evaluate_algorithm, render_table};
use newshound::extract::{Algorithm, ExtractOptions};

fn corpus_dir() -> PathBuf {
    crate::corpus()
}

fn algorithm(name: &str) -> Algorithm {
    Algorithm::ALL
        .into_iter()
        .find(|a| a.name() == name)
        .unwrap_or_else(|| panic!("eval_floors.toml: unknown algorithm {name:?}"))
}

#[test]
fn corpus_mean_f1_stays_above_floors() {
    let corpus = corpus_dir();
    assert!(
        corpus.is_dir(),
        "corpus not found at {} (unpacked from tests/corpus); \
         this test needs it and must not pass without it",
        corpus.display()
    );
    let floors_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/eval_floors.toml");
    let floors_text = std::fs::read_to_string(&floors_path)
        .unwrap_or_else(|e| panic!("{}: {e}", floors_path.display()));
    let floors: toml::Table =
        toml::from_str(&floors_text).unwrap_or_else(|e| panic!("{}: {e}", floors_path.display()));
    assert!(!floors.is_empty(), "eval_floors.toml lists no sets");

    // Each set's pages and gold as `eval` finds them (gold texts or
    // records, silver records, or snippets).
    let sets = corpus_sets(&corpus).unwrap_or_else(|e| panic!("{}: {e}", corpus.display()));
    let mut failures = Vec::new();
    let mut rows = Vec::new();
    for (set, algs) in &floors {
        let algs = algs
            .as_table()
            .unwrap_or_else(|| panic!("eval_floors.toml: [{set}] must be a table"));
        let (_, html, gold) = sets
            .iter()
            .find(|(name, _, _)| name == set)
            .unwrap_or_else(|| panic!("eval_floors.toml: [{set}] is no set of the corpus"));
        for (alg, floor) in algs {
            let floor = floor
                .as_float()
                .unwrap_or_else(|| panic!("eval_floors.toml: {set}.{alg} must be a float"));
            let opts = ExtractOptions {
                algorithm: algorithm(alg),
                ..ExtractOptions::default()
            };
            let row = evaluate_algorithm(set, html, gold, &opts, 2)
                .unwrap_or_else(|e| panic!("eval {set} {alg}: {e}"));
            // Never empty: a page whose gold holds an article (>= 50 words)
            // gets text from `auto`.
            if alg == "auto" {
                let empty: Vec<&str> = row
                    .report
                    .pages
                    .iter()
                    .filter(|p| p.extracted_tokens == 0 && p.gold_tokens >= 50)
                    .map(|p| p.name.as_str())
                    .collect();
                if !empty.is_empty() {
                    failures.push(format!("{set} auto: empty text on {empty:?}"));
                }
            }
            if row.mean.f1 < floor {
                failures.push(format!(
                    "{set} {alg}: mean F1 {:.4} < floor {floor}",
                    row.mean.f1
                ));
                println!("{}", row.report.render(Some(10)));
            }
            rows.push(row);
        }
    }
    println!("{}", render_table(&rows));
    assert!(failures.is_empty(), "below floor:\n{}", failures.join("\n"));
}

/// Every set of `tests/corpus/manifest.json` unpacks with its pages, and
/// every archive is in the manifest.
#[test]
fn corpus_archives_hold_the_manifest_pages() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let manifest: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(root.join("manifest.json")).unwrap())
            .unwrap();
    let archived: Vec<String> = newshound::corpus_archive::archives(&root)
        .unwrap()
        .into_iter()
        .map(|(set, _)| set)
        .collect();
    let mut listed: Vec<String> = manifest.keys().cloned().collect();
    listed.sort();
    assert_eq!(
        archived, listed,
        "tests/corpus: archives against manifest.json"
    );
    let corpus = corpus_dir();
    for (set, pages) in &manifest {
        let html = std::fs::read_dir(corpus.join(set).join("html"))
            .unwrap_or_else(|e| panic!("{set}: {e}"))
            .count();
        assert_eq!(Some(html as u64), pages.as_u64(), "{set}: pages");
    }
}
