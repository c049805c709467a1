//! `eval` and directory `extract`: the commands that work on a folder of pages.
//! In: directories of `.html` pages (and gold `.txt`). Out: reports or texts.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use anyhow::{bail, Result};

use newshound::eval::{self, sequence, GoldConvention};
use newshound::extract::{batch, ExtractOptions};

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
    limits: batch::BatchLimits,
    opts: &ExtractOptions,
) -> Result<ExitCode> {
    if let Some(d) = out_dir {
        if d.exists() && !d.is_dir() {
            bail!("{}: exists and is not a directory", d.display());
        }
    }
    let summary = match out_dir {
        // Texts or <out>/articles.jsonl: the library owns those files.
        Some(d) => batch::extract_dir(dir, d, jsonl, limits, opts)?,
        // JSONL on stdout goes through `out`, so a closed pipe is noticed.
        None => batch::extract_dir_to(dir, batch::Output::Jsonl(out), limits, opts)?,
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
