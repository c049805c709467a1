//! Runs `eval` on every set of ../shared/corpus with every algorithm, prints
//! the P/R/F1 table, and fails if a set's mean F1 falls below its floor in
//! tests/eval_floors.toml (raise floors as extraction improves; never lower
//! them silently).

use std::path::{Path, PathBuf};

use newshound::eval::evaluate_dir;
use newshound::extract::{Algorithm, ExtractOptions};

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus")
}

fn algorithm(name: &str) -> Algorithm {
    match name {
        "td" => Algorithm::Td,
        "ctd" => Algorithm::Ctd,
        "auto" => Algorithm::Auto,
        other => panic!("eval_floors.toml: unknown algorithm {other:?}"),
    }
}

#[test]
fn corpus_mean_f1_stays_above_floors() {
    let corpus = corpus_dir();
    assert!(
        corpus.is_dir(),
        "corpus not found at {} (expected ../shared/corpus next to the crate); \
         this test needs it and must not pass without it",
        corpus.display()
    );
    let floors_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/eval_floors.toml");
    let floors_text = std::fs::read_to_string(&floors_path)
        .unwrap_or_else(|e| panic!("{}: {e}", floors_path.display()));
    let floors: toml::Table =
        toml::from_str(&floors_text).unwrap_or_else(|e| panic!("{}: {e}", floors_path.display()));
    assert!(!floors.is_empty(), "eval_floors.toml lists no sets");

    let mut failures = Vec::new();
    println!(
        "{:<18} {:<5} {:>6} {:>6} {:>6} {:>6}  {:>8}  {:>6}",
        "set", "alg", "P", "R", "F1", "CE", "max ms", "floor"
    );
    for (set, algs) in &floors {
        let algs = algs
            .as_table()
            .unwrap_or_else(|| panic!("eval_floors.toml: [{set}] must be a table"));
        let html = corpus.join(set).join("html");
        let gold = corpus.join(set).join("gold");
        for (alg, floor) in algs {
            let floor = floor
                .as_float()
                .unwrap_or_else(|| panic!("eval_floors.toml: {set}.{alg} must be a float"));
            let opts = ExtractOptions {
                algorithm: algorithm(alg),
                ..ExtractOptions::default()
            };
            let report = evaluate_dir(&html, &gold, &opts, 2)
                .unwrap_or_else(|e| panic!("eval {set} {alg}: {e}"));
            let m = report.mean;
            println!(
                "{set:<18} {alg:<5} {:>6.3} {:>6.3} {:>6.3} {:>6.3}  {:>8.1}  {floor:>6.3}",
                m.precision, m.recall, m.f1, m.cleaneval, report.max_millis
            );
            if m.f1 < floor {
                failures.push(format!("{set} {alg}: mean F1 {:.4} < floor {floor}", m.f1));
                println!("{}", report.render(Some(10)));
            }
        }
    }
    assert!(failures.is_empty(), "below floor:\n{}", failures.join("\n"));
}
