//! WAL checkpoints off the writer's path.
//!
//! In: a writing [`Store`] on a file, switched on with
//! [`Store::checkpoint_in_background`], and a nudge after each of its
//! committed write batches. Out: the WAL copied back into the database by a
//! thread with its own connection, and the WAL file kept to a bounded size;
//! [`Store::checkpoint_in_foreground`] (or dropping the store) stops the
//! thread and empties the WAL (`TRUNCATE`).
//!
//! Why: with SQLite's automatic checkpoint, the commit that takes the WAL
//! past 1,000 pages copies them into the database (and syncs it) before the
//! writer may go on: 2–3 % of a crawl's CPU on the one thread every stored
//! page waits for. Here the writer's connection has `wal_autocheckpoint = 0`
//! and the thread runs `PRAGMA wal_checkpoint(PASSIVE)` — it never waits
//! for readers or the writer — when more than [`CHECKPOINT_AT`] pages of
//! the WAL are not yet copied (`wal_checkpoint(NOOP)` tells, without
//! work). The WAL starts over from its first page only when a write
//! transaction begins after a checkpoint has copied all of it; the thread's
//! checkpoint runs while the writer keeps committing, so it never copies
//! all. Once it has copied most, the writer copies the rest itself after a
//! commit (a quarter of [`CHECKPOINT_AT`] at most, between two of its
//! transactions) and its next transaction starts the WAL over. The file
//! keeps its size (rewriting allocated blocks costs the kernel less than
//! growing the file) until the closing `TRUNCATE`.
//!
//! The bound: a passive checkpoint copies nothing past a frame that an open
//! read transaction may still need, and a writer committing all the time may
//! never let a checkpoint finish. When the WAL holds more than
//! [`WAL_LIMIT`] pages the writer itself runs `wal_checkpoint(RESTART)`
//! after its commit, which waits (the busy timeout) for readers to move on:
//! the store slows the crawl instead of growing the file without end.
//!
//! Nothing committed is ever at risk: a checkpoint only copies pages that
//! are already in the WAL. A crawl that is killed leaves its WAL behind and
//! the next open replays it.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use rusqlite::{Connection, OpenFlags};

use super::{Store, StoreError};

/// WAL pages not yet copied past which the background thread checkpoints:
/// SQLite's own automatic checkpoint size (≈ 4 MB of 4 KB pages). A WAL of
/// 2,048 pages made the writer's WAL writes cost more in the kernel than
/// the checkpoints it no longer ran (perf, 5x1000 with learning on).
pub const CHECKPOINT_AT: u64 = 1000;
/// WAL pages past which the writer checkpoints itself and waits for
/// readers (≈ 16 MB of 4 KB pages).
pub const WAL_LIMIT: u64 = 4 * CHECKPOINT_AT;
/// SQLite's default `wal_autocheckpoint`, restored when the thread stops.
const AUTOCHECKPOINT_PAGES: i64 = 1000;

/// When the WAL is checkpointed, in pages: [`CHECKPOINT_AT`] and
/// [`WAL_LIMIT`], or smaller sizes in tests.
#[derive(Debug, Clone, Copy)]
pub(super) struct WalBounds {
    /// The background thread checkpoints past this size.
    pub checkpoint_at: u64,
    /// The writer checkpoints past this size, waiting for readers.
    pub limit: u64,
}

impl Default for WalBounds {
    fn default() -> Self {
        WalBounds {
            checkpoint_at: CHECKPOINT_AT,
            limit: WAL_LIMIT,
        }
    }
}

/// The checkpointing thread of a store and the nudge that wakes it.
pub(super) struct BackgroundCheckpoints {
    /// Wakes the thread after a commit; dropped to stop it.
    wake: Option<SyncSender<()>>,
    thread: Option<JoinHandle<()>>,
    wal: PathBuf,
    bounds: WalBounds,
    /// Held while either side checkpoints: a second checkpoint started
    /// during one is refused (SQLITE_BUSY) without waiting.
    checkpointing: Arc<Mutex<()>>,
}

impl BackgroundCheckpoints {
    fn start(db: &Path, bounds: WalBounds) -> Result<BackgroundCheckpoints, StoreError> {
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(db, flags)?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        let wal = wal_path(db);
        // One nudge pending is enough: the thread looks at the file's size.
        let (wake, nudges) = mpsc::sync_channel(1);
        let checkpointing = Arc::new(Mutex::new(()));
        let background = Background {
            conn,
            wal: wal.clone(),
            checkpoint_at: bounds.checkpoint_at,
            checkpointing: checkpointing.clone(),
        };
        let thread = std::thread::Builder::new()
            .name("store-checkpoint".into())
            .spawn(move || background.run(nudges))?;
        Ok(BackgroundCheckpoints {
            wake: Some(wake),
            thread: Some(thread),
            wal,
            bounds,
            checkpointing,
        })
    }

