//! `extract`: one page (file, URL or stdin) or a directory of pages in, the
//! article text (or JSON, with the crawl's judgement of the page) out.
//!
//! The input is a path (not a `String`) so that file names that are not
//! UTF-8 still work. Flags that only make sense for a directory (`--out`,
//! `--jsonl`, `--jobs`) or only for one page (`--json`) are rejected
//! elsewhere rather than silently ignored.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};

use serde::Serialize;
use url::Url;

use newshound::crawl::judge;
use newshound::extract::{Article, ExtractOptions, Extractor};
use newshound::extract_dir::{self, PageError};
use newshound::store::PageJudgement;

use super::out::Out;
use super::store_cmds::write_json;
use super::{corpus, crawl_cmd, status, Globals};

/// What the user asked `extract` for.
pub struct Request<'a> {
    pub input: &'a Path,
    pub json: bool,
    pub out_dir: Option<&'a Path>,
    pub jsonl: bool,
    pub jobs: Option<usize>,
    /// A URL: let the fetcher reach private and special-purpose addresses.
    pub allow_private: bool,
    /// A file or stdin: the page's real address (`--url`).
    pub url: Option<&'a Url>,
}

enum Input<'a> {
    Stdin,
    Url(&'a str),
    Dir(&'a Path),
    File(&'a Path),
}

/// The input to read: the one given, else stdin (`-`) when a page is piped
/// in, as `cat page.html | newshound extract` expects; on a terminal, where
/// nothing is piped, the error says what to give.
pub fn input_or_stdin(input: Option<PathBuf>, stdin_is_terminal: bool) -> Result<PathBuf> {
    match input {
        Some(input) => Ok(input),
        None if !stdin_is_terminal => Ok(PathBuf::from("-")),
        None => bail!(
            "extract needs a page: a file, a directory, an http(s) URL, or `-` for stdin \
             (`cat page.html | newshound extract` reads stdin)"
        ),
    }
}

fn classify(input: &Path) -> Result<Input<'_>> {
    if input.as_os_str().is_empty() {
        bail!("extract: empty input (give a file, a URL, `-` or a directory)");
    }
    if input.as_os_str() == "-" {
        return Ok(Input::Stdin);
    }
    if input.is_dir() {
        return Ok(Input::Dir(input));
    }
    // An existing file wins over URL syntax (a file may be called "http:").
    if let Some(s) = input.to_str().filter(|_| !input.exists()) {
        if let Some((scheme, _)) = s.split_once("://") {
            if scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https") {
                return Ok(Input::Url(s));
            }
            if !scheme.is_empty() && scheme.chars().all(|c| c.is_ascii_alphanumeric()) {
                bail!("{s}: unsupported URL scheme {scheme:?} (http and https only)");
            }
        }
    }
    Ok(Input::File(input))
}

