//! Every extraction method on one table: `newshound eval --algorithm all`.
//!
//! In: page/gold directories (one set, or every set of a corpus directory)
//! and the algorithms to run. Out: [`MethodRow`]s — per algorithm and set,
//! mean P/R/F1 (LCS), CleanEval, and pages/s — and their table.
//!
//! `nb` and `tree` are scored by held-out folds by site ([`super::folds`]):
//! each page by a model trained on the set's other sites, never by the
//! shipped model (which may have seen the page). With an explicit model
//! (`--model`) they are scored with it, and the row says so.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::folds::{cross_validate, label_dir, DEFAULT_FOLDS};
use super::halves::halves;
use super::snippets;
use super::{evaluate_dir, evaluate_set, EvalError, EvalReport, GoldConvention, Score};
use crate::extract::{Algorithm, ExtractOptions};

/// How a row's pages were scored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ScoredBy {
    /// A fixed algorithm (or the given model) on every page.
    Direct,
    /// Held-out folds by site (`nb`, `tree` without `--model`).
    Folds,
    /// A snippet set ([`super::snippets`]): P, R, F of the summed counts,
    /// accuracy in the CleanEval column. `nb` and `tree` run their shipped
    /// model, which never saw a snippet set (it is trained on gold texts).
    Snippets,
    /// A set of gold records ([`super::records`]): the body scored with
    /// the records' tokens, every page directly (`nb` and `tree` with their
    /// shipped model, which never saw these pages).
    Records,
    /// A set of silver records without body gold (`meta/`): the F1 column
    /// is the share of pages with some text; titles and dates are in the
    /// record summary.
    Silver,
}

/// One algorithm on one set.
#[derive(Debug, Clone, Serialize)]
pub struct MethodRow {
    pub set: String,
    pub algorithm: Algorithm,
    pub scored_by: ScoredBy,
    pub pages: usize,
    pub mean: Score,
    /// Pages per second of extraction on one thread (decode to text).
    pub pages_per_sec: f64,
    #[serde(skip)]
    pub report: EvalReport,
}

/// Score `opts.algorithm` on one set: directly, with every other option of
/// `opts` (ablations, zone), or by folds for `nb`/`tree` without a model.
/// `gold` is a directory of gold texts, or a snippet file (`snippets.json`),
/// which scores the set by snippets.
pub fn evaluate_algorithm(
    set: &str,
    html: &Path,
    gold: &Path,
    opts: &ExtractOptions,
    jobs: usize,
) -> Result<MethodRow, EvalError> {
    let algorithm = opts.algorithm;
    let (report, scored_by) = if gold.is_file() || super::records::is_record_dir(gold) {
        let convention = GoldConvention::of_set_dir(html);
        let report = evaluate_set(html, gold, opts, &convention, jobs)?;
        let silver = report
            .pages
            .iter()
            .all(|p| p.record.as_ref().is_some_and(|r| !r.body_gold));
        let by = if gold.is_file() {
            ScoredBy::Snippets
        } else if silver {
            ScoredBy::Silver
        } else {
            ScoredBy::Records
        };
        (report, by)
    } else if algorithm.is_learned() && opts.model.is_none() {
        let pages = label_dir(html, gold, jobs)?;
        match cross_validate(algorithm, &pages, DEFAULT_FOLDS, jobs) {
            Some(r) => (r.text, ScoredBy::Folds),
            None => {
                return Err(EvalError::NoPages {
                    dir: html.to_path_buf(),
                })
            }
        }
    } else {
        (
            evaluate_dir(html, gold, opts, &GoldConvention::of_set_dir(html), jobs)?,
            ScoredBy::Direct,
        )
    };
    Ok(MethodRow {
        set: set.to_string(),
        algorithm,
        scored_by,
        pages: report.pages.len(),
        mean: report.mean,
        pages_per_sec: report.pages_per_sec(),
        report,
    })
}

/// The sets of a corpus directory: every `<dir>/<set>` with an `html/`
/// subdirectory and gold texts or records (`gold/`), snippets
/// (`snippets.json` beside `html/`) or silver records (`meta/`), by name.
pub fn corpus_sets(dir: &Path) -> Result<Vec<(String, PathBuf, PathBuf)>, EvalError> {
    let io = |source| EvalError::Io {
        path: dir.to_path_buf(),
        source,
    };
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let path = entry.map_err(io)?.path();
        let html = path.join("html");
        let gold = match (path.join("gold"), path.join("meta")) {
            (g, _) if g.is_dir() => Some(g),
            (_, m) if super::records::is_record_dir(&m) => Some(m),
            _ => snippets::beside(&html).filter(|_| html.is_dir()),
        };
        if let Some(gold) = gold.filter(|_| html.is_dir()) {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            out.push((name, html, gold));
        }
    }
    out.sort();
    if out.is_empty() {
        return Err(EvalError::NoPages {
            dir: dir.to_path_buf(),
        });
    }
    Ok(out)
}

