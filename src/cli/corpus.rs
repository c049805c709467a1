//! `eval` and directory `extract`: the commands that work on a folder of pages.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context, Result};

use newshound::boilerplate::sequence;
use newshound::eval;
use newshound::extract::{self, ExtractOptions};

use super::Globals;

pub fn eval(
    html: &Path,
    gold: &Path,
    opts: &ExtractOptions,
    worst: Option<usize>,
    json: bool,
    jobs: usize,
) -> Result<ExitCode> {
    let report = eval::evaluate_dir(html, gold, opts, jobs.max(1))?;
    let mut out = std::io::stdout().lock();
    if json {
        serde_json::to_writer_pretty(&mut out, &report)?;
        writeln!(out)?;
    } else {
        write!(out, "{}", report.render(worst))?;
    }
    Ok(ExitCode::SUCCESS)
}

pub fn eval_sequence(
    globals: &Globals,
    html: &Path,
    gold: &Path,
    opts: &ExtractOptions,
    json: bool,
) -> Result<ExitCode> {
    let config = globals.config()?;
    let mut names: Vec<_> = std::fs::read_dir(html)
        .with_context(|| format!("{}: cannot read directory", html.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "html"))
        .collect();
    // Each site's pages in numeric order (`_2` before `_10`): learning is
    // order-dependent, so the order must be the one the report describes.
    names.sort_by_key(|p| {
        sequence::page_order(&p.file_stem().unwrap_or_default().to_string_lossy())
    });
    let mut pages = Vec::with_capacity(names.len());
    for path in names {
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let gold_path = gold.join(format!("{stem}.txt"));
        let Ok(gold_text) = std::fs::read_to_string(&gold_path) else {
            eprintln!("newshound: {}: no gold text, skipped", gold_path.display());
            continue;
        };
        let bytes =
            std::fs::read(&path).with_context(|| format!("{}: cannot read", path.display()))?;
        let text = extract::extract_bytes(&bytes, None, None, opts).text;
        pages.push((sequence::site_key(&stem).to_string(), text, gold_text));
    }
    let settings = newshound::crawl::line_settings(&config, None);
    let report = sequence::evaluate_sequence(&pages, &settings)?;
    let mut out = std::io::stdout().lock();
    if json {
        serde_json::to_writer_pretty(&mut out, &report)?;
        writeln!(out)?;
    } else {
        write!(out, "{}", report.render())?;
    }
    Ok(ExitCode::SUCCESS)
}

pub fn extract_dir(
    dir: &Path,
    out: Option<&Path>,
    jsonl: bool,
    jobs: usize,
    opts: &ExtractOptions,
) -> Result<ExitCode> {
    let summary = extract::batch::extract_dir(dir, out, jsonl, jobs.max(1), opts)?;
    eprintln!(
        "extracted {} pages ({} written, {} failed, {} characters)",
        summary.pages,
        summary.written,
        summary.failed.len(),
        summary.chars
    );
    for (path, why) in &summary.failed {
        eprintln!("newshound: {}: {why}", path.display());
    }
    if !summary.failed.is_empty() {
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}
