//! The evaluation drivers over a directory of pages with gold texts.
//!
//! In: `html/<name>.html` pages, `gold/<name>.txt` gold texts, extraction
//! options. Out: an [`EvalReport`] (every page extracted and scored, on the
//! page pool `extract DIR` uses), or the [`SequencePages`] that
//! `eval --sequence` feeds through boilerplate learning.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

use super::sequence::{page_order, site_key};
use super::site::page_site;
use super::{score_tokens, EvalError, EvalReport, GoldConvention, PageScore, Score};
use crate::extract::{ExtractOptions, Extraction, Extractor, Page};
use crate::extract_dir;
use crate::words::tokenize;

/// The pages of a directory (as `extract DIR` lists them).
pub(super) fn page_list(dir: &Path) -> Result<Vec<PathBuf>, EvalError> {
    extract_dir::html_files(dir).map_err(|source| EvalError::Io {
        path: dir.to_path_buf(),
        source,
    })
}

/// Extract every `html_dir/<name>.html` (as bytes, text only: `selected`)
/// and score it against `gold_dir/<name>.txt` by
/// the set's `convention`, on `jobs` threads.
pub fn evaluate_dir(
    html_dir: &Path,
    gold_dir: &Path,
    opts: &ExtractOptions,
    convention: &GoldConvention,
    jobs: usize,
) -> Result<EvalReport, EvalError> {
    let opts = &convention.extract_options(opts);
    if !gold_dir.is_dir() {
        return Err(EvalError::NoGoldDir {
            dir: gold_dir.to_path_buf(),
        });
    }
    let mut scored = score_pages(html_dir, jobs, |page| {
        eval_page(page, gold_dir, opts, convention)
    })?;
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
        snippets: None,
    })
}

/// Score every `html_dir/<name>.html` with `score` on `jobs` threads: the
/// scores in no particular order, or the first error. A directory without
/// pages is an error.
pub(super) fn score_pages<F>(
    html_dir: &Path,
    jobs: usize,
    score: F,
) -> Result<Vec<PageScore>, EvalError>
where
    F: Fn(&Path) -> Result<PageScore, EvalError> + Sync,
{
    let pages = page_list(html_dir)?;
    if pages.is_empty() {
        return Err(EvalError::NoPages {
            dir: html_dir.to_path_buf(),
        });
    }
    let results: Mutex<Vec<Result<PageScore, EvalError>>> = Mutex::new(Vec::new());
    extract_dir::for_each_page(&pages, jobs, |_: &mut (), page| {
        let r = score(page);
        if let Ok(mut v) = results.lock() {
            v.push(r);
        }
    });
    results
        .into_inner()
        .unwrap_or_default()
        .into_iter()
        .collect()
}

/// The text and headline of a page's bytes: only the text is scored, so
/// metadata and language detection are skipped.
pub(super) fn selected(bytes: &[u8], opts: &ExtractOptions) -> Extraction {
    let extractor = Extractor::new(ExtractOptions {
        text_only: true,
        ..opts.clone()
    });
    extractor.extract(Page::from_bytes(bytes, None))
}

fn eval_page(
    page: &Path,
    gold_dir: &Path,
    opts: &ExtractOptions,
    convention: &GoldConvention,
) -> Result<PageScore, EvalError> {
    let (name, bytes, gold) = read_page_and_gold(page, gold_dir)?;
    let t0 = Instant::now();
    let selection = selected(&bytes, opts);
    let millis = t0.elapsed().as_secs_f64() * 1000.0;
    let text = convention.scored_text(&selection.article.text, selection.headline.as_deref());
    let a = tokenize(&text);
    let b = tokenize(&gold);
    Ok(PageScore {
        site: page_site(&bytes, &name),
        name,
        score: score_tokens(&a, &b),
        extracted_tokens: a.len(),
        gold_tokens: b.len(),
        millis,
        snippets: None,
        record: None,
    })
}

/// Pages for `eval --sequence`: (site key, extracted text, gold text), each
/// site's pages in numeric order (`_2` before `_10`), and the pages skipped
/// because they have no gold text.
#[derive(Debug, Clone, Default)]
pub struct SequencePages {
    pub pages: Vec<(String, String, String)>,
    /// Gold files that do not exist (their pages are skipped).
    pub missing: Vec<PathBuf>,
}

/// Extract every page of `html_dir` (the same page set as [`evaluate_dir`])
/// and pair it with its gold text. Learning is order-dependent, so the order
/// is the one the report describes. A page whose gold file is missing is
/// skipped and listed; an unreadable gold file is an error.
pub fn sequence_pages(
    html_dir: &Path,
    gold_dir: &Path,
    opts: &ExtractOptions,
    convention: &GoldConvention,
) -> Result<SequencePages, EvalError> {
    let opts = &convention.extract_options(opts);
    let mut names = page_list(html_dir)?;
    names.sort_by_key(|p| page_order(&p.file_stem().unwrap_or_default().to_string_lossy()));
    if names.is_empty() {
        return Err(EvalError::NoPages {
            dir: html_dir.to_path_buf(),
        });
    }
    if !gold_dir.is_dir() {
        return Err(EvalError::NoGoldDir {
            dir: gold_dir.to_path_buf(),
        });
    }
    let mut out = SequencePages::default();
    for path in &names {
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let gold_path = gold_dir.join(format!("{stem}.txt"));
        let gold_text = match std::fs::read_to_string(&gold_path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                out.missing.push(gold_path);
                continue;
            }
            // Not UTF-8, a directory, unreadable: say so, not "no gold text".
            Err(source) => {
                return Err(EvalError::GoldUnreadable {
                    path: gold_path,
                    source,
                })
            }
        };
        let bytes = std::fs::read(path).map_err(|source| EvalError::PageUnreadable {
            path: path.clone(),
            source,
        })?;
        let selected = selected(&bytes, opts);
        let text = convention.scored_text(&selected.article.text, selected.headline.as_deref());
        out.pages
            .push((site_key(&stem).to_string(), text, gold_text));
    }
    if out.pages.is_empty() {
        return Err(EvalError::NoGold {
            html_dir: html_dir.to_path_buf(),
            pages: out.missing.len(),
            gold_dir: gold_dir.to_path_buf(),
        });
    }
    Ok(out)
}

/// A page's name (file stem), its bytes and its gold text (`GOLD/<name>.txt`);
/// a page without gold is [`EvalError::MissingGold`].
pub(super) fn read_page_and_gold(
    page: &Path,
    gold_dir: &Path,
) -> Result<(String, Vec<u8>, String), EvalError> {
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
    Ok((name, bytes, gold))
}
