//! Command implementations: typed request in, library calls, output to the
//! terminal. `anyhow` lives here only, at the edge.
//!
//! Every command writes its data through one [`out::Out`] (stdout) and its
//! progress and diagnostics to stderr; [`main`] turns the outcome into the
//! exit code and the one-line error message.

pub mod arg_values;
mod copy_cmd;
mod corpus;
mod corpus_store;
mod crawl_cmd;
mod extract_cmd;
pub mod filter;
mod globals;
mod import_cmd;
pub use import_cmd::ImportArgs;
pub mod ignored;
mod methods;
mod out;
mod reextract_cmd;
mod serve_cmd;
pub mod sites;
mod sites_add;
mod sites_check;
mod store_cmds;

use std::io::{IsTerminal, Write};
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{bail, Result};
use chrono_tz::Tz;

use newshound::eval::GoldConvention;
use newshound::export::{Format, Rendering};
use newshound::extract::BlockModel;
use newshound::extract::{Algorithm, ExtractOptions};
use newshound::store::{FileTrouble, StoreError};

use crate::{Cli, Command};
use arg_values::EvalAlgorithms;
use globals::unknown_site;
pub use globals::Globals;
use out::Out;

pub fn init_logging(verbose: u8) {
    // html5ever warns about every malformed page it repairs ("foster
    // parenting not implemented"); that is noise for a crawler of real pages.
    let default = match verbose {
        0 => "warn,html5ever=error,newshound=info",
        1 => "info,html5ever=error,newshound=debug",
        _ => "debug,newshound=trace",
    };
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .with_target(false)
        .init();
}

/// A panic is a bug, but the user still gets one line, not a backtrace.
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        let payload = info.payload();
        let msg = payload
            .downcast_ref::<&str>()
            .copied()
            .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
            .unwrap_or("panic");
        let at = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        status(format_args!(
            "newshound: internal error: {}{at} (this is a bug, please report it)",
            one_line_text(msg)
        ));
    }));
}

/// Run the command and turn its outcome into an exit code.
pub fn main(cli: Cli) -> ExitCode {
    let mut out = Out::new();
    let outcome = std::panic::catch_unwind(AssertUnwindSafe(|| {
        let code = run(cli, &mut out)?;
        out.flush()?;
        Ok::<_, anyhow::Error>(code)
    }));
    // The reader of our stdout stopped reading: not an error of ours.
    if out.broken_pipe() {
        return ExitCode::SUCCESS;
    }
    match outcome {
        Ok(Ok(code)) => code,
        Ok(Err(e)) => {
            status(format_args!("newshound: {}", one_line(&e)));
            ExitCode::FAILURE
        }
        // The panic hook has printed the message.
        Err(_) => ExitCode::FAILURE,
    }
}

/// One line on stderr. Unlike `eprintln!`, never panics (stderr may be a
/// full disk or closed).
pub fn status(msg: impl std::fmt::Display) {
    let _ = writeln!(std::io::stderr(), "{msg}");
}

/// An error chain as one line: `outer: inner: root`.
pub fn one_line(e: &anyhow::Error) -> String {
    let mut parts: Vec<String> = Vec::new();
    for cause in e.chain() {
        let s = cause.to_string();
        // thiserror messages often embed their source already; skip repeats.
        if !parts.iter().any(|p| p.contains(&s)) {
            parts.push(s);
        }
    }
    one_line_text(&parts.join(": "))
}

/// Text on one line: runs of whitespace (newlines included) become one space.
pub fn one_line_text(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A raw SQLite failure about the database file anywhere in the error's
/// chain (`database disk image is malformed`, `disk I/O error`...) becomes
/// one sentence naming the file, what is wrong and what to do.
fn explain_database_error(e: anyhow::Error, db: Option<PathBuf>) -> anyhow::Error {
    let trouble = e
        .chain()
        .find_map(|cause| cause.downcast_ref::<rusqlite::Error>())
        .and_then(FileTrouble::of);
    match (trouble, db) {
        (Some(trouble), Some(path)) => StoreError::File { path, trouble }.into(),
        _ => e,
    }
}

/// A database path the crawl can create: SQLite's own error for a missing
/// directory ("unable to open database file", code 14) names neither cause.
fn check_db_path_for_writing(path: &Path) -> Result<()> {
    if path.is_dir() {
        bail!("{}: is a directory, not a database", path.display());
    }
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        if !parent.is_dir() {
            bail!(
                "{}: cannot create the database: directory {} does not exist",
                path.display(),
                parent.display()
            );
        }
    }
    Ok(())
}

