//! The values options take, as clap reads them: counts with bounds, the
//! algorithm and format names (the library has no clap), URLs and step lists.
//! Each parser's error is the text clap prints after the option's name.

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use newshound::export::Format;
use newshound::extract::{Ablations, Algorithm};

/// A count that must be at least 1 (`--limit`, `--articles`).
pub(crate) fn at_least_one(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(0) => Err("must be at least 1".to_string()),
        Ok(n) => Ok(n),
        Err(e) => Err(e.to_string()),
    }
}

/// Most articles per site `demo --articles` may ask for: the simulated web
/// generates every page in memory before the crawl starts
/// (`--articles 1000000000` asked for a 200 GB allocation).
const MAX_DEMO_ARTICLES: usize = 10_000;

/// A count from 1 to `max`.
fn one_to(s: &str, max: usize) -> Result<usize, String> {
    let n = at_least_one(s)?;
    if n > max {
        return Err(format!("must be at most {max}"));
    }
    Ok(n)
}

/// `demo --articles`: 1 to [`MAX_DEMO_ARTICLES`].
pub(crate) fn demo_articles(s: &str) -> Result<usize, String> {
    one_to(s, MAX_DEMO_ARTICLES)
}

/// Most worker threads `--jobs` may ask for: each is an OS thread, and
/// `--jobs 100000` would spawn them all (pages are few, cores fewer).
const MAX_JOBS: usize = 256;

/// `--jobs`: 1 to [`MAX_JOBS`].
pub(crate) fn jobs(s: &str) -> Result<usize, String> {
    one_to(s, MAX_JOBS)
}

/// `eval --algorithm`: one algorithm, or `all` of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EvalAlgorithms {
    One(Algorithm),
    All,
}

pub(crate) fn eval_algorithms(s: &str) -> Result<EvalAlgorithms, String> {
    if s.trim().eq_ignore_ascii_case("all") {
        return Ok(EvalAlgorithms::All);
    }
    Algorithm::from_name(s.trim())
        .map(EvalAlgorithms::One)
        .ok_or_else(|| {
            let names: Vec<&str> = Algorithm::ALL.iter().map(|a| a.name()).collect();
            format!("expected all or one of {}", names.join(", "))
        })
}

/// `extract --url`: an absolute http(s) URL.
pub(crate) fn page_url(s: &str) -> Result<url::Url, String> {
    let url = url::Url::parse(s.trim()).map_err(|e| format!("{s:?}: {e}"))?;
    match url.scheme() {
        "http" | "https" => Ok(url),
        other => Err(format!("{s:?}: an http(s) URL, not {other}:")),
    }
}

/// `train --algorithm`: a learned algorithm.
pub(crate) fn learned_algorithm(s: &str) -> Result<Algorithm, String> {
    match Algorithm::from_name(s.trim()) {
        Some(a) if a.is_learned() => Ok(a),
        _ => Err("expected nb or tree".to_string()),
    }
}

/// `--algorithm` of `extract` and `reextract`: an algorithm by name, each
/// listed in `--help` with [`Algorithm::about`].
pub(crate) fn algorithm() -> impl TypedValueParser<Value = Algorithm> {
    let names = Algorithm::ALL.map(|a| PossibleValue::new(a.name()).help(a.about()));
    PossibleValuesParser::new(names)
        .map(|name| Algorithm::from_name(&name).expect("one of the listed names"))
}

/// `--format` values of `export`: [`Format`] as clap reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FormatArg {
    /// One JSON object per line.
    Jsonl,
    /// RFC 4180 with a header row, the JSONL fields.
    Csv,
    /// Apache Parquet: the JSONL fields as typed columns (UTC timestamps,
    /// integers), zstd-compressed; for pyarrow, pandas, DuckDB, polars.
    Parquet,
    /// WARC/1.1 response records of the kept HTML, gzip per record.
    Warc,
    /// `# title`, the URL, the text.
    Markdown,
}

impl From<FormatArg> for Format {
    fn from(arg: FormatArg) -> Self {
        match arg {
            FormatArg::Jsonl => Format::Jsonl,
            FormatArg::Csv => Format::Csv,
            FormatArg::Parquet => Format::Parquet,
            FormatArg::Warc => Format::Warc,
            FormatArg::Markdown => Format::Markdown,
        }
    }
}

/// `--ablate comments,leading-headline`.
pub(crate) fn parse_ablations(list: &str) -> Result<Ablations, String> {
    Ablations::parse(list)
}
