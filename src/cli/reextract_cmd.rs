//! `reextract`: the stored articles' kept pages extracted again. In: the
//! filters and the extraction options. Out: one line saying how many
//! articles' text changed, with the other outcomes counted.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;

use newshound::extract::ExtractOptions;
use newshound::reextract::{self, ReextractLimits};

use super::out::Out;
use super::store_cmds::{require_site, selection};
use super::Globals;
use crate::Filter;

pub fn reextract(
    globals: &Globals,
    out: &mut Out,
    filter: &Filter,
    opts: &ExtractOptions,
) -> Result<ExitCode> {
    let sel = selection(filter)?;
    let config = globals.config()?;
    let mut store = globals.open_existing_store()?;
    if let Some(site) = &sel.site {
        require_site(&store, site)?;
    }
    let summary =
        reextract::reextract(&mut store, &config, opts, &sel, ReextractLimits::default())?;
    let c = summary.counts;
    let resumed = if summary.resumed_seen > 0 {
        format!(", resuming a run that had done {}", summary.resumed_seen)
    } else {
        String::new()
    };
    writeln!(
        out,
        "text changed in {} articles ({} re-extracted{resumed}; {} metadata only; \
         left as stored: {} without text, {} duplicating another article)",
        summary.changed_total(),
        c.seen,
        c.metadata_only,
        c.empty,
        c.duplicates,
    )?;
    Ok(ExitCode::SUCCESS)
}
