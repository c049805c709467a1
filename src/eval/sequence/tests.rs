//! Tests of the sequence evaluation with a simple bag-of-words scorer (the
//! LCS scorer lives in `eval` and is tested there).

use super::*;
use crate::boilerplate::Variant;

/// Token-multiset overlap: enough to tell boilerplate from body.
fn bag_score(extracted: &str, gold: &str) -> Score {
    let mut gold_bag: std::collections::HashMap<&str, i64> = Default::default();
    for t in gold.split_whitespace() {
        *gold_bag.entry(t).or_default() += 1;
    }
    let ext: Vec<&str> = extracted.split_whitespace().collect();
    let mut common = 0;
    for t in &ext {
        if let Some(n) = gold_bag.get_mut(t) {
            if *n > 0 {
                *n -= 1;
                common += 1;
            }
        }
    }
    let g = gold.split_whitespace().count();
    let p = if ext.is_empty() {
        0.0
    } else {
        common as f64 / ext.len() as f64
    };
    let r = if g == 0 {
        0.0
    } else {
        common as f64 / g as f64
    };
    let f1 = if p + r == 0.0 {
        0.0
    } else {
        2.0 * p * r / (p + r)
    };
    Score {
        precision: p,
        recall: r,
        f1,
        cleaneval: 0.0,
    }
}

fn pages() -> Vec<(String, String, String)> {
    let mut v = Vec::new();
    for (site, n) in [("alpha", 8), ("beta", 3)] {
        for i in 0..n {
            let body = format!(
                "{site} story {} words here, and enough more words that the body outweighs the template",
                "abcdefghij".chars().nth(i).unwrap_or('z')
            );
            let raw = format!("{site} menu home news\n\n{body}\n\n{site} copyright footer line");
            v.push((site.to_string(), raw, body));
        }
    }
    v
}

#[test]
fn site_key_and_order_follow_file_names() {
    assert_eq!(site_key("tv.msnbc.com_news_07"), "tv.msnbc.com_news");
    assert_eq!(
        site_key("washingtonpost.com_blog1_0"),
        "washingtonpost.com_blog1"
    );
    assert_eq!(site_key("plain"), "plain");
    assert!(page_order("washingtonpost.com_blog1_2") < page_order("washingtonpost.com_blog1_10"));
    assert_eq!(
        page_order("bbc.co.uk_news_03"),
        ("bbc.co.uk_news".to_string(), 3)
    );
}

#[test]
fn learning_raises_f1_and_reclean_repairs_the_first_page() {
    let settings = LineSettings {
        variant: Variant::default(),
        ..LineSettings::default()
    };
    let report = evaluate_sequence_with(&pages(), &settings, bag_score).unwrap();
    assert_eq!(report.sites.len(), 2);
    let alpha = &report.sites[0];
    assert_eq!(alpha.site, "alpha");
    assert_eq!(
        (alpha.all.pages, alpha.first.pages, alpha.rest.pages),
        (8, 5, 3)
    );
    // Without learning every page carries 2 template lines of 4 + 4 words.
    assert!(alpha.all.without < 0.8, "{alpha:?}");
    // With learning only the first page keeps them: 7 of 8 pages are perfect.
    assert!((alpha.rest.with - 1.0).abs() < 1e-9, "{alpha:?}");
    assert!(alpha.first.with < 1.0 && alpha.first.with > alpha.first.without);
    // Re-cleaning repairs the first page too.
    assert!((alpha.all.recleaned - 1.0).abs() < 1e-9, "{alpha:?}");
    assert_eq!(alpha.lines_dropped, 14);
    assert_eq!(alpha.lines_dropped_recleaned, 16);
    let beta = &report.sites[1];
    assert_eq!((beta.all.pages, beta.rest.pages), (3, 0));
    assert_eq!(report.overall.all.pages, 11);
    assert_eq!(report.overall.first.pages, 8);
    assert!(report.overall.all.recleaned > report.overall.all.with);
    let table = report.render();
    assert!(
        table.contains("alpha") && table.lines().count() == 4,
        "{table}"
    );
}

#[test]
fn disabled_learning_scores_the_same_as_without() {
    let settings = LineSettings {
        enabled: false,
        ..LineSettings::default()
    };
    let report = evaluate_sequence_with(&pages(), &settings, bag_score).unwrap();
    for s in &report.sites {
        assert_eq!(s.all.with, s.all.without);
        assert_eq!(s.all.recleaned, s.all.without);
        assert_eq!(s.lines_dropped_recleaned, 0);
    }
}
