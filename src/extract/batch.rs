//! Directory of pages → extracted texts, on `jobs` worker threads.
//!
//! In: `DIR/<name>.html` files. Out: `DIR2/<name>.txt` per page, or one JSONL
//! line per page (`{"file": …, "article": …}`) to a writer. Each worker reads,
//! extracts and writes one page at a time, so memory stays bounded by `jobs`
//! pages whatever the directory size. One failing page is counted and
//! reported; the run goes on.
//!
//! The page list ([`html_files`]) and the worker pool ([`for_each_page`]) are
//! shared with `eval`, which scores the same pages the same way.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use serde::Serialize;

use super::{extract_bytes, extract_bytes_text_with, Article, ExtractOptions};

/// Errors that stop a batch run (per-page failures are in [`BatchSummary`]).
#[derive(Debug, thiserror::Error)]
pub enum BatchError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{dir}: no .html pages")]
    NoPages { dir: PathBuf },
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

/// Extract every `in_dir/*.html` into `out_dir`: `<name>.txt` files, or
/// `out_dir/articles.jsonl` when `jsonl`. (JSONL to another writer, such as
/// stdout: [`extract_dir_to`].)
pub fn extract_dir(
    in_dir: &Path,
    out_dir: &Path,
    jsonl: bool,
    jobs: usize,
    opts: &ExtractOptions,
) -> Result<BatchSummary, BatchError> {
    match jsonl {
        false => extract_dir_to(in_dir, Output::TextFiles(out_dir), jobs, opts),
        true => {
            let dir = out_dir;
            std::fs::create_dir_all(dir).map_err(|source| BatchError::Io {
                path: dir.to_path_buf(),
                source,
            })?;
            let path = dir.join("articles.jsonl");
            let file = std::fs::File::create(&path).map_err(|source| BatchError::Io {
                path: path.clone(),
                source,
            })?;
            let mut w = std::io::BufWriter::new(file);
            let summary = extract_dir_to(in_dir, Output::Jsonl(&mut w), jobs, opts)?;
            w.flush()
                .map_err(|source| BatchError::Io { path, source })?;
            Ok(summary)
        }
    }
}

/// Extract every `in_dir/*.html` into `out`, on `jobs` threads.
pub fn extract_dir_to(
    in_dir: &Path,
    out: Output<'_>,
    jobs: usize,
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
    let summary = Mutex::new(BatchSummary {
        pages: pages.len(),
        ..BatchSummary::default()
    });
    for_each_page(&pages, jobs, |line: &mut Vec<u8>, page| {
        let r = one_page(page, out_dir, writer.as_ref(), opts, line);
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

fn one_page(
    page: &Path,
    out_dir: Option<&Path>,
    writer: Option<&Mutex<&mut (dyn Write + Send)>>,
    opts: &ExtractOptions,
    line: &mut Vec<u8>,
) -> Result<usize, String> {
    let bytes = std::fs::read(page).map_err(|e| e.to_string())?;
    // Plain `.txt` output needs only the text: skip metadata and language.
    let article = if writer.is_some() {
        extract_bytes(&bytes, None, None, opts)
    } else {
        Article {
            text: extract_bytes_text_with(&bytes, None, None, opts),
            ..Article::default()
        }
    };
    drop(bytes);
    let name = page
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    if let Some(dir) = out_dir {
        let path = dir.join(format!("{name}.txt"));
        let text = &article.text;
        let nl: &[u8] = if text.is_empty() { b"" } else { b"\n" };
        std::fs::write(&path, [text.as_bytes(), nl].concat())
            .map_err(|e| format!("{}: {e}", path.display()))?;
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
mod tests {
    use super::*;

    #[test]
    fn writes_one_txt_per_html_and_jsonl() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
        let input = dir.path().join("in");
        std::fs::create_dir_all(&input).unwrap_or_else(|e| panic!("{e}"));
        for (n, body) in [("a", "Alpha story text, long enough."), ("b", "Beta.")] {
            std::fs::write(
                input.join(format!("{n}.html")),
                format!("<html><body><p>{body}</p></body></html>"),
            )
            .unwrap_or_else(|e| panic!("{e}"));
        }
        std::fs::write(input.join("skip.txt"), "not html").unwrap_or_else(|e| panic!("{e}"));
        let out = dir.path().join("out");
        let opts = ExtractOptions::default();
        let s = extract_dir(&input, &out, false, 2, &opts).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((s.pages, s.written), (2, 2));
        let a = std::fs::read_to_string(out.join("a.txt")).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(a, "Alpha story text, long enough.\n");

        let mut buf: Vec<u8> = Vec::new();
        let s = extract_dir_to(&input, Output::Jsonl(&mut buf), 1, &opts)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(s.written, 2);
        let text = String::from_utf8_lossy(&buf);
        assert_eq!(text.lines().count(), 2);
        assert!(text.contains("\"file\":\"b.html\""), "{text}");
    }
}
