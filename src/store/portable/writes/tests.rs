//! The crawl's shared writes on both stores: shape counts and site rule
//! counts add up across batches and, on PostgreSQL, across processes
//! (judging again: `rejudge`).

mod rejudge;

use crate::store::pg::testing::TestDb;
use crate::store::pg::PgStore;
use crate::store::{
    AnyStore, ShapeCounts, ShapeUpdate, SiteRuleUpdate, Store, WriteOp, WriteOutcome,
};

fn update(site: &str, shape: &str, a: u64, l: u64, o: u64) -> WriteOp {
    WriteOp::Shapes(ShapeUpdate {
        site: site.into(),
        counts: vec![ShapeCounts {
            shape: shape.into(),
            articles: a,
            listings: l,
            others: o,
            stories: 0,
        }],
        revised: Vec::new(),
    })
}

const DATED: &str = "/{yyyy}/{mm}/{dd}/{slug}.html";

/// Two batches, the first by `one`, the second by `two` (the same store,
/// or another process on a shared one); the counts as `one` reads them.
fn shape_counts_add_up(one: &mut AnyStore, two: Option<&mut AnyStore>) {
    let out = one
        .write_batch(vec![
            update("news", DATED, 1, 0, 0),
            update("news", "/about", 0, 0, 1),
            update("news", DATED, 1, 0, 0),
        ])
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out[0], WriteOutcome::ShapesRecorded);
    let second = vec![
        update("news", DATED, 1, 1, 0),
        update("blog", "/{slug}", 1, 0, 0),
    ];
    match two {
        Some(two) => two.write_batch(second),
        None => one.write_batch(second),
    }
    .unwrap_or_else(|e| panic!("{e}"));
    let all = one.url_shapes().unwrap_or_else(|e| panic!("{e}"));
    let got: Vec<(String, String, u64, u64, u64)> = all
        .into_iter()
        .map(|(s, c)| (s, c.shape, c.articles, c.listings, c.others))
        .collect();
    assert_eq!(
        got,
        [
            ("blog".into(), "/{slug}".into(), 1, 0, 0),
            ("news".into(), "/about".into(), 0, 0, 1),
            ("news".into(), DATED.into(), 3, 1, 0),
        ]
    );
    let stats = one.site_stats(50).unwrap_or_else(|e| panic!("{e}"));
    let news = stats
        .iter()
        .find(|s| s.site == "news")
        .map(|s| &s.url_shapes);
    let shapes: Vec<&str> = news
        .into_iter()
        .flatten()
        .map(|c| c.shape.as_str())
        .collect();
    assert_eq!(shapes, [DATED, "/about"]);
}

#[test]
fn shape_counts_add_up_across_batches_and_show_in_stats() {
    let mut store = AnyStore::from(Store::open_in_memory().unwrap_or_else(|e| panic!("{e}")));
    shape_counts_add_up(&mut store, None);
}

#[test]
fn shape_counts_of_two_processes_add_up_on_postgres() {
    let db = TestDb::new();
    let open = || AnyStore::from(PgStore::open(&db.url).unwrap_or_else(|e| panic!("{e}")));
    let (mut one, mut two) = (open(), open());
    shape_counts_add_up(&mut one, Some(&mut two));
}

fn rule_update(by_rule: bool, dropped: bool, learned: Option<&str>) -> WriteOp {
    WriteOp::SiteRule(SiteRuleUpdate {
        site: "news".into(),
        by_rule,
        dropped,
        learned: learned.map(|d| (format!("{{\"path\":\"{d}\"}}"), d.to_string())),
    })
}

/// (rule, pages by rule, pages by tree, dropped) of the site.
fn rule_of(store: &mut AnyStore) -> (Option<String>, u64, u64, u64) {
    let s = store
        .site_rule_stats("news")
        .unwrap_or_else(|e| panic!("{e}"));
    (s.rule, s.pages_by_rule, s.pages_by_tree, s.dropped)
}

/// A site's rule learned, counted, dropped and relearned, the pages
/// written by `one` and by `other` (the same store, or another process on
/// a shared one).
fn rule_is_learned_counted_dropped_and_relearned(one: &mut AnyStore, other: Option<&mut AnyStore>) {
    let write = |store: &mut AnyStore, ops: Vec<WriteOp>| {
        let out = store.write_batch(ops).unwrap_or_else(|e| panic!("{e}"));
        assert!(out.iter().all(|o| *o == WriteOutcome::RuleRecorded));
    };
    write(
        one,
        vec![
            rule_update(false, false, Some("div#story")),
            rule_update(true, false, None),
            rule_update(true, false, None),
        ],
    );
    let mut other = other;
    let mut by_other = |one: &mut AnyStore, ops: Vec<WriteOp>| match other.as_deref_mut() {
        Some(other) => write(other, ops),
        None => write(one, ops),
    };
    by_other(one, vec![rule_update(true, false, None)]);
    assert_eq!(rule_of(one), (Some("div#story".into()), 3, 1, 0));
    let s = one
        .site_rule_stats("news")
        .unwrap_or_else(|e| panic!("{e}"));
    assert!((s.hit_rate() - 0.75).abs() < 1e-12);
    assert_eq!(one.site_rules().unwrap_or_default().len(), 1);

    // A redesign: the rule is dropped; no new one could be learned.
    write(one, vec![rule_update(false, true, None)]);
    assert_eq!(rule_of(one), (None, 3, 2, 1));
    assert!(one.site_rules().unwrap_or_default().is_empty());

    // Relearned on the next page; `stats` shows it.
    by_other(one, vec![rule_update(false, false, Some("main > article"))]);
    assert_eq!(rule_of(one), (Some("main > article".into()), 3, 3, 1));
    let all = one.site_stats(50).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(all.len(), 1);
    assert_eq!(all[0].site_rule.rule.as_deref(), Some("main > article"));
}

#[test]
fn rule_is_learned_counted_dropped_and_relearned_on_sqlite() {
    let mut store = AnyStore::from(Store::open_in_memory().unwrap_or_else(|e| panic!("{e}")));
    rule_is_learned_counted_dropped_and_relearned(&mut store, None);
}

#[test]
fn rule_is_learned_counted_dropped_and_relearned_on_postgres() {
    let db = TestDb::new();
    let open = || AnyStore::from(PgStore::open(&db.url).unwrap_or_else(|e| panic!("{e}")));
    let (mut one, mut other) = (open(), open());
    rule_is_learned_counted_dropped_and_relearned(&mut one, Some(&mut other));
}
