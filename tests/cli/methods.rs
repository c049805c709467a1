//! `train` (a model file that `extract --model` and `eval --model` read back)
//! and `eval --algorithm all` (one table of every method).

use crate::support::{assert_clean_failure, newshound, stderr, stdout};

/// Two sites, two pages each, with gold text: enough to train and to fold.
fn gold_set(dir: &std::path::Path) {
    for sub in ["html", "gold"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    for site in ["alpha", "beta", "gamma"] {
        for i in 0..2 {
            let story = format!(
                "The {site} council met on day {i}, and agreed the budget after a long debate. \
                 Members said the plan would be reviewed next spring."
            );
            let page = format!(
                "<html><body><div class=menu><a href=/a>Home</a> <a href=/b>World</a> \
                 <a href=/c>Sport</a></div><div class=story><p>{story}</p><p>{story}</p></div>\
                 <div class=foot><a href=/e>Privacy</a> <a href=/f>Terms</a></div></body></html>"
            );
            std::fs::write(dir.join(format!("html/{site}_{i}.html")), page).unwrap();
            std::fs::write(dir.join(format!("gold/{site}_{i}.txt")), &story).unwrap();
        }
    }
}

#[test]
fn train_writes_a_model_that_extract_uses_and_a_mismatched_algorithm_is_named() {
    let tmp = tempfile::tempdir().unwrap();
    gold_set(tmp.path());
    let out = newshound(
        &[
            "train",
            "--algorithm",
            "nb",
            "--html",
            "html",
            "--gold",
            "gold",
            "--out",
            "nb.json",
            "--folds",
            "3",
        ],
        tmp.path(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let report = stdout(&out);
    assert!(
        report.contains("3-fold cross-validation by site (nb)"),
        "{report}"
    );
    assert!(report.contains("text (LCS, held-out pages): P"), "{report}");
    let model = std::fs::read_to_string(tmp.path().join("nb.json")).unwrap();
    assert!(model.contains("\"algorithm\": \"nb\""), "{model}");

    let out = newshound(
        &["extract", "html/alpha_0.html", "--model", "nb.json"],
        tmp.path(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("agreed the budget") && !text.contains("Privacy"),
        "{text}"
    );

    let out = newshound(
        &[
            "extract",
            "html/alpha_0.html",
            "--model",
            "nb.json",
            "--algorithm",
            "tree",
        ],
        tmp.path(),
    );
    assert_clean_failure(
        &out,
        "nb.json: the model is for nb, but the algorithm is tree",
    );
    let out = newshound(
        &["extract", "html/alpha_0.html", "--model", "none.json"],
        tmp.path(),
    );
    assert_clean_failure(&out, "none.json: cannot read model");
}

#[test]
fn eval_all_prints_one_row_per_algorithm() {
    let tmp = tempfile::tempdir().unwrap();
    gold_set(tmp.path());
    let out = newshound(
        &[
            "eval",
            "--html",
            "html",
            "--gold",
            "gold",
            "--algorithm",
            "all",
        ],
        tmp.path(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let table = stdout(&out);
    for alg in ["auto", "td", "ctd", "htd", "ceds", "punct", "nb", "tree"] {
        assert!(
            table
                .lines()
                .any(|l| l.split_whitespace().nth(1) == Some(alg)),
            "{alg} missing:\n{table}"
        );
    }
    assert_eq!(
        table.matches("held-out folds by site").count(),
        2,
        "{table}"
    );
}

/// Without --html/--gold or --corpus, eval scores the repository's corpus
/// (tests/corpus, unpacked into a temporary directory); --set picks a set.
#[test]
fn eval_reads_the_repository_corpus_by_default() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = newshound(&["eval", "--set", "cleanportaleval", "--worst", "2"], root);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("70"), "70 pages scored:\n{text}");
    let out = newshound(&["eval", "--set", "nope"], root);
    assert_clean_failure(
        &out,
        "no set \"nope\" (the sets: cleaneval-dev, cleanportaleval",
    );
    // Elsewhere the default corpus is missing, and the error says why.
    let dir = tempfile::tempdir().unwrap();
    let out = newshound(&["eval"], dir.path());
    assert_clean_failure(&out, "tests/corpus: no such directory");
    let out = newshound(&["eval", "--sequence"], root);
    assert_clean_failure(&out, "add --set NAME");
}

/// A set scored by snippets: `html/` and `snippets.json` beside it, no gold
/// texts (trafilatura's benchmark).
fn snippet_set(dir: &std::path::Path) {
    std::fs::create_dir_all(dir.join("snip/html")).unwrap();
    let story = "The council met on Monday, and agreed the budget after a long debate.";
    let page = format!(
        "<html><body><div class=menu><a href=/a>Home</a> <a href=/b>World</a> \
         <a href=/c>Sport</a></div><div class=story><p>{story}</p><p>{story}</p>\
         <p>Members said the plan would be reviewed next spring.</p></div></body></html>"
    );
    std::fs::write(dir.join("snip/html/a.html"), page).unwrap();
    let json = format!(
        r#"{{"a.html": {{"with": ["{story}", "reviewed next spring.", "not on the page"],
            "without": ["Home World Sport", "Imprint"]}}}}"#
    );
    std::fs::write(dir.join("snip/snippets.json"), json).unwrap();
}

