//! Scoring extracted text against gold text (the papers' LCS metric), and the
//! evaluation drivers: a directory of pages against gold texts
//! ([`evaluate_dir`]) and per-site boilerplate learning over page sequences
//! ([`sequence`]).
//!
//! In: extracted text and gold text (or an html dir + gold dir). Out: [`Score`]
//! (or an [`EvalReport`] with per-page scores and means, or a
//! [`sequence::SequenceReport`]).
//!
//! Tokens: whitespace-separated words, and each CJK character on its own.
//! P = |LCS|/|extracted|, R = |LCS|/|gold|, F1 = 2PR/(P+R);
//! CleanEval = |LCS|/(|a|+|b|−|LCS|). The LCS length is computed bit-parallel
//! (Allison–Dix / Hyyrö): O(n·⌈m/64⌉) word operations, fast on 20k-token pages.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::extract::{Algorithm, ExtractOptions};

mod convention;
mod corpus;
pub mod folds;
pub mod halves;
mod lcs;
pub mod methods;
pub mod records;
pub mod sequence;
mod site;
pub mod snippets;
pub use convention::{ConventionSource, GoldConvention};
pub use corpus::{evaluate_dir, sequence_pages, SequencePages};
pub use lcs::lcs_len;

use crate::words::tokenize;

#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Score {
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
    pub cleaneval: f64,
}

/// Intern the tokens of two texts into one id space.
fn ids<'t>(a: &[&'t str], b: &[&'t str]) -> (Vec<u32>, Vec<u32>) {
    let mut map: HashMap<&'t str, u32> = HashMap::with_capacity(a.len().max(b.len()));
    let mut intern = |t: &'t str| {
        let n = map.len() as u32;
        *map.entry(t).or_insert(n)
    };
    let ia = a.iter().map(|t| intern(t)).collect();
    let ib = b.iter().map(|t| intern(t)).collect();
    (ia, ib)
}

/// Score every page of `html_dir` against `gold`: a directory of gold
/// texts ([`evaluate_dir`]), of gold records ([`records::evaluate_records`])
/// or a snippet file ([`snippets::evaluate_snippets`]).
pub fn evaluate_set(
    html_dir: &Path,
    gold: &Path,
    opts: &ExtractOptions,
    convention: &GoldConvention,
    jobs: usize,
) -> Result<EvalReport, EvalError> {
    if gold.is_file() {
        snippets::evaluate_snippets(html_dir, gold, opts, convention, jobs)
    } else if records::is_record_dir(gold) {
        records::evaluate_records(html_dir, gold, opts, jobs)
    } else {
        evaluate_dir(html_dir, gold, opts, convention, jobs)
    }
}

/// Score `extracted` against `gold`. Both empty: a perfect score; one empty:
/// zero.
pub fn score(extracted: &str, gold: &str) -> Score {
    let a = tokenize(extracted);
    let b = tokenize(gold);
    score_tokens(&a, &b)
}

fn score_tokens(a: &[&str], b: &[&str]) -> Score {
    if a.is_empty() && b.is_empty() {
        return Score {
            precision: 1.0,
            recall: 1.0,
            f1: 1.0,
            cleaneval: 1.0,
        };
    }
    if a.is_empty() || b.is_empty() {
        return Score::default();
    }
    let (ia, ib) = ids(a, b);
    let l = lcs_len(&ia, &ib) as f64;
    let p = l / a.len() as f64;
    let r = l / b.len() as f64;
    let f1 = if p + r > 0.0 {
        2.0 * p * r / (p + r)
    } else {
        0.0
    };
    Score {
        precision: p,
        recall: r,
        f1,
        cleaneval: l / (a.len() as f64 + b.len() as f64 - l),
    }
}

