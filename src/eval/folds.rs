//! Training and held-out scoring of the learned block classifiers (`nb`,
//! `tree`): `newshound train` and the `nb`/`tree` rows of `eval`.
//!
//! In: a directory of pages and one of gold texts. Out: [`LabelledPage`]s
//! (blocks, features and gold labels), a trained [`BlockModel`], and
//! [`FoldReport`]s that score every page with a model that never saw it.
//!
//! Labels: a block is content when most of its tokens are in the gold text,
//! in order: |LCS(block, gold)| ≥ ½ |block| ([`CONTENT_SHARE`]).
//!
//! Folds are by site, so no model is scored on pages of a site it was
//! trained on: the site of a page is the host of its canonical URL (`link
//! rel=canonical`, else `og:url`) when it has one, else its file name
//! without a trailing `_NN`/`-NN` (`tv.msnbc.com_news_07` →
//! `tv.msnbc.com_news`); sites are dealt round-robin, in name order, into
//! the folds.

use std::collections::{BTreeSet, HashMap};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use serde::Serialize;

use super::corpus::read_page_and_gold;
use super::site::site_in;
use super::{lcs_len, score, EvalError, EvalReport, PageScore};
use crate::extract::blocks::{blocks, Features};
use crate::extract::model::BlockModel;
use crate::extract::nb::NbModel;
use crate::extract::tree::c45::{self, Sample};
use crate::extract::{charset, dom::Dom, strip, Algorithm, ExtractOptions, Extractor, Page};
use crate::extract_dir;
use crate::words::tokenize;

/// Share of a block's tokens that must be in the gold for a content label.
pub const CONTENT_SHARE: f64 = 0.5;
/// Folds of `train`'s cross-validation and of `eval`'s held-out rows.
pub const DEFAULT_FOLDS: usize = 5;

/// One gold page, segmented and labelled.
#[derive(Debug, Clone)]
pub struct LabelledPage {
    /// File stem.
    pub name: String,
    /// Site key (see the module doc).
    pub site: String,
    pub bytes: Vec<u8>,
    pub gold: String,
    pub features: Vec<Features>,
    /// Content (true) or noise, per block.
    pub labels: Vec<bool>,
}

/// Run `f` over `items` on `jobs` threads; results in input order.
fn par_map<T: Sync, R: Send>(items: &[T], jobs: usize, f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let out: Mutex<Vec<(usize, R)>> = Mutex::new(Vec::with_capacity(items.len()));
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(i) else { break };
                let r = f(item);
                if let Ok(mut v) = out.lock() {
                    v.push((i, r));
                }
            });
        }
    });
    let mut out = out.into_inner().unwrap_or_default();
    out.sort_by_key(|(i, _)| *i);
    out.into_iter().map(|(_, r)| r).collect()
}

/// Segment and label one page.
fn label_page(path: &Path, gold_dir: &Path) -> Result<LabelledPage, EvalError> {
    let (name, bytes, gold) = read_page_and_gold(path, gold_dir)?;
    let html = charset::decode(&bytes, None, None);
    let doc = scraper::Html::parse_document(&strip::strip(&html.text));
    let site = site_in(&doc, &name);
    let dom = Dom::build(&doc);
    let page_blocks = blocks(&dom);
    let gold_tokens = tokenize(&gold);
    let mut ids: HashMap<&str, u32> = HashMap::new();
    let gold_ids: Vec<u32> = gold_tokens
        .iter()
        .map(|t| {
            let n = ids.len() as u32;
            *ids.entry(t).or_insert(n)
        })
        .collect();
    // Tokens absent from the gold can never match: one fresh id for all.
    let absent = ids.len() as u32;
    let mut labels = Vec::with_capacity(page_blocks.len());
    for b in &page_blocks {
        let text: Vec<&str> = b
            .text_nodes
            .iter()
            .map(|&t| dom.nodes[t as usize].text)
            .collect();
        let joined = text.join(" ");
        let block_ids: Vec<u32> = tokenize(&joined)
            .iter()
            .map(|t| ids.get(t).copied().unwrap_or(absent))
            .collect();
        let matched = lcs_len(&block_ids, &gold_ids);
        labels.push(
            !block_ids.is_empty() && matched as f64 >= CONTENT_SHARE * block_ids.len() as f64,
        );
    }
    let features = page_blocks.iter().map(|b| b.features).collect();
    Ok(LabelledPage {
        name,
        site,
        bytes,
        gold,
        features,
        labels,
    })
}

