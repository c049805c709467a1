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

use crate::extract::{extract_bytes, Algorithm, ExtractOptions};

#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Score {
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
    pub cleaneval: f64,
}

/// Han ideographs, kana and CJK punctuation/fullwidth forms: one token each.
pub fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3000..=0x303F   // CJK symbols and punctuation
        | 0x3040..=0x30FF // Hiragana, Katakana
        | 0x3400..=0x4DBF // Ext A
        | 0x4E00..=0x9FFF // Unified
        | 0xF900..=0xFAFF // Compatibility
        | 0xFF00..=0xFFEF // Halfwidth and fullwidth forms
        | 0x20000..=0x2FFFF)
}

/// Split text into tokens (borrowed slices): whitespace-separated words, with
/// each CJK character as its own token.
pub fn tokenize(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for word in text.split_whitespace() {
        if word.is_ascii() {
            out.push(word);
            continue;
        }
        let mut start: Option<usize> = None;
        for (i, c) in word.char_indices() {
            if is_cjk(c) {
                if let Some(s) = start.take() {
                    out.push(&word[s..i]);
                }
                out.push(&word[i..i + c.len_utf8()]);
            } else if start.is_none() {
                start = Some(i);
            }
        }
        if let Some(s) = start {
            out.push(&word[s..]);
        }
    }
    out
}

/// Length of the longest common subsequence of two id sequences
/// (bit-parallel; the shorter sequence is the bit dimension).
pub fn lcs_len(a: &[u32], b: &[u32]) -> usize {
    let (a, b) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    let m = a.len();
    if m == 0 {
        return 0;
    }
    let w = m.div_ceil(64);
    // Match masks only for symbols that occur in `a`; others never match.
    let max_id = a.iter().chain(b).copied().max().unwrap_or(0) as usize;
    let mut slot = vec![u32::MAX; max_id + 1];
    let mut masks: Vec<u64> = Vec::new();
    for (i, &t) in a.iter().enumerate() {
        let s = &mut slot[t as usize];
        if *s == u32::MAX {
            *s = (masks.len() / w) as u32;
            masks.resize(masks.len() + w, 0);
        }
        masks[*s as usize * w + i / 64] |= 1u64 << (i % 64);
    }
    let mut v = vec![u64::MAX; w];
    for &t in b {
        let s = slot[t as usize];
        if s == u32::MAX {
            continue; // no match: V stays as it is
        }
        let mk = &masks[s as usize * w..(s as usize + 1) * w];
        let mut carry = 0u64;
        for (vk, &mk) in v.iter_mut().zip(mk) {
            let x = *vk;
            let u = x & mk;
            let (s1, c1) = x.overflowing_add(u);
            let (s2, c2) = s1.overflowing_add(carry);
            carry = u64::from(c1 | c2);
            *vk = s2 | (x & !mk);
        }
    }
    // LCS = number of zero bits among the first m bits.
    let mut zeros = 0usize;
    for (k, &x) in v.iter().enumerate() {
        let bits = if k + 1 == w && m % 64 != 0 {
            m % 64
        } else {
            64
        };
        let mask = if bits == 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        };
        zeros += (!x & mask).count_ones() as usize;
    }
    zeros
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

/// Extract every `html_dir/<name>.html` (as bytes, via [`extract_bytes`]) and
/// score it against `gold_dir/<name>.txt`, on `jobs` threads.
pub fn evaluate_dir(
    html_dir: &Path,
    gold_dir: &Path,
    opts: &ExtractOptions,
    jobs: usize,
) -> Result<EvalReport, EvalError> {
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
                let r = eval_page(page, gold_dir, opts);
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
        pages: scored,
        mean,
        max_millis,
    })
}

fn eval_page(page: &Path, gold_dir: &Path, opts: &ExtractOptions) -> Result<PageScore, EvalError> {
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
    let article = extract_bytes(&bytes, None, None, opts);
    let millis = t0.elapsed().as_secs_f64() * 1000.0;
    let a = tokenize(&article.text);
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

    fn naive_lcs(a: &[u32], b: &[u32]) -> usize {
        let mut dp = vec![vec![0usize; b.len() + 1]; a.len() + 1];
        for i in 1..=a.len() {
            for j in 1..=b.len() {
                dp[i][j] = if a[i - 1] == b[j - 1] {
                    dp[i - 1][j - 1] + 1
                } else {
                    dp[i - 1][j].max(dp[i][j - 1])
                };
            }
        }
        dp[a.len()][b.len()]
    }

    /// xorshift: deterministic pseudo-random inputs without a dependency.
    fn rng(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    #[test]
    fn lcs_matches_naive_dp_on_random_inputs() {
        let mut s = 0x9E37_79B9_7F4A_7C15u64;
        for round in 0..400 {
            let la = (rng(&mut s) % 150) as usize;
            let lb = (rng(&mut s) % 150) as usize;
            let alpha = 1 + rng(&mut s) % 12;
            let a: Vec<u32> = (0..la).map(|_| (rng(&mut s) % alpha) as u32).collect();
            let b: Vec<u32> = (0..lb).map(|_| (rng(&mut s) % alpha) as u32).collect();
            assert_eq!(
                lcs_len(&a, &b),
                naive_lcs(&a, &b),
                "round {round}: {a:?} {b:?}"
            );
        }
    }

    #[test]
    fn lcs_word_boundaries() {
        for n in [63usize, 64, 65, 127, 128, 129] {
            let a: Vec<u32> = (0..n as u32).collect();
            assert_eq!(lcs_len(&a, &a), n);
            let b: Vec<u32> = (0..n as u32).rev().collect();
            assert_eq!(lcs_len(&a, &b), 1);
        }
    }

    #[test]
    fn tokens_split_cjk_chars() {
        assert_eq!(
            tokenize("Hello  world\n中文abc 。"),
            vec!["Hello", "world", "中", "文", "abc", "。"]
        );
    }

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
        let report = evaluate_dir(&html, &gold, &ExtractOptions::default(), 2)
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
        let err = evaluate_dir(&html, &gold, &ExtractOptions::default(), 1);
        assert!(matches!(err, Err(EvalError::MissingGold { .. })));
        let empty = tmp.path().join("empty");
        std::fs::create_dir_all(&empty).unwrap_or_else(|e| panic!("{e}"));
        let err = evaluate_dir(&empty, &gold, &ExtractOptions::default(), 1);
        assert!(matches!(err, Err(EvalError::NoPages { .. })));
    }

    #[test]
    fn lcs_fast_on_20k_tokens() {
        // Correctness on a long input (speed is for benches): a 20k-token
        // text against itself with every 10th token changed.
        let a: Vec<u32> = (0..20_000u32).map(|i| i % 5000).collect();
        let b: Vec<u32> = a
            .iter()
            .enumerate()
            .map(|(i, &t)| if i % 10 == 0 { 9_999 } else { t })
            .collect();
        assert_eq!(lcs_len(&a, &b), 18_000);
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
