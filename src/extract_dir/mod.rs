//! Directory of pages → extracted texts, on `jobs` worker threads: the file
//! system and threads around the pure extraction stage ([`crate::extract`]).
//!
//! In: `DIR/<name>.html` and `DIR/<name>.htm` files. Out: `DIR2/<name>.txt`
//! per page, or one JSONL line per page (`{"file": …, "article": …}`) to a
//! writer. Each worker reads, extracts and writes one page at a time, so
//! memory stays bounded by `jobs` pages of at most `max_page_bytes` each
//! whatever the directory size. One failing page (too large, binary,
//! unreadable) is counted and reported; the run goes on.
//!
//! Output files never clobber each other or anything a link points to:
//! names are built from the file names' bytes (two non-UTF-8 names stay
//! two files), pages whose `<name>.txt` would coincide (`a.html`, `a.htm`)
//! each write `<name>.<ext>.txt` instead, an existing symbolic link in the
//! output directory fails its page, and every file is written to a fresh
//! temporary file first and renamed into place (a rename replaces a
//! directory entry, it never writes through a link).
//!
//! The page list ([`html_files`]) and the worker pool ([`for_each_page`]) are
//! shared with `eval`, which scores the same pages the same way; reading one
//! page ([`read_page`]: size cap, binary refused) with `extract FILE`.

use std::collections::HashMap;
use std::ffi::OsString;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use serde::Serialize;

use crate::extract::sniff::{sniff, Sniffed};
use crate::extract::{Article, ExtractOptions, Extractor, Page};

/// Errors that stop a batch run (per-page failures are in [`BatchSummary`]).
#[derive(Debug, thiserror::Error)]
pub enum BatchError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{dir}: no .html or .htm pages")]
    NoPages { dir: PathBuf },
    #[error("{path}: is a symbolic link; not followed (remove it or choose another --out)")]
    Symlink { path: PathBuf },
}

/// Why one page was not read.
#[derive(Debug, thiserror::Error)]
pub enum PageError {
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("larger than {limit} bytes (raise [fetch] max_body_bytes in the config)")]
    TooLarge { limit: u64 },
    #[error("binary file ({kind}), not HTML")]
    Binary { kind: &'static str },
}

/// How a batch runs: worker threads and the size cap of one page (the
/// crawler's `max_body_bytes`: a 66 MB file took 1.57 GB without it).
#[derive(Debug, Clone, Copy)]
pub struct BatchLimits {
    pub jobs: usize,
    pub max_page_bytes: u64,
}

/// What a batch run did.
#[derive(Debug, Clone, Default, Serialize)]
pub struct BatchSummary {
    pub pages: usize,
    pub written: usize,
    /// Pages that could not be read or written, with the reason.
    pub failed: Vec<(PathBuf, String)>,
    /// Total characters of extracted text.
    pub chars: usize,
}

/// Where the extracted texts go.
pub enum Output<'w> {
    /// `dir/<name>.txt` per page (the directory is created).
    TextFiles(&'w Path),
    /// One JSON line per page, in completion order.
    Jsonl(&'w mut (dyn Write + Send)),
}

#[derive(Serialize)]
struct JsonLine<'a> {
    file: &'a str,
    #[serde(flatten)]
    article: &'a Article,
}

/// `dir/*.html` (and `.htm`), files only, sorted by name.
pub fn html_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        let is_html = path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| e.eq_ignore_ascii_case("html") || e.eq_ignore_ascii_case("htm"));
        if is_html && path.is_file() {
            out.push(path);
        }
    }
    out.sort();
    Ok(out)
}

/// Run `work` on every page on `jobs` threads (at least one); each thread
/// takes the next page when it is done with one, with its own `state`
/// (a reusable buffer). Pages finish in any order.
pub fn for_each_page<S: Default>(
    pages: &[PathBuf],
    jobs: usize,
    work: impl Fn(&mut S, &Path) + Sync,
) {
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1) {
            s.spawn(|| {
                let mut state = S::default();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(page) = pages.get(i) else { break };
                    work(&mut state, page);
                }
            });
        }
    });
}

