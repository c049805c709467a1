//! What to import → the list of archive files, each named once.
//!
//! In: the sources as typed (files and directories of WARC files), and a
//! paths list (`--paths`: a local file or an http(s) URL, plain or gzip,
//! one file a line: a URL, or a path relative to `--base`, which is a URL
//! or a local directory). Out: the files, in order, each an absolute local
//! path or a URL ([`Source`]) — the names under which the store records how
//! far each is read. A paths list naming private addresses is refused as
//! the crawl refuses them: each URL is checked by the address guard when
//! it is fetched (`super::open`), here only its scheme.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use flate2::read::MultiGzDecoder;
use url::Url;

use super::ImportError;

/// One archive file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    Local(PathBuf),
    Remote(Url),
}

impl Source {
    /// The name the store records it under: the absolute path, or the URL.
    pub fn key(&self) -> String {
        match self {
            Source::Local(path) => path.display().to_string(),
            Source::Remote(url) => url.to_string(),
        }
    }
}

/// Lines of a paths list at most (Common Crawl's monthly lists hold a few
/// hundred to a few thousand).
pub const MAX_PATHS: usize = 1_000_000;

/// Files whose names say they are web archives, in a directory.
fn is_archive_name(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    [".warc", ".warc.gz", ".arc", ".arc.gz"]
        .iter()
        .any(|ext| name.ends_with(ext))
}

/// The files of the sources typed on the command line: a file as it is, a
/// directory as its archive files (`*.warc`, `*.warc.gz`, and ARC files,
/// which are reported as not supported), searched to any depth, in name
/// order.
pub fn local_files(sources: &[PathBuf]) -> Result<Vec<Source>, ImportError> {
    let mut out = Vec::new();
    for source in sources {
        let meta = std::fs::metadata(source).map_err(|e| ImportError::Source {
            file: source.display().to_string(),
            reason: e.to_string(),
        })?;
        let absolute = std::path::absolute(source).unwrap_or_else(|_| source.clone());
        if meta.is_dir() {
            let mut found = Vec::new();
            archives_in(&absolute, &mut found)?;
            found.sort();
            out.extend(found.into_iter().map(Source::Local));
        } else {
            out.push(Source::Local(absolute));
        }
    }
    Ok(out)
}

fn archives_in(dir: &Path, found: &mut Vec<PathBuf>) -> Result<(), ImportError> {
    let unreadable = |e: std::io::Error| ImportError::Source {
        file: dir.display().to_string(),
        reason: e.to_string(),
    };
    for entry in std::fs::read_dir(dir).map_err(unreadable)? {
        let path = entry.map_err(unreadable)?.path();
        if path.is_dir() {
            archives_in(&path, found)?;
        } else if path
            .file_name()
            .is_some_and(|n| is_archive_name(&n.to_string_lossy()))
        {
            found.push(path);
        }
    }
    Ok(())
}

/// Where the relative lines of a paths list lead.
#[derive(Debug, Clone)]
pub enum Base {
    Url(Url),
    Dir(PathBuf),
}

impl Base {
    /// `--base` as typed: an http(s) URL (a `/` is added to its path so
    /// that lines join below it), else a local directory.
    pub fn parse(text: &str) -> Result<Base, ImportError> {
        let bad = |reason: String| ImportError::Paths {
            file: format!("--base {text}"),
            reason,
        };
        if text.contains("://") {
            let mut url = Url::parse(text).map_err(|e| bad(e.to_string()))?;
            if !matches!(url.scheme(), "http" | "https") {
                return Err(bad("must be an http(s) URL or a directory".into()));
            }
            if !url.path().ends_with('/') {
                let path = format!("{}/", url.path());
                url.set_path(&path);
            }
            return Ok(Base::Url(url));
        }
        let dir = std::path::absolute(text).map_err(|e| bad(e.to_string()))?;
        Ok(Base::Dir(dir))
    }
}

/// The files of a paths list's text (`bytes`: plain, or gzip as Common
/// Crawl serves `warc.paths.gz`). Blank lines and `#` comments are left
/// out; a line is a URL, or a path relative to `base`.
pub fn parse_paths(
    bytes: &[u8],
    list: &str,
    base: Option<&Base>,
) -> Result<Vec<Source>, ImportError> {
    let bad = |line: usize, reason: String| ImportError::Paths {
        file: format!("{list}: line {line}"),
        reason,
    };
    let reader: Box<dyn Read + '_> = if bytes.starts_with(&[0x1f, 0x8b]) {
        Box::new(MultiGzDecoder::new(bytes))
    } else {
        Box::new(bytes)
    };
    let mut out = Vec::new();
    for (i, line) in BufReader::new(reader).lines().enumerate() {
        let n = i + 1;
        let line = line.map_err(|e| ImportError::Paths {
            file: list.to_string(),
            reason: format!("not a text file of paths: {e}"),
        })?;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if out.len() >= MAX_PATHS {
            return Err(bad(n, format!("more than {MAX_PATHS} files")));
        }
        if line.contains("://") {
            let url = Url::parse(line).map_err(|e| bad(n, format!("{line:?}: {e}")))?;
            if !matches!(url.scheme(), "http" | "https") {
                return Err(bad(n, format!("{line:?}: only http(s) URLs are fetched")));
            }
            out.push(Source::Remote(url));
            continue;
        }
        let relative = line.trim_start_matches('/');
        out.push(match base {
            Some(Base::Url(b)) => Source::Remote(
                b.join(relative)
                    .map_err(|e| bad(n, format!("{line:?}: {e}")))?,
            ),
            Some(Base::Dir(d)) => Source::Local(d.join(relative)),
            None => {
                return Err(bad(
                    n,
                    format!(
                        "{line:?} is a relative path: give --base (e.g. \
                         https://data.commoncrawl.org/ for Common Crawl's lists)"
                    ),
                ))
            }
        });
    }
    Ok(out)
}

/// Each file once, in the order first named.
pub fn dedup(sources: Vec<Source>) -> Vec<Source> {
    let mut seen = std::collections::HashSet::new();
    sources
        .into_iter()
        .filter(|s| seen.insert(s.key()))
        .collect()
}