#[test]
fn eval_scores_a_snippet_set_found_beside_html_or_named() {
    let tmp = tempfile::tempdir().unwrap();
    snippet_set(tmp.path());
    let summary = "tp 2 fn 1 fp 0 tn 2  P 1.000  R 0.667  F 0.800  accuracy 0.800";
    for args in [
        &["eval", "--html", "snip/html"][..],
        &[
            "eval",
            "--html",
            "snip/html",
            "--snippets",
            "snip/snippets.json",
        ],
    ] {
        let out = newshound(args, tmp.path());
        assert!(out.status.success(), "{}", stderr(&out));
        let report = stdout(&out);
        assert!(report.contains(summary), "{report}");
        assert!(
            report.contains("a   ") && report.contains("2/3"),
            "{report}"
        );
    }
    let out = newshound(&["eval", "--corpus", ".", "--algorithm", "all"], tmp.path());
    assert!(out.status.success(), "{}", stderr(&out));
    let table = stdout(&out);
    assert_eq!(table.matches("snippets (summed").count(), 8, "{table}");
    std::fs::create_dir_all(tmp.path().join("bare")).unwrap();
    let out = newshound(&["eval", "--html", "bare"], tmp.path());
    assert_clean_failure(&out, "bare: no gold: give --gold DIR or --snippets FILE");
    let out = newshound(
        &[
            "eval",
            "--html",
            "snip/html",
            "--snippets",
            "snip/html/a.html",
        ],
        tmp.path(),
    );
    assert_clean_failure(&out, "a.html: not a snippet file");
}

/// The whole-corpus table runs each set with the command's options: a step
/// switched off by `--ablate` is off there too, as with `--set`.
#[test]
fn eval_table_of_the_corpus_honours_ablate() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("s/html");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("a.html"),
        "<html><body><div class=story>\
         <p>The council met on Monday, and agreed the budget after a long debate in the hall.</p>\
         <p>Members said the plan would be reviewed next spring, and that the town would pay.</p>\
         <div class=\"related-stories\"><p>Elsewhere, the river flooded three farms on Sunday \
         night, and the roads were closed.</p></div>\
         <p>The mayor thanked the members for their work over the long year.</p>\
         </div></body></html>",
    )
    .unwrap();
    std::fs::write(
        tmp.path().join("s/snippets.json"),
        r#"{"a.html": {"with": ["agreed the budget", "reviewed next spring",
            "thanked the members"], "without": ["the river flooded three farms"]}}"#,
    )
    .unwrap();
    let row = |args: &[&str]| {
        let out = newshound(args, tmp.path());
        assert!(out.status.success(), "{}", stderr(&out));
        let table = stdout(&out);
        let line = table
            .lines()
            .find(|l| l.starts_with("s "))
            .map(str::to_string);
        line.unwrap_or_else(|| panic!("no row of set s: {table}"))
    };
    let whole = row(&["eval", "--corpus", "."]);
    assert!(whole.contains("1.000  1.000  1.000"), "{whole}");
    // One site: the held-out half has no pages, so no score.
    assert!(whole.contains("1.000      -  snippets"), "{whole}");
    // Without class names the related box is no longer known: it is kept.
    let ablated = row(&["eval", "--corpus", ".", "--ablate", "class-names"]);
    assert!(ablated.contains("0.750  1.000  0.857"), "{ablated}");
    let one = newshound(
        &[
            "eval",
            "--corpus",
            ".",
            "--set",
            "s",
            "--ablate",
            "class-names",
        ],
        tmp.path(),
    );
    assert!(
        stdout(&one).contains("P 0.750  R 1.000  F 0.857"),
        "{}",
        stdout(&one)
    );
}
