//! What an import did: counted while it runs, summed up at the end.
//!
//! In: each record's fate (read, a page, left out and why, bad and how),
//! each file's end, and the store writer's article outcomes (the crawl's
//! [`Counters`]). Out: an [`ImportSummary`] with a human `Display`: files,
//! records, HTML pages, articles stored per site, pages judged not
//! articles, duplicates, what was left out and why, errors by kind, and
//! the files to read again.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use serde::Serialize;

use crate::crawl::Counters;

/// Live counts of one import.
#[derive(Default)]
pub struct Tallies {
    pub records: AtomicU64,
    /// Stored bytes read (over every file).
    pub bytes: AtomicU64,
    pub pages: AtomicU64,
    pub not_articles: AtomicU64,
    skipped: Mutex<BTreeMap<String, u64>>,
    errors: Mutex<BTreeMap<String, u64>>,
    files: Mutex<Files>,
}

#[derive(Default)]
struct Files {
    read: u64,
    already_done: u64,
    stopped: u64,
    retry: Vec<(String, String)>,
    failed: Vec<(String, String)>,
    elsewhere: u64,
}

fn bump(map: &Mutex<BTreeMap<String, u64>>, key: &str) {
    let mut map = map.lock().unwrap_or_else(|p| p.into_inner());
    *map.entry(key.to_string()).or_default() += 1;
}

/// How a file ended in this run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileEnd {
    /// Read to its end.
    Done,
    /// Done before this run.
    AlreadyDone,
    /// Failed before this run, or in it: it cannot be read.
    Failed(String),
    /// Cut short or unreachable: read again by the next import.
    Retry(String),
    /// Stopped (Ctrl-C) before its end.
    Stopped,
    /// Read by another process.
    Elsewhere,
}

impl Tallies {
    pub fn add(counter: &AtomicU64, n: u64) {
        counter.fetch_add(n, Ordering::Relaxed);
    }

    pub fn get(counter: &AtomicU64) -> u64 {
        counter.load(Ordering::Relaxed)
    }

    pub fn skip(&self, reason: &str) {
        bump(&self.skipped, reason);
    }

    pub fn error(&self, kind: &str) {
        bump(&self.errors, kind);
    }

    pub fn file(&self, source: &str, end: FileEnd) {
        let mut files = self.files.lock().unwrap_or_else(|p| p.into_inner());
        match end {
            FileEnd::Done => files.read += 1,
            FileEnd::AlreadyDone => files.already_done += 1,
            FileEnd::Stopped => files.stopped += 1,
            FileEnd::Elsewhere => files.elsewhere += 1,
            FileEnd::Retry(why) => files.retry.push((source.to_string(), why)),
            FileEnd::Failed(why) => files.failed.push((source.to_string(), why)),
        }
    }

    /// The summary, with the writer's article outcomes from `counters`.
    pub fn summary(&self, counters: &Counters, files: u64, elapsed: Duration) -> ImportSummary {
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
        let f = self.files.lock().unwrap_or_else(|p| p.into_inner());
        let mut errors = self
            .errors
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone();
        // The writer's own (store failures, articles that came out empty).
        for (kind, n) in counters.errors() {
            *errors.entry(kind).or_default() += n;
        }
        ImportSummary {
            files,
            files_read: f.read,
            files_already_done: f.already_done,
            files_stopped: f.stopped,
            files_elsewhere: f.elsewhere,
            files_retry: f.retry.clone(),
            files_failed: f.failed.clone(),
            records: get(&self.records),
            bytes: get(&self.bytes),
            pages: get(&self.pages),
            articles_stored: Counters::get(&counters.articles_stored),
            articles_by_site: counters
                .sites
                .reports()
                .into_iter()
                .filter(|(_, r)| r.articles_stored > 0)
                .map(|(site, r)| (site, r.articles_stored))
                .collect(),
            not_articles: get(&self.not_articles),
            duplicates: Counters::get(&counters.duplicates),
            near_duplicates: Counters::get(&counters.near_duplicates),
            skipped: self
                .skipped
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .clone(),
            errors,
            articles_recleaned: 0,
            elapsed,
        }
    }
}

