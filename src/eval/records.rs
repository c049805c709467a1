//! Sets whose gold is a JSON record per page (`gold/<name>.json`, as
//! fundus-dev): the article body and the metadata news researchers use.
//!
//! In: `html/<name>.html` and `gold/<name>.json` (`body_text`, `title`,
//! `authors`, `publishing_date`, `topics`, `url`, `language`, `publisher`).
//! Out: an [`EvalReport`] whose pages carry [`RecordScores`], and its
//! [`RecordSummary`]: body F1 and metadata scores, over the set and per
//! language group.
//!
//! Scored as the set's README says its held-out half is scored:
//! - body: LCS F1 over [`record_tokens`] (words lower-cased, split on
//!   non-word characters; CJK and Thai text one token per character);
//! - title: exact after NFKC, whitespace collapse and case fold;
//! - authors: set F1 of normalised names, over pages whose gold has authors;
//! - date: the same calendar day as `publishing_date` (each date's own
//!   offset), over pages whose gold has one.
//!
//! The page's real address (`url`) is given to the extractor, as a crawl
//! gives it: it resolves relative links and holds dates.

use std::path::Path;
use std::time::Instant;

use serde::{Deserialize, Serialize};
use unicode_normalization::UnicodeNormalization;

use super::corpus::score_pages;
use super::{score_tokens, EvalError, EvalReport, PageScore};
use crate::extract::{Article, ExtractOptions, Extractor, Page};
use crate::words::is_cjk;

/// One page's gold record (fields the scoring reads; others are ignored).
#[derive(Debug, Clone, Default, Deserialize)]
pub struct GoldRecord {
    #[serde(default)]
    pub body_text: String,
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub authors: Vec<String>,
    #[serde(default)]
    pub publishing_date: Option<String>,
    #[serde(default)]
    pub topics: Vec<String>,
    #[serde(default)]
    pub url: Option<String>,
    #[serde(default)]
    pub language: Option<String>,
    #[serde(default)]
    pub publisher: Option<String>,
}

/// A page's metadata scores; `None` where the gold has nothing to score.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct RecordScores {
    /// The language group of the page ([`language_group`]).
    pub group: &'static str,
    pub title_exact: Option<bool>,
    pub authors_f1: Option<f64>,
    pub same_day: Option<bool>,
}

/// Whether `gold_dir` holds gold records (`.json`) rather than gold texts.
pub fn is_record_dir(gold_dir: &Path) -> bool {
    let Ok(entries) = std::fs::read_dir(gold_dir) else {
        return false;
    };
    let (mut json, mut txt) = (false, false);
    for e in entries.flatten() {
        match e.path().extension().and_then(|x| x.to_str()) {
            Some("json") => json = true,
            Some("txt") => txt = true,
            _ => {}
        }
    }
    json && !txt
}

/// Tokens of the record sets' body score: lower-cased runs of word
/// characters (letters, marks, digits, `_`); every CJK or Thai character a
/// token of its own; everything else separates.
pub fn record_tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    for c in text.chars() {
        if is_cjk(c) || is_thai(c) {
            flush(&mut word, &mut out);
            if c.is_alphanumeric() {
                out.push(c.to_lowercase().collect());
            }
        } else if c.is_alphanumeric() || c == '_' || is_mark(c) {
            word.extend(c.to_lowercase());
        } else {
            flush(&mut word, &mut out);
        }
    }
    flush(&mut word, &mut out);
    out
}

fn flush(word: &mut String, out: &mut Vec<String>) {
    if !word.is_empty() {
        out.push(std::mem::take(word));
    }
}

fn is_thai(c: char) -> bool {
    matches!(c as u32, 0x0E00..=0x0E7F)
}

/// Combining marks (in words of Indic, Arabic and decomposed Latin text).
fn is_mark(c: char) -> bool {
    matches!(c as u32, 0x0300..=0x036F | 0x0610..=0x061A | 0x064B..=0x065F | 0x0900..=0x0DFF)
}

/// NFKC, whitespace collapsed, case folded: how titles and names compare.
pub fn normalised(s: &str) -> String {
    let nfkc: String = s.nfkc().collect();
    nfkc.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// Set F1 of two lists after [`normalised`] (empty names dropped).
fn set_f1(found: &[String], gold: &[String]) -> f64 {
    let norm = |v: &[String]| {
        let mut n: Vec<String> = v
            .iter()
            .map(|s| normalised(s))
            .filter(|s| !s.is_empty())
            .collect();
        n.sort();
        n.dedup();
        n
    };
    let (a, b) = (norm(found), norm(gold));
    let hits = a.iter().filter(|x| b.contains(x)).count() as f64;
    if hits == 0.0 {
        return 0.0;
    }
    let (p, r) = (hits / a.len() as f64, hits / b.len() as f64);
    2.0 * p * r / (p + r)
}

/// The calendar day of an RFC 3339 / ISO 8601 date (its own offset).
fn day(date: &str) -> Option<&str> {
    let d = date.trim().get(..10)?;
    let b = d.as_bytes();
    (b[4] == b'-' && b[7] == b'-' && d.bytes().filter(u8::is_ascii_digit).count() == 8).then_some(d)
}

/// The language groups the summary reports (the held-out half's are the same).
pub fn language_group(lang: Option<&str>) -> &'static str {
    match lang.unwrap_or("") {
        "de" => "de",
        "en" => "en",
        "ja" | "zh" | "ko" => "cjk",
        "ar" | "ru" | "uk" | "bg" | "sr" | "el" | "he" | "fa" | "hi" | "th" | "ka" | "hy"
        | "ur" | "bn" | "ta" => "other script",
        _ => "other latin",
    }
}

