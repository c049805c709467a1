//! A record set's scores summed up: the means over the set, over each
//! language group and over each half of its sites.
//!
//! In: the scored pages of a report. Out: a [`RecordSummary`] and its
//! table.

use serde::Serialize;

use crate::eval::halves::{half_of, Half};
use crate::eval::PageScore;

/// The record scores of a report, over its pages and per language group.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct RecordSummary {
    /// `("all", …)` first, then each language group by name, then the
    /// studied and the held-out half of the sites ([`half_of`]).
    pub groups: Vec<GroupScores>,
}

/// Means over the pages of one group (each metadata score over the pages
/// whose gold has that field).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct GroupScores {
    pub group: String,
    pub pages: usize,
    /// Mean body F1 over the pages whose gold has a body (`None` for a
    /// silver set, which has none).
    pub body_f1: Option<f64>,
    /// Pages with no text extracted (where the gold has a body, or has
    /// no body gold at all: every page of a silver set is an article).
    pub empty: usize,
    pub title_exact: Option<f64>,
    pub authors_f1: Option<f64>,
    pub same_day: Option<f64>,
    pub tags_f1: Option<f64>,
    /// Share of the pages the crawl judges an article on their own.
    pub judged_article: Option<f64>,
}

fn mean(v: impl Iterator<Item = f64>) -> Option<f64> {
    let (mut sum, mut n) = (0.0, 0usize);
    for x in v {
        sum += x;
        n += 1;
    }
    (n > 0).then(|| sum / n as f64)
}

fn group_scores(group: &str, pages: &[&PageScore]) -> GroupScores {
    let recs = || pages.iter().filter_map(|p| p.record.as_ref());
    let flag = |b: bool| if b { 1.0 } else { 0.0 };
    GroupScores {
        group: group.to_string(),
        pages: pages.len(),
        body_f1: mean(
            pages
                .iter()
                .filter(|p| p.record.as_ref().is_some_and(|r| r.body_gold))
                .map(|p| p.score.f1),
        ),
        empty: pages
            .iter()
            .filter(|p| {
                let silver = p.record.as_ref().is_some_and(|r| !r.body_gold);
                p.extracted_tokens == 0 && (p.gold_tokens > 0 || silver)
            })
            .count(),
        title_exact: mean(recs().filter_map(|r| r.title_exact).map(flag)),
        authors_f1: mean(recs().filter_map(|r| r.authors_f1)),
        same_day: mean(recs().filter_map(|r| r.same_day).map(flag)),
        tags_f1: mean(recs().filter_map(|r| r.tags_f1)),
        judged_article: mean(recs().map(|r| flag(r.judged_article))),
    }
}

/// The summary of a report's record pages (`None` when it has none).
pub fn summary(pages: &[PageScore]) -> Option<RecordSummary> {
    let with: Vec<&PageScore> = pages.iter().filter(|p| p.record.is_some()).collect();
    if with.is_empty() {
        return None;
    }
    let mut groups: Vec<&str> = with
        .iter()
        .filter_map(|p| p.record.as_ref().map(|r| r.group))
        .collect();
    groups.sort_unstable();
    groups.dedup();
    let mut out = vec![group_scores("all", &with)];
    for g in groups {
        let mine: Vec<&PageScore> = with
            .iter()
            .copied()
            .filter(|p| p.record.as_ref().is_some_and(|r| r.group == g))
            .collect();
        out.push(group_scores(g, &mine));
    }
    for (name, half) in [("studied half", Half::Study), ("held-out half", Half::Held)] {
        let mine: Vec<&PageScore> = with
            .iter()
            .copied()
            .filter(|p| half_of(&p.site) == half)
            .collect();
        out.push(group_scores(name, &mine));
    }
    Some(RecordSummary { groups: out })
}

impl RecordSummary {
    /// One line per group: pages, body F1, empty pages, title, authors,
    /// day, tags, share judged an article.
    pub fn render(&self) -> String {
        use std::fmt::Write as _;
        let opt = |x: Option<f64>| x.map_or_else(|| "-".to_string(), |v| format!("{v:.3}"));
        let mut out = format!(
            "{:<13} {:>5} {:>7} {:>5} {:>7} {:>7} {:>7} {:>7} {:>7}\n",
            "group", "pages", "body F1", "empty", "title", "authors", "day", "tags", "article"
        );
        for g in &self.groups {
            let _ = writeln!(
                out,
                "{:<13} {:>5} {:>7} {:>5} {:>7} {:>7} {:>7} {:>7} {:>7}",
                g.group,
                g.pages,
                opt(g.body_f1),
                g.empty,
                opt(g.title_exact),
                opt(g.authors_f1),
                opt(g.same_day),
                opt(g.tags_f1),
                opt(g.judged_article)
            );
        }
        out
    }
}
