//! Learned URL shapes in SQLite (migration 0012): per site and shape, the
//! judged pages that were articles, listings and other pages.
//!
//! In: [`ShapeUpdate`]s from the crawl's writer (the counts one judged page
//! adds). Out: every site's counts (loaded when a crawl or `sites check`
//! starts) and a site's most judged shapes for `stats`. What the counts
//! mean (which shape is trusted as what) is decided in `crawl::shapes`.

use rusqlite::{params, Connection};

use super::frontier::site_id_in;
use super::rules::shapes::summed;
use super::ShapeUpdate;

/// Add a batch's shape counts, inside the writer's transaction.
pub(super) fn apply_updates(conn: &Connection, updates: &[ShapeUpdate]) -> rusqlite::Result<()> {
    let mut upsert = conn.prepare_cached(
        "INSERT INTO url_shapes(site_id, shape, articles, listings, others)
         VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT(site_id, shape) DO UPDATE SET
            articles = articles + excluded.articles,
            listings = listings + excluded.listings,
            others = others + excluded.others",
    )?;
    let mut site = ("", 0);
    for ((name, shape), [a, l, o]) in summed(updates) {
        if site.0 != name {
            site = (name, site_id_in(conn, name)?);
        }
        upsert.execute(params![site.1, shape, a, l, o])?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{AnyStore, ShapeCounts, Store};
    use crate::store::{WriteOp, WriteOutcome};

    fn update(site: &str, shape: &str, a: u64, l: u64, o: u64) -> ShapeUpdate {
        ShapeUpdate {
            site: site.into(),
            counts: vec![ShapeCounts {
                shape: shape.into(),
                articles: a,
                listings: l,
                others: o,
            }],
        }
    }

    #[test]
    fn shape_counts_add_up_across_batches_and_show_in_stats() {
        let mut store = AnyStore::from(Store::open_in_memory().unwrap_or_else(|e| panic!("{e}")));
        let out = store
            .write_batch(vec![
                WriteOp::Shapes(update("news", "/{yyyy}/{mm}/{dd}/{slug}.html", 1, 0, 0)),
                WriteOp::Shapes(update("news", "/{yyyy}/{mm}/{dd}/{slug}.html", 1, 0, 0)),
                WriteOp::Shapes(update("news", "/about", 0, 0, 1)),
                WriteOp::Shapes(update("blog", "/{slug}", 1, 0, 0)),
            ])
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(out[0], WriteOutcome::ShapesRecorded);
        store
            .write_batch(vec![WriteOp::Shapes(update(
                "news",
                "/{yyyy}/{mm}/{dd}/{slug}.html",
                1,
                1,
                0,
            ))])
            .unwrap_or_else(|e| panic!("{e}"));
        let all = store.url_shapes().unwrap_or_else(|e| panic!("{e}"));
        let news: Vec<_> = all.iter().filter(|(s, _)| s == "news").collect();
        assert_eq!(all.len(), 3);
        assert_eq!(news.len(), 2);
        let dated = news
            .iter()
            .find(|(_, c)| c.shape.starts_with("/{yyyy}"))
            .map(|(_, c)| (c.articles, c.listings, c.others));
        assert_eq!(dated, Some((3, 1, 0)));

        let stats = store.site_stats(50).unwrap_or_else(|e| panic!("{e}"));
        let news = stats
            .iter()
            .find(|s| s.site == "news")
            .map(|s| &s.url_shapes);
        let shapes: Vec<&str> = news
            .into_iter()
            .flatten()
            .map(|c| c.shape.as_str())
            .collect();
        assert_eq!(shapes, ["/{yyyy}/{mm}/{dd}/{slug}.html", "/about"]);
    }
}