/// The author names of an extracted article (the stored field joins them
/// with ", ").
fn authors_of(article: &Article) -> Vec<String> {
    article
        .author
        .as_deref()
        .map(|a| a.split(", ").map(str::to_string).collect())
        .unwrap_or_default()
}

/// Score every page of `html_dir` against its record in `gold_dir`.
pub fn evaluate_records(
    html_dir: &Path,
    gold_dir: &Path,
    opts: &ExtractOptions,
    jobs: usize,
) -> Result<EvalReport, EvalError> {
    let extractor = Extractor::new(ExtractOptions {
        text_only: false,
        ..opts.clone()
    });
    let scored = score_pages(html_dir, jobs, |page| {
        score_page(page, gold_dir, &extractor)
    })?;
    Ok(EvalReport::from_pages(opts.algorithm, scored))
}

fn score_page(page: &Path, gold_dir: &Path, extractor: &Extractor) -> Result<PageScore, EvalError> {
    let name = page
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let gold_path = gold_dir.join(format!("{name}.json"));
    let gold_bytes = match std::fs::read(&gold_path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(EvalError::MissingGold {
                page: page.to_path_buf(),
                gold: gold_path,
            })
        }
        Err(source) => {
            return Err(EvalError::GoldUnreadable {
                path: gold_path,
                source,
            })
        }
    };
    let gold: GoldRecord =
        serde_json::from_slice(&gold_bytes).map_err(|e| EvalError::BadRecord {
            path: gold_path.clone(),
            why: e.to_string(),
        })?;
    let bytes = std::fs::read(page).map_err(|source| EvalError::PageUnreadable {
        path: page.to_path_buf(),
        source,
    })?;
    let url = gold.url.as_deref().and_then(|u| url::Url::parse(u).ok());
    let t0 = Instant::now();
    let article = extractor
        .extract(Page::from_bytes(&bytes, None).url(url.as_ref()))
        .article;
    let millis = t0.elapsed().as_secs_f64() * 1000.0;
    let a = record_tokens(&article.text);
    let b = record_tokens(&gold.body_text);
    let (ra, rb): (Vec<&str>, Vec<&str>) = (
        a.iter().map(String::as_str).collect(),
        b.iter().map(String::as_str).collect(),
    );
    let record = RecordScores {
        group: language_group(gold.language.as_deref()),
        title_exact: gold
            .title
            .as_deref()
            .filter(|t| !t.trim().is_empty())
            .map(|t| article.title.as_deref().map(normalised) == Some(normalised(t))),
        authors_f1: (!gold.authors.is_empty())
            .then(|| set_f1(&authors_of(&article), &gold.authors)),
        same_day: gold
            .publishing_date
            .as_deref()
            .and_then(day)
            .map(|d| article.published_at.as_deref().and_then(day) == Some(d)),
    };
    Ok(PageScore {
        name,
        site: gold
            .publisher
            .clone()
            .or_else(|| url.as_ref().and_then(|u| u.host_str().map(str::to_string)))
            .unwrap_or_default(),
        score: score_tokens(&ra, &rb),
        extracted_tokens: a.len(),
        gold_tokens: b.len(),
        millis,
        snippets: None,
        record: Some(record),
    })
}

/// The record scores of a report, over its pages and per language group.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct RecordSummary {
    /// `("all", …)` first, then each group by name.
    pub groups: Vec<GroupScores>,
}

/// Means over the pages of one group (each metadata score over the pages
/// whose gold has that field).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct GroupScores {
    pub group: String,
    pub pages: usize,
    pub body_f1: f64,
    /// Pages with no body text extracted although the gold has one.
    pub empty: usize,
    pub title_exact: Option<f64>,
    pub authors_f1: Option<f64>,
    pub same_day: Option<f64>,
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
        body_f1: mean(pages.iter().map(|p| p.score.f1)).unwrap_or(0.0),
        empty: pages
            .iter()
            .filter(|p| p.extracted_tokens == 0 && p.gold_tokens > 0)
            .count(),
        title_exact: mean(recs().filter_map(|r| r.title_exact).map(flag)),
        authors_f1: mean(recs().filter_map(|r| r.authors_f1)),
        same_day: mean(recs().filter_map(|r| r.same_day).map(flag)),
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
    Some(RecordSummary { groups: out })
}

