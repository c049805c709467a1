//! Learned URL shapes in SQLite (migration 0012), tested: per site and
//! shape, the judged pages that were articles, listings and other pages,
//! added up across batches (the writes are `portable::writes::add_shapes`,
//! the reads `portable`; what the counts mean is decided in
//! `crawl::shapes`).

#[cfg(test)]
mod tests {
    use crate::store::{AnyStore, ShapeCounts, ShapeUpdate, Store};
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
