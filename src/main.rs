//! The `newshound` command line: parse what the user typed into a typed
//! request, call the library, print. The library never sees argv.
//!
//! Errors are printed as one line, `newshound: <what failed>: <why>`, and
//! the exit code is 1 (2 for usage errors, from clap).

mod cli;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use newshound::extract::Algorithm;

/// A focused news crawler with built-in article extraction and per-site
/// boilerplate learning. Start with `newshound demo` (no network needed).
#[derive(Debug, Parser)]
#[command(name = "newshound", version, about, long_about = None)]
pub struct Cli {
    /// Configuration file.
    #[arg(
        long,
        global = true,
        value_name = "PATH",
        default_value = "crawler.toml"
    )]
    config: PathBuf,
    /// SQLite database (overrides `[crawler] database` in the config).
    #[arg(long, global = true, value_name = "PATH")]
    db: Option<PathBuf>,
    /// More log output (-v: debug, -vv: trace). RUST_LOG also works.
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    verbose: u8,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Crawl the configured sites into the database; prints a summary at the end.
    ///
    /// Example: newshound crawl --site bbc --site guardian
    Crawl {
        /// Only these sites (by name from the config); repeatable.
        #[arg(long = "site", value_name = "NAME")]
        sites: Vec<String>,
        /// Keep revisiting feeds and index pages on schedule until stopped
        /// (Ctrl-C finishes in-flight pages, flushes and prints the summary).
        #[arg(long)]
        continuous: bool,
        /// Stop after this many pages (overrides `[crawler] max_pages`).
        #[arg(long, value_name = "N")]
        max_pages: Option<u64>,
    },
    /// Extract the article from an HTML file, a URL, or every *.html of a directory.
    ///
    /// Examples: newshound extract page.html --json;
    /// newshound extract pages/ --out texts/ --jobs 2
    Extract {
        /// An HTML file, an http(s) URL, or a directory of *.html files.
        input: String,
        /// Print text plus metadata as JSON (for one page).
        #[arg(long)]
        json: bool,
        /// Content-selection algorithm (default: from the config, else auto).
        #[arg(long, value_enum)]
        algorithm: Option<Algorithm>,
        /// Directory mode: write <out>/<name>.txt for each <input>/<name>.html.
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// Directory mode: print one JSON object per page to stdout (or
        /// <out>/articles.jsonl with --out).
        #[arg(long)]
        jsonl: bool,
        /// Directory mode: worker threads.
        #[arg(long, value_name = "N", default_value_t = 1)]
        jobs: usize,
    },
    /// Full-text search over stored articles (FTS5, best match first).
    ///
    /// Example: newshound search "climate summit" --limit 5
    Search {
        query: String,
        #[arg(long, default_value_t = 20)]
        limit: usize,
        #[arg(long)]
        json: bool,
    },
    /// Show one stored article by id or URL.
    ///
    /// Example: newshound show 42
    Show {
        /// Article id (as printed by `search`) or its URL.
        article: String,
        #[arg(long)]
        json: bool,
    },
    /// Export stored articles as JSONL (stdout, or --out FILE).
    ///
    /// Example: newshound export --site bbc --out bbc.jsonl
    Export {
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        /// Only this site.
        #[arg(long, value_name = "NAME")]
        site: Option<String>,
    },
    /// Per-site figures: pages, articles, errors, boilerplate lines learned.
    ///
    /// Example: newshound stats --top 5
    Stats {
        /// Also list each site's N most recurring lines.
        #[arg(long, value_name = "N", default_value_t = 0)]
        top: usize,
        #[arg(long)]
        json: bool,
    },
    /// Re-clean stored articles with the boilerplate lines learned so far
    /// (repairs the first pages of a site, stored before learning caught up).
    ///
    /// Example: newshound reclean --site bbc
    Reclean {
        #[arg(long, value_name = "NAME")]
        site: Option<String>,
    },
    /// Score extraction against gold text: per-page and mean P/R/F1 (LCS).
    ///
    /// Example: newshound eval --html corpus/page-signal-dev/html
    /// --gold corpus/page-signal-dev/gold --worst 10
    Eval {
        #[arg(long, value_name = "DIR")]
        html: PathBuf,
        #[arg(long, value_name = "DIR")]
        gold: PathBuf,
        #[arg(long, value_enum)]
        algorithm: Option<Algorithm>,
        /// List the N worst pages.
        #[arg(long, value_name = "N")]
        worst: Option<usize>,
        #[arg(long)]
        json: bool,
        #[arg(long, value_name = "N", default_value_t = 1)]
        jobs: usize,
        /// Feed each site's pages in order through boilerplate learning and
        /// compare F1 with and without it (site = file-name prefix before `_NN`).
        #[arg(long)]
        sequence: bool,
    },
    /// Start the simulated news web on 127.0.0.1, crawl it with the real
    /// pipeline, print the summary and one search. No network needed.
    Demo {
        /// Articles per simulated site.
        #[arg(long, default_value_t = 25)]
        articles: usize,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    cli::init_logging(cli.verbose);
    match cli::run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("newshound: {}", cli::one_line(&e));
            ExitCode::FAILURE
        }
    }
}
