//! Learned URL shapes on PostgreSQL (migration 0003 here), tested: the
//! counts of two processes' batches add up (the writes are
//! `portable::writes::add_shapes`, the reads `portable`).

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
