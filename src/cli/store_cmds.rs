//! `search`, `show`, `export` and `stats`: the commands that read an existing
//! database. In: the request and the store. Out: text or JSON on stdout.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use serde::Serialize;

use newshound::crawl::shapes::{LearnedShape, ShapeClass, ShapeTable};
use newshound::export::{self, Format};
use newshound::store::{AnyStore, ArticleRef, Query, Selection, SiteStats};

use super::filter::{bounds, Filter};
use super::out::Out;
use super::{one_line_text, status, Globals};

/// JSON, pretty-printed, then a newline.
pub fn write_json(out: &mut Out, value: &impl Serialize) -> Result<()> {
    let text = serde_json::to_string_pretty(value)?;
    writeln!(out, "{text}")?;
    Ok(())
}

/// Fail with the list of known sites unless `site` is one of them.
pub fn require_site_in(reader: &mut AnyStore, site: &str) -> Result<()> {
    let known: Vec<String> = reader.site_stats(1)?.into_iter().map(|s| s.site).collect();
    known_site(site, &known, &reader.shown())
}

fn known_site(site: &str, known: &[String], db: &str) -> Result<()> {
    if !known.iter().any(|k| k == site) {
        if known.is_empty() {
            bail!("unknown site {site:?} ({db}: holds no sites yet)");
        }
        bail!(
            "unknown site {site:?} (sites in {db}: {})",
            known.join(", ")
        );
    }
    Ok(())
}

pub fn search(
    globals: &Globals,
    out: &mut Out,
    query: &str,
    limit: usize,
    json: bool,
    filter: &Filter,
) -> Result<ExitCode> {
    // Before the database is opened: a query that cannot be searched (no
    // words, only exclusions, too many words) is the user's to fix.
    Query::parse(query).map_err(|e| anyhow::anyhow!("search: {e}"))?;
    let sel = selection(filter)?;
    let mut store = globals.open_reader()?;
    if let Some(site) = &sel.site {
        require_site_in(&mut store, site)?;
    }
    let hits = store.search_in(query, limit, &sel)?;
    if json {
        write_json(out, &hits)?;
    } else if hits.is_empty() {
        status(format_args!("no articles match {query:?}"));
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

/// The store's [`Selection`] for `--site/--since/--until`: a day bound
/// covers the whole day in UTC.
pub fn selection(filter: &Filter) -> Result<Selection> {
    let (since, until) = bounds(filter.since, filter.until)?;
    Ok(Selection {
        site: filter.site.clone(),
        published_since: since,
        published_until: until,
        language: None,
    })
}

pub fn show(globals: &Globals, out: &mut Out, which: &str, json: bool) -> Result<ExitCode> {
    let which = which.trim();
    let reference = if which.is_empty() {
        bail!("show: give an article id (as printed by `search`) or its URL");
    } else if let Ok(id) = which.parse::<i64>() {
        ArticleRef::Id(id)
    } else if url::Url::parse(which).is_ok() {
        ArticleRef::Url(which.to_string())
    } else {
        bail!("{which:?}: neither an article id nor a URL");
    };
    let mut store = globals.open_reader()?;
    let Some(a) = store.article(reference.clone())? else {
        match reference {
            ArticleRef::Id(id) => bail!("no article with id {id}"),
            ArticleRef::Url(url) => bail!("{url}: no stored article has this URL"),
        }
    };
    if json {
        write_json(out, &a)?;
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
    writeln!(out, "{:<10} {}", "site", a.site)?;
    writeln!(out, "{:<10} {}", "url", a.url)?;
    let method = a
        .method
        .map_or("unknown (stored before it was recorded)", |m| {
            newshound::store::method_name(m)
        });
    writeln!(out, "{:<10} {method}", "method")?;
    writeln!(out, "{:<10} {} ({} words)\n", "id", a.id, a.word_count)?;
    writeln!(out, "{}", a.article.text)?;
    Ok(ExitCode::SUCCESS)
}

pub fn export(
    globals: &Globals,
    out: &mut Out,
    file: Option<PathBuf>,
    format: Format,
    force: bool,
    filter: &Filter,
    rendering: &export::Rendering<'_>,
) -> Result<ExitCode> {
    let sel = selection(filter)?;
    let mut store = globals.open_reader()?;
    // Before the output file is created: a typo must not leave an empty file.
    if let Some(site) = &sel.site {
        require_site_in(&mut store, site)?;
    }
    // `--out -` is stdout, as for most Unix tools.
    let file = file.filter(|p| p.as_os_str() != "-");
    if file.is_none() && format.is_binary() && std::io::stdout().is_terminal() {
        bail!("this format is binary: pass --out FILE, or redirect the output to a file");
    }
    if let Some(path) = &file {
        // Creating the file truncates it: never let that be the database.
        let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
            (Ok(a), Ok(b)) => a == b,
            _ => false,
        };
        if store.file().is_some_and(|db| same(path, db)) {
            bail!(
                "{}: this is the database itself; choose another --out file",
                path.display()
            );
        }
    }
    let summary = match &file {
        Some(path) => {
            // Never write through a link (as `extract --out`): `--force`
            // would truncate whatever it points to. Without `--force`,
            // `create_new` refuses any existing name, a link included.
            if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
                bail!(
                    "{}: is a symbolic link; not followed (remove it or choose another --out)",
                    path.display()
                );
            }
            // Replacing a file silently lost an earlier export.
            let f = std::fs::OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(true)
                .create_new(!force)
                .open(path)
                .map_err(|e| match e.kind() {
                    std::io::ErrorKind::AlreadyExists => anyhow::anyhow!(
                        "{}: already exists; pass --force to replace it",
                        path.display()
                    ),
                    _ => {
                        anyhow::Error::new(e).context(format!("{}: cannot create", path.display()))
                    }
                })?;
            let mut w = std::io::BufWriter::new(f);
            export::write_with(&mut store, &sel, format, rendering, &mut w)
                .with_context(|| format!("{}", path.display()))?
        }
        None => export::write_with(&mut store, &sel, format, rendering, out)?,
    };
    let n = summary.written;
    if format == Format::Warc {
        status(format_args!(
            "exported {n} articles ({} skipped: no kept HTML)",
            summary.skipped
        ));
    } else if format == Format::Markdown {
        status(format_args!(
            "exported {n} articles ({} from their stored text: no kept HTML, or no Markdown from it)",
            summary.from_stored_text
        ));
    } else {
        status(format_args!("exported {n} articles"));
    }
    Ok(ExitCode::SUCCESS)
}

/// A site's figures with its most recurring lines (`stats --json --top N`).
#[derive(Serialize)]
struct StatsWithTop<'a> {
    #[serde(flatten)]
    stats: &'a SiteStats,
    #[serde(skip_serializing_if = "Option::is_none")]
    top_lines: Option<Vec<TopLine>>,
    /// The site's most judged URL shapes with what they are trusted as.
    url_shapes: Vec<LearnedShape>,
}

