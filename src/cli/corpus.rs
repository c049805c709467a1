//! `eval` and directory `extract`: the commands that work on a folder of pages.
//! In: directories of `.html` pages (and gold `.txt`). Out: reports or texts.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Result};

use newshound::corpus_archive as archive;
use newshound::eval::{self, sequence, GoldConvention};
use newshound::extract::ExtractOptions;
use newshound::extract_dir;

use super::out::Out;
use super::store_cmds::write_json;
use super::{status, Globals};

/// A gold set: its pages, gold texts, and what the gold counts.
pub struct EvalSet<'a> {
    pub html: &'a Path,
    pub gold: &'a Path,
    pub convention: GoldConvention,
}

pub fn eval(
    out: &mut Out,
    set: &EvalSet<'_>,
    opts: &ExtractOptions,
    worst: Option<usize>,
    json: bool,
    jobs: usize,
) -> Result<ExitCode> {
    let report = eval::evaluate_set(set.html, set.gold, opts, &set.convention, jobs)?;
    if json {
        write_json(out, &report)?;
    } else {
        write!(out, "{}", report.render(worst))?;
    }
    Ok(ExitCode::SUCCESS)
}

pub fn eval_sequence(
    globals: &Globals,
    out: &mut Out,
    set: &EvalSet<'_>,
    opts: &ExtractOptions,
    json: bool,
) -> Result<ExitCode> {
    if set.gold.is_file() {
        bail!(
            "{}: --sequence needs gold texts (a directory), not snippets",
            set.gold.display()
        );
    }
    let config = globals.config()?;
    let loaded = eval::sequence_pages(set.html, set.gold, opts, &set.convention)?;
    for path in &loaded.missing {
        status(format_args!(
            "newshound: {}: no gold text, page skipped",
            path.display()
        ));
    }
    let settings = config.line_settings(None);
    let report = sequence::evaluate_sequence(&loaded.pages, &settings)?;
    if json {
        write_json(out, &report)?;
    } else {
        writeln!(out, "{}", set.convention)?;
        write!(out, "{}", report.render())?;
    }
    Ok(ExitCode::SUCCESS)
}

pub fn extract_dir(
    out: &mut Out,
    dir: &Path,
    out_dir: Option<&Path>,
    jsonl: bool,
    limits: extract_dir::BatchLimits,
    opts: &ExtractOptions,
) -> Result<ExitCode> {
    if let Some(d) = out_dir {
        if d.exists() && !d.is_dir() {
            bail!("{}: exists and is not a directory", d.display());
        }
    }
    let summary = match out_dir {
        // Texts or <out>/articles.jsonl: the library owns those files.
        Some(d) => extract_dir::extract_dir(dir, d, jsonl, limits, opts)?,
        // JSONL on stdout goes through `out`, so a closed pipe is noticed.
        None => extract_dir::extract_dir_to(dir, extract_dir::Output::Jsonl(out), limits, opts)?,
    };
    if out.broken_pipe() {
        return Ok(ExitCode::SUCCESS);
    }
    status(format_args!(
        "extracted {} pages ({} written, {} failed, {} characters)",
        summary.pages,
        summary.written,
        summary.failed.len(),
        summary.chars
    ));
    for (path, why) in &summary.failed {
        status(format_args!("newshound: {}: {why}", path.display()));
    }
    if !summary.failed.is_empty() {
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

/// `eval`'s corpus when neither `--html`/`--gold` nor `--corpus` is given:
/// the repository's, relative to the checkout's root.
pub const DEFAULT_CORPUS: &str = "tests/corpus";

/// The sets one `eval` scores, and the temporary directory its archives were
/// unpacked into (removed when this is dropped).
pub struct EvalSets {
    pub sets: Vec<(String, PathBuf, PathBuf)>,
    /// Every set of a corpus (one table), not one set.
    pub whole_corpus: bool,
    _unpacked: Option<tempfile::TempDir>,
}

/// `--html DIR` with `--gold DIR` or snippets (`--snippets FILE`, else
/// `snippets.json` in or beside it), else the sets of `--corpus DIR` (default
/// [`DEFAULT_CORPUS`]; `<set>.tar.zst` archives are unpacked into a
/// temporary directory), all of them or the one named by `--set`.
pub fn eval_sets(
    html: Option<&Path>,
    gold: Option<&Path>,
    snippets: Option<&Path>,
    corpus: Option<&Path>,
    set: Option<&str>,
) -> Result<EvalSets> {
    if let Some(h) = html {
        let scored_by = match gold.or(snippets) {
            Some(g) => g.to_path_buf(),
            None => match eval::snippets::beside(h) {
                Some(s) => s,
                None => bail!(
                    "{}: no gold: give --gold DIR or --snippets FILE (no snippets.json in or beside it)",
                    h.display()
                ),
            },
        };
        return Ok(EvalSets {
            sets: vec![(super::set_name(h), h.to_path_buf(), scored_by)],
            whole_corpus: false,
            _unpacked: None,
        });
    }
    let dir = corpus.unwrap_or(Path::new(DEFAULT_CORPUS));
    if !dir.is_dir() {
        bail!(
            "{}: no such directory{}",
            dir.display(),
            if corpus.is_none() {
                " (eval reads the repository's corpus when given neither --html/--gold \
                 nor --corpus: run it from the checkout's root, or pass --corpus DIR)"
            } else {
                ""
            }
        );
    }
    let scratch = if archive::archives(dir)?.is_empty() {
        None
    } else {
        Some(
            tempfile::Builder::new()
                .prefix("newshound-corpus.")
                .tempdir()?,
        )
    };
    let root = match &scratch {
        Some(t) => archive::unpacked(dir, t.path())?,
        None => dir.to_path_buf(),
    };
    let mut sets = eval::methods::corpus_sets(&root)?;
    if let Some(name) = set {
        let names: Vec<String> = sets.iter().map(|s| s.0.clone()).collect();
        sets.retain(|s| s.0 == name);
        if sets.is_empty() {
            bail!(
                "{}: no set {name:?} (the sets: {})",
                dir.display(),
                names.join(", ")
            );
        }
    }
    Ok(EvalSets {
        sets,
        whole_corpus: set.is_none(),
        _unpacked: scratch,
    })
}
