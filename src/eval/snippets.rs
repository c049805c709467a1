//! Scoring by snippets, as trafilatura's benchmark scores (its
//! `tests/eval_common.py`): a set with no gold texts but, per page, passages
//! that must be in the extraction (`with`) and boilerplate that must not
//! (`without`).
//!
//! In: a `snippets.json` file (`{"<page>.html": {"with": […], "without":
//! […]}, …}`) and the pages of the `html/` directory beside it. Out: per
//! page the four counts ([`SnippetCounts`]), summed over the set, and the
//! set's P, R, F and accuracy from the sums (not a mean over pages).
//!
//! The rule, exactly: collapse every run of whitespace in the extraction
//! and in each snippet to one space and strip both ends; a `with` snippet
//! found as a substring of the extraction is a true positive, otherwise a
//! false negative; a `without` snippet found is a false positive, otherwise
//! a true negative. P = tp/(tp+fp), R = tp/(tp+fn), F = 2tp/(2tp+fp+fn),
//! accuracy = (tp+tn)/all. The headline is not part of the scored text.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::corpus::score_pages;
use super::corpus::selected;
use super::site::page_site;
use super::{EvalError, EvalReport, GoldConvention, PageScore, Score};
use crate::extract::ExtractOptions;
use crate::words::{tokenize, word_count};

/// The snippets of one page.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
pub struct PageSnippets {
    /// Passages that must be in the extraction.
    #[serde(default)]
    pub with: Vec<String>,
    /// Passages that must not be.
    #[serde(default)]
    pub without: Vec<String>,
}

/// True/false positives and negatives of one page or summed over a set.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct SnippetCounts {
    /// `with` snippets found.
    pub tp: u32,
    /// `with` snippets missing.
    #[serde(rename = "fn")]
    pub fn_: u32,
    /// `without` snippets found.
    pub fp: u32,
    /// `without` snippets absent.
    pub tn: u32,
}

impl SnippetCounts {
    pub fn add(&mut self, other: SnippetCounts) {
        self.tp += other.tp;
        self.fn_ += other.fn_;
        self.fp += other.fp;
        self.tn += other.tn;
    }

    /// tp/(tp+fp); 1 when nothing was found at all (no false positive).
    pub fn precision(&self) -> f64 {
        ratio(self.tp, self.tp + self.fp)
    }

    /// tp/(tp+fn); 1 when there is nothing to find.
    pub fn recall(&self) -> f64 {
        ratio(self.tp, self.tp + self.fn_)
    }

    /// 2tp/(2tp+fp+fn); 1 when there is neither a positive nor an error.
    pub fn f(&self) -> f64 {
        ratio(2 * self.tp, 2 * self.tp + self.fp + self.fn_)
    }

    /// (tp+tn)/all.
    pub fn accuracy(&self) -> f64 {
        ratio(self.tp + self.tn, self.tp + self.tn + self.fp + self.fn_)
    }

    /// P, R and F as a [`Score`]; its `cleaneval` field holds the accuracy
    /// (there is no LCS to take a CleanEval score of).
    pub fn score(&self) -> Score {
        Score {
            precision: self.precision(),
            recall: self.recall(),
            f1: self.f(),
            cleaneval: self.accuracy(),
        }
    }
}

fn ratio(num: u32, den: u32) -> f64 {
    if den == 0 {
        1.0
    } else {
        f64::from(num) / f64::from(den)
    }
}