#[derive(Serialize)]
struct TopLine {
    line: String,
    count: u64,
}

/// What the columns of `stats` count, printed under the table.
const STATS_LEGEND: &str = "\
urls: URLs the frontier knows; fetched: pages fetched; articles: articles stored;
filtered: articles read by the boilerplate line filter (what its thresholds count);
lines: distinct lines it tracks; boilerplate: those recurring often enough to be
removed from every article; errors: failed fetches by kind; skipped: URLs left out.";

/// A site's stored shape counts with the class the trust rule gives them.
fn learned_shapes(s: &SiteStats) -> Vec<LearnedShape> {
    ShapeTable::from_counts(&s.url_shapes).learned()
}

/// Trusted URL shapes `stats` prints per site.
const STATS_TRUSTED_SHAPES: usize = 8;

pub fn stats(globals: &Globals, out: &mut Out, top: usize, json: bool) -> Result<ExitCode> {
    let mut store = globals.open_reader()?;
    let stats = store.site_stats(globals.config()?.boilerplate.line_window)?;
    if json {
        let mut with_top = Vec::with_capacity(stats.len());
        for s in &stats {
            let top_lines = if top == 0 {
                None
            } else {
                let lines = store.top_lines(&s.site, top)?;
                Some(
                    (lines.into_iter())
                        .map(|(line, count)| TopLine { line, count })
                        .collect(),
                )
            };
            with_top.push(StatsWithTop {
                stats: s,
                top_lines,
                url_shapes: learned_shapes(s),
            });
        }
        write_json(out, &with_top)?;
        return Ok(ExitCode::SUCCESS);
    }
    if stats.is_empty() {
        status(format_args!(
            "{}: the database holds no sites yet",
            store.shown()
        ));
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(
        out,
        "{:<16} {:>8} {:>8} {:>9} {:>9} {:>8} {:>11}  errors; skipped",
        "site", "urls", "fetched", "articles", "filtered", "lines", "boilerplate"
    )?;
    for s in &stats {
        let kinds = |pairs: &[(String, u64)]| {
            pairs
                .iter()
                .map(|(k, n)| format!("{k}={n}"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let mut errors = kinds(&s.errors);
        if errors.is_empty() {
            errors.push('-');
        }
        if !s.skipped.is_empty() {
            errors = format!("{errors}; skipped {}", kinds(&s.skipped));
        }
        writeln!(
            out,
            "{:<16} {:>8} {:>8} {:>9} {:>9} {:>8} {:>11}  {}",
            s.site,
            s.urls_known,
            s.pages_fetched,
            s.articles,
            s.articles_processed,
            s.lines_tracked,
            s.boilerplate_lines,
            errors
        )?;
        let r = &s.site_rule;
        if r.pages_by_rule + r.pages_by_tree > 0 {
            writeln!(
                out,
                "    tree rule: {} (hit rate {:.0} %: {} pages by rule, {} by the tree, {} dropped)",
                r.rule.as_deref().unwrap_or("none"),
                100.0 * r.hit_rate(),
                r.pages_by_rule,
                r.pages_by_tree,
                r.dropped
            )?;
        }
        let shapes = learned_shapes(s);
        let trusted: Vec<&LearnedShape> = (shapes.iter())
            .filter(|l| l.class != ShapeClass::Unknown)
            .take(STATS_TRUSTED_SHAPES)
            .collect();
        if !shapes.is_empty() {
            writeln!(
                out,
                "    url shapes: {} trusted of the {} most judged",
                shapes
                    .iter()
                    .filter(|l| l.class != ShapeClass::Unknown)
                    .count(),
                shapes.len()
            )?;
        }
        for l in trusted {
            writeln!(
                out,
                "      {:<8} {}  ({})",
                l.class.as_str(),
                l.shape,
                l.judged_text()
            )?;
        }
        if top > 0 {
            let lines = store.top_lines(&s.site, top)?;
            if lines.is_empty() {
                writeln!(
                    out,
                    "    no line repeats yet: of its {} articles, no line was seen in two",
                    s.articles
                )?;
            }
            for (line, count) in lines {
                writeln!(out, "    {count:>6}×  {line}")?;
            }
        }
    }
    writeln!(out, "\n{STATS_LEGEND}")?;
    Ok(ExitCode::SUCCESS)
}