impl RecordSummary {
    /// One line per group: pages, body F1, empty pages, title, authors, day.
    pub fn render(&self) -> String {
        use std::fmt::Write as _;
        let opt = |x: Option<f64>| x.map_or_else(|| "-".to_string(), |v| format!("{v:.3}"));
        let mut out = format!(
            "{:<13} {:>5} {:>7} {:>5} {:>7} {:>7} {:>7}\n",
            "group", "pages", "body F1", "empty", "title", "authors", "day"
        );
        for g in &self.groups {
            let _ = writeln!(
                out,
                "{:<13} {:>5} {:>7.3} {:>5} {:>7} {:>7} {:>7}",
                g.group,
                g.pages,
                g.body_f1,
                g.empty,
                opt(g.title_exact),
                opt(g.authors_f1),
                opt(g.same_day)
            );
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_tokens_fold_case_split_punctuation_and_cjk() {
        assert_eq!(
            record_tokens("Der Bürgermeister, 2024: „Ja!“ well-known"),
            ["der", "bürgermeister", "2024", "ja", "well", "known"]
        );
        assert_eq!(
            record_tokens("東京都は、晴れ。"),
            ["東", "京", "都", "は", "晴", "れ"]
        );
        assert_eq!(record_tokens("ข่าว"), ["ข", "า", "ว"]);
    }

    #[test]
    fn titles_and_names_compare_after_nfkc_and_case_fold() {
        assert_eq!(
            normalised("  Ｔｈｅ  Harbour\nReopens "),
            "the harbour reopens"
        );
        let gold = vec!["Birgit Baumann".to_string(), "Anna Fink".to_string()];
        assert_eq!(
            set_f1(&["birgit  baumann".into(), "Anna Fink".into()], &gold),
            1.0
        );
        assert!((set_f1(&["Birgit Baumann".into()], &gold) - 2.0 / 3.0).abs() < 1e-12);
        assert_eq!(set_f1(&["Birgit Baumann Anna Fink".into()], &gold), 0.0);
        assert_eq!(set_f1(&[], &gold), 0.0);
    }

    #[test]
    fn dates_compare_by_their_own_calendar_day() {
        assert_eq!(day("2024-05-03T15:47:42.389000+00:00"), Some("2024-05-03"));
        assert_eq!(day("2024-05-03"), Some("2024-05-03"));
        assert_eq!(day("03.05.2024"), None);
        assert_eq!(day("short"), None);
    }

    #[test]
    fn a_record_set_is_scored_on_body_and_metadata() {
        let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let (html, gold) = (tmp.path().join("html"), tmp.path().join("gold"));
        for d in [&html, &gold] {
            std::fs::create_dir_all(d).unwrap_or_else(|e| panic!("{e}"));
        }
        let story = "The harbour reopened on Monday after a month of repairs, the port said. \
                     Ships queued outside the breakwater from early morning.";
        let page = format!(
            r#"<html><head><title>Harbour reopens | Port News</title>
            <meta property="og:title" content="Harbour reopens">
            <meta name="author" content="Jane Roe">
            <meta property="article:published_time" content="2024-05-03T09:00:00+02:00">
            </head><body><h1>Harbour reopens</h1><p>{story}</p><p>{story}</p></body></html>"#
        );
        std::fs::write(html.join("p1.html"), page).unwrap_or_else(|e| panic!("{e}"));
        let record = serde_json::json!({
            "body_text": format!("{story}\n{story}"),
            "title": "Harbour Reopens",
            "authors": ["Jane Roe", "John Doe"],
            "publishing_date": "2024-05-03T07:00:00+00:00",
            "language": "en",
            "publisher": "PortNews",
            "url": "https://news.example.com/2024/05/03/harbour",
        });
        std::fs::write(gold.join("p1.json"), record.to_string()).unwrap_or_else(|e| panic!("{e}"));
        assert!(is_record_dir(&gold));
        let report = evaluate_records(&html, &gold, &ExtractOptions::default(), 1)
            .unwrap_or_else(|e| panic!("{e}"));
        let p = &report.pages[0];
        assert!(p.score.f1 > 0.99, "{:?}", p.score);
        assert_eq!(p.site, "PortNews");
        let r = p
            .record
            .as_ref()
            .unwrap_or_else(|| panic!("no record scores"));
        assert_eq!(r.group, "en");
        assert_eq!(r.title_exact, Some(true));
        assert!(
            (r.authors_f1.unwrap_or(0.0) - 2.0 / 3.0).abs() < 1e-12,
            "{r:?}"
        );
        assert_eq!(r.same_day, Some(true));
        let s = summary(&report.pages).unwrap_or_default();
        assert_eq!(s.groups[0].group, "all");
        assert_eq!(s.groups[1].group, "en");
        assert!(s.render().contains("authors"));
    }
}
