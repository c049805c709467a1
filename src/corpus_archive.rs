//! The evaluation corpus as the repository keeps it: one `<set>.tar.zst` per
//! set (`tests/corpus/`), each holding `<set>/html/…` and its gold files,
//! unpacked on demand into a directory that `eval` and the tests read.
//!
//! In: a directory of archives and a directory to unpack them into. Out: the
//! latter, holding `<set>/html`, `<set>/gold`, … for every archive. A set is
//! unpacked again only when its archive changed (its size or modification
//! time, kept in `<set>.stamp`); processes unpacking at once take turns on a
//! lock file, so a test binary never reads a half-written set.

use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};

/// The file name ending of a set's archive.
pub const SUFFIX: &str = ".tar.zst";

/// What went wrong with the corpus, naming the file.
#[derive(Debug, thiserror::Error)]
pub enum ArchiveError {
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: io::Error },
    #[error("{path}: no {dir}/ inside (a set's archive holds its own directory)")]
    NoSetDir { path: PathBuf, dir: String },
}

fn io_at(path: &Path) -> impl FnOnce(io::Error) -> ArchiveError + '_ {
    move |source| ArchiveError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The sets archived in `dir`: `(set name, archive path)`, by name. Empty
/// when `dir` holds no archive (for example a corpus already unpacked).
pub fn archives(dir: &Path) -> Result<Vec<(String, PathBuf)>, ArchiveError> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir).map_err(io_at(dir))? {
        let path = entry.map_err(io_at(dir))?.path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if let Some(set) = name.strip_suffix(SUFFIX) {
            if !set.is_empty() && path.is_file() {
                out.push((set.to_string(), path.clone()));
            }
        }
    }
    out.sort();
    Ok(out)
}

/// Unpack every archive of `dir` into `into` (created if missing), skipping
/// the sets already unpacked from the same archive, and return `into`.
/// A `dir` without archives is returned as it is: its sets are read in place.
pub fn unpacked(dir: &Path, into: &Path) -> Result<PathBuf, ArchiveError> {
    let sets = archives(dir)?;
    if sets.is_empty() {
        return Ok(dir.to_path_buf());
    }
    fs::create_dir_all(into).map_err(io_at(into))?;
    let lock_path = into.join(".lock");
    let lock = File::create(&lock_path).map_err(io_at(&lock_path))?;
    lock.lock().map_err(io_at(&lock_path))?;
    for (set, archive) in &sets {
        unpack_set(set, archive, into)?;
    }
    Ok(into.to_path_buf())
}

/// What identifies an archive's content cheaply: its length and mtime.
fn stamp_of(archive: &Path) -> Result<String, ArchiveError> {
    let meta = fs::metadata(archive).map_err(io_at(archive))?;
    let mtime = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos());
    Ok(format!("{} {mtime}\n", meta.len()))
}

fn unpack_set(set: &str, archive: &Path, into: &Path) -> Result<(), ArchiveError> {
    let target = into.join(set);
    let stamp_path = into.join(format!("{set}.stamp"));
    let stamp = stamp_of(archive)?;
    if target.is_dir() && fs::read_to_string(&stamp_path).is_ok_and(|s| s == stamp) {
        return Ok(());
    }
    // Unpack beside the target, then swap it in: an interrupted unpack
    // leaves no half set under the set's name (and no stamp).
    let _ = fs::remove_file(&stamp_path);
    let tmp = tempfile::Builder::new()
        .prefix(&format!(".{set}."))
        .tempdir_in(into)
        .map_err(io_at(into))?;
    let file = File::open(archive).map_err(io_at(archive))?;
    let decoder = zstd::Decoder::new(file).map_err(io_at(archive))?;
    // `unpack` refuses entries that would land outside `tmp` (`..`, `/`).
    tar::Archive::new(decoder)
        .unpack(tmp.path())
        .map_err(io_at(archive))?;
    let unpacked = tmp.path().join(set);
    if !unpacked.is_dir() {
        return Err(ArchiveError::NoSetDir {
            path: archive.to_path_buf(),
            dir: set.to_string(),
        });
    }
    if target.exists() {
        fs::remove_dir_all(&target).map_err(io_at(&target))?;
    }
    fs::rename(&unpacked, &target).map_err(io_at(&target))?;
    fs::write(&stamp_path, stamp).map_err(io_at(&stamp_path))
}

