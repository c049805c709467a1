//! `reextract`: the stored articles' kept pages extracted again, on SQLite
//! or PostgreSQL. In: the filters and the extraction options. Out: one line saying how many
//! articles' text changed, with the other outcomes counted (articles without a kept
//! page among them; an error when no selected article has one).

use std::io::Write;
use std::process::ExitCode;

use anyhow::{bail, Result};

use newshound::extract::ExtractOptions;
use newshound::reextract::{self, ReextractLimits};
use newshound::store::Access;

use super::filter::Filter;
use super::out::Out;
use super::store_cmds::{require_site_in, selection};
use super::Globals;

pub fn reextract(
    globals: &Globals,
    out: &mut Out,
    filter: &Filter,
    opts: &ExtractOptions,
) -> Result<ExitCode> {
    let sel = selection(filter)?;
    let config = globals.config()?;
    let mut store = globals.open_store(Access::Write)?;
    if let Some(site) = &sel.site {
        require_site_in(&mut store, site)?;
    }
    let summary =
        reextract::reextract(&mut store, &config, opts, &sel, ReextractLimits::default())?;
    let c = summary.counts;
    // The selected articles that had no page to extract again: counted here
    // (one pass over the selection), so that nothing done says why.
    let selected = globals.open_reader()?.export(&sel, &mut |_| Ok(()))?;
    let without_page = selected.saturating_sub(c.seen + summary.resumed_seen);
    if selected > 0 && without_page == selected {
        bail!(
            "none of the {selected} selected articles has a kept page (they were crawled with \
             [store] keep_html = false): nothing to extract again"
        );
    }
    let resumed = if summary.resumed_seen > 0 {
        format!(", resuming a run that had done {}", summary.resumed_seen)
    } else {
        String::new()
    };
    writeln!(
        out,
        "text changed in {} articles ({} re-extracted{resumed}; {} metadata only; \
         left as stored: {} without text, {} duplicating another article, \
         {without_page} without a kept page)",
        summary.changed_total(),
        c.seen,
        c.metadata_only,
        c.empty,
        c.duplicates,
    )?;
    Ok(ExitCode::SUCCESS)
}