fn run(cli: Cli, out: &mut Out) -> Result<ExitCode> {
    let globals = Globals {
        config: cli.config,
        db: cli.db,
    };
    let uses_database = match &cli.command {
        Command::Extract { .. }
        | Command::Eval { .. }
        | Command::Train { .. }
        // Names its own two databases.
        | Command::Copy { .. } => false,
        // Without --db the demo's database is a temporary file of its own.
        Command::Demo { .. } => globals.db.is_some(),
        Command::Sites { .. } => false,
        _ => true,
    };
    let result = run_command(&globals, cli.command, out);
    if uses_database {
        return result.map_err(|e| explain_database_error(e, globals.db_path_for_errors()));
    }
    result
}

fn run_command(globals: &Globals, command: Command, out: &mut Out) -> Result<ExitCode> {
    match command {
        Command::Crawl {
            sites,
            continuous,
            max_pages,
            retry_failed,
        } => crawl_cmd::crawl(
            globals,
            out,
            crawl_cmd::CrawlArgs {
                sites,
                continuous,
                max_pages,
                retry_failed,
            },
        ),
        Command::Demo { articles } => crawl_cmd::demo(globals, out, articles),
        Command::Import(args) => import_cmd::import(globals, out, args),
        Command::Sites { cmd } => sites::run(globals, out, cmd),
        Command::Extract {
            input,
            json,
            algorithm,
            model,
            out: out_dir,
            jsonl,
            jobs,
            timezone,
            allow_private,
            comments,
            format,
            url,
        } => {
            // Without --comments, `[extract] comments` decides.
            let mut opts = extract_options(
                globals,
                algorithm,
                model.as_deref(),
                Zone::Flag(timezone),
                comments.then_some(true),
            )?;
            opts.markdown = format == "markdown";
            let input = extract_cmd::input_or_stdin(input, std::io::stdin().is_terminal())?;
            let request = extract_cmd::Request {
                input: &input,
                json,
                out_dir: out_dir.as_deref(),
                jsonl,
                jobs,
                allow_private,
                url: url.as_ref(),
            };
            extract_cmd::extract(globals, out, &request, &opts)
        }
        Command::Search {
            query,
            limit,
            json,
            filter,
        } => store_cmds::search(globals, out, &query, limit, json, &filter),
        Command::Show { article, json } => store_cmds::show(globals, out, &article, json),
        Command::Export {
            out: file,
            format,
            force,
            csv_formulas,
            filter,
        } => {
            let format = match (format.into(), csv_formulas) {
                (Format::Csv, true) => Format::CsvRaw,
                (_, true) => bail!("--csv-formulas is for --format csv"),
                (format, false) => format,
            };
            // Markdown extracts kept pages again, as the crawl extracted them.
            let (config, extract) = if format == Format::Markdown {
                let opts = extract_options(globals, None, None, Zone::Utc, None)?;
                (Some(globals.config()?), opts)
            } else {
                (None, ExtractOptions::default())
            };
            let rendering = Rendering {
                extract,
                config: config.as_ref(),
            };
            store_cmds::export(globals, out, file, format, force, &filter, &rendering)
        }
        Command::Stats { top, json } => store_cmds::stats(globals, out, top, json),
        Command::Reclean { site } => crawl_cmd::reclean(globals, out, site),
        Command::Serve { addr, allow_host } => serve_cmd::serve(globals, addr, allow_host),
        Command::Copy { from, to } => copy_cmd::copy(out, &from, &to),
        Command::Reextract { filter, algorithm } => {
            let opts = extract_options(globals, algorithm, None, Zone::Flag(None), None)?;
            reextract_cmd::reextract(globals, out, &filter, &opts)
        }
        Command::Eval {
            html,
            gold,
            snippets,
            corpus: corpus_dir,
            set,
            algorithm,
            model,
            worst,
            json,
            jobs,
            sequence,
            gold_has_title,
            gold_has_comments,
            gold_has_captions,
            gold_has_bylines,
            ablate,
        } => {
            let jobs = jobs.unwrap_or(1);
            let one = match algorithm {
                Some(EvalAlgorithms::One(a)) => Some(a),
                _ => None,
            };
            let all = algorithm == Some(EvalAlgorithms::All);
            // The gold decides about comments, not the config.
            let mut opts = extract_options(globals, one, model.as_deref(), Zone::Utc, Some(false))?;
            opts.ablate = ablate.unwrap_or_default();
            let chosen = corpus::eval_sets(
                html.as_deref(),
                gold.as_deref(),
                snippets.as_deref(),
                corpus_dir.as_deref(),
                set.as_deref(),
            )?;
            let sets = &chosen.sets;
            if chosen.whole_corpus && (sequence || worst.is_some()) {
                bail!("--sequence and --worst score one set: add --set NAME, or --html and --gold");
            }
            if all || chosen.whole_corpus {
                let algorithms: Vec<Algorithm> = if all {
                    Algorithm::ALL.to_vec()
                } else {
                    vec![opts.algorithm]
                };
                methods::eval_table(out, sets, &algorithms, &opts, json, jobs)
            } else if let [(_, html, gold)] = sets.as_slice() {
                let set = corpus::EvalSet {
                    html,
                    gold,
                    convention: GoldConvention::resolve(html, gold_has_title, gold_has_comments)
                        .with_furniture(gold_has_captions, gold_has_bylines),
                };
                if sequence {
                    corpus::eval_sequence(globals, out, &set, &opts, json)
                } else if opts.algorithm.is_learned() && model.is_none() {
                    // Never score the shipped model: it may have seen these pages.
                    let unshipped = ExtractOptions {
                        model: None,
                        ..opts.clone()
                    };
                    methods::eval_table(out, sets, &[opts.algorithm], &unshipped, json, jobs)
                } else {
                    corpus::eval(out, &set, &opts, worst, json, jobs)
                }
            } else {
                bail!("eval needs --html and --gold (or --snippets), or --corpus")
            }
        }
        Command::Train {
            algorithm,
            html,
            gold,
            out: model_out,
            folds,
            jobs,
        } => methods::train(
            out,
            algorithm,
            &html,
            &gold,
            &model_out,
            usize::from(folds),
            jobs.unwrap_or(1),
        ),
    }
}