pub fn extract(
    globals: &Globals,
    out: &mut Out,
    req: &Request<'_>,
    opts: &ExtractOptions,
) -> Result<ExitCode> {
    let input = classify(req.input)?;
    if let (Some(url), Input::Dir(_) | Input::Url(_)) = (req.url, &input) {
        bail!(
            "--url {url}: only for one page read from a file or stdin (a URL input is its own \
             address; each page of a directory has its own)"
        );
    }
    let fetched;
    let bytes;
    let (label, page) = match input {
        Input::Dir(dir) => {
            if req.json {
                bail!(
                    "{}: --json is for one page; a directory is printed as JSONL \
                     (or written with --out DIR)",
                    dir.display()
                );
            }
            let limits = extract_dir::BatchLimits {
                jobs: req.jobs.unwrap_or(1),
                max_page_bytes: globals.config()?.fetch.max_body_bytes,
            };
            return corpus::extract_dir(out, dir, req.out_dir, req.jsonl, limits, opts);
        }
        Input::Url(url) => {
            one_page_flags(req)?;
            fetched = crawl_cmd::fetch_url(globals, url, req.allow_private)?;
            let page = OnePage {
                bytes: &fetched.body,
                content_type: fetched.content_type.as_deref(),
                url: Some(&fetched.final_url),
            };
            (url.to_string(), page)
        }
        Input::Stdin => {
            one_page_flags(req)?;
            let limit = globals.config()?.fetch.max_body_bytes;
            bytes = read_page(std::io::stdin().lock(), limit, "<stdin>")?;
            ("<stdin>".to_string(), OnePage::read(&bytes, req.url))
        }
        Input::File(path) => {
            one_page_flags(req)?;
            let label = path.display().to_string();
            let limit = globals.config()?.fetch.max_body_bytes;
            let file =
                std::fs::File::open(path).with_context(|| format!("{label}: cannot read"))?;
            bytes = read_page(file, limit, &label)?;
            (label, OnePage::read(&bytes, req.url))
        }
    };
    let extractor = Extractor::new(opts.clone());
    let (article, judgement) =
        judge::extract_and_judge(&extractor, page.bytes, page.content_type, page.url);
    if article.text.trim().is_empty() {
        status(format_args!(
            "newshound: {label}: warning: no article text found"
        ));
    }
    if req.json {
        let judged = PageJudgement {
            article: judgement.is_article(),
            reason: judgement.reason.as_str(),
            // One page extracted alone has no URL in the frontier to re-kind.
            kind: None,
        };
        write_json(
            out,
            &Judged {
                article: &article,
                judged: judged.verdict(),
                judge_reason: judged.reason,
            },
        )?;
    } else {
        writeln!(
            out,
            "{}",
            article.markdown.as_deref().unwrap_or(&article.text)
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// One page to extract: its bytes, their `Content-Type` (a fetched page's)
/// and the page's real address.
struct OnePage<'a> {
    bytes: &'a [u8],
    content_type: Option<&'a str>,
    url: Option<&'a Url>,
}

impl<'a> OnePage<'a> {
    /// A page read from a file or stdin, at the address `--url` gives.
    fn read(bytes: &'a [u8], url: Option<&'a Url>) -> OnePage<'a> {
        OnePage {
            bytes,
            content_type: None,
            url,
        }
    }
}

/// `extract --json`: the article's fields, and whether a crawl would judge
/// the page an article (`judged`: `article` or `not_article`, as the fetch
/// log stores it) and why (`judge_reason`, as `sites check` shows it).
#[derive(Serialize)]
struct Judged<'a> {
    #[serde(flatten)]
    article: &'a Article,
    judged: &'static str,
    judge_reason: &'static str,
}

/// The whole input, refused beyond `limit` bytes (`/dev/zero` or an endless
/// pipe must not eat the machine's memory; the crawler's body limit is the
/// natural bound for one page) and when binary, with one line naming it.
fn read_page(r: impl Read, limit: u64, label: &str) -> Result<Vec<u8>> {
    extract_dir::read_page(r, limit).map_err(|e| match e {
        PageError::Io(source) => {
            anyhow::Error::new(source).context(format!("{label}: cannot read"))
        }
        e => anyhow::anyhow!("{label}: {e}"),
    })
}

/// Directory-only flags given for one page are a mistake worth naming.
fn one_page_flags(req: &Request<'_>) -> Result<()> {
    if req.out_dir.is_some() || req.jsonl || req.jobs.is_some() {
        bail!(
            "{}: --out, --jsonl and --jobs are for a directory of pages; \
             for one page use --json (and redirect stdout to save it)",
            req.input.display()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extract_without_input_reads_piped_stdin_and_explains_on_a_terminal() {
        let given = input_or_stdin(Some(PathBuf::from("a.html")), true).unwrap();
        assert_eq!(given, Path::new("a.html"));
        assert_eq!(input_or_stdin(None, false).unwrap(), Path::new("-"));
        let err = input_or_stdin(None, true).unwrap_err().to_string();
        assert!(err.contains("`-` for stdin"), "{err}");
    }
}
