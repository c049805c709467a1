//! WAL checkpoints in the background: the WAL stays bounded over many
//! batches, and nothing committed is lost when the store closes or its
//! process dies. In: temp-file databases with small WAL bounds. Out:
//! assertions on the WAL file's size and on the rows read back.

use super::*;
use crate::store::sqlite::checkpoint::{wal_bytes, wal_path, WalBounds};

/// In WAL pages (4 KB each, and a 24-byte frame header).
const BOUNDS: WalBounds = WalBounds {
    checkpoint_at: 16,
    limit: 64,
};
const FRAME_BYTES: u64 = 4096 + 24;

/// A batch of `n` articles of about 4 KB each, distinct bodies.
fn batch(from: usize, n: usize) -> Vec<WriteOp> {
    (from..from + n)
        .map(|i| {
            let text = format!("Article number {i} has a body of its own.\n").repeat(90);
            WriteOp::Article(article(
                &format!("https://s.example/a/{i}"),
                "s",
                &format!("Title {i}"),
                &text,
            ))
        })
        .collect()
}

fn articles_in(path: &std::path::Path) -> i64 {
    let s = Store::open(path).unwrap();
    s.conn
        .query_row("SELECT count(*) FROM articles", [], |r| r.get(0))
        .unwrap()
}

/// The WAL file's largest size over 100 batches of 20 articles (≈ 8 MB of
/// pages written), and the articles stored.
/// A store at `path` that wrote 200 articles in 10 batches with its
/// checkpoints on the background thread, still open.
fn two_hundred_articles_with_background_checkpoints(path: &std::path::Path) -> Store {
    let mut s = Store::open(path).unwrap();
    s.checkpoint_in_background_with(BOUNDS).unwrap();
    for b in 0..10 {
        s.write_batch(batch(b * 20, 20)).unwrap();
    }
    s
}

fn largest_wal_over_many_batches(bounds: WalBounds) -> u64 {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.db");
    let mut s = Store::open(&path).unwrap();
    s.checkpoint_in_background_with(bounds).unwrap();
    let wal = wal_path(&path);
    let mut largest = 0;
    let mut written = 0;
    for b in 0..100 {
        s.write_batch(batch(b * 20, 20)).unwrap();
        largest = largest.max(wal_bytes(&wal));
        written += 20;
    }
    assert!(largest > 0, "the store did not write through a WAL");
    drop(s);
    assert_eq!(articles_in(&path), written);
    largest
}

/// One batch may land on top of the limit before the writer checkpoints:
/// ≈ 230 KB of pages, up to ≈ 900 KB when FTS5 merges its segments in it.
const ONE_BATCH: u64 = 1 << 20;

#[test]
fn the_wal_stays_bounded_over_a_long_batch_sequence() {
    let largest = largest_wal_over_many_batches(BOUNDS);
    assert!(
        largest <= BOUNDS.limit * FRAME_BYTES + ONE_BATCH,
        "the WAL grew to {largest} bytes"
    );
}

#[test]
fn the_writer_checkpoints_itself_when_the_background_falls_behind() {
    // A background thread that never gets to it (as when a reader holds
    // the WAL or the writer never pauses).
    let idle = WalBounds {
        checkpoint_at: u64::MAX,
        limit: BOUNDS.limit,
    };
    let largest = largest_wal_over_many_batches(idle);
    assert!(
        largest <= BOUNDS.limit * FRAME_BYTES + ONE_BATCH,
        "the WAL grew to {largest} bytes"
    );
    // Without the writer's own checkpoint the WAL holds everything.
    let unbounded = largest_wal_over_many_batches(WalBounds {
        checkpoint_at: u64::MAX,
        limit: u64::MAX,
    });
    assert!(unbounded > 4 * (BOUNDS.limit * FRAME_BYTES + ONE_BATCH));
}

#[test]
fn nothing_committed_is_lost_when_the_store_closes_and_the_wal_is_emptied() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.db");
    let mut s = two_hundred_articles_with_background_checkpoints(&path);
    s.checkpoint_in_foreground().unwrap();
    assert_eq!(wal_bytes(&wal_path(&path)), 0, "TRUNCATE left the WAL");
    assert!(s.checkpoints.is_none());
    // Back to SQLite's own checkpoints: writes go on as before.
    s.write_batch(batch(200, 20)).unwrap();
    drop(s);
    assert_eq!(articles_in(&path), 220);
}

#[test]
fn nothing_committed_is_lost_when_the_crawl_is_killed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.db");
    let s = two_hundred_articles_with_background_checkpoints(&path);
    // As if killed: no closing checkpoint, connections never closed.
    std::mem::forget(s);
    assert!(wal_bytes(&wal_path(&path)) > 0, "nothing left in the WAL");
    assert_eq!(articles_in(&path), 200);
}

#[test]
fn search_finds_articles_written_with_background_checkpoints() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.db");
    let s = two_hundred_articles_with_background_checkpoints(&path);
    drop(s);
    let s = Store::open_read_only(&path).unwrap();
    let hits = s.search("\"number 137\"", 10).unwrap();
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].url, "https://s.example/a/137");
}

#[test]
fn in_memory_stores_keep_sqlite_checkpoints() {
    let mut s = Store::open_in_memory().unwrap();
    s.checkpoint_in_background().unwrap();
    assert!(s.checkpoints.is_none());
    s.write_batch(batch(0, 2)).unwrap();
}
