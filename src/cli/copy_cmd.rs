//! `newshound copy --from SRC --to DST`: the request in, the library's
//! [`copy`](newshound::store::copy::copy) run with a progress bar on a
//! terminal, the per-table counts out (stdout), one line per table.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Result;
use indicatif::{ProgressBar, ProgressStyle};

use newshound::store::copy::{self, CopyOptions, CopyProgress};
use newshound::store::StoreTarget;

use super::out::Out;
use super::status;

pub fn copy(out: &mut Out, from: &str, to: &str) -> Result<ExitCode> {
    let (from, to) = (StoreTarget::parse(from), StoreTarget::parse(to));
    if let Some(path) = to.sqlite_file() {
        super::check_db_path_for_writing(path)?;
    }
    let bar = std::io::stderr().is_terminal().then(|| {
        let pb = ProgressBar::new(0);
        if let Ok(style) = ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {msg:<20} {bar:30} {pos}/{len}",
        ) {
            pb.set_style(style);
        }
        pb.enable_steady_tick(Duration::from_millis(200));
        pb
    });
    let mut shown = |p: CopyProgress| {
        if let Some(bar) = &bar {
            bar.set_message(p.table);
            bar.set_length(p.total);
            bar.set_position(p.done);
        }
    };
    let result = copy::copy(&from, &to, &CopyOptions::default(), &mut shown);
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let report = result?;
    for (table, rows) in &report.tables {
        writeln!(out, "{table:<22} {rows:>10}")?;
    }
    status(format_args!(
        "copied {from} to {to}: every table's count verified ({} rows sent by this run)",
        report.rows_offered
    ));
    Ok(ExitCode::SUCCESS)
}
