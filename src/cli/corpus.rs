//! `eval` and directory `extract`: the commands that work on a folder of pages.
//! In: directories of `.html` pages (and gold `.txt`). Out: reports or texts.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use anyhow::{bail, Result};

use newshound::boilerplate::sequence;
use newshound::eval::{self, GoldConvention};
use newshound::extract::{self, batch, ExtractOptions};

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
    if !set.gold.is_dir() {
        bail!("{}: no such directory of gold texts", set.gold.display());
    }
    let report = eval::evaluate_dir(set.html, set.gold, opts, &set.convention, jobs)?;
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
    let (html, gold, convention) = (set.html, set.gold, &set.convention);
    let opts = &ExtractOptions {
        comments: convention.has_comments,
        ..opts.clone()
    };
    let config = globals.config()?;
    // The same page set as the per-page `eval` (.html and .htm, files only).
    let mut names = eval::html_files(html)?;
    // Each site's pages in numeric order (`_2` before `_10`): learning is
    // order-dependent, so the order must be the one the report describes.
    names.sort_by_key(|p| {
        sequence::page_order(&p.file_stem().unwrap_or_default().to_string_lossy())
    });
    if names.is_empty() {
        bail!("{}: no .html pages", html.display());
    }
    if !gold.is_dir() {
        bail!("{}: no such directory of gold texts", gold.display());
    }
    let mut pages = Vec::with_capacity(names.len());
    let mut missing = Vec::new();
    for path in &names {
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let gold_path = gold.join(format!("{stem}.txt"));
        let gold_text = match std::fs::read_to_string(&gold_path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                missing.push(gold_path);
                continue;
            }
            // Not UTF-8, a directory, unreadable: say so, not "no gold text".
            Err(e) => bail!("{}: cannot read gold text: {e}", gold_path.display()),
        };
        let bytes = std::fs::read(path)
            .map_err(|e| anyhow::anyhow!("{}: cannot read: {e}", path.display()))?;
        let selected = extract::extract_bytes_selection(&bytes, None, None, opts);
        let text = convention.scored_text(&selected.text, selected.headline.as_deref());
        pages.push((sequence::site_key(&stem).to_string(), text, gold_text));
    }
    if pages.is_empty() {
        bail!(
            "{}: none of the {} pages has a gold text in {}",
            html.display(),
            missing.len(),
            gold.display()
        );
    }
    for path in &missing {
        status(format_args!(
            "newshound: {}: no gold text, page skipped",
            path.display()
        ));
    }
    let settings = newshound::crawl::line_settings(&config, None);
    let report = sequence::evaluate_sequence(&pages, &settings)?;
    if json {
        write_json(out, &report)?;
    } else {
        writeln!(out, "{convention}")?;
        write!(out, "{}", report.render())?;
    }
    Ok(ExitCode::SUCCESS)
}

pub fn extract_dir(
    out: &mut Out,
    dir: &Path,
    out_dir: Option<&Path>,
    jsonl: bool,
    jobs: Option<usize>,
    opts: &ExtractOptions,
) -> Result<ExitCode> {
    let jobs = jobs.unwrap_or(1);
    if let Some(d) = out_dir {
        if d.exists() && !d.is_dir() {
            bail!("{}: exists and is not a directory", d.display());
        }
    }
    let summary = match out_dir {
        // Texts or <out>/articles.jsonl: the library owns those files.
        Some(_) => batch::extract_dir(dir, out_dir, jsonl, jobs, opts)?,
        // JSONL on stdout goes through `out`, so a closed pipe is noticed.
        None => batch::extract_dir_to(dir, batch::Output::Jsonl(out), jobs, opts)?,
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