/// Where a command's time zone for dates without an offset comes from.
enum Zone {
    /// `--timezone`, else `[extract] timezone`.
    Flag(Option<Tz>),
    /// Dates do not matter to the command (`eval`): UTC.
    Utc,
}

/// The name of a set for the table: the parent of `.../<set>/html`, else the
/// directory itself.
pub(crate) fn set_name(html: &Path) -> String {
    let dir = if html.file_name().is_some_and(|n| n == "html") {
        html.parent().unwrap_or(html)
    } else {
        html
    };
    dir.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| html.display().to_string())
}

/// `--algorithm`, `--model` and the time zone from the command line, else
/// from the config's `[extract]` section: the config is read once, and only
/// when a value is missing. A model given without `--algorithm` picks its
/// own algorithm.
fn extract_options(
    globals: &Globals,
    algorithm: Option<Algorithm>,
    model_path: Option<&Path>,
    zone: Zone,
    comments: Option<bool>,
) -> Result<ExtractOptions> {
    let zone_missing = matches!(zone, Zone::Flag(None));
    let model_missing = model_path.is_none() && algorithm.is_some_and(Algorithm::is_learned);
    let flag_model = model_path.map(BlockModel::load).transpose()?;
    let config = if (algorithm.is_none() && flag_model.is_none())
        || zone_missing
        || model_missing
        || comments.is_none()
    {
        Some(globals.config()?)
    } else {
        None
    };
    let from_config = config.as_ref().map(|c| &c.extract);
    let algorithm = algorithm
        .or(flag_model.as_ref().map(BlockModel::algorithm))
        .or(from_config.map(|e| e.algorithm))
        .unwrap_or_default();
    let model = match flag_model {
        Some(m) if algorithm.is_learned() && m.algorithm() != algorithm => bail!(
            "{}: the model is for {}, but the algorithm is {}",
            model_path
                .map(|p| p.display().to_string())
                .unwrap_or_default(),
            m.name(),
            algorithm.name()
        ),
        Some(m) => Some(m),
        None if algorithm.is_learned() => from_config
            .and_then(|e| e.model.as_deref())
            .map(|p| BlockModel::load_for(p, algorithm))
            .transpose()?,
        None => None,
    };
    Ok(ExtractOptions {
        algorithm,
        timezone: match zone {
            Zone::Flag(Some(z)) => Some(z),
            Zone::Flag(None) => from_config.and_then(|e| e.timezone),
            Zone::Utc => None,
        },
        model: model.map(Arc::new),
        comments: comments.unwrap_or_else(|| from_config.is_some_and(|e| e.comments)),
        keep: Default::default(),
        ablate: Default::default(),
        markdown: false,
        text_only: false,
    })
}