/// Segment and label every `html_dir/<name>.html` against `gold_dir/<name>.txt`.
pub fn label_dir(
    html_dir: &Path,
    gold_dir: &Path,
    jobs: usize,
) -> Result<Vec<LabelledPage>, EvalError> {
    let paths = extract_dir::html_files(html_dir).map_err(|source| EvalError::Io {
        path: html_dir.to_path_buf(),
        source,
    })?;
    if paths.is_empty() {
        return Err(EvalError::NoPages {
            dir: html_dir.to_path_buf(),
        });
    }
    par_map(&paths, jobs, |p| label_page(p, gold_dir))
        .into_iter()
        .collect()
}

/// Train a model of `algorithm` (`nb` or `tree`) on labelled pages.
pub fn train<'p>(
    algorithm: Algorithm,
    pages: impl IntoIterator<Item = &'p LabelledPage>,
) -> Option<BlockModel> {
    let samples = pages
        .into_iter()
        .flat_map(|p| p.features.iter().zip(p.labels.iter().copied()));
    match algorithm {
        Algorithm::Nb => Some(BlockModel::Nb(NbModel::train(samples))),
        Algorithm::Tree => {
            let samples: Vec<Sample> = samples
                .map(|(f, content)| Sample {
                    x: f.tree_vector(),
                    content,
                })
                .collect();
            Some(BlockModel::Tree(c45::train(&samples)))
        }
        _ => None,
    }
}

/// Fold of every page: sites in name order, dealt round-robin.
pub fn site_folds(pages: &[LabelledPage], k: usize) -> Vec<usize> {
    let sites: BTreeSet<&str> = pages.iter().map(|p| p.site.as_str()).collect();
    let fold_of: HashMap<&str, usize> = sites
        .into_iter()
        .enumerate()
        .map(|(i, s)| (s, i % k.max(1)))
        .collect();
    pages
        .iter()
        .map(|p| fold_of.get(p.site.as_str()).copied().unwrap_or(0))
        .collect()
}

/// Block-level precision, recall and F1 (micro-averaged over blocks).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct BlockScore {
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
    pub blocks: u64,
}

/// Held-out result: every page scored by the model of the folds without it.
#[derive(Debug, Clone, Serialize)]
pub struct FoldReport {
    pub folds: usize,
    pub sites: usize,
    pub blocks: BlockScore,
    /// Text-level LCS scores of the held-out pages.
    pub text: EvalReport,
}

