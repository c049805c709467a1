//! Scoring extracted text against gold text (the papers' LCS metric), and the
//! `eval` driver over a directory of pages.
//!
//! In: extracted text and gold text (or an html dir + gold dir). Out: [`Score`]
//! (or an [`EvalReport`] with per-page scores and means).
//!
//! Tokens: whitespace-separated words, and each CJK character on its own.
//! P = |LCS|/|extracted|, R = |LCS|/|gold|, F1 = 2PR/(P+R);
//! CleanEval = |LCS|/(|a|+|b|−|LCS|). The LCS length is computed bit-parallel
//! (Allison–Dix / Hyyrö): O(n·⌈m/64⌉) word operations, fast on 20k-token pages.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use serde::Serialize;

use crate::extract::{extract_bytes_selection, Algorithm, ExtractOptions};

mod convention;
mod lcs;
pub use convention::{ConventionSource, GoldConvention};
pub use lcs::{is_cjk, lcs_len, tokenize};

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
}

/// Score of one page.
#[derive(Debug, Clone, Serialize)]
pub struct PageScore {
    /// File stem (`<name>.html` / `<name>.txt`).
    pub name: String,
    #[serde(flatten)]
    pub score: Score,
    pub extracted_tokens: usize,
    pub gold_tokens: usize,
    /// Wall time of extraction (decode to text), milliseconds.
    pub millis: f64,
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
}

impl EvalReport {
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
        out
    }
}

/// Extract every `html_dir/<name>.html` (as bytes, via
/// [`extract_bytes_selection`]) and score it against `gold_dir/<name>.txt` by
/// the set's `convention`, on `jobs` threads.
pub fn evaluate_dir(
    html_dir: &Path,
    gold_dir: &Path,
    opts: &ExtractOptions,
    convention: &GoldConvention,
    jobs: usize,
) -> Result<EvalReport, EvalError> {
    let opts = &ExtractOptions {
        comments: opts.comments || convention.has_comments,
        ..opts.clone()
    };
    let pages = html_files(html_dir)?;
    if pages.is_empty() {
        return Err(EvalError::NoPages {
            dir: html_dir.to_path_buf(),
        });
    }
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Result<PageScore, EvalError>>> = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(page) = pages.get(i) else { break };
                let r = eval_page(page, gold_dir, opts, convention);
                if let Ok(mut v) = results.lock() {
                    v.push(r);
                }
            });
        }
    });
    let results = results.into_inner().unwrap_or_default();
    let mut scored = Vec::with_capacity(results.len());
    for r in results {
        scored.push(r?);
    }
    scored.sort_by(|a, b| a.name.cmp(&b.name));
    let n = scored.len() as f64;
    let mut mean = Score::default();
    let mut max_millis: f64 = 0.0;
    for p in &scored {
        mean.precision += p.score.precision / n;
        mean.recall += p.score.recall / n;
        mean.f1 += p.score.f1 / n;
        mean.cleaneval += p.score.cleaneval / n;
        max_millis = max_millis.max(p.millis);
    }
    Ok(EvalReport {
        algorithm: opts.algorithm,
        convention: *convention,
        pages: scored,
        mean,
        max_millis,
    })
}

fn eval_page(
    page: &Path,
    gold_dir: &Path,
    opts: &ExtractOptions,
    convention: &GoldConvention,
) -> Result<PageScore, EvalError> {
    let name = page
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let gold_path = gold_dir.join(format!("{name}.txt"));
    let bytes = std::fs::read(page).map_err(|source| EvalError::Io {
        path: page.to_path_buf(),
        source,
    })?;
    let gold = match std::fs::read(&gold_path) {
        Ok(g) => String::from_utf8_lossy(&g).into_owned(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(EvalError::MissingGold {
                page: page.to_path_buf(),
                gold: gold_path,
            })
        }
        Err(source) => {
            return Err(EvalError::Io {
                path: gold_path,
                source,
            })
        }
    };
    let t0 = Instant::now();
    // Only the text is scored: skip metadata and language detection.
    let selection = extract_bytes_selection(&bytes, None, None, opts);
    let millis = t0.elapsed().as_secs_f64() * 1000.0;
    let text = convention.scored_text(&selection.text, selection.headline.as_deref());
    let a = tokenize(&text);
    let b = tokenize(&gold);
    Ok(PageScore {
        name,
        score: score_tokens(&a, &b),
        extracted_tokens: a.len(),
        gold_tokens: b.len(),
        millis,
    })
}

/// `dir/*.html` (and `.htm`), sorted by name.
pub fn html_files(dir: &Path) -> Result<Vec<PathBuf>, EvalError> {
    let io = |source| EvalError::Io {
        path: dir.to_path_buf(),
        source,
    };
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let path = entry.map_err(io)?.path();
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
