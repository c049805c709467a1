//! Articles stored per second into PostgreSQL and into SQLite, the same
//! articles in the same batches, in one run (a figure, not a check:
//! ignored by default). Run it with
//! `NEWSHOUND_TEST_PG=postgres://… cargo test --release --lib
//! store::pg::articles::tests::speed -- --ignored --nocapture`.

use std::time::Instant;

use super::fixtures::{stream, Mix};
use crate::store::pg::testing::TestDb;
use crate::store::pg::PgStore;
use crate::store::{Store, WriteOp};

/// Articles per write transaction, as the crawl's writer batches them.
const BATCH: usize = 64;

#[test]
#[ignore = "a measurement: run with --ignored --nocapture"]
fn articles_stored_per_second_into_postgres_and_sqlite() {
    let articles = stream(
        Mix {
            stories: 600,
            dup_every: 10,
            near_every: 15,
            refetch_every: 0,
        },
        42,
    );
    let dir = std::env::temp_dir().join(format!("nh_speed_{}.db", std::process::id()));
    let mut sqlite = Store::open(&dir).unwrap_or_else(|e| panic!("{e}"));
    let start = Instant::now();
    for batch in articles.chunks(BATCH) {
        let ops = batch
            .iter()
            .map(|(a, _)| WriteOp::Article(a.clone()))
            .collect();
        sqlite.write_batch(ops).unwrap_or_else(|e| panic!("{e}"));
    }
    let sqlite_secs = start.elapsed().as_secs_f64();
    drop(sqlite);
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", dir.display()));
    }

    let db = TestDb::new();
    let mut pg = PgStore::open(&db.url).unwrap_or_else(|e| panic!("{e}"));
    let start = Instant::now();
    for batch in articles.chunks(BATCH) {
        pg.store_articles(batch).unwrap_or_else(|e| panic!("{e}"));
    }
    let pg_secs = start.elapsed().as_secs_f64();

    // Three writers into a fresh database, each its third of the stream
    // (every site in each third: they wait for each other's site locks).
    let shared = TestDb::new();
    drop(PgStore::open(&shared.url).unwrap_or_else(|e| panic!("{e}")));
    let start = Instant::now();
    let writers: Vec<_> = (0..3)
        .map(|w| {
            let mine: Vec<_> = articles.iter().skip(w).step_by(3).cloned().collect();
            let url = shared.url.clone();
            std::thread::spawn(move || {
                let mut pg = PgStore::open(&url).unwrap_or_else(|e| panic!("{e}"));
                for batch in mine.chunks(BATCH) {
                    pg.store_articles(batch).unwrap_or_else(|e| panic!("{e}"));
                }
            })
        })
        .collect();
    for w in writers {
        w.join().unwrap_or_else(|_| panic!("writer panicked"));
    }
    let three_secs = start.elapsed().as_secs_f64();

    let n = articles.len() as f64;
    println!(
        "{} articles, {BATCH} per transaction: SQLite {:.0}/s, PostgreSQL {:.0}/s \
         (PostgreSQL/SQLite = {:.2}), PostgreSQL with 3 writers {:.0}/s together",
        articles.len(),
        n / sqlite_secs,
        n / pg_secs,
        sqlite_secs / pg_secs,
        n / three_secs
    );
}
