//! Learned URL shapes on PostgreSQL (SQLite: `store::url_shapes`, migration
//! 0003 here): the counts a batch adds, every site's counts, a site's most
//! judged shapes for `stats`.
//!
//! In: [`ShapeUpdate`]s of a write batch. Out: rows of `url_shapes`. Counts
//! are raised in SQL, so processes sharing the database add up; a batch
//! touches its rows in (site, shape) order, so two batches never wait for
//! each other in a circle.

use postgres::Transaction;

use crate::store::rules::shapes::summed;
use crate::store::{ShapeUpdate, StoreError};

/// Add a batch's shape counts, inside its transaction; `sites` holds the
/// id of every site of `updates`.
pub(super) fn apply_updates(
    tx: &mut Transaction<'_>,
    sites: &std::collections::HashMap<String, i64>,
    updates: &[ShapeUpdate],
) -> Result<(), StoreError> {
    if updates.is_empty() {
        return Ok(());
    }
    let upsert = tx.prepare(
        "INSERT INTO url_shapes AS u (site_id, shape, articles, listings, others)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (site_id, shape) DO UPDATE SET
            articles = u.articles + excluded.articles,
            listings = u.listings + excluded.listings,
            others = u.others + excluded.others",
    )?;
    for ((site, shape), [a, l, o]) in summed(updates) {
        let Some(id) = sites.get(site) else { continue };
        tx.execute(&upsert, &[&id, &shape, &a, &l, &o])?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::store::pg::testing::TestDb;
    use crate::store::pg::PgStore;
    use crate::store::{AnyStore, ShapeCounts, ShapeUpdate, WriteOp, WriteOutcome};

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

    #[test]
    fn shape_counts_of_two_processes_add_up_on_postgres() {
        let db = TestDb::new();
        let mut one = AnyStore::from(PgStore::open(&db.url).unwrap_or_else(|e| panic!("{e}")));
        let mut two = PgStore::open(&db.url).unwrap_or_else(|e| panic!("{e}"));
        let dated = "/{yyyy}/{mm}/{dd}/{slug}.html";
        let out = one
            .write_batch(vec![
                update("news", dated, 1, 0, 0),
                update("news", "/about", 0, 0, 1),
                update("news", dated, 1, 0, 0),
            ])
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(out[0], WriteOutcome::ShapesRecorded);
        two.write_batch(vec![
            update("news", dated, 1, 1, 0),
            update("blog", "/{slug}", 1, 0, 0),
        ])
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
                ("news".into(), dated.into(), 3, 1, 0),
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
        assert_eq!(shapes, [dated, "/about"]);
    }
}
