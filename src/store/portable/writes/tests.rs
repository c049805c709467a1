//! The crawl's shared writes on both stores: shape counts add up across
//! batches and, on PostgreSQL, across processes.

use crate::store::pg::testing::TestDb;
use crate::store::pg::PgStore;
use crate::store::{AnyStore, ShapeCounts, ShapeUpdate, Store, WriteOp, WriteOutcome};

fn update(site: &str, shape: &str, a: u64, l: u64, o: u64) -> WriteOp {
    WriteOp::Shapes(ShapeUpdate {
        site: site.into(),
        counts: vec![ShapeCounts {
            shape: shape.into(),
            articles: a,
            listings: l,
            others: o,
        }],
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
