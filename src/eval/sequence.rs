//! Measuring per-site learning on page sequences.
//!
//! In: pages as (site key, extracted text, gold text), each site's pages in
//! crawl order, and the line settings. Out: a [`SequenceReport`] with, per
//! site, the mean F1 of the extracted text *without* learning, *with*
//! learning (each page cleaned with the counts learned up to and including
//! it), and *re-cleaned* (every page cleaned again once the whole sequence is
//! learned: the warm-up repair), over all pages, the first
//! [`FIRST_PAGES`] and the rest. Learning runs through the real store
//! ([`Store::replay_site`]) on an in-memory database with the real schema.

use serde::Serialize;

use super::Score;
use crate::boilerplate::LineSettings;
use crate::store::{Store, StoreError};

/// The warm-up window reported separately.
pub const FIRST_PAGES: usize = 5;

/// Mean F1 without learning, with learning, and after re-cleaning.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Means {
    pub pages: usize,
    pub without: f64,
    pub with: f64,
    pub recleaned: f64,
}

/// One site's sequence.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SiteSequence {
    pub site: String,
    pub all: Means,
    /// The first [`FIRST_PAGES`] pages.
    pub first: Means,
    /// Pages after the first [`FIRST_PAGES`].
    pub rest: Means,
    /// Lines removed while learning, over the sequence.
    pub lines_dropped: usize,
    /// Lines removed after re-cleaning, over the sequence.
    pub lines_dropped_recleaned: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SequenceReport {
    pub sites: Vec<SiteSequence>,
    /// All pages of all sites (each page weighs the same).
    pub overall: SiteSequence,
}

/// The site key of a corpus file stem: the part before the trailing `_NN`
/// (`tv.msnbc.com_news_07` → `tv.msnbc.com_news`).
pub fn site_key(stem: &str) -> &str {
    match stem.rsplit_once('_') {
        Some((key, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => key,
        _ => stem,
    }
}

/// Sort key giving each site's pages in numeric order (`_2` before `_10`).
pub fn page_order(stem: &str) -> (String, u64) {
    let key = site_key(stem);
    let n = stem
        .get(key.len() + 1..)
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    (key.to_string(), n)
}

/// Evaluate with the project's LCS scorer ([`super::score`]).
pub fn evaluate_sequence(
    pages: &[(String, String, String)],
    settings: &LineSettings,
) -> Result<SequenceReport, StoreError> {
    evaluate_sequence_with(pages, settings, super::score)
}

#[derive(Default)]
struct PageScores {
    without: Vec<f64>,
    with: Vec<f64>,
    recleaned: Vec<f64>,
}

/// Evaluate with any scorer `score(extracted, gold)`. Sites appear in the
/// report in order of first appearance; pages keep their order within a site.
pub fn evaluate_sequence_with(
    pages: &[(String, String, String)],
    settings: &LineSettings,
    score: impl Fn(&str, &str) -> Score,
) -> Result<SequenceReport, StoreError> {
    let mut store = Store::open_in_memory()?;
    let mut keys: Vec<&str> = Vec::new();
    for (key, _, _) in pages {
        if !keys.contains(&key.as_str()) {
            keys.push(key);
        }
    }
    let mut sites = Vec::with_capacity(keys.len());
    let mut all_scores = PageScores::default();
    let (mut all_dropped, mut all_dropped_re) = (0, 0);
    for key in &keys {
        let site_pages: Vec<&(String, String, String)> =
            pages.iter().filter(|(k, _, _)| k == key).collect();
        let texts: Vec<&str> = site_pages.iter().map(|(_, t, _)| t.as_str()).collect();
        let replayed = store.replay_site(key, &texts, settings)?;
        let mut scores = PageScores::default();
        let (mut dropped, mut dropped_re) = (0, 0);
        for (r, (_, extracted, gold)) in replayed.iter().zip(&site_pages) {
            dropped += r.learned.dropped;
            scores.without.push(score(extracted, gold).f1);
            scores.with.push(score(&r.learned.text, gold).f1);
            let lines = |t: &str| t.lines().filter(|l| !l.trim().is_empty()).count();
            dropped_re += lines(extracted).saturating_sub(lines(&r.recleaned));
            scores.recleaned.push(score(&r.recleaned, gold).f1);
        }
        sites.push(summarize(key, &scores, dropped, dropped_re));
        all_scores.without.extend(&scores.without);
        all_scores.with.extend(&scores.with);
        all_scores.recleaned.extend(&scores.recleaned);
        all_dropped += dropped;
        all_dropped_re += dropped_re;
    }
    // The overall first/rest split concatenates the sites' splits.
    let mut overall = summarize("all", &all_scores, all_dropped, all_dropped_re);
    let weighted = |pick: fn(&SiteSequence) -> Means| {
        let mut m = Means::default();
        for s in &sites {
            let p = pick(s);
            m.pages += p.pages;
            m.without += p.without * p.pages as f64;
            m.with += p.with * p.pages as f64;
            m.recleaned += p.recleaned * p.pages as f64;
        }
        if m.pages > 0 {
            let n = m.pages as f64;
            (m.without, m.with, m.recleaned) = (m.without / n, m.with / n, m.recleaned / n);
        }
        m
    };
    overall.first = weighted(|s| s.first);
    overall.rest = weighted(|s| s.rest);
    Ok(SequenceReport { sites, overall })
}

fn mean(v: &[f64]) -> f64 {
    if v.is_empty() {
        0.0
    } else {
        v.iter().sum::<f64>() / v.len() as f64
    }
}

fn means(s: &PageScores, range: std::ops::Range<usize>) -> Means {
    let range = range.start.min(s.with.len())..range.end.min(s.with.len());
    Means {
        pages: range.len(),
        without: mean(&s.without[range.clone()]),
        with: mean(&s.with[range.clone()]),
        recleaned: mean(&s.recleaned[range]),
    }
}

fn summarize(site: &str, s: &PageScores, dropped: usize, dropped_re: usize) -> SiteSequence {
    SiteSequence {
        site: site.to_string(),
        all: means(s, 0..s.with.len()),
        first: means(s, 0..FIRST_PAGES),
        rest: means(s, FIRST_PAGES..s.with.len()),
        lines_dropped: dropped,
        lines_dropped_recleaned: dropped_re,
    }
}

impl SequenceReport {
    /// A plain-text table: one row per site, then the overall row.
    pub fn render(&self) -> String {
        let mut out = format!(
            "{:<28} {:>5}  {:>7} {:>7} {:>7} {:>7}  {:>7} {:>7}  {:>7} {:>7}  {:>7}\n",
            "site",
            "pages",
            "F1 off",
            "F1 on",
            "reclean",
            "Δ",
            "1-5 off",
            "1-5 on",
            "6+ off",
            "6+ on",
            "dropped",
        );
        for s in self.sites.iter().chain(std::iter::once(&self.overall)) {
            out.push_str(&format!(
                "{:<28} {:>5}  {:>7.4} {:>7.4} {:>7.4} {:>+7.4}  {:>7.4} {:>7.4}  {:>7.4} {:>7.4}  {:>7}\n",
                s.site,
                s.all.pages,
                s.all.without,
                s.all.with,
                s.all.recleaned,
                s.all.recleaned - s.all.without,
                s.first.without,
                s.first.with,
                s.rest.without,
                s.rest.with,
                s.lines_dropped_recleaned,
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests;
