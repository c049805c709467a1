//! The import file list on both stores: registering, claiming under a
//! lease, progress written only under it (with the batch's articles), and
//! a dead process's file taken over once its lease is over.

use crate::extract::Article;
use crate::store::pg::testing::TestDb;
use crate::store::pg::PgStore;
use crate::store::{
    AnyStore, ImportProgress, NewArticle, Store, StoreError, WriteOp, WriteOutcome,
};

fn progress(file_id: i64, by: &str, at: u64, records: u64, until: i64) -> ImportProgress {
    ImportProgress {
        file_id,
        by: by.into(),
        resume_at: at,
        resume_skip: 1,
        records,
        lease_until: until,
        end: None,
    }
}

fn article(url: &str, text: &str) -> WriteOp {
    WriteOp::Article(NewArticle {
        url: url.into(),
        url_id: None,
        site: "news".into(),
        fetched_at: 1,
        article: Article {
            title: Some("A title".into()),
            text: text.into(),
            ..Article::default()
        },
        lines: crate::boilerplate::LineSettings::default(),
        html: None,
    })
}

fn articles(store: &mut AnyStore) -> u64 {
    let stats = store.site_stats(0).unwrap_or_else(|e| panic!("{e}"));
    stats.iter().map(|s| s.articles).sum()
}

/// Two processes on one store (`one`, `two`: the same store for SQLite).
fn a_file_is_read_by_one_process_at_a_time(one: &mut AnyStore, two: &mut AnyStore) {
    let sources = vec!["/data/a.warc.gz".to_string(), "/data/b.warc.gz".to_string()];
    let files = one.register_import_files(&sources, 0).unwrap();
    assert_eq!(files.len(), 2);
    assert!(files
        .iter()
        .all(|f| f.state == "queued" && f.resume_at == 0));
    // Registering again keeps the rows (and their progress).
    let again = two.register_import_files(&sources[..1], 5).unwrap();
    assert_eq!(again[0].id, files[0].id);
    let a = files[0].id;
    // One claim wins while its lease holds.
    assert!(one.claim_import_file(a, "p1", 10, 1_000).unwrap().is_some());
    assert!(two.claim_import_file(a, "p2", 20, 2_000).unwrap().is_none());
    // Progress under the lease, in the articles' transaction.
    let out = one
        .write_batch(vec![
            article(
                "http://news.test/1",
                "First story body that is long enough.",
            ),
            WriteOp::ImportProgress(progress(a, "p1", 4096, 3, 1_500)),
        ])
        .unwrap();
    assert_eq!(out[1], WriteOutcome::ImportProgressed);
    let row = two.import_file(a).unwrap();
    assert_eq!((row.resume_at, row.resume_skip, row.records), (4096, 1, 3));
    assert_eq!(row.lease_until, Some(1_500));
    // The lease runs out: another process takes the file over from there,
    // and the first one's late write fails with its articles.
    let taken = two.claim_import_file(a, "p2", 1_600, 3_000).unwrap();
    assert_eq!(taken.map(|f| f.resume_at), Some(4096));
    let before = articles(one);
    let second = || {
        article(
            "http://news.test/2",
            "Second story body that is long enough.",
        )
    };
    let late = one.write_batch(vec![
        second(),
        WriteOp::ImportProgress(progress(a, "p1", 8192, 2, 2_000)),
    ]);
    assert!(
        matches!(late, Err(StoreError::LeaseLost { .. })),
        "{late:?}"
    );
    // The new holder reads those records again: their articles are stored
    // once (SQLite kept nothing of the late batch; PostgreSQL commits a
    // batch's articles first, and the same URL is then a duplicate).
    let again = two.write_batch(vec![second()]).unwrap();
    assert!(
        matches!(
            again[0],
            WriteOutcome::ArticleStored { .. } | WriteOutcome::ArticleDuplicate { .. }
        ),
        "{again:?}"
    );
    assert_eq!(articles(one), before + 1, "nothing lost, nothing twice");
    assert!(!one.renew_import_lease(a, "p1", 5_000).unwrap());
    assert!(two.renew_import_lease(a, "p2", 5_000).unwrap());
    // The end: done, the lease given back, never claimed again.
    let mut end = progress(a, "p2", 9000, 4, 5_000);
    end.end = Some(("done", None));
    two.write_batch(vec![WriteOp::ImportProgress(end)]).unwrap();
    let row = one.import_file(a).unwrap();
    assert_eq!(
        (row.state.as_str(), row.records, row.leased_by),
        ("done", 7, None)
    );
    assert!(one
        .claim_import_file(a, "p1", 9_999_999, 10_000_000)
        .unwrap()
        .is_none());
    // A file to retry is claimed again, from where it stopped.
    let b = files[1].id;
    one.claim_import_file(b, "p1", 10, 1_000).unwrap().unwrap();
    let mut cut = progress(b, "p1", 512, 1, 1_000);
    cut.end = Some((
        "retry",
        Some("byte 600: the file ends inside a record".into()),
    ));
    one.write_batch(vec![WriteOp::ImportProgress(cut)]).unwrap();
    let again = two.claim_import_file(b, "p2", 20, 1_000).unwrap().unwrap();
    assert_eq!((again.state.as_str(), again.resume_at), ("retry", 512));
    assert!(again.error.unwrap().contains("ends inside"));
    // A store one process uses at a time gives up stale leases on start.
    assert_eq!(two.release_import_leases().unwrap(), 1);
    assert!(one.claim_import_file(b, "p1", 30, 1_000).unwrap().is_some());
}

#[test]
fn a_file_is_read_by_one_process_at_a_time_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("imports.db");
    let mut one = AnyStore::from(Store::open(&path).unwrap());
    let mut two = AnyStore::from(Store::open(&path).unwrap());
    a_file_is_read_by_one_process_at_a_time(&mut one, &mut two);
}

#[test]
fn a_file_is_read_by_one_process_at_a_time_on_postgres() {
    let db = TestDb::new();
    let open = || AnyStore::from(PgStore::open(&db.url).unwrap_or_else(|e| panic!("{e}")));
    let (mut one, mut two) = (open(), open());
    a_file_is_read_by_one_process_at_a_time(&mut one, &mut two);
}