    /// After a commit of the writer (see the module doc): past the limit,
    /// checkpoint here waiting for readers; once the thread has copied most
    /// of a full WAL, copy the rest here, between two of the writer's
    /// transactions, so that the next one starts the WAL over; otherwise
    /// wake the thread. The commit stands whatever happens here, so a
    /// failure is only logged.
    pub(super) fn after_commit(&self, conn: &Connection) {
        let (frames, copied) = wal_frames(conn).unwrap_or((0, 0));
        let left = frames.saturating_sub(copied);
        if frames > self.bounds.limit {
            let _turn = self.checkpointing.lock().unwrap_or_else(|e| e.into_inner());
            self.checkpoint_here(conn, "RESTART");
        } else if frames >= self.bounds.checkpoint_at && left <= self.bounds.checkpoint_at / 4 {
            // Not while the thread is at it: the writer never waits here.
            if let Ok(_turn) = self.checkpointing.try_lock() {
                self.checkpoint_here(conn, "PASSIVE");
            }
        } else if let Some(wake) = &self.wake {
            // Full: a nudge is already pending; gone: the thread stopped.
            let _ = wake.try_send(());
        }
    }

    fn checkpoint_here(&self, conn: &Connection, mode: &str) {
        if let Err(e) = checkpoint(conn, mode) {
            tracing::warn!("{}: WAL checkpoint failed: {e}", self.wal.display());
        }
    }

    /// Stop the thread (after the checkpoint it is running, if any).
    fn stop(&mut self) {
        self.wake = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for BackgroundCheckpoints {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The thread's side: its connection and what it needs to decide.
struct Background {
    conn: Connection,
    wal: PathBuf,
    checkpoint_at: u64,
    checkpointing: Arc<Mutex<()>>,
}

impl Background {
    /// Until the store hangs up: after each nudge, checkpoint if the WAL
    /// has grown past its size.
    fn run(self, nudges: Receiver<()>) {
        while nudges.recv().is_ok() {
            match wal_frames(&self.conn) {
                Ok((frames, copied)) if frames.saturating_sub(copied) >= self.checkpoint_at => {}
                Ok(_) => continue,
                Err(e) => {
                    tracing::warn!("{}: reading the WAL's size: {e}", self.wal.display());
                    continue;
                }
            }
            let _turn = self.checkpointing.lock().unwrap_or_else(|e| e.into_inner());
            if let Err(e) = checkpoint(&self.conn, "PASSIVE") {
                tracing::warn!(
                    "{}: background WAL checkpoint failed: {e}",
                    self.wal.display()
                );
            }
        }
    }
}

/// `PRAGMA wal_checkpoint(MODE)`; its row (busy, frames, copied) is not
/// needed: the WAL's size says what is left.
fn checkpoint(conn: &Connection, mode: &str) -> rusqlite::Result<()> {
    conn.query_row(&format!("PRAGMA wal_checkpoint({mode})"), [], |_| Ok(()))
}

/// Pages in the WAL and pages of it already copied into the database
/// (0, 0 when the WAL was started over).
fn wal_frames(conn: &Connection) -> rusqlite::Result<(u64, u64)> {
    conn.query_row("PRAGMA wal_checkpoint(NOOP)", [], |r| {
        let frames: i64 = r.get(1)?;
        let copied: i64 = r.get(2)?;
        Ok((frames.max(0) as u64, copied.max(0) as u64))
    })
}

/// The WAL file of `db` (`DB-wal`).
pub(super) fn wal_path(db: &Path) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push("-wal");
    PathBuf::from(name)
}

/// The WAL file's size; 0 when there is none.
#[cfg(test)]
pub(super) fn wal_bytes(wal: &Path) -> u64 {
    std::fs::metadata(wal).map(|m| m.len()).unwrap_or(0)
}

impl Store {
    /// Checkpoint the WAL on a thread of its own from now on (see the
    /// module doc). A no-op for in-memory and read-only stores, and when
    /// already on.
    pub fn checkpoint_in_background(&mut self) -> Result<(), StoreError> {
        self.checkpoint_in_background_with(WalBounds::default())
    }

    pub(super) fn checkpoint_in_background_with(
        &mut self,
        bounds: WalBounds,
    ) -> Result<(), StoreError> {
        if self.read_only || self.checkpoints.is_some() || self.path == Path::new(":memory:") {
            return Ok(());
        }
        self.conn.pragma_update(None, "wal_autocheckpoint", 0)?;
        match BackgroundCheckpoints::start(&self.path, bounds) {
            Ok(c) => self.checkpoints = Some(c),
            Err(e) => {
                self.conn
                    .pragma_update(None, "wal_autocheckpoint", AUTOCHECKPOINT_PAGES)?;
                return Err(e);
            }
        }
        Ok(())
    }

    /// Stop checkpointing in the background (if it was on), copy the whole
    /// WAL into the database and empty the file (`TRUNCATE`); later commits
    /// checkpoint as SQLite does by default.
    pub fn checkpoint_in_foreground(&mut self) -> Result<(), StoreError> {
        let Some(mut checkpoints) = self.checkpoints.take() else {
            return Ok(());
        };
        checkpoints.stop();
        self.conn
            .pragma_update(None, "wal_autocheckpoint", AUTOCHECKPOINT_PAGES)?;
        checkpoint(&self.conn, "TRUNCATE")?;
        Ok(())
    }

    /// Called after every committed write batch.
    pub(super) fn after_commit(&self) {
        if let Some(c) = &self.checkpoints {
            c.after_commit(&self.conn);
        }
    }
}
