//! One claimed archive file, read from where it stopped to its end.
//!
//! In: the import's context ([`Ctx`]), the file's row (its resume point)
//! and its [`Source`]. Out: how the file ended ([`FileEnd`]); on the way,
//! each page's operations sent to the store writer in file order, with the
//! file's progress after them in the same write — so the place recorded is
//! never past an article that is not stored, nor before one that is.
//!
//! The records are read on a blocking thread ([`records::read_records`]);
//! pages are processed on the crawl's pool, several at once, and their
//! results taken back in file order ([`FuturesOrdered`]). A progress write
//! goes out every [`GROUP_OPS`] operations or [`GROUP_EVERY`], and extends
//! the file's lease; when the lease turns out to be another process's, the
//! file is left to it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::stream::{FuturesOrdered, StreamExt};

use super::open::open;
use super::page::{process, Processed, Verdict};
use super::records::{read_records, Item, Position, ReadEnd};
use super::sources::Source;
use super::summary::{FileEnd, Tallies};
use super::Ctx;
use crate::store::{ImportFile, ImportProgress, WriteOp};
use crate::warc::Resume;

/// Operations gathered before a progress write.
pub const GROUP_OPS: usize = 64;
/// Longest time between two progress writes while pages come.
pub const GROUP_EVERY: Duration = Duration::from_millis(500);
/// Records read ahead of the pages in processing.
const READ_AHEAD: usize = 8;