/// The repository's corpus, unpacked under `target/corpus` (for the unit
/// tests that sweep every page).
#[cfg(test)]
pub(crate) fn repo_corpus() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    unpacked(&root.join("tests/corpus"), &root.join("target/corpus"))
        .unwrap_or_else(|e| panic!("the corpus of tests/corpus: {e}"))
}

/// Every page of every set of the repository's corpus ([`repo_corpus`]),
/// in path order.
#[cfg(test)]
pub(crate) fn repo_corpus_pages() -> Vec<PathBuf> {
    let root = repo_corpus();
    let mut pages: Vec<PathBuf> = fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .flatten()
        .filter_map(|set| fs::read_dir(set.path().join("html")).ok())
        .flat_map(|files| files.flatten().map(|f| f.path()))
        .collect();
    pages.sort();
    pages
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A set archived as `tar -C DIR -c SET | zstd`.
    fn archive_of(dir: &Path, set: &str, files: &[(&str, &str)]) -> PathBuf {
        let mut builder = tar::Builder::new(Vec::new());
        for (name, text) in files {
            let mut header = tar::Header::new_gnu();
            header.set_size(text.len() as u64);
            header.set_mode(0o644);
            header.set_cksum();
            builder
                .append_data(&mut header, format!("{set}/{name}"), text.as_bytes())
                .unwrap();
        }
        let tar = builder.into_inner().unwrap();
        let path = dir.join(format!("{set}{SUFFIX}"));
        fs::write(&path, zstd::encode_all(&tar[..], 3).unwrap()).unwrap();
        path
    }

    #[test]
    fn unpacks_each_set_and_again_only_when_its_archive_changes() {
        let src = tempfile::tempdir().unwrap();
        let into = tempfile::tempdir().unwrap();
        archive_of(
            src.path(),
            "a",
            &[("html/1.html", "<p>one"), ("gold/1.txt", "one")],
        );
        archive_of(src.path(), "b", &[("html/2.html", "<p>two")]);
        let out = unpacked(src.path(), into.path()).unwrap();
        assert_eq!(out, into.path());
        let read = |p: &str| fs::read_to_string(into.path().join(p)).unwrap();
        assert_eq!(read("a/gold/1.txt"), "one");
        assert_eq!(read("b/html/2.html"), "<p>two");

        // Unchanged archive: the unpacked set is left alone.
        fs::write(into.path().join("a/gold/1.txt"), "edited").unwrap();
        unpacked(src.path(), into.path()).unwrap();
        assert_eq!(read("a/gold/1.txt"), "edited");

        // A new archive (other size): unpacked again, the old files gone.
        archive_of(src.path(), "a", &[("html/3.html", "<p>three, longer")]);
        unpacked(src.path(), into.path()).unwrap();
        assert_eq!(read("a/html/3.html"), "<p>three, longer");
        assert!(!into.path().join("a/gold/1.txt").exists());
    }

    #[test]
    fn a_directory_without_archives_is_read_in_place() {
        let src = tempfile::tempdir().unwrap();
        fs::create_dir_all(src.path().join("set/html")).unwrap();
        let out = unpacked(src.path(), Path::new("/nonexistent")).unwrap();
        assert_eq!(out, src.path());
    }

    #[test]
    fn an_archive_without_its_set_directory_is_named() {
        let src = tempfile::tempdir().unwrap();
        let into = tempfile::tempdir().unwrap();
        let path = archive_of(src.path(), "a", &[]);
        fs::rename(&path, src.path().join(format!("other{SUFFIX}"))).unwrap();
        let err = unpacked(src.path(), into.path()).unwrap_err();
        assert!(err.to_string().contains("no other/ inside"), "{err}");
    }
}