/// Extract every `in_dir/*.html` (and `*.htm`) into `out_dir`:
/// `<name>.txt` files, or `out_dir/articles.jsonl` when `jsonl`. (JSONL to
/// another writer, such as stdout: [`extract_dir_to`].)
pub fn extract_dir(
    in_dir: &Path,
    out_dir: &Path,
    jsonl: bool,
    limits: BatchLimits,
    opts: &ExtractOptions,
) -> Result<BatchSummary, BatchError> {
    if !jsonl {
        return extract_dir_to(in_dir, Output::TextFiles(out_dir), limits, opts);
    }
    let dir = out_dir;
    std::fs::create_dir_all(dir).map_err(|source| BatchError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    let path = dir.join("articles.jsonl");
    refuse_symlink(&path)?;
    let io = |source| BatchError::Io {
        path: path.clone(),
        source,
    };
    let tmp = new_temp_file(dir).map_err(io)?;
    let mut w = std::io::BufWriter::new(tmp);
    let summary = extract_dir_to(in_dir, Output::Jsonl(&mut w), limits, opts)?;
    let tmp = w.into_inner().map_err(|e| io(e.into_error()))?;
    tmp.persist(&path).map_err(|e| io(e.error))?;
    Ok(summary)
}

/// Extract every `in_dir/*.html` (and `*.htm`) into `out`, on
/// `limits.jobs` threads.
pub fn extract_dir_to(
    in_dir: &Path,
    out: Output<'_>,
    limits: BatchLimits,
    opts: &ExtractOptions,
) -> Result<BatchSummary, BatchError> {
    let pages = html_files(in_dir).map_err(|source| BatchError::Io {
        path: in_dir.to_path_buf(),
        source,
    })?;
    if pages.is_empty() {
        return Err(BatchError::NoPages {
            dir: in_dir.to_path_buf(),
        });
    }
    let names: HashMap<&Path, Result<OsString, String>> = pages
        .iter()
        .map(PathBuf::as_path)
        .zip(text_file_names(&pages))
        .collect();
    let (out_dir, writer) = match out {
        Output::TextFiles(d) => {
            std::fs::create_dir_all(d).map_err(|source| BatchError::Io {
                path: d.to_path_buf(),
                source,
            })?;
            (Some(d), None)
        }
        Output::Jsonl(w) => (None, Some(Mutex::new(w))),
    };
    // Plain `.txt` output needs only the text: skip metadata and language.
    let extractor = Extractor::new(ExtractOptions {
        text_only: opts.text_only || writer.is_none(),
        ..opts.clone()
    });
    let summary = Mutex::new(BatchSummary {
        pages: pages.len(),
        ..BatchSummary::default()
    });
    for_each_page(&pages, limits.jobs, |line: &mut Vec<u8>, page| {
        let target = out_dir.map(|d| match names.get(page) {
            Some(Ok(name)) => Ok(d.join(name)),
            Some(Err(e)) => Err(e.clone()),
            None => Err("no output name".to_string()),
        });
        let r = match target {
            Some(Err(e)) => Err(e),
            target => one_page(
                page,
                target.and_then(Result::ok).as_deref(),
                writer.as_ref(),
                limits.max_page_bytes,
                &extractor,
                line,
            ),
        };
        if let Ok(mut s) = summary.lock() {
            match r {
                Ok(chars) => {
                    s.written += 1;
                    s.chars += chars;
                }
                Err(e) => s.failed.push((page.to_path_buf(), e)),
            }
        }
    });
    let mut summary = summary.into_inner().unwrap_or_default();
    summary.failed.sort();
    Ok(summary)
}

/// `<stem>.txt` for each page, from the names' bytes (never a lossy
/// conversion, which made two non-UTF-8 names one file); pages sharing a
/// stem (`a.html`, `a.htm`) get `<file name>.txt` each instead. A name
/// that still coincides with an earlier page's (`a.html.html` next to
/// `a.html` and `a.htm`) is an error for that page, never an overwrite.
fn text_file_names(pages: &[PathBuf]) -> Vec<Result<OsString, String>> {
    let with_txt = |base: Option<&std::ffi::OsStr>| {
        let mut name = base.unwrap_or_default().to_os_string();
        name.push(".txt");
        name
    };
    let stems: Vec<OsString> = pages.iter().map(|p| with_txt(p.file_stem())).collect();
    let mut uses: HashMap<&OsString, usize> = HashMap::new();
    for stem in &stems {
        *uses.entry(stem).or_default() += 1;
    }
    let mut taken = std::collections::HashSet::new();
    pages
        .iter()
        .zip(&stems)
        .map(|(page, stem)| {
            let name = if uses[stem] > 1 {
                with_txt(page.file_name())
            } else {
                stem.clone()
            };
            if taken.insert(name.clone()) {
                Ok(name)
            } else {
                Err(format!(
                    "not written: another page's text is already {}",
                    Path::new(&name).display()
                ))
            }
        })
        .collect()
}

fn refuse_symlink(path: &Path) -> Result<(), BatchError> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => Err(BatchError::Symlink {
            path: path.to_path_buf(),
        }),
        _ => Ok(()),
    }
}

