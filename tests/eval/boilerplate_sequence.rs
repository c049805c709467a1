//! Per-site learning on the corpus's cleanportaleval set (tests/corpus): each site's pages
//! are extracted, then fed in numeric order through the line filter
//! (`eval::sequence`). Prints the with/without table for the default
//! settings and for each refinement switched off, and asserts the issue's
//! bar: learning (after the warm-up repair) lowers F1 on no site and raises
//! the mean.

use std::path::PathBuf;

use newshound::boilerplate::LineSettings;
use newshound::boilerplate::{LineRule, Variant};
use newshound::eval::sequence::{evaluate_sequence, page_order, site_key, SequenceReport};
use newshound::eval::GoldConvention;
use newshound::extract::{ExtractOptions, Extractor, Page};

fn corpus_set() -> PathBuf {
    crate::corpus().join("cleanportaleval")
}

/// (site key, extracted text, gold) in site and page order.
fn pages() -> Vec<(String, String, String)> {
    let dir = corpus_set();
    assert!(
        dir.is_dir(),
        "corpus not found at {}; this test needs it and must not pass without it",
        dir.display()
    );
    let mut stems: Vec<String> = std::fs::read_dir(dir.join("html"))
        .expect("read html dir")
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let p = e.path();
            let stem = p.file_stem()?.to_string_lossy().into_owned();
            (p.extension()? == "html").then_some(stem)
        })
        .collect();
    stems.sort_by_key(|s| page_order(s));
    // Extracted as `eval --sequence` does: by the set's gold convention
    // (its gold counts captions, which hold the text of its video pages).
    let opts =
        GoldConvention::of_set_dir(&dir.join("html")).extract_options(&ExtractOptions::default());
    let extractor = Extractor::new(opts);
    stems
        .iter()
        .map(|stem| {
            let html = std::fs::read(dir.join("html").join(format!("{stem}.html"))).expect("html");
            let gold = std::fs::read(dir.join("gold").join(format!("{stem}.txt"))).expect("gold");
            let article = extractor.extract(Page::from_bytes(&html, None)).article;
            (
                site_key(stem).to_string(),
                article.text,
                String::from_utf8_lossy(&gold).into_owned(),
            )
        })
        .collect()
}

fn run(name: &str, pages: &[(String, String, String)], settings: &LineSettings) -> SequenceReport {
    let report = evaluate_sequence(pages, settings).expect("sequence evaluation");
    println!("== {name}\n{}", report.render());
    report
}

#[test]
fn learning_never_lowers_a_sites_f1_and_raises_the_mean() {
    let pages = pages();
    let default = LineSettings::default();
    let report = run("default (mask digits, both guards)", &pages, &default);
    let v = default.variant;
    for (name, variant) in [
        (
            "no digit masking",
            Variant {
                mask_digits: false,
                ..v
            },
        ),
        (
            "no interior guard",
            Variant {
                guard_long_interior: false,
                ..v
            },
        ),
        (
            "no mostly-dropped guard",
            Variant {
                guard_mostly_dropped: false,
                ..v
            },
        ),
        (
            "plain Li & Jiang (no masking, no guards)",
            Variant {
                mask_digits: false,
                guard_long_interior: false,
                guard_mostly_dropped: false,
            },
        ),
    ] {
        run(name, &pages, &LineSettings { variant, ..default });
    }
    run(
        "L = 10",
        &pages,
        &LineSettings {
            rule: LineRule { window: 10 },
            ..default
        },
    );

    // Learning before the repair may cost a site one token: the line rule
    // drops a short line once a young site has seen it twice, and on bbc
    // that is the "Analysis" label of 2 of its 11 pages, which the gold
    // keeps (−0.00001). Learning used to win that back on the "Last updated
    // at" datelines, which extraction now leaves out itself (furniture).
    const ONE_TOKEN: f64 = 1e-4;
    for s in &report.sites {
        assert!(
            s.all.with >= s.all.without - ONE_TOKEN,
            "{}: learning lowered F1 {:.4} → {:.4}",
            s.site,
            s.all.without,
            s.all.with
        );
        assert!(
            s.all.recleaned >= s.all.without - 1e-9,
            "{}: re-cleaning lowered F1 {:.4} → {:.4}",
            s.site,
            s.all.without,
            s.all.recleaned
        );
    }
    assert!(report.overall.all.recleaned > report.overall.all.without);
    assert!(report.overall.all.with > report.overall.all.without);
}
