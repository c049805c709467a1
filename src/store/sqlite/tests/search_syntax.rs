//! Search syntax against a small store: phrases, OR, NOT, prefixes,
//! numbers as written, repeated and too many terms.

use super::*;
use crate::store::*;

fn store_with(articles: &[(&str, &str, &str)]) -> Store {
    let mut s = Store::open_in_memory().unwrap();
    let ops = articles
        .iter()
        .map(|(u, title, text)| WriteOp::Article(article(u, "a", title, text)))
        .collect();
    s.write_batch(ops).unwrap();
    s
}

fn urls(s: &Store, q: &str) -> Vec<String> {
    let mut v: Vec<String> = s
        .search(q, 10)
        .unwrap_or_else(|e| panic!("{q}: {e}"))
        .into_iter()
        .map(|h| h.url)
        .collect();
    v.sort();
    v
}

fn fixture() -> Store {
    store_with(&[
        (
            "u:1",
            "Rates",
            "The central bank raised interest rates by 3.5 points.",
        ),
        ("u:2", "Markets", "Interest in rates fell; the bank held."),
        ("u:3", "Schools", "The teacher said teaching is hard."),
        (
            "u:4",
            "Crypto",
            "The bank warned about crypto and interest rates.",
        ),
        ("u:5", "Versions", "Release 3, 5 fixes; the bank was quiet."),
    ])
}

#[test]
fn a_phrase_needs_its_words_together() {
    let s = fixture();
    assert_eq!(urls(&s, "interest rates"), ["u:1", "u:2", "u:4"]);
    assert_eq!(urls(&s, "\"interest rates\""), ["u:1", "u:4"]);
}

#[test]
fn or_takes_either_and_not_leaves_out() {
    let s = fixture();
    assert_eq!(urls(&s, "teacher OR crypto"), ["u:3", "u:4"]);
    assert_eq!(urls(&s, "bank -crypto"), ["u:1", "u:2", "u:5"]);
    assert_eq!(urls(&s, "bank NOT crypto"), ["u:1", "u:2", "u:5"]);
    assert_eq!(urls(&s, "bank -\"interest rates\""), ["u:2", "u:5"]);
    assert_eq!(urls(&s, "bank held OR raised -crypto"), ["u:1", "u:2"]);
}

#[test]
fn a_trailing_star_is_a_prefix_search() {
    // The help said `*` was literal while `teach*` did a prefix search:
    // it is a prefix, documented.
    let s = fixture();
    assert!(urls(&s, "teach").is_empty());
    assert_eq!(urls(&s, "teach*"), ["u:3"]);
}

#[test]
fn a_decimal_number_matches_as_written() {
    // `3.5` is two tokens to the word index; "3, 5" must not match it.
    let s = fixture();
    assert_eq!(urls(&s, "3.5"), ["u:1"]);
    assert_eq!(urls(&s, "3.5 bank"), ["u:1"]);
}

#[test]
fn mixed_cjk_and_digits_are_not_split_at_the_decimal_point() {
    // `7.1亿元` was split into `7` and `1亿元`; `7` matched `12:47`.
    let s = store_with(&[
        ("u:1", "财政", "今年财政收入增长7.1亿元，创历史新高。"),
        ("u:2", "快讯", "12:47 发布：某公司亏损1亿元。"),
    ]);
    assert_eq!(urls(&s, "7.1亿元"), ["u:1"]);
    assert_eq!(urls(&s, "1亿元"), ["u:1", "u:2"]);
    assert_eq!(urls(&s, "12:47"), ["u:2"]);
}

#[test]
fn repeated_words_count_once() {
    let s = fixture();
    let once = s.search("bank", 10).unwrap();
    let many = s.search(&"bank ".repeat(1000), 10).unwrap();
    let ids = |h: &[SearchHit]| h.iter().map(|h| h.id).collect::<Vec<_>>();
    assert_eq!(ids(&many), ids(&once));
    assert_eq!(many[0].snippet, once[0].snippet);
}

#[test]
fn too_many_terms_is_a_query_error_not_expression_tree_too_large() {
    let s = fixture();
    let cjk: String = (0..1000u32)
        .filter_map(|i| char::from_u32(0x4E00 + i))
        .map(|c| format!("{c}{c}{c} "))
        .collect();
    match s.search(&cjk, 10) {
        Err(StoreError::Query(QueryError::TooManyTerms { count: 1000, .. })) => {}
        other => panic!("{:?}", other.map(|h| h.len())),
    }
}

#[test]
fn a_prefix_standing_for_too_many_words_is_refused() {
    // `w*` over 5,000 indexed words took 30 s on 20,000 articles.
    let words: Vec<String> = (0..=MAX_PREFIX_WORDS).map(|i| format!("w{i}x")).collect();
    let s = store_with(&[
        ("u:1", "Many", &words.join(" ")),
        ("u:2", "Few", "w7x only"),
    ]);
    match s.search("w*", 10) {
        Err(StoreError::Query(QueryError::PrefixTooBroad { prefix, .. })) => {
            assert_eq!(prefix, "w")
        }
        other => panic!("{:?}", other.map(|h| h.len())),
    }
    // A narrower prefix still works (w7x, w70x..w79x: 11 words).
    assert_eq!(urls(&s, "w7*"), ["u:1", "u:2"]);
}

#[test]
fn a_query_matching_more_than_max_ranked_articles_ranks_the_newest() {
    // bm25 over every match of a common word cost seconds on 100,000
    // articles: beyond MAX_RANKED matches, the newest are ranked.
    let n = usize::try_from(crate::store::rules::search::MAX_RANKED).unwrap() + 5;
    let mut s = Store::open_in_memory().unwrap();
    let ops = (0..n)
        .map(|i| {
            // The oldest article is the best match by far.
            let (title, text) = if i == 0 {
                ("common common common", "common ".repeat(50))
            } else {
                ("other", format!("common filler {i}"))
            };
            WriteOp::Article(article(&format!("u:{i}"), "a", title, &text))
        })
        .collect();
    s.write_batch(ops).unwrap();
    let hits = s.search("common", 3).unwrap();
    assert_eq!(hits.len(), 3);
    assert!(hits.iter().all(|h| h.url != "u:0"), "{hits:?}");
    // Below the cap the best match wins wherever it is.
    let hits = s.search("common -filler", 3).unwrap();
    assert_eq!(hits[0].url, "u:0");
}