/// The table of rows, one line each.
pub fn render_table(rows: &[MethodRow]) -> String {
    let mut out = String::new();
    let w = rows.iter().map(|r| r.set.len()).max().unwrap_or(3).max(3);
    let _ = writeln!(
        out,
        "{:<w$}  {:<5} {:>5}  {:>6} {:>6} {:>6} {:>6}  {:>8}  {:>6} {:>6}  scored by",
        "set", "alg", "pages", "P", "R", "F1", "CE", "pages/s", "study", "held"
    );
    for r in rows {
        let m = &r.mean;
        let by = match r.scored_by {
            ScoredBy::Direct => "every page",
            ScoredBy::Folds => "held-out folds by site",
            ScoredBy::Snippets => "snippets (summed; CE column: accuracy)",
            ScoredBy::Records => "gold records (body; metadata: eval --set)",
            ScoredBy::Silver => {
                "silver records (F1 column: pages with text; title, date: eval --set)"
            }
        };
        let h = halves(&r.report.pages);
        let _ = writeln!(
            out,
            "{:<w$}  {:<5} {:>5}  {:>6.3} {:>6.3} {:>6.3} {:>6.3}  {:>8.0}  {:>6} {:>6}  {by}",
            r.set,
            r.algorithm.name(),
            r.pages,
            m.precision,
            m.recall,
            m.f1,
            m.cleaneval,
            r.pages_per_sec,
            h.study.shown(),
            h.held.shown()
        );
    }
    out.push_str(
        "study / held: F1 of the half of each set's sites studied, and of the half only scored\n",
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, name: &str, text: &str) {
        std::fs::write(dir.join(name), text).unwrap_or_else(|e| panic!("{name}: {e}"));
    }

    /// A small set of two "sites" with one template each.
    fn small_set(root: &Path) -> (PathBuf, PathBuf) {
        let (html, gold) = (root.join("html"), root.join("gold"));
        for d in [&html, &gold] {
            std::fs::create_dir_all(d).unwrap_or_else(|e| panic!("{e}"));
        }
        for site in ["alpha", "beta", "gamma"] {
            for i in 0..3 {
                let story = format!(
                    "The {site} council met on day {i}, and agreed the budget after a long debate. \
                     Members said the plan, which covers schools and roads, would be reviewed."
                );
                let page = format!(
                    "<html><body><div class=menu><a href=/a>Home</a> <a href=/b>World</a> \
                     <a href=/c>Sport</a> <a href=/d>Weather</a></div>\
                     <div class=story><p>{story}</p><p>{story}</p></div>\
                     <div class=foot><a href=/e>Privacy</a> <a href=/f>Terms</a></div></body></html>"
                );
                write(&html, &format!("{site}_{i}.html"), &page);
                write(
                    &gold,
                    &format!("{site}_{i}.txt"),
                    &format!("{story}\n\n{story}\n"),
                );
            }
        }
        (html, gold)
    }

    #[test]
    fn every_algorithm_gets_a_row_and_learned_ones_are_scored_by_folds() {
        let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let (html, gold) = small_set(tmp.path());
        let mut rows = Vec::new();
        for alg in Algorithm::ALL {
            let opts = ExtractOptions {
                algorithm: alg,
                ..ExtractOptions::default()
            };
            let row = evaluate_algorithm("small", &html, &gold, &opts, 1)
                .unwrap_or_else(|e| panic!("{alg:?}: {e}"));
            assert_eq!(row.pages, 9);
            let want = if alg.is_learned() {
                ScoredBy::Folds
            } else {
                ScoredBy::Direct
            };
            assert_eq!(row.scored_by, want, "{alg:?}");
            rows.push(row);
        }
        let table = render_table(&rows);
        // Heading, a row per algorithm, the note on the halves.
        assert_eq!(table.lines().count(), 2 + Algorithm::ALL.len(), "{table}");
        assert!(
            table.contains("tree") && table.contains("held-out"),
            "{table}"
        );
        let nb = rows.iter().find(|r| r.algorithm == Algorithm::Nb);
        assert!(nb.is_some_and(|r| r.mean.f1 > 0.9), "{table}");
    }
}
