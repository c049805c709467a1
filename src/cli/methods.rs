//! `eval --algorithm all` / `eval --corpus` (one table of every method) and
//! `train` (a learned block model from pages with gold text).
//! In: directories of pages and gold texts. Out: the table, or a model file
//! and its cross-validated scores.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};

use newshound::eval::folds::{cross_validate, label_dir, train as train_model};
use newshound::eval::methods::{evaluate_algorithm, render_table};
use newshound::eval::records;
use newshound::extract::{Algorithm, ExtractOptions};

use super::out::Out;
use super::status;
use super::store_cmds::write_json;

pub fn eval_table(
    out: &mut Out,
    sets: &[(String, PathBuf, PathBuf)],
    algorithms: &[Algorithm],
    base: &ExtractOptions,
    json: bool,
    jobs: usize,
) -> Result<ExitCode> {
    let mut rows = Vec::new();
    for (set, html, gold) in sets {
        for &alg in algorithms {
            status(format_args!("eval: {set}: {}", alg.name()));
            // A model only applies to the algorithm it was trained for.
            let opts = ExtractOptions {
                algorithm: alg,
                model: base.model.clone().filter(|m| m.algorithm() == alg),
                ..base.clone()
            };
            let row = evaluate_algorithm(set, html, gold, &opts, jobs)?;
            rows.push(row);
        }
    }
    if json {
        write_json(out, &rows)?;
    } else {
        write!(out, "{}", render_table(&rows))?;
        for row in &rows {
            if let Some(summary) = records::summary(&row.report.pages) {
                writeln!(
                    out,
                    "\n{} ({}): body and metadata by language group",
                    row.set,
                    row.algorithm.name()
                )?;
                write!(out, "{}", summary.render())?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

pub fn train(
    out: &mut Out,
    algorithm: Algorithm,
    html: &Path,
    gold: &Path,
    model_out: &Path,
    folds: usize,
    jobs: usize,
) -> Result<ExitCode> {
    status(format_args!("train: labelling {}", html.display()));
    let pages = label_dir(html, gold, jobs)?;
    let blocks: usize = pages.iter().map(|p| p.labels.len()).sum();
    let content: usize = pages
        .iter()
        .map(|p| p.labels.iter().filter(|&&c| c).count())
        .sum();
    let Some(cv) = cross_validate(algorithm, &pages, folds, jobs) else {
        anyhow::bail!("{}: cannot train {}", html.display(), algorithm.name());
    };
    let Some(model) = train_model(algorithm, &pages) else {
        anyhow::bail!("{}: cannot train {}", html.display(), algorithm.name());
    };
    std::fs::write(model_out, model.to_json() + "\n")
        .with_context(|| format!("{}: cannot write the model", model_out.display()))?;
    let (b, t) = (&cv.blocks, &cv.text.mean);
    writeln!(
        out,
        "{} pages, {} sites, {blocks} blocks ({content} labelled content)",
        pages.len(),
        cv.sites
    )?;
    writeln!(
        out,
        "{}-fold cross-validation by site ({}):",
        cv.folds,
        algorithm.name()
    )?;
    writeln!(
        out,
        "  blocks: P {:.3}  R {:.3}  F1 {:.3}",
        b.precision, b.recall, b.f1
    )?;
    writeln!(
        out,
        "  text (LCS, held-out pages): P {:.3}  R {:.3}  F1 {:.3}  CleanEval {:.3}",
        t.precision, t.recall, t.f1, t.cleaneval
    )?;
    writeln!(
        out,
        "model trained on all {} pages written to {}",
        pages.len(),
        model_out.display()
    )?;
    Ok(ExitCode::SUCCESS)
}