/// Whitespace as Python's `str.split()` sees it: Unicode white space plus
/// the information separators U+001C–U+001F.
fn is_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Every run of whitespace collapsed to one space, both ends stripped.
pub fn normalize(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text.split(is_space).filter(|w| !w.is_empty()) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// The counts of one page's extraction.
pub fn count(extracted: &str, snippets: &PageSnippets) -> SnippetCounts {
    let text = normalize(extracted);
    let found = |s: &String| text.contains(normalize(s).as_str());
    let tp = snippets.with.iter().filter(|s| found(s)).count() as u32;
    let fp = snippets.without.iter().filter(|s| found(s)).count() as u32;
    SnippetCounts {
        tp,
        fn_: snippets.with.len() as u32 - tp,
        fp,
        tn: snippets.without.len() as u32 - fp,
    }
}

/// `snippets.json`, keyed by page name (the file stem, as gold texts are).
pub fn load(path: &Path) -> Result<HashMap<String, PageSnippets>, EvalError> {
    let bytes = std::fs::read(path).map_err(|source| EvalError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let by_file: HashMap<String, PageSnippets> =
        serde_json::from_slice(&bytes).map_err(|e| EvalError::BadSnippets {
            path: path.to_path_buf(),
            why: e.to_string(),
        })?;
    Ok(by_file
        .into_iter()
        .map(|(file, s)| {
            let stem = Path::new(&file)
                .file_stem()
                .map_or(file.clone(), |s| s.to_string_lossy().into_owned());
            (stem, s)
        })
        .collect())
}

/// The snippet file that goes with a directory of pages: `snippets.json`
/// in the directory, else beside it (`<set>/html` and `<set>/snippets.json`).
pub fn beside(html_dir: &Path) -> Option<PathBuf> {
    let inside = html_dir.join("snippets.json");
    if inside.is_file() {
        return Some(inside);
    }
    let beside = html_dir.parent()?.join("snippets.json");
    beside.is_file().then_some(beside)
}

/// Extract every page of `html_dir` and score it by its snippets in
/// `snippets` (a page without snippets is an error, as a page without gold
/// text is). The report's `mean` holds the set's P, R and F from the summed
/// counts, and accuracy in place of the CleanEval score.
pub fn evaluate_snippets(
    html_dir: &Path,
    snippets: &Path,
    opts: &ExtractOptions,
    convention: &GoldConvention,
    jobs: usize,
) -> Result<EvalReport, EvalError> {
    let by_page = load(snippets)?;
    let opts = &convention.extract_options(opts);
    let scored = score_pages(html_dir, jobs, |page| {
        score_page(page, &by_page, snippets, opts, convention)
    })?;
    let mut total = SnippetCounts::default();
    for page in &scored {
        total.add(page.snippets.unwrap_or_default());
    }
    let mut report = EvalReport::from_pages(opts.algorithm, scored);
    report.convention = *convention;
    report.mean = total.score();
    report.snippets = Some(total);
    Ok(report)
}

fn score_page(
    page: &Path,
    by_page: &HashMap<String, PageSnippets>,
    snippets_path: &Path,
    opts: &ExtractOptions,
    convention: &GoldConvention,
) -> Result<PageScore, EvalError> {
    let name = page
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let Some(snippets) = by_page.get(&name) else {
        return Err(EvalError::MissingSnippets {
            page: page.to_path_buf(),
            snippets: snippets_path.to_path_buf(),
        });
    };
    let bytes = std::fs::read(page).map_err(|source| EvalError::Io {
        path: page.to_path_buf(),
        source,
    })?;
    let t0 = Instant::now();
    let selection = selected(&bytes, opts);
    let millis = t0.elapsed().as_secs_f64() * 1000.0;
    let text = convention.scored_text(&selection.article.text, selection.headline.as_deref());
    let counts = count(&text, snippets);
    Ok(PageScore {
        site: page_site(&bytes, &name),
        name,
        score: counts.score(),
        extracted_tokens: tokenize(&text).len(),
        gold_tokens: snippets.with.iter().map(|s| word_count(s)).sum(),
        millis,
        snippets: Some(counts),
        record: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn snippets(with: &[&str], without: &[&str]) -> PageSnippets {
        PageSnippets {
            with: with.iter().map(|s| s.to_string()).collect(),
            without: without.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn whitespace_runs_collapse_on_both_sides() {
        assert_eq!(normalize("  a\n\n b\u{a0}\tc  "), "a b c");
        let s = snippets(&["one two  three", "missing"], &["Home\n| News", "Imprint"]);
        let c = count("Start.\none\ntwo three.\n\nHome | News", &s);
        assert_eq!(
            c,
            SnippetCounts {
                tp: 1,
                fn_: 1,
                fp: 1,
                tn: 1
            }
        );
    }

    #[test]
    fn set_figures_come_from_summed_counts_not_page_means() {
        let mut total = SnippetCounts::default();
        total.add(SnippetCounts {
            tp: 3,
            fn_: 1,
            fp: 0,
            tn: 2,
        });
        total.add(SnippetCounts {
            tp: 0,
            fn_: 1,
            fp: 2,
            tn: 0,
        });
        assert!((total.precision() - 0.6).abs() < 1e-12);
        assert!((total.recall() - 0.6).abs() < 1e-12);
        assert!((total.f() - 6.0 / 10.0).abs() < 1e-12);
        assert!((total.accuracy() - 5.0 / 9.0).abs() < 1e-12);
        assert_eq!(SnippetCounts::default().f(), 1.0);
    }

    #[test]
    fn a_set_dir_scored_by_the_snippets_beside_it() {
        let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let html = tmp.path().join("set").join("html");
        std::fs::create_dir_all(&html).unwrap_or_else(|e| panic!("{e}"));
        let story = "The council met on Monday and agreed the budget, after a long debate.";
        let page = format!(
            "<html><body><nav><a href=/a>Home</a> <a href=/b>News</a></nav>\
             <p>{story}</p><p>{story}</p><p>Members said the plan would be reviewed.</p>\
             </body></html>"
        );
        std::fs::write(html.join("a.html"), page).unwrap_or_else(|e| panic!("{e}"));
        let json = format!(
            r#"{{"a.html": {{"with": ["{story}", "be reviewed."], "without": ["Home News"]}}}}"#
        );
        let file = tmp.path().join("set").join("snippets.json");
        std::fs::write(&file, json).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(beside(&html).as_deref(), Some(file.as_path()));
        let report = evaluate_snippets(
            &html,
            &file,
            &ExtractOptions::default(),
            &GoldConvention::default(),
            1,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            report.snippets,
            Some(SnippetCounts {
                tp: 2,
                fn_: 0,
                fp: 0,
                tn: 1
            })
        );
        assert_eq!(report.mean.f1, 1.0);
        std::fs::write(html.join("b.html"), "<p>x</p>").unwrap_or_else(|e| panic!("{e}"));
        let err = evaluate_snippets(
            &html,
            &file,
            &ExtractOptions::default(),
            &GoldConvention::default(),
            1,
        );
        assert!(matches!(err, Err(EvalError::MissingSnippets { .. })));
    }
}
