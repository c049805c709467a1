//! `import`: web archives into the corpus. In: the sources and filters as
//! typed. Out: the summary on stdout, progress on stderr; exit code 1 when
//! no file could be read.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Result};
use clap::Args;

use newshound::import::{self, Filters, ImportOptions};
use newshound::store::{self, Access};

use super::crawl_cmd::{lock_target_for_writing, runtime, stop_on_signal, StoppedBy};
use super::filter::{bounds, when, When};
use super::out::Out;
use super::{status, Globals};

#[derive(Debug, Args)]
pub struct ImportArgs {
    /// WARC files (.warc, .warc.gz: WARC 1.0 or 1.1, gzip per record or
    /// whole) and directories of them (searched to any depth).
    #[arg(value_name = "SOURCE")]
    pub sources: Vec<PathBuf>,
    /// A paths list (with --base for its relative lines): a local file or
    /// an http(s) URL, plain or gzip as Common Crawl's warc.paths.gz, one
    /// WARC file a line, a URL or a relative path.
    #[arg(long, value_name = "LIST")]
    pub paths: Option<String>,
    /// Where the relative lines of --paths lead: a URL (for Common Crawl,
    /// https://data.commoncrawl.org/) or a local directory.
    #[arg(long, value_name = "URL|DIR", requires = "paths")]
    pub base: Option<String>,
    /// Only the pages of this site (its name in the config); repeatable.
    #[arg(long = "site", value_name = "NAME", conflicts_with = "any_site")]
    pub sites: Vec<String>,
    /// Every host that no configured site owns is a site of its own, named
    /// as `sites add` would name it (the config file is not changed).
    #[arg(long)]
    pub any_site: bool,
    /// Only articles published on or after this day (UTC) or time; an
    /// article without a publication date by its archive date (WARC-Date).
    #[arg(long, value_name = "WHEN", value_parser = when)]
    pub since: Option<When>,
    /// Only articles published on or before this day (the whole day, UTC)
    /// or time; an article without a publication date by its archive date.
    #[arg(long, value_name = "WHEN", value_parser = when)]
    pub until: Option<When>,
    /// Only articles in this language: its ISO 639-3 code, as articles
    /// store it (eng, deu, fra, spa, cmn…).
    #[arg(long, value_name = "CODE", value_parser = language)]
    pub lang: Option<String>,
}

/// `--lang`: three lower-case letters.
fn language(s: &str) -> Result<String, String> {
    let code = s.trim().to_ascii_lowercase();
    if code.len() == 3 && code.bytes().all(|b| b.is_ascii_lowercase()) {
        return Ok(code);
    }
    Err(format!(
        "{s:?}: give the ISO 639-3 code articles store (eng, not en; deu, fra, spa, cmn…)"
    ))
}

pub fn import(globals: &Globals, out: &mut Out, args: ImportArgs) -> Result<ExitCode> {
    if args.sources.is_empty() && args.paths.is_none() {
        bail!("import: give WARC files, directories of them, or --paths LIST");
    }
    let (since, until) = bounds(args.since, args.until)?;
    let config = globals.config()?;
    let target = globals.store_target(&config);
    let _lock = lock_target_for_writing(&target)?;
    let store = store::open(&target, Access::Create)?;
    let files = store::open(&target, Access::Write)?;
    let opts = ImportOptions {
        files: args.sources,
        paths: args.paths,
        base: args.base,
        sites: args.sites,
        any_site: args.any_site,
        filters: Filters {
            since,
            until,
            lang: args.lang,
        },
        progress: std::io::stderr().is_terminal(),
        sole_user: target.sqlite_file().is_some(),
    };
    let stopped = StoppedBy::default();
    let summary = runtime()?.block_on(import::run(
        &config,
        store,
        files,
        opts,
        stop_on_signal(stopped.clone()),
    ))?;
    writeln!(out, "{summary}")?;
    out.flush()?;
    if let Some(by) = stopped.get() {
        status(format!(
            "newshound: import stopped by {by}; the same command goes on where it stopped"
        ));
    }
    if summary.all_failed() {
        bail!("import: no file could be read");
    }
    Ok(ExitCode::SUCCESS)
}
