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
//!   offset), over pages whose gold has one;
//! - tags: set F1 of normalised tags against the gold `topics` (the
//!   publisher's own), over pages whose gold has topics.
//!
//! The page's real address (`url`) is given to the extractor, as a crawl
//! gives it: it resolves relative links and holds dates. Each page is also
//! judged as a crawl judges a page on its own ([`extract_and_judge`]): the
//! share judged an article is the share of these stories a crawl of a bare
//! site keeps.
//!
//! A silver set (zh-dev: `meta/<name>.json` with a `title` and a
//! `publish_time` another extractor found, no body) is read the same way:
//! a record without `body_text` scores the body only as "some text was
//! extracted" (1 or 0), and its date may be written as the page wrote it
//! ("2019年09月11日 18:05", "2007.08.20", "2019-9-7 21:30").

use std::path::Path;
use std::time::Instant;

use serde::{Deserialize, Serialize};
use unicode_normalization::UnicodeNormalization;

pub use summary::{summary, GroupScores, RecordSummary};

use super::corpus::score_pages;
use super::{score_tokens, EvalError, EvalReport, PageScore, Score};
use crate::crawl::judge::extract_and_judge;
use crate::extract::{ExtractOptions, Extractor};
use crate::words::is_cjk;

mod summary;

/// One page's gold record (fields the scoring reads; others are ignored).
#[derive(Debug, Clone, Default, Deserialize)]
pub struct GoldRecord {
    /// `None` in a silver record: the body has no gold.
    #[serde(default)]
    pub body_text: Option<String>,
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub authors: Vec<String>,
    #[serde(default, alias = "publish_time")]
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
    /// Set F1 of the tags against the gold `topics`.
    pub tags_f1: Option<f64>,
    /// The gold has a body: the page's F1 is the body's, else it is 1 when
    /// some text was extracted and 0 when none was.
    pub body_gold: bool,
    /// The crawl's judgement of the page on its own (not listed in a feed
    /// or sitemap, no learned URL shapes, as `extract --json` gives it)
    /// says article. Every page of a record set is an article: one that is
    /// not judged so is a story a crawl of a bare site would not keep.
    pub judged_article: bool,
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

/// The calendar day a date starts with (its own offset), as `YYYY-MM-DD`:
/// RFC 3339 / ISO 8601, or year, month and day as the first three runs of
/// digits ("2019年9月5日", "2007.08.20"), as silver records write them.
fn day(date: &str) -> Option<String> {
    let mut runs = date
        .trim()
        .split(|c: char| !c.is_ascii_digit())
        .filter(|r| !r.is_empty());
    let (y, m, d) = (runs.next()?, runs.next()?, runs.next()?);
    let (month, mday): (u32, u32) = (m.parse().ok()?, d.parse().ok()?);
    let plausible = y.len() == 4
        && m.len() <= 2
        && d.len() <= 2
        && (1..=12).contains(&month)
        && (1..=31).contains(&mday);
    plausible.then(|| format!("{y}-{month:02}-{mday:02}"))
}

/// The language groups the summary reports (the held-out half's are the
/// same), by a record's ISO 639-1 code or the detected language's ISO
/// 639-3 one.
pub fn language_group(lang: Option<&str>) -> &'static str {
    match lang.unwrap_or("") {
        "de" | "deu" => "de",
        "en" | "eng" => "en",
        "ja" | "zh" | "ko" | "jpn" | "cmn" | "kor" => "cjk",
        "ar" | "ru" | "uk" | "bg" | "sr" | "el" | "he" | "fa" | "hi" | "th" | "ka" | "hy"
        | "ur" | "bn" | "ta" | "arb" | "rus" | "ukr" | "bul" | "srp" | "ell" | "heb" | "pes"
        | "hin" | "tha" | "kat" | "hye" | "urd" | "ben" | "tam" => "other script",
        _ => "other latin",
    }
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
    let (article, judgement) = extract_and_judge(extractor, &bytes, None, url.as_ref());
    let millis = t0.elapsed().as_secs_f64() * 1000.0;
    let a = record_tokens(&article.text);
    let b = record_tokens(gold.body_text.as_deref().unwrap_or(""));
    let (ra, rb): (Vec<&str>, Vec<&str>) = (
        a.iter().map(String::as_str).collect(),
        b.iter().map(String::as_str).collect(),
    );
    let score = if gold.body_text.is_some() {
        score_tokens(&ra, &rb)
    } else {
        let some = if a.is_empty() { 0.0 } else { 1.0 };
        Score {
            precision: some,
            recall: some,
            f1: some,
            cleaneval: some,
        }
    };
    let record = RecordScores {
        // A silver record names no language: the detected one stands in.
        group: language_group(gold.language.as_deref().or(article.language.as_deref())),
        title_exact: gold
            .title
            .as_deref()
            .filter(|t| !t.trim().is_empty())
            .map(|t| article.title.as_deref().map(normalised) == Some(normalised(t))),
        authors_f1: (!gold.authors.is_empty()).then(|| set_f1(&article.authors, &gold.authors)),
        tags_f1: (!gold.topics.is_empty()).then(|| set_f1(&article.tags, &gold.topics)),
        same_day: gold
            .publishing_date
            .as_deref()
            .and_then(day)
            .map(|d| article.published_at.as_deref().and_then(day) == Some(d)),
        body_gold: gold.body_text.is_some(),
        judged_article: judgement.is_article(),
    };
    let site = gold
        .publisher
        .clone()
        .or_else(|| url.as_ref().and_then(|u| u.host_str().map(str::to_string)))
        .unwrap_or_else(|| super::site::site_from(article.canonical_url.as_deref(), &name));
    Ok(PageScore {
        name,
        site,
        score,
        extracted_tokens: a.len(),
        gold_tokens: b.len(),
        millis,
        snippets: None,
        record: Some(record),
    })
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
        for (date, want) in [
            ("2024-05-03T15:47:42.389000+00:00", Some("2024-05-03")),
            ("2024-05-03", Some("2024-05-03")),
            ("2020年09月11日 18:05", Some("2020-09-11")),
            ("2019-9-7 21:30:50", Some("2019-09-07")),
            ("2007.08.20", Some("2007-08-20")),
            ("03.05.2024", None),
            ("2024-13-03", None),
            ("short", None),
        ] {
            assert_eq!(day(date).as_deref(), want, "{date}");
        }
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
            <meta property="article:tag" content="Harbours">
            <meta property="article:tag" content="Shipping">
            <meta property="article:published_time" content="2024-05-03T09:00:00+02:00">
            <meta property="og:type" content="article">
            </head><body><h1>Harbour reopens</h1><p>{story}</p><p>{story}</p><p>{story}</p>
            </body></html>"#
        );
        std::fs::write(html.join("p1.html"), page).unwrap_or_else(|e| panic!("{e}"));
        let record = serde_json::json!({
            "body_text": format!("{story}\n{story}\n{story}"),
            "title": "Harbour Reopens",
            "authors": ["Jane Roe", "John Doe"],
            "topics": ["harbours", "Ports"],
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
        // One of two tags is a gold topic, one of two topics found.
        assert!((r.tags_f1.unwrap_or(0.0) - 0.5).abs() < 1e-12, "{r:?}");
        // Declared an article, dated, with a body: a crawl keeps it.
        assert!(r.judged_article, "{r:?}");
        let s = summary(&report.pages).unwrap_or_default();
        let names: Vec<&str> = s.groups.iter().map(|g| g.group.as_str()).collect();
        assert_eq!(names, ["all", "en", "studied half", "held-out half"]);
        assert_eq!(s.groups[0].tags_f1, Some(0.5));
        assert_eq!(s.groups[0].judged_article, Some(1.0));
        let table = s.render();
        assert!(
            table.contains("authors") && table.contains("tags") && table.contains("article"),
            "{table}"
        );
    }

    #[test]
    fn a_silver_set_scores_titles_dates_and_pages_with_text() {
        let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let set = tmp.path().join("zh");
        let (html, meta) = (set.join("html"), set.join("meta"));
        for d in [&html, &meta] {
            std::fs::create_dir_all(d).unwrap_or_else(|e| panic!("{e}"));
        }
        let story =
            "港口在维修一个月后于周一重新开放，港务局表示。船只从清晨起就在防波堤外排队等候进港。"
                .repeat(4);
        let page = format!(
            "<html><head><title>港口重新开放</title></head><body><h1>港口重新开放</h1>\
             <p>发布时间：2019年09月05日 11:10</p><p>{story}</p><p>{story}</p></body></html>"
        );
        std::fs::write(html.join("port__1.html"), page).unwrap_or_else(|e| panic!("{e}"));
        // A page of only menus: no text, which the silver set counts.
        let menu = "<html><body><nav><a href=/a>首页</a> <a href=/b>新闻</a></nav></body></html>";
        std::fs::write(html.join("port__2.html"), menu).unwrap_or_else(|e| panic!("{e}"));
        let record = |title: &str, time: &str| {
            serde_json::json!({ "title": title, "publish_time": time }).to_string()
        };
        for (name, title, time) in [
            ("port__1", "港口重新开放", "2019年09月05日 11:10"),
            ("port__2", "首页", "2019-9-6"),
        ] {
            std::fs::write(meta.join(format!("{name}.json")), record(title, time))
                .unwrap_or_else(|e| panic!("{e}"));
        }
        let sets = super::super::methods::corpus_sets(tmp.path()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(sets, [("zh".to_string(), html.clone(), meta.clone())]);
        let row = super::super::methods::evaluate_algorithm(
            "zh",
            &html,
            &meta,
            &crate::extract::ExtractOptions::default(),
            1,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(row.scored_by, super::super::methods::ScoredBy::Silver);
        let page = |n: &str| {
            let p = row.report.pages.iter().find(|p| p.name == n);
            p.unwrap_or_else(|| panic!("no page {n}"))
        };
        let (story_page, menu_page) = (page("port__1"), page("port__2"));
        assert_eq!(story_page.score.f1, 1.0, "text was extracted");
        assert_eq!(menu_page.score.f1, 0.0, "no text");
        assert_eq!(story_page.site, "port");
        let r = story_page
            .record
            .as_ref()
            .unwrap_or_else(|| panic!("no record"));
        assert!(!r.body_gold);
        assert_eq!(r.group, "cjk");
        assert_eq!((r.title_exact, r.same_day), (Some(true), Some(true)));
        let s = summary(&row.report.pages).unwrap_or_default();
        assert_eq!(s.groups[0].body_f1, None);
        assert_eq!(s.groups[0].empty, 1, "{s:?}");
    }
}