/// What came of one record, in file order.
enum Done {
    Page(Resume, Result<Processed, ()>),
    Skipped(Resume, &'static str),
    Bad(Option<Resume>, &'static str, String),
}

/// Read the claimed `file` (from `source`) to its end.
pub async fn read_file(ctx: &Ctx, file: &ImportFile, source: &Source) -> FileEnd {
    let start = Resume {
        offset: file.resume_at,
        skip: file.resume_skip,
    };
    let mut sent = Sent {
        at: start,
        records: 0,
    };
    let opened = match open(source, start.offset, &ctx.fetcher, &ctx.cfg.fetch).await {
        Ok(o) => o,
        Err(e) => {
            ctx.tallies.error(e.kind());
            let why = e.to_string();
            let end = if e.is_retryable() {
                FileEnd::Retry(why)
            } else {
                FileEnd::Failed(why)
            };
            return sent.end(ctx, file.id, Vec::new(), end).await;
        }
    };
    ctx.progress.start_file(source, opened.size, start.offset);
    let (tx, mut rx) = tokio::sync::mpsc::channel::<Item>(READ_AHEAD);
    let position = Arc::new(Position::default());
    // Stops this file's reading: the run's stop, or a lost lease.
    let leave = Arc::new(AtomicBool::new(false));
    let reading = {
        let (sites, stop, leave, position) = (
            ctx.sites.clone(),
            ctx.stop.clone(),
            leave.clone(),
            position.clone(),
        );
        let cap = ctx.cfg.fetch.max_body_bytes;
        tokio::task::spawn_blocking(move || {
            let stopped = || stop.load(Ordering::Relaxed) || leave.load(Ordering::Relaxed);
            read_records(opened.reader, start, &sites, cap, &stopped, &tx, &position)
        })
    };
    let mut running = FuturesOrdered::new();
    let mut group: Vec<WriteOp> = Vec::new();
    let mut last_write = Instant::now();
    let mut renew = tokio::time::interval(ctx.lease / 3);
    renew.tick().await;
    let in_flight = 2 * crate::crawl::cpu_slots() + 2;
    let mut closed = false;
    loop {
        tokio::select! {
            biased;
            Some(done) = running.next(), if !running.is_empty() => {
                count(&ctx.tallies, done, &mut group, &mut sent);
                ctx.progress.update(position.offset.load(Ordering::Relaxed), &ctx.tallies, &ctx.counters);
                if group.len() >= GROUP_OPS || last_write.elapsed() >= GROUP_EVERY {
                    sent.write(ctx, file.id, std::mem::take(&mut group)).await;
                    last_write = Instant::now();
                }
            }
            item = rx.recv(), if !closed && running.len() < in_flight => match item {
                Some(item) => running.push_back(run(ctx, item)),
                None => closed = true,
            },
            _ = renew.tick() => {
                if !still_mine(ctx, file.id).await {
                    tracing::warn!("{}: another process holds it now; left to it", source.key());
                    leave.store(true, Ordering::Relaxed);
                }
            }
        }
        if closed && running.is_empty() {
            break;
        }
    }
    let end = match reading.await {
        Ok(ReadEnd::Finished) => FileEnd::Done,
        Ok(ReadEnd::Stopped) if leave.load(Ordering::Relaxed) => FileEnd::Elsewhere,
        Ok(ReadEnd::Stopped) => FileEnd::Stopped,
        Ok(ReadEnd::Failed(e)) => {
            ctx.tallies.error(e.kind());
            if e.is_retryable() {
                FileEnd::Retry(e.to_string())
            } else {
                FileEnd::Failed(e.to_string())
            }
        }
        Err(_) => {
            ctx.tallies.error("process_panic");
            FileEnd::Retry("the reading thread stopped unexpectedly".into())
        }
    };
    Tallies::add(
        &ctx.tallies.bytes,
        position
            .offset
            .load(Ordering::Relaxed)
            .saturating_sub(start.offset),
    );
    sent.end(ctx, file.id, group, end).await
}

/// One record's work: a page on the pool, the rest as it is.
async fn run(ctx: &Ctx, item: Item) -> Done {
    match item {
        Item::Page { resume, page } => {
            let work = ctx.work.clone();
            let out = ctx
                .pool
                .run(move |tools| process(&work, *page, tools))
                .await;
            Done::Page(resume, out.map_err(|_| ()))
        }
        Item::Skipped { resume, reason } => Done::Skipped(resume, reason),
        Item::Bad {
            resume,
            kind,
            message,
        } => Done::Bad(resume, kind, message),
    }
}

/// Count a record's outcome, add its operations to the group, move the
/// place past it.
fn count(tallies: &Tallies, done: Done, group: &mut Vec<WriteOp>, sent: &mut Sent) {
    let resume = match done {
        Done::Page(resume, out) => {
            Tallies::add(&tallies.pages, 1);
            match out {
                Ok(p) => {
                    match p.verdict {
                        Verdict::Article => {}
                        Verdict::NotArticle => Tallies::add(&tallies.not_articles, 1),
                        Verdict::Filtered(why) => tallies.skip(why),
                    }
                    group.extend(p.ops);
                }
                Err(()) => tallies.error("process_panic"),
            }
            Some(resume)
        }
        Done::Skipped(resume, reason) => {
            tallies.skip(reason);
            Some(resume)
        }
        Done::Bad(resume, kind, message) => {
            tallies.error(kind);
            tracing::debug!("{message}");
            resume
        }
    };
    Tallies::add(&tallies.records, 1);
    if let Some(resume) = resume {
        sent.at = resume.after();
        sent.records += 1;
    }
}

/// Whether this process still holds the file (its lease extended).
async fn still_mine(ctx: &Ctx, id: i64) -> bool {
    let until = super::now_ms() + super::ms(ctx.lease);
    let (files, by) = (ctx.files.clone(), ctx.by.clone());
    let renewed = tokio::task::spawn_blocking(move || {
        let mut files = files.lock().unwrap_or_else(|p| p.into_inner());
        files.renew_import_lease(id, &by, until)
    })
    .await;
    match renewed {
        Ok(Ok(mine)) => mine,
        // The store cannot be asked now: the progress writes will tell.
        _ => true,
    }
}

/// What the writer has been sent of a file: the place after the last
/// record sent, and the records since the last progress write.
struct Sent {
    at: Resume,
    records: u64,
}

impl Sent {
    fn progress(
        &mut self,
        ctx: &Ctx,
        id: i64,
        end: Option<(&'static str, Option<String>)>,
    ) -> WriteOp {
        let records = std::mem::take(&mut self.records);
        WriteOp::ImportProgress(ImportProgress {
            file_id: id,
            by: ctx.by.clone(),
            resume_at: self.at.offset,
            resume_skip: self.at.skip,
            records,
            lease_until: super::now_ms() + super::ms(ctx.lease),
            end,
        })
    }

    /// The group's operations, then the progress, in one write.
    async fn write(&mut self, ctx: &Ctx, id: i64, mut group: Vec<WriteOp>) {
        group.push(self.progress(ctx, id, None));
        // A stopped writer is reported when the import ends.
        let _ = ctx.writer.write(group).await;
    }

    /// The last write of a file: what is left, and how it ended (the lease
    /// given back).
    async fn end(mut self, ctx: &Ctx, id: i64, mut group: Vec<WriteOp>, end: FileEnd) -> FileEnd {
        let state = match &end {
            FileEnd::Done => Some(("done", None)),
            FileEnd::Retry(why) => Some(("retry", Some(why.clone()))),
            FileEnd::Failed(why) => Some(("failed", Some(why.clone()))),
            // Given back to be read on from here.
            FileEnd::Stopped => Some(("queued", None)),
            // Its new holder writes its progress.
            FileEnd::Elsewhere | FileEnd::AlreadyDone => None,
        };
        if let Some(state) = state {
            group.push(self.progress(ctx, id, Some(state)));
        }
        if !group.is_empty() {
            let _ = ctx.writer.write(group).await;
        }
        end
    }
}
