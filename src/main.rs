//! The `newshound` command line: parse what the user typed into a typed
//! request, call the library, print. The library never sees argv.
//!
//! Data goes to stdout, progress and diagnostics to stderr. Errors are printed
//! as one line, `newshound: <what failed>: <why>`, and the exit code is 1
//! (2 for usage errors, from clap). A closed stdout (`newshound export | head`)
//! ends the command quietly with exit code 0, as for other Unix filters.

mod cli;

use std::path::PathBuf;
use std::process::ExitCode;

use chrono_tz::Tz;
use clap::{FromArgMatches, Parser, Subcommand};

use cli::arg_values::{
    algorithm, at_least_one, demo_articles, eval_algorithms, jobs, learned_algorithm, page_url,
    parse_ablations, EvalAlgorithms, FormatArg,
};
use cli::filter::Filter;
use newshound::config::parse_time_zone;
use newshound::extract::{Ablations, Algorithm};

/// A focused news crawler with built-in article extraction and per-site
/// boilerplate learning. Start with `newshound demo` (no network needed).
#[derive(Debug, Parser)]
#[command(name = "newshound", version, about, long_about = None)]
pub struct Cli {
    /// Configuration file [default: crawler.toml].
    ///
    /// When the default file is missing, commands other than `crawl` use the
    /// built-in defaults; a missing file given with --config is an error.
    #[arg(long, global = true, value_name = "PATH", display_order = 100)]
    config: Option<PathBuf>,
    /// SQLite database, or a postgres:// URL (overrides `[store] url` and
    /// `[crawler] database` in the config).
    #[arg(long, global = true, value_name = "PATH", display_order = 101)]
    db: Option<PathBuf>,
    /// More log output on stderr (-v: debug, -vv: trace). RUST_LOG also works.
    #[arg(short, long, global = true, action = clap::ArgAction::Count, display_order = 102)]
    verbose: u8,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Crawl the configured sites into the database; prints a summary at the end.
    ///
    /// A progress line on a terminal, plain log lines otherwise. Ctrl-C
    /// finishes the pages in flight, stores them and prints the summary (a
    /// second Ctrl-C quits at once); the next crawl resumes where it stopped.
    /// At the end, stored articles are re-cleaned with the boilerplate lines
    /// learned (see `reclean`). Exits with 1 if pages failed and none could be
    /// fetched (no network?).
    ///
    /// Example: newshound crawl --site bbc --site guardian
    Crawl {
        /// Only these sites (by name from the config); repeatable.
        #[arg(long = "site", value_name = "NAME")]
        sites: Vec<String>,
        /// Keep revisiting feeds and index pages on schedule until stopped
        /// with Ctrl-C.
        #[arg(long)]
        continuous: bool,
        /// Stop after this many pages (overrides `[crawler] max_pages`;
        /// 0 = no limit).
        #[arg(long, value_name = "N")]
        max_pages: Option<u64>,
        /// Queue the failed URLs of the crawled sites again first (a fresh
        /// count of attempts), e.g. after a site's outage.
        #[arg(long)]
        retry_failed: bool,
    },
    /// Put the article pages of web archives into the corpus: WARC files,
    /// directories of them, or a paths list (Common Crawl's CC-NEWS).
    ///
    /// Each page goes through the crawl's stages (charset, extraction, the
    /// article judgement, boilerplate learning, near-duplicates, search
    /// index, kept pages). Pages of the config's sites only (by host),
    /// unless --any-site. A stopped import (Ctrl-C, kill) run again goes on
    /// where it stopped; import processes on one PostgreSQL database share
    /// the list of files. See docs/import.md.
    ///
    /// Examples: newshound import crawl-data/ --site bbc;
    /// newshound import --paths warc.paths.gz --base https://data.commoncrawl.org/ --since 2026-11-01
    Import(cli::ImportArgs),
    /// Configure sites by their address and check how the crawl sees them:
    /// `sites add URL`, `sites check NAME`.
    Sites {
        #[command(subcommand)]
        cmd: cli::sites::SitesCmd,
    },
    /// Extract the article from an HTML file, a URL, stdin, or every *.html of a directory.
    ///
    /// One page (a file, an http(s) URL, or `-` for stdin) prints its text,
    /// or with --json the text, the metadata, and whether the crawl would
    /// judge the page an article and why. A directory prints one JSON object
    /// per page to stdout (JSONL), or with --out writes <out>/<name>.txt per
    /// page (or <out>/articles.jsonl with --jsonl). A URL gets the crawler's
    /// address guard on every redirect hop: private, loopback and other
    /// special-purpose addresses are refused unless --allow-private is given
    /// (or `[fetch] allow_private_addresses` is on).
    ///
    /// Examples: newshound extract page.html --json --url https://example.org/2026/05/03/story;
    /// newshound extract pages/ --out texts/ --jobs 2
    Extract {
        /// An HTML file, an http(s) URL, `-` for stdin, or a directory of
        /// *.html files [default: stdin, when it is not a terminal].
        input: Option<PathBuf>,
        /// One page: print text plus metadata as JSON.
        #[arg(long)]
        json: bool,
        /// Content-selection algorithm (default: from the config, else auto).
        #[arg(long, value_parser = algorithm())]
        algorithm: Option<Algorithm>,
        /// Model file for nb/tree (from `newshound train`; default:
        /// `[extract] model`, else the model shipped in the binary).
        #[arg(long, value_name = "FILE")]
        model: Option<PathBuf>,
        /// Directory: write <out>/<name>.txt for each <input>/<name>.html
        /// (the directory is created).
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// Directory: with --out, write <out>/articles.jsonl instead of
        /// .txt files (without --out, JSONL goes to stdout anyway).
        #[arg(long)]
        jsonl: bool,
        /// Directory: worker threads, 1 to 256 [default: 1].
        #[arg(long, value_name = "N", value_parser = jobs)]
        jobs: Option<usize>,
        /// IANA time zone (e.g. Europe/Paris) for dates the page writes
        /// without an offset [default: `[extract] timezone`, else UTC].
        #[arg(long, value_name = "ZONE", value_parser = parse_time_zone)]
        timezone: Option<Tz>,
        /// A URL: fetch private, loopback and other special-purpose
        /// addresses too (along the whole redirect chain).
        #[arg(long)]
        allow_private: bool,
        /// Keep reader comments in the text [default: `[extract] comments`,
        /// else false].
        #[arg(long)]
        comments: bool,
        /// One page: print the text as `text` or as `markdown` (headings,
        /// lists, block quotes, tables kept); with --json/--jsonl, markdown
        /// adds a "markdown" field.
        #[arg(long, value_name = "FORMAT", default_value = "text", value_parser = ["text", "markdown"])]
        format: String,
        /// A file or stdin: the page's real address. It resolves relative
        /// links, gives a date written in the URL, and counts in the
        /// judgement of whether the page is an article (--json).
        #[arg(long, value_name = "URL", value_parser = page_url)]
        url: Option<url::Url>,
    },
    /// Full-text search over stored articles (FTS5, best match first).
    ///
    /// Every word must occur (in any order; case and accents do not
    /// matter). "two words" is a phrase; a OR b takes either; -word (or
    /// NOT word) leaves out articles with it; word* is a prefix (teach*
    /// finds teacher). Nothing else is syntax (AND, NEAR, parentheses,
    /// column: are plain text). Repeated words count once; at most 16
    /// distinct words. Chinese and Japanese match as substrings; numbers
    /// match as written (7.1亿元, 3.5).
    ///
    /// Examples: newshound search "climate summit" --limit 5;
    /// newshound search '"interest rates" bank OR fed -crypto';
    /// newshound search election --site lemonde --since 2026-11-01
    Search {
        /// The words to look for.
        query: String,
        /// Show at most N articles.
        #[arg(long, value_name = "N", default_value_t = 20, value_parser = at_least_one)]
        limit: usize,
        /// Print the hits as a JSON array (id, url, site, title, snippet, rank).
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        filter: Filter,
    },
    /// Show one stored article by id or URL.
    ///
    /// Example: newshound show 42
    Show {
        /// Article id (as printed by `search`) or a URL that led to it.
        article: String,
        /// Print the article (metadata and text) as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Export stored articles (stdout, or --out FILE), streaming.
    ///
    /// jsonl: one JSON object per line: id, url, site, fetched_at,
    /// word_count, title, author, published_at, modified_at (times in RFC
    /// 3339), language (ISO 639-3, e.g. eng, cmn), canonical_url, site_name,
    /// text, method, authors, description, section, tags, image, paywalled.
    /// csv: the same fields, RFC 4180 with a header row (a
    /// cell a spreadsheet would run as a formula gets a leading ').
    /// parquet: the same fields as typed columns (UTC timestamps, integers),
    /// zstd-compressed; write it with --out. warc:
    /// WARC/1.1 response records of the kept HTML, gzip per record (articles
    /// without kept HTML are skipped and counted). markdown: `# title`, the
    /// URL, the body rendered as Markdown from the kept HTML (headings,
    /// lists, quotes, tables; the site's boilerplate lines dropped), else
    /// the stored text (counted), each article after a YAML front matter
    /// block of its metadata. docs/export.md documents each field.
    ///
    /// Examples: newshound export --site bbc --out bbc.jsonl;
    /// newshound export --format parquet --out corpus.parquet
    Export {
        /// Write to this file (`-` is stdout); an existing file is never
        /// replaced unless forced.
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = FormatArg::Jsonl)]
        format: FormatArg,
        /// With --out: replace the file if it exists.
        #[arg(long, requires = "out")]
        force: bool,
        /// CSV: write cells that start with =, +, -, @, tab or CR as
        /// stored. By default they get a leading ' so that a spreadsheet
        /// shows them as text instead of running them as formulas.
        #[arg(long)]
        csv_formulas: bool,
        #[command(flatten)]
        filter: Filter,
    },
    /// Per-site figures: pages, articles, errors, boilerplate lines learned.
    ///
    /// Columns (explained under the table): URLs known to the frontier,
    /// pages fetched, articles stored, articles read by the boilerplate line
    /// filter, lines it tracks, lines currently judged boilerplate, failed
    /// fetches by kind; below each site, the URL shapes its judged pages
    /// taught (article, index or other shapes, with their counts).
    ///
    /// Example: newshound stats --top 5
    Stats {
        /// Also list each site's N most recurring lines.
        #[arg(long, value_name = "N", default_value_t = 0)]
        top: usize,
        /// Print the figures as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Re-clean stored articles with the boilerplate lines learned so far
    /// (repairs the first pages of a site, stored before learning caught up).
    ///
    /// Example: newshound reclean --site bbc
    Reclean {
        /// Only this site.
        #[arg(long, value_name = "NAME")]
        site: Option<String>,
    },
    /// Extract stored articles again from their kept HTML (`[store]
    /// keep_html`), without fetching: after an extractor upgrade or a change
    /// of `[extract]` options. Updates text, metadata and the search index
    /// in place (boilerplate lines removed with the current line table,
    /// nothing learned), in batches; a killed run resumes where it stopped
    /// when run again with the same filters. Prints how many articles' text
    /// changed.
    ///
    /// Example: newshound reextract --site bbc --algorithm ctd
    Reextract {
        #[command(flatten)]
        filter: Filter,
        /// Content-selection algorithm (default: from the config, else auto).
        #[arg(long, value_parser = algorithm())]
        algorithm: Option<Algorithm>,
    },
    /// Copy a whole corpus to another database, ids kept: SQLite to
    /// PostgreSQL, back, or to another file or database of the same kind.
    ///
    /// Every table (sites, frontier, fetch log, articles, versions, kept
    /// HTML, line tables, site rules) in batches; an interrupted copy run
    /// again continues and ends complete. The counts of every table are
    /// compared at the end. The destination must be new (or an earlier,
    /// interrupted copy of the same corpus).
    ///
    /// Example: newshound copy --from newshound.db --to postgres://nh@db.example/news
    Copy {
        /// The database to copy: a SQLite path or a postgres:// URL.
        #[arg(long, value_name = "DB")]
        from: String,
        /// The database to fill: a SQLite path or a postgres:// URL.
        #[arg(long, value_name = "DB")]
        to: String,
    },
    /// Serve the database over HTTP: a read-only JSON API and a search page.
    ///
    /// Open http://127.0.0.1:8080/ (or /?q=WORD). API: /api/search,
    /// /api/articles/ID, /api/articles/ID/html, /api/stats, /api/export.
    /// The database is opened read-only: serve runs beside a crawl of it.
    ///
    /// Example: newshound serve --addr 127.0.0.1:8080
    Serve {
        /// Address to listen on.
        #[arg(long, value_name = "IP:PORT", default_value = "127.0.0.1:8080")]
        addr: std::net::SocketAddr,
        /// Answer requests for this host name too (repeatable). By default
        /// only the bound address and localhost are answered (others get
        /// 421), so that no web page can read the corpus by DNS rebinding.
        #[arg(long, value_name = "NAME")]
        allow_host: Vec<String>,
    },
    /// Score extraction against gold text: per-page and mean P/R/F1 (LCS).
    ///
    /// Each <html>/<name>.html is scored against <gold>/<name>.txt. Without
    /// --html and --gold, the sets of --corpus DIR (default tests/corpus, the
    /// repository's, one <set>.tar.zst each) are scored, or the one named by
    /// --set. Several sets, or --algorithm all: one table per algorithm and set,
    /// mean P/R/F1, CleanEval and pages/s. nb and tree are scored by
    /// held-out folds by site (a model trained on the set's other sites)
    /// unless --model is given.
    ///
    /// Examples: newshound eval --algorithm all --jobs 2;
    /// newshound eval --set page-signal-dev --worst 10;
    /// newshound eval --html pages/ --gold gold/
    Eval {
        /// Directory of <name>.html pages.
        #[arg(long, value_name = "DIR")]
        html: Option<PathBuf>,
        /// Directory of <name>.txt gold texts [default: none; then the
        /// snippets of --snippets, or snippets.json in or beside --html].
        #[arg(long, value_name = "DIR", requires = "html")]
        gold: Option<PathBuf>,
        /// Score by snippets, as trafilatura's benchmark does: a JSON file
        /// mapping each page's file name to passages that must ("with") and
        /// must not ("without") be in the text [default: snippets.json in or
        /// beside the html directory when no gold is given].
        #[arg(long, value_name = "FILE", requires = "html", conflicts_with = "gold")]
        snippets: Option<PathBuf>,
        /// A corpus directory, default tests/corpus: one archive per set
        /// (SET.tar.zst), or one directory per set holding html and gold
        /// (or snippets.json).
        #[arg(long, value_name = "DIR", conflicts_with_all = ["html", "gold", "snippets"])]
        corpus: Option<PathBuf>,
        /// Score only this set of the corpus, as one set given with --html
        /// and --gold is scored (so with --worst, --sequence, --ablate).
        #[arg(long, value_name = "NAME", conflicts_with_all = ["html", "gold"])]
        set: Option<String>,
        /// Algorithm: auto, td, ctd, htd, ceds, punct, nb, tree, or all
        /// (default: from the config, else auto).
        #[arg(long, value_name = "NAME", value_parser = eval_algorithms)]
        algorithm: Option<EvalAlgorithms>,
        /// Model file for nb/tree, used on every page (instead of held-out folds).
        #[arg(long, value_name = "FILE")]
        model: Option<PathBuf>,
        /// List only the N worst pages (by F1) instead of every page.
        #[arg(long, value_name = "N", conflicts_with = "sequence")]
        worst: Option<usize>,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
        /// Worker threads, 1 to 256 [default: 1].
        #[arg(long, value_name = "N", value_parser = jobs, conflicts_with = "sequence")]
        jobs: Option<usize>,
        /// Feed each site's pages in order through boilerplate learning and
        /// compare F1 with and without it (site = file-name prefix before `_NN`).
        #[arg(long)]
        sequence: bool,
        /// The gold texts start with the headline: score headline + text
        /// (`--gold-has-title=false` to turn it off) [default: the set's
        /// known convention (corpus/<set>/html), else false].
        #[arg(long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true")]
        gold_has_title: Option<bool>,
        /// The gold texts hold reader comments: extract with comments kept
        /// [default: the set's known convention, else false].
        #[arg(long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true")]
        gold_has_comments: Option<bool>,
        /// The gold texts hold photo captions: extract with captions kept
        /// [default: the set's known convention, else false].
        #[arg(long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true")]
        gold_has_captions: Option<bool>,
        /// The gold texts hold byline and dateline lines: extract with them
        /// kept [default: the set's known convention, else false].
        #[arg(long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true")]
        gold_has_bylines: Option<bool>,
        /// Switch heuristics of `auto` off to measure what each is worth
        /// (comma-separated step names, e.g. comments, captions,
        /// photo-captions; an unknown name is an error that lists them all).
        #[arg(long, value_name = "STEPS", value_parser = parse_ablations)]
        ablate: Option<Ablations>,
    },
    /// Train a block classifier (nb or tree) on pages with gold text.
    ///
    /// Every block of <html>/<name>.html is labelled content when most of
    /// its tokens are in <gold>/<name>.txt (LCS). Prints the cross-validated
    /// P/R/F1 (folds by site: blocks, and the text of held-out pages), then
    /// writes the model trained on all pages to --out.
    ///
    /// Example: newshound train --algorithm tree --html pages/ --gold gold/
    /// --out tree.json
    Train {
        /// nb or tree.
        #[arg(long, value_name = "NAME", value_parser = learned_algorithm)]
        algorithm: Algorithm,
        /// Directory of <name>.html pages.
        #[arg(long, value_name = "DIR")]
        html: PathBuf,
        /// Directory of <name>.txt gold texts.
        #[arg(long, value_name = "DIR")]
        gold: PathBuf,
        /// Where to write the model (JSON).
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// Folds of the cross-validation (by site), at least 2.
        #[arg(long, value_name = "N", default_value_t = 5, value_parser = clap::value_parser!(u16).range(2..))]
        folds: u16,
        /// Worker threads, 1 to 256 [default: 1].
        #[arg(long, value_name = "N", value_parser = jobs)]
        jobs: Option<usize>,
    },
    /// Start the simulated news web on 127.0.0.1, crawl it with the real
    /// pipeline, print the summary and one search. No network needed.
    ///
    /// The crawl goes to a temporary database unless --db is given (then it
    /// takes the crawl lock: one crawl or demo per database at a time); the
    /// configuration comes from the simulated web, --config is not read.
    Demo {
        /// Articles per simulated site, 1 to 10000.
        #[arg(long, value_name = "N", default_value_t = 25, value_parser = demo_articles)]
        articles: usize,
    },
}

fn main() -> ExitCode {
    cli::install_panic_hook();
    let matches = cli::ignored::command::<Cli>().get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    cli::init_logging(cli.verbose);
    for (option, command) in cli::ignored::given(&matches) {
        cli::status(format!(
            "newshound: {option} has no effect on `{command}`: ignored"
        ));
    }
    cli::main(cli)
}