/// k-fold cross-validation by site of `algorithm` on labelled pages.
pub fn cross_validate(
    algorithm: Algorithm,
    pages: &[LabelledPage],
    k: usize,
    jobs: usize,
) -> Option<FoldReport> {
    let fold = site_folds(pages, k);
    let k = k.max(1);
    let models: Vec<Option<Arc<BlockModel>>> = (0..k)
        .map(|f| {
            let train_pages = pages.iter().zip(&fold).filter(|(_, &pf)| pf != f);
            train(algorithm, train_pages.map(|(p, _)| p)).map(Arc::new)
        })
        .collect();
    let (mut tp, mut fp, mut fn_, mut n) = (0u64, 0u64, 0u64, 0u64);
    for (page, &f) in pages.iter().zip(&fold) {
        let model = models[f].as_ref()?;
        for (feat, &label) in page.features.iter().zip(&page.labels) {
            let predicted = match model.as_ref() {
                BlockModel::Nb(m) => m.is_content(feat),
                BlockModel::Tree(m) => m.is_content(feat),
            };
            n += 1;
            match (predicted, label) {
                (true, true) => tp += 1,
                (true, false) => fp += 1,
                (false, true) => fn_ += 1,
                _ => {}
            }
        }
    }
    let ratio = |a: u64, b: u64| if b == 0 { 0.0 } else { a as f64 / b as f64 };
    let (p, r) = (ratio(tp, tp + fp), ratio(tp, tp + fn_));
    let blocks = BlockScore {
        precision: p,
        recall: r,
        f1: if p + r > 0.0 {
            2.0 * p * r / (p + r)
        } else {
            0.0
        },
        blocks: n,
    };
    let indexed: Vec<(usize, &LabelledPage)> = fold.iter().copied().zip(pages).collect();
    let scored = par_map(&indexed, jobs, |(f, page)| {
        let extractor = Extractor::new(ExtractOptions {
            algorithm,
            model: models[*f].clone(),
            text_only: true,
            ..ExtractOptions::default()
        });
        let t0 = Instant::now();
        let text = extractor
            .extract(Page::from_bytes(&page.bytes, None))
            .article
            .text;
        let millis = t0.elapsed().as_secs_f64() * 1000.0;
        let s = score(&text, &page.gold);
        PageScore {
            name: page.name.clone(),
            site: page.site.clone(),
            score: s,
            extracted_tokens: tokenize(&text).len(),
            gold_tokens: tokenize(&page.gold).len(),
            millis,
            snippets: None,
            record: None,
        }
    });
    let sites: BTreeSet<&str> = pages.iter().map(|p| p.site.as_str()).collect();
    Some(FoldReport {
        folds: k,
        sites: sites.len(),
        blocks,
        text: EvalReport::from_pages(algorithm, scored),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three "sites", three pages each: a link menu, a story, a footer.
    fn write_set(root: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
        let (html, gold) = (root.join("html"), root.join("gold"));
        for d in [&html, &gold] {
            std::fs::create_dir_all(d).unwrap_or_else(|e| panic!("{e}"));
        }
        for site in ["alpha", "beta", "gamma"] {
            for i in 0..3 {
                let story = format!(
                    "The {site} council met on day {i}, and agreed the budget after a long \
                     debate. Members said the plan would be reviewed next spring."
                );
                let page = format!(
                    "<html><body><div class=menu><a href=/a>Home</a> <a href=/b>World</a> \
                     <a href=/c>Sport</a></div><div class=story><p>{story}</p><p>{story}</p>\
                     </div><div class=foot><a href=/e>Privacy</a> <a href=/f>Terms</a></div>\
                     </body></html>"
                );
                let write = |p: std::path::PathBuf, t: &str| {
                    std::fs::write(&p, t).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
                };
                write(html.join(format!("{site}_{i}.html")), &page);
                write(
                    gold.join(format!("{site}_{i}.txt")),
                    &format!("{story}\n\n{story}\n"),
                );
            }
        }
        (html, gold)
    }

    #[test]
    fn labels_by_lcs_and_folds_by_site() {
        let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let (html, gold) = write_set(tmp.path());
        let pages = label_dir(&html, &gold, 2).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(pages.len(), 9);
        for p in &pages {
            // menu, story, footer: only the story is content.
            assert_eq!(p.labels, vec![false, true, false], "{}", p.name);
        }
        let folds = site_folds(&pages, 5);
        for (a, fa) in pages.iter().zip(&folds) {
            for (b, fb) in pages.iter().zip(&folds) {
                assert_eq!(a.site == b.site, fa == fb, "{} {}", a.name, b.name);
            }
        }
    }

    #[test]
    fn trained_models_round_trip_through_json() {
        let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let (html, gold) = write_set(tmp.path());
        let pages = label_dir(&html, &gold, 1).unwrap_or_else(|e| panic!("{e}"));
        for alg in [Algorithm::Nb, Algorithm::Tree] {
            let model = train(alg, &pages).unwrap_or_else(|| panic!("{alg:?} trains"));
            let path = tmp.path().join(format!("{}.json", alg.name()));
            std::fs::write(&path, model.to_json()).unwrap_or_else(|e| panic!("{e}"));
            let back = BlockModel::load(&path).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(back, model, "{alg:?}");
            let page = &pages[0];
            let extractor = Extractor::new(ExtractOptions {
                algorithm: alg,
                model: Some(Arc::new(back)),
                text_only: true,
                ..ExtractOptions::default()
            });
            let text = extractor
                .extract(Page::from_bytes(&page.bytes, None))
                .article
                .text;
            assert!(
                text.contains("agreed the budget") && !text.contains("Privacy"),
                "{alg:?}: {text}"
            );
        }
        let cv = cross_validate(Algorithm::Nb, &pages, 3, 1);
        let cv = cv.unwrap_or_else(|| panic!("nb cross-validates"));
        assert_eq!((cv.folds, cv.sites), (3, 3));
        assert_eq!(cv.text.pages.len(), 9);
        assert!(cv.text.mean.f1 > 0.9, "{:?}", cv.text.mean);
    }
}
