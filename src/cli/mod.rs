//! Command implementations: typed request in, library calls, output to the
//! terminal. `anyhow` lives here only, at the edge.

mod corpus;
mod crawl_cmd;

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};

use newshound::config::Config;
use newshound::extract::{self, Algorithm, ExtractOptions};
use newshound::store::{ArticleRef, Store};

use crate::{Cli, Command};

pub fn init_logging(verbose: u8) {
    let default = match verbose {
        0 => "warn,newshound=info",
        1 => "info,newshound=debug",
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
    parts.join(": ").replace('\n', " ")
}

/// Text on one line: runs of whitespace (newlines included) become one space.
pub fn one_line_text(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// What a command needs from the global options.
pub struct Globals {
    config_path: PathBuf,
    config_explicit: bool,
    db: Option<PathBuf>,
}

impl Globals {
    /// The config; a missing *default* config file means built-in defaults
    /// (so `search --db x.db` works anywhere), a missing explicit one is an error.
    fn config(&self) -> Result<Config> {
        if !self.config_explicit && !self.config_path.exists() {
            return Ok(Config::parse("", Path::new("<defaults>"), Path::new("."))?);
        }
        Ok(Config::load(&self.config_path)?)
    }

    /// The config with at least one site (for crawling).
    fn config_with_sites(&self) -> Result<Config> {
        if !self.config_path.exists() {
            bail!(
                "{}: no such config file (pass --config PATH)",
                self.config_path.display()
            );
        }
        Ok(Config::load(&self.config_path)?)
    }

    fn db_path(&self, config: &Config) -> PathBuf {
        self.db
            .clone()
            .unwrap_or_else(|| config.crawler.database.clone())
    }

    /// Open an existing database for reading commands: a missing file is an
    /// error here rather than a silently created empty database.
    fn open_existing_store(&self) -> Result<Store> {
        let config = self.config()?;
        let path = self.db_path(&config);
        if !path.exists() {
            bail!(
                "{}: no such database (run `newshound crawl` first, or pass --db PATH)",
                path.display()
            );
        }
        Ok(Store::open(&path)?)
    }
}

pub fn run(cli: Cli) -> Result<ExitCode> {
    let config_explicit = std::env::args_os()
        .any(|a| a == "--config" || a.to_string_lossy().starts_with("--config="));
    let globals = Globals {
        config_path: cli.config,
        config_explicit,
        db: cli.db,
    };
    match cli.command {
        Command::Crawl {
            sites,
            continuous,
            max_pages,
        } => crawl_cmd::crawl(&globals, sites, continuous, max_pages),
        Command::Demo { articles } => crawl_cmd::demo(&globals, articles),
        Command::Extract {
            input,
            json,
            algorithm,
            out,
            jsonl,
            jobs,
        } => extract_cmd(&globals, &input, json, algorithm, out, jsonl, jobs),
        Command::Search { query, limit, json } => search(&globals, &query, limit, json),
        Command::Show { article, json } => show(&globals, &article, json),
        Command::Export { out, site } => export(&globals, out, site),
        Command::Stats { top, json } => stats(&globals, top, json),
        Command::Reclean { site } => crawl_cmd::reclean(&globals, site),
        Command::Eval {
            html,
            gold,
            algorithm,
            worst,
            json,
            jobs,
            sequence,
        } => {
            let opts = extract_options(&globals, algorithm)?;
            if sequence {
                corpus::eval_sequence(&globals, &html, &gold, &opts, json)
            } else {
                corpus::eval(&html, &gold, &opts, worst, json, jobs)
            }
        }
    }
}

fn extract_options(globals: &Globals, algorithm: Option<Algorithm>) -> Result<ExtractOptions> {
    let algorithm = match algorithm {
        Some(a) => a,
        None => globals.config()?.extract.algorithm,
    };
    Ok(ExtractOptions { algorithm })
}

fn extract_cmd(
    globals: &Globals,
    input: &str,
    json: bool,
    algorithm: Option<Algorithm>,
    out: Option<PathBuf>,
    jsonl: bool,
    jobs: usize,
) -> Result<ExitCode> {
    let opts = extract_options(globals, algorithm)?;
    if input.starts_with("http://") || input.starts_with("https://") {
        let article = crawl_cmd::extract_url(globals, input, &opts)?;
        print_article(&article, json)?;
        return Ok(ExitCode::SUCCESS);
    }
    let path = Path::new(input);
    if path.is_dir() {
        return corpus::extract_dir(path, out.as_deref(), jsonl, jobs, &opts);
    }
    let bytes = std::fs::read(path).with_context(|| format!("{input}: cannot read"))?;
    let article = extract::extract_bytes(&bytes, None, None, &opts);
    print_article(&article, json)?;
    Ok(ExitCode::SUCCESS)
}

fn print_article(article: &extract::Article, json: bool) -> Result<()> {
    let mut out = std::io::stdout().lock();
    if json {
        serde_json::to_writer_pretty(&mut out, article)?;
        writeln!(out)?;
    } else {
        writeln!(out, "{}", article.text)?;
    }
    Ok(())
}

fn search(globals: &Globals, query: &str, limit: usize, json: bool) -> Result<ExitCode> {
    let store = globals.open_existing_store()?;
    let hits = store.search(query, limit)?;
    let mut out = std::io::stdout().lock();
    if json {
        serde_json::to_writer_pretty(&mut out, &hits)?;
        writeln!(out)?;
    } else if hits.is_empty() {
        writeln!(out, "no articles match {query:?}")?;
    } else {
        for hit in &hits {
            let title = hit.title.as_deref().unwrap_or("(untitled)");
            writeln!(out, "{:>6}  [{}] {}", hit.id, hit.site, title)?;
            writeln!(out, "        {}", hit.url)?;
            writeln!(out, "        {}", one_line_text(&hit.snippet))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn show(globals: &Globals, which: &str, json: bool) -> Result<ExitCode> {
    let store = globals.open_existing_store()?;
    let reference = match which.parse::<i64>() {
        Ok(id) => ArticleRef::Id(id),
        Err(_) => ArticleRef::Url(which.to_string()),
    };
    let Some(a) = store.article(reference)? else {
        bail!("{which}: no such article");
    };
    let mut out = std::io::stdout().lock();
    if json {
        serde_json::to_writer_pretty(&mut out, &a)?;
        writeln!(out)?;
        return Ok(ExitCode::SUCCESS);
    }
    let field = |name: &str, v: &Option<String>| match v {
        Some(v) => format!("{name:<10} {v}\n"),
        None => String::new(),
    };
    write!(
        out,
        "{}{}{}{}{}{}",
        field("title", &a.article.title),
        field("author", &a.article.author),
        field("published", &a.article.published_at),
        field("language", &a.article.language),
        field("canonical", &a.article.canonical_url),
        field("site name", &a.article.site_name),
    )?;
    writeln!(out, "{:<10} {}", "url", a.url)?;
    writeln!(out, "{:<10} {} ({} words)\n", "id", a.id, a.word_count)?;
    writeln!(out, "{}", a.article.text)?;
    Ok(ExitCode::SUCCESS)
}

fn export(globals: &Globals, out: Option<PathBuf>, site: Option<String>) -> Result<ExitCode> {
    let store = globals.open_existing_store()?;
    let n = match &out {
        Some(path) => {
            let file = std::fs::File::create(path)
                .with_context(|| format!("{}: cannot create", path.display()))?;
            let mut w = std::io::BufWriter::new(file);
            newshound::export::write_jsonl(&store, site.as_deref(), &mut w)
                .with_context(|| format!("{}", path.display()))?
        }
        None => {
            let mut w = std::io::BufWriter::new(std::io::stdout().lock());
            newshound::export::write_jsonl(&store, site.as_deref(), &mut w)?
        }
    };
    if out.is_some() || !std::io::stdout().is_terminal() {
        eprintln!("exported {n} articles");
    }
    Ok(ExitCode::SUCCESS)
}

fn stats(globals: &Globals, top: usize, json: bool) -> Result<ExitCode> {
    let store = globals.open_existing_store()?;
    let stats = store.site_stats(globals.config()?.boilerplate.line_window)?;
    let mut out = std::io::stdout().lock();
    if json {
        serde_json::to_writer_pretty(&mut out, &stats)?;
        writeln!(out)?;
        return Ok(ExitCode::SUCCESS);
    }
    if stats.is_empty() {
        writeln!(out, "the database holds no sites yet")?;
    }
    writeln!(
        out,
        "{:<16} {:>8} {:>8} {:>9} {:>8} {:>11} {:>9}  errors",
        "site", "urls", "fetched", "articles", "RC", "lines kept", "boilerpl."
    )?;
    for s in &stats {
        let errors = s
            .errors
            .iter()
            .map(|(k, n)| format!("{k}={n}"))
            .collect::<Vec<_>>()
            .join(" ");
        writeln!(
            out,
            "{:<16} {:>8} {:>8} {:>9} {:>8} {:>11} {:>9}  {}",
            s.site,
            s.urls_known,
            s.pages_fetched,
            s.articles,
            s.articles_processed,
            s.lines_tracked,
            s.boilerplate_lines,
            if errors.is_empty() { "-" } else { &errors }
        )?;
        if top > 0 {
            for (line, count) in store.top_lines(&s.site, top)? {
                writeln!(out, "    {count:>6}×  {line}")?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
