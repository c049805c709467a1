//! `newshound sites check NAME`: a dry run: the site's start pages, feeds and sitemaps fetched
//! through the crawl's own path, every link labelled as the crawl would
//! treat it, nothing stored.

use std::io::Write;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};

use newshound::crawl::check::{self, LinkLabel, SiteCheck};
use newshound::crawl::shapes::ShapeTable;
use newshound::store::{self, Access, ShapeCounts, StoreError};

use super::out::Out;
use super::{status, Globals};

/// `sites check NAME [--json] [--fetch N]`.
pub fn check(
    globals: &Globals,
    out: &mut Out,
    name: &str,
    json: bool,
    fetch: usize,
) -> Result<ExitCode> {
    let config = globals.config()?;
    let Some(site) = config.site(name) else {
        return Err(super::unknown_site(&config, name));
    };
    // Read before the runtime starts: PostgreSQL's client refuses to run
    // on one of its threads.
    let rows = learned_shapes(globals, &config, name);
    let table = ShapeTable::from_counts(&rows);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let result = runtime.block_on(check::check_site(&config, site, &table, fetch))?;
    if json {
        for link in &result.links {
            writeln!(out, "{}", serde_json::to_string(link)?)?;
        }
        for d in result.documents.iter().filter(|d| d.failed.is_some()) {
            status(format_args!(
                "newshound: {name}: {} {}: {}",
                d.kind,
                d.url,
                d.failed.as_deref().unwrap_or_default()
            ));
        }
    } else {
        print_table(out, &result)?;
    }
    if !result.documents.iter().any(|d| d.failed.is_none()) {
        bail!("{name}: none of the site's start pages, feeds or sitemaps could be fetched");
    }
    Ok(ExitCode::SUCCESS)
}

/// The site's shape counts from the database, if there is one to read
/// (none yet is no error: the check then goes by the links' sources).
fn learned_shapes(
    globals: &Globals,
    config: &newshound::config::Config,
    site: &str,
) -> Vec<ShapeCounts> {
    let target = globals.store_target(config);
    let rows = match store::open(&target, Access::Read) {
        Ok(mut store) => store.url_shapes(),
        // No database yet: nothing learned.
        Err(StoreError::NoSuchDatabase { .. } | StoreError::IsADirectory { .. }) => Ok(Vec::new()),
        Err(e) => Err(e),
    };
    match rows {
        Ok(rows) => rows
            .into_iter()
            .filter(|(s, _)| s == site)
            .map(|(_, c)| c)
            .collect(),
        Err(e) => {
            status(format_args!(
                "newshound: cannot read the learned URL shapes, going without them: {e}"
            ));
            Vec::new()
        }
    }
}

fn print_table(out: &mut Out, result: &SiteCheck) -> Result<()> {
    for d in &result.documents {
        match &d.failed {
            None => writeln!(out, "fetched {:<8} {}  ({} links)", d.kind, d.url, d.links)?,
            Some(why) => writeln!(out, "FAILED  {:<8} {}  {why}", d.kind, d.url)?,
        }
    }
    writeln!(out)?;
    let width = (result.links.iter())
        .map(|l| l.url.chars().count())
        .max()
        .unwrap_or(3)
        .clamp(3, 80);
    writeln!(out, "{:<8} {:<width$}  reason", "label", "url")?;
    for l in &result.links {
        writeln!(
            out,
            "{:<8} {:<width$}  {}",
            l.label.as_str(),
            l.url,
            l.reason
        )?;
    }
    let count = |label| result.links.iter().filter(|l| l.label == label).count();
    writeln!(
        out,
        "\n{} links: {} article, {} index, {} other, {} blocked",
        result.links.len(),
        count(LinkLabel::Article),
        count(LinkLabel::Index),
        count(LinkLabel::Other),
        count(LinkLabel::Blocked)
    )?;
    print_judged(out, result)
}

/// The links fetched and judged (`--fetch`), articles first, each with its
/// evidence.
fn print_judged(out: &mut Out, result: &SiteCheck) -> Result<()> {
    let judged: Vec<(&check::CheckedLink, &check::JudgedLink)> = (result.links.iter())
        .filter_map(|l| l.judged.as_ref().map(|j| (l, j)))
        .collect();
    if judged.is_empty() {
        return Ok(());
    }
    writeln!(
        out,
        "\njudged {} pages as the crawl would (fetched, nothing stored):",
        judged.len()
    )?;
    for (l, j) in &judged {
        match (&j.failed, j.verdict, j.reason) {
            (Some(why), _, _) => writeln!(out, "{:<12} {:<22} {}  {why}", "FAILED", "", l.url)?,
            (None, Some(verdict), Some(reason)) => {
                writeln!(out, "{verdict:<12} {reason:<22} {}", l.url)?;
                writeln!(out, "{:<12} {}", "", j.evidence_text(l.source))?;
            }
            _ => {}
        }
    }
    let articles = judged.iter().filter(|(_, j)| j.verdict == Some("article"));
    writeln!(
        out,
        "{} of {} would be stored as articles",
        articles.count(),
        judged.len()
    )?;
    Ok(())
}
