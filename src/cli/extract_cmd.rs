//! `extract`: one page (file, URL or stdin) or a directory of pages in, the
//! article text (or JSON) out.
//!
//! The input is a path (not a `String`) so that file names that are not
//! UTF-8 still work. Flags that only make sense for a directory (`--out`,
//! `--jsonl`, `--jobs`) or only for one page (`--json`) are rejected
//! elsewhere rather than silently ignored.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};

use newshound::extract::{Article, ExtractOptions, Extractor, Page};
use newshound::extract_dir::{self, PageError};

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
    let (label, article) = match classify(req.input)? {
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
            let article = crawl_cmd::extract_url(globals, url, req.allow_private, opts)?;
            (url.to_string(), article)
        }
        Input::Stdin => {
            one_page_flags(req)?;
            let limit = globals.config()?.fetch.max_body_bytes;
            let bytes = read_page(std::io::stdin().lock(), limit, "<stdin>")?;
            let article = extract_page(&bytes, opts);
            ("<stdin>".to_string(), article)
        }
        Input::File(path) => {
            one_page_flags(req)?;
            let label = path.display().to_string();
            let limit = globals.config()?.fetch.max_body_bytes;
            let file =
                std::fs::File::open(path).with_context(|| format!("{label}: cannot read"))?;
            let bytes = read_page(file, limit, &label)?;
            let article = extract_page(&bytes, opts);
            (label, article)
        }
    };
    if article.text.trim().is_empty() {
        status(format_args!(
            "newshound: {label}: warning: no article text found"
        ));
    }
    print_article(out, &article, req.json)?;
    Ok(ExitCode::SUCCESS)
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

fn extract_page(bytes: &[u8], opts: &ExtractOptions) -> Article {
    Extractor::new(opts.clone())
        .extract(Page::from_bytes(bytes, None))
        .article
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

fn print_article(out: &mut Out, article: &Article, json: bool) -> Result<()> {
    if json {
        write_json(out, article)?;
    } else {
        writeln!(
            out,
            "{}",
            article.markdown.as_deref().unwrap_or(&article.text)
        )?;
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