/// What one import run did.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ImportSummary {
    /// Files of the import.
    pub files: u64,
    /// Read to their end in this run.
    pub files_read: u64,
    /// Read to their end before.
    pub files_already_done: u64,
    /// Stopped before their end (Ctrl-C): the next import goes on.
    pub files_stopped: u64,
    /// Read by another import process sharing the database.
    pub files_elsewhere: u64,
    /// Cut short or unreachable (file, why): the next import reads them
    /// again from where they stopped.
    pub files_retry: Vec<(String, String)>,
    /// Cannot be read (file, why).
    pub files_failed: Vec<(String, String)>,
    /// Records read.
    pub records: u64,
    /// Stored bytes read.
    pub bytes: u64,
    /// HTML pages (status 200) of the import's sites, through the page path.
    pub pages: u64,
    pub articles_stored: u64,
    pub articles_by_site: Vec<(String, u64)>,
    /// Pages judged not articles (or not by the site's patterns).
    pub not_articles: u64,
    pub duplicates: u64,
    pub near_duplicates: u64,
    /// Records left out, by reason: their type (`request`, `metadata`,
    /// `warcinfo`, `revisit`), `status` (not 200), `not_html`, `site`
    /// (another site's page), `date`, `lang`.
    pub skipped: BTreeMap<String, u64>,
    /// Errors by kind (`bad_record`, `bad_http`, `too_large`…).
    pub errors: BTreeMap<String, u64>,
    /// Stored articles whose text changed when cleaned again at the end.
    pub articles_recleaned: u64,
    #[serde(serialize_with = "secs")]
    pub elapsed: Duration,
}

fn secs<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(d.as_secs_f64())
}

impl ImportSummary {
    /// Nothing could be imported: every file to read failed (the exit
    /// code says so).
    pub fn all_failed(&self) -> bool {
        let attempted =
            self.files_read + self.files_retry.len() as u64 + self.files_failed.len() as u64;
        attempted > 0 && self.files_read == 0 && self.records == 0
    }
}

fn pairs(map: &BTreeMap<String, u64>) -> String {
    let mut items: Vec<(&String, &u64)> = map.iter().collect();
    items.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    items
        .iter()
        .map(|(k, n)| format!("{k} {n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

impl fmt::Display for ImportSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secs = self.elapsed.as_secs_f64();
        writeln!(
            f,
            "import: {} file{} in {secs:.1} s: {} read to the end, {} done before, {} to retry, \
             {} failed{}{}",
            self.files,
            if self.files == 1 { "" } else { "s" },
            self.files_read,
            self.files_already_done,
            self.files_retry.len(),
            self.files_failed.len(),
            match self.files_stopped {
                0 => String::new(),
                n => format!(", {n} stopped"),
            },
            match self.files_elsewhere {
                0 => String::new(),
                n => format!(", {n} read by another process"),
            },
        )?;
        writeln!(
            f,
            "records read:        {} ({:.1} MB)",
            self.records,
            self.bytes as f64 / 1e6
        )?;
        writeln!(
            f,
            "HTML pages:          {} ({:.0} pages/s)",
            self.pages,
            self.pages as f64 / secs.max(1e-3)
        )?;
        writeln!(f, "articles stored:     {}", self.articles_stored)?;
        for (site, n) in &self.articles_by_site {
            writeln!(f, "  {site:<18} {n}")?;
        }
        writeln!(f, "judged not articles: {}", self.not_articles)?;
        writeln!(
            f,
            "duplicates:          {} (near-duplicates {})",
            self.duplicates, self.near_duplicates
        )?;
        if self.articles_recleaned > 0 {
            writeln!(f, "re-cleaned:          {}", self.articles_recleaned)?;
        }
        if !self.skipped.is_empty() {
            writeln!(f, "left out:            {}", pairs(&self.skipped))?;
        }
        if !self.errors.is_empty() {
            writeln!(f, "errors:              {}", pairs(&self.errors))?;
        }
        for (what, list) in [
            ("to retry", &self.files_retry),
            ("failed", &self.files_failed),
        ] {
            if !list.is_empty() {
                writeln!(f, "files {what}:")?;
                for (file, why) in list {
                    writeln!(f, "  {file}: {why}")?;
                }
            }
        }
        Ok(())
    }
}