/// Errors of the eval driver.
#[derive(Debug, thiserror::Error)]
pub enum EvalError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{dir}: no .html pages")]
    NoPages { dir: PathBuf },
    #[error("{page}: no gold text at {gold}")]
    MissingGold { page: PathBuf, gold: PathBuf },
    #[error("{dir}: no such directory of gold texts")]
    NoGoldDir { dir: PathBuf },
    #[error("{path}: cannot read gold text: {source}")]
    GoldUnreadable {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: cannot read: {source}")]
    PageUnreadable {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: not a snippet file ({{\"page.html\": {{\"with\": [...], \"without\": [...]}}}}): {why}")]
    BadSnippets { path: PathBuf, why: String },
    #[error("{path}: not a gold record ({{\"body_text\": ..., \"title\": ..., \"authors\": [...]}}): {why}")]
    BadRecord { path: PathBuf, why: String },
    #[error("{page}: no snippets in {snippets}")]
    MissingSnippets { page: PathBuf, snippets: PathBuf },
    #[error("{html_dir}: none of the {pages} pages has a gold text in {gold_dir}")]
    NoGold {
        html_dir: PathBuf,
        pages: usize,
        gold_dir: PathBuf,
    },
}

/// Score of one page.
#[derive(Debug, Clone, Serialize)]
pub struct PageScore {
    /// File stem (`<name>.html` / `<name>.txt`).
    pub name: String,
    /// The page's site, which decides its [`halves::Half`].
    pub site: String,
    #[serde(flatten)]
    pub score: Score,
    pub extracted_tokens: usize,
    pub gold_tokens: usize,
    /// Wall time of extraction (decode to text), milliseconds.
    pub millis: f64,
    /// A set scored by snippets: this page's counts (`gold_tokens` are the
    /// words of its `with` snippets).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snippets: Option<snippets::SnippetCounts>,
    /// A set with a gold record per page: its metadata scores.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub record: Option<records::RecordScores>,
}

/// Per-page scores and their means.
#[derive(Debug, Clone, Serialize)]
pub struct EvalReport {
    pub algorithm: Algorithm,
    /// What the gold counts, hence how the extracted text was scored.
    pub convention: GoldConvention,
    /// Sorted by name.
    pub pages: Vec<PageScore>,
    pub mean: Score,
    /// Slowest page, milliseconds.
    pub max_millis: f64,
    /// A set scored by snippets: the summed counts; `mean` then holds P, R
    /// and F of these sums, and accuracy in place of the CleanEval score.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snippets: Option<snippets::SnippetCounts>,
}

impl EvalReport {
    /// A report from per-page scores (sorted by name here), with their means.
    pub fn from_pages(algorithm: Algorithm, mut pages: Vec<PageScore>) -> EvalReport {
        pages.sort_by(|a, b| a.name.cmp(&b.name));
        let n = pages.len().max(1) as f64;
        let mut mean = Score::default();
        let mut max_millis: f64 = 0.0;
        for p in &pages {
            mean.precision += p.score.precision / n;
            mean.recall += p.score.recall / n;
            mean.f1 += p.score.f1 / n;
            mean.cleaneval += p.score.cleaneval / n;
            max_millis = max_millis.max(p.millis);
        }
        EvalReport {
            algorithm,
            convention: GoldConvention::default(),
            pages,
            mean,
            max_millis,
            snippets: None,
        }
    }

    /// Pages per second of extraction time on one thread (Σ per-page times).
    pub fn pages_per_sec(&self) -> f64 {
        let secs: f64 = self.pages.iter().map(|p| p.millis).sum::<f64>() / 1000.0;
        if secs > 0.0 {
            self.pages.len() as f64 / secs
        } else {
            0.0
        }
    }

    /// A human table: means, then the `worst` pages by F1 (all pages, by name,
    /// when `None`).
    pub fn render(&self, worst: Option<usize>) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "{}", self.convention);
        let mut rows: Vec<&PageScore> = self.pages.iter().collect();
        if let Some(k) = worst {
            rows.sort_by(|a, b| a.score.f1.total_cmp(&b.score.f1));
            rows.truncate(k);
        }
        let w = rows.iter().map(|p| p.name.len()).max().unwrap_or(4).max(4);
        if let Some(total) = &self.snippets {
            self.render_snippets(&mut out, &rows, total, w);
            return out;
        }
        let _ = writeln!(
            out,
            "{:<w$}  {:>6} {:>6} {:>6} {:>6} {:>7} {:>7} {:>7}",
            "page", "P", "R", "F1", "CE", "tokens", "gold", "ms"
        );
        for p in rows {
            let s = &p.score;
            let _ = writeln!(
                out,
                "{:<w$}  {:>6.3} {:>6.3} {:>6.3} {:>6.3} {:>7} {:>7} {:>7.1}",
                p.name,
                s.precision,
                s.recall,
                s.f1,
                s.cleaneval,
                p.extracted_tokens,
                p.gold_tokens,
                p.millis
            );
        }
        let m = &self.mean;
        let _ = writeln!(
            out,
            "mean over {} pages ({:?}): P {:.3}  R {:.3}  F1 {:.3}  CleanEval {:.3}  (slowest {:.1} ms)",
            self.pages.len(),
            self.algorithm,
            m.precision,
            m.recall,
            m.f1,
            m.cleaneval,
            self.max_millis
        );
        self.render_halves(&mut out);
        if let Some(s) = records::summary(&self.pages) {
            out.push_str(&s.render());
        }
        out
    }

    /// The line of the two halves by site ([`halves`]).
    fn render_halves(&self, out: &mut String) {
        let h = halves::halves(&self.pages);
        let _ = writeln!(
            out,
            "by site: studied half {} ({} pages, {} sites), held-out half {} ({} pages, {} sites)",
            h.study.shown(),
            h.study.pages,
            h.study.sites,
            h.held.shown(),
            h.held.pages,
            h.held.sites
        );
    }

    /// The table of a set scored by snippets: per page the `with` snippets
    /// found and the `without` snippets found, then the set's figures.
    fn render_snippets(
        &self,
        out: &mut String,
        rows: &[&PageScore],
        total: &snippets::SnippetCounts,
        w: usize,
    ) {
        let _ = writeln!(
            out,
            "{:<w$}  {:>6} {:>9} {:>9} {:>7} {:>7}",
            "page", "F", "with", "without", "tokens", "ms"
        );
        for p in rows {
            let c = p.snippets.unwrap_or_default();
            let _ = writeln!(
                out,
                "{:<w$}  {:>6.3} {:>9} {:>9} {:>7} {:>7.1}",
                p.name,
                p.score.f1,
                format!("{}/{}", c.tp, c.tp + c.fn_),
                format!("{}/{}", c.fp, c.fp + c.tn),
                p.extracted_tokens,
                p.millis
            );
        }
        let empty = self
            .pages
            .iter()
            .filter(|p| p.extracted_tokens == 0)
            .count();
        let _ = writeln!(
            out,
            "snippets over {} pages ({:?}): tp {} fn {} fp {} tn {}  P {:.3}  R {:.3}  F {:.3}  accuracy {:.3}  ({} empty; slowest {:.1} ms)",
            self.pages.len(),
            self.algorithm,
            total.tp,
            total.fn_,
            total.fp,
            total.tn,
            total.precision(),
            total.recall(),
            total.f(),
            total.accuracy(),
            empty,
            self.max_millis
        );
        self.render_halves(out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, name: &str, text: &str) {
        std::fs::write(dir.join(name), text).unwrap_or_else(|e| panic!("{name}: {e}"));
    }

    #[test]
    fn evaluate_dir_scores_pages_and_renders_worst() {
        let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let (html, gold) = (tmp.path().join("html"), tmp.path().join("gold"));
        for d in [&html, &gold] {
            std::fs::create_dir_all(d).unwrap_or_else(|e| panic!("{e}"));
        }
        let para = "<p>The council met on Monday and agreed the budget, after a long debate.</p>";
        write(
            &html,
            "good.html",
            &format!("<html><body>{para}{para}</body></html>"),
        );
        write(&gold, "good.txt", "The council met on Monday and agreed the budget, after a long debate.\n\nThe council met on Monday and agreed the budget, after a long debate.\n");
        write(
            &html,
            "bad.html",
            &format!("<html><body>{para}</body></html>"),
        );
        write(&gold, "bad.txt", "Something else entirely.");
        let report = evaluate_dir(
            &html,
            &gold,
            &ExtractOptions::default(),
            &GoldConvention::default(),
            2,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(report.pages.len(), 2);
        assert_eq!(report.pages[0].name, "bad");
        assert_eq!(report.pages[1].score.f1, 1.0);
        assert_eq!(report.pages[0].score.f1, 0.0);
        assert!((report.mean.f1 - 0.5).abs() < 1e-12);
        let table = report.render(Some(1));
        assert!(table.contains("bad") && !table.contains("good "), "{table}");
        assert!(table.contains("F1 0.500"), "{table}");
        let json = serde_json::to_string(&report).unwrap_or_default();
        assert!(json.contains("\"f1\":1.0"), "{json}");

        write(&html, "orphan.html", "<p>x</p>");
        let err = evaluate_dir(
            &html,
            &gold,
            &ExtractOptions::default(),
            &GoldConvention::default(),
            1,
        );
        assert!(matches!(err, Err(EvalError::MissingGold { .. })));
        let empty = tmp.path().join("empty");
        std::fs::create_dir_all(&empty).unwrap_or_else(|e| panic!("{e}"));
        let err = evaluate_dir(
            &empty,
            &gold,
            &ExtractOptions::default(),
            &GoldConvention::default(),
            1,
        );
        assert!(matches!(err, Err(EvalError::NoPages { .. })));
    }

    #[test]
    fn score_values() {
        let s = score("a b c d", "a b x d e");
        // LCS = a b d = 3; P = 3/4, R = 3/5.
        assert!((s.precision - 0.75).abs() < 1e-12);
        assert!((s.recall - 0.6).abs() < 1e-12);
        assert!((s.f1 - 2.0 * 0.75 * 0.6 / 1.35).abs() < 1e-12);
        assert!((s.cleaneval - 3.0 / 6.0).abs() < 1e-12);
        assert_eq!(score("", "gold").f1, 0.0);
        assert_eq!(score("", "").f1, 1.0);
        assert_eq!(score("x", "").f1, 0.0);
    }
}