/// Write `bytes` to `path` through a temporary file in the same directory
/// and a rename: an existing symbolic link at `path` is refused, and a
/// link planted between the check and the rename is replaced, not followed.
fn write_text_file(path: &Path, bytes: &[u8]) -> Result<(), String> {
    refuse_symlink(path).map_err(|e| e.to_string())?;
    let dir = path.parent().unwrap_or(Path::new("."));
    let fail = |e: std::io::Error| format!("{}: {e}", path.display());
    let mut tmp = new_temp_file(dir).map_err(fail)?;
    tmp.write_all(bytes).map_err(fail)?;
    tmp.persist(path).map_err(|e| fail(e.error))?;
    Ok(())
}

/// A temporary file in `dir`, readable by others as a file written with
/// `std::fs::write` would be (tempfile's default is owner-only).
fn new_temp_file(dir: &Path) -> std::io::Result<tempfile::NamedTempFile> {
    let mut builder = tempfile::Builder::new();
    builder.prefix(".newshound-");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o644));
    }
    builder.tempfile_in(dir)
}

/// A page's bytes from `r`, refused beyond `limit` (checked while reading:
/// a file's size may change, a pipe has none) and when binary (`extract
/// /bin/ls` printed ELF bytes as French text).
pub fn read_page(r: impl Read, limit: u64) -> Result<Vec<u8>, PageError> {
    read_page_sized(r, limit, 0)
}

/// [`read_page`] into a buffer made for `size` bytes (a file's length):
/// through `take`, `read_to_end` sees no size and grew the buffer by
/// doubling, a copy each time (1.3 % of `extract DIR`).
fn read_page_sized(r: impl Read, limit: u64, size: u64) -> Result<Vec<u8>, PageError> {
    let capacity = usize::try_from(size.min(limit.saturating_add(1))).unwrap_or(0);
    let mut bytes = Vec::with_capacity(capacity);
    r.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(PageError::TooLarge { limit });
    }
    if let Sniffed::Binary(kind) = sniff(&bytes) {
        return Err(PageError::Binary { kind });
    }
    Ok(bytes)
}

/// [`read_page`] of a file.
fn read_page_file(page: &Path, limit: u64) -> Result<Vec<u8>, String> {
    let file = std::fs::File::open(page).map_err(|e| e.to_string())?;
    let size = file.metadata().map(|m| m.len()).unwrap_or(0);
    read_page_sized(file, limit, size).map_err(|e| e.to_string())
}

fn one_page(
    page: &Path,
    target: Option<&Path>,
    writer: Option<&Mutex<&mut (dyn Write + Send)>>,
    max_page_bytes: u64,
    extractor: &Extractor,
    line: &mut Vec<u8>,
) -> Result<usize, String> {
    let bytes = read_page_file(page, max_page_bytes)?;
    let article = extractor.extract(Page::from_bytes(&bytes, None)).article;
    drop(bytes);
    if let Some(path) = target {
        let text = &article.text;
        let nl: &[u8] = if text.is_empty() { b"" } else { b"\n" };
        write_text_file(path, &[text.as_bytes(), nl].concat())?;
    }
    if let Some(w) = writer {
        line.clear();
        let file = page
            .file_name()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        serde_json::to_writer(
            &mut *line,
            &JsonLine {
                file: &file,
                article: &article,
            },
        )
        .map_err(|e| e.to_string())?;
        line.push(b'\n');
        let mut w = w.lock().map_err(|_| "output writer poisoned".to_string())?;
        w.write_all(line).map_err(|e| e.to_string())?;
    }
    Ok(article.text.chars().count())
}

#[cfg(test)]
mod tests;
