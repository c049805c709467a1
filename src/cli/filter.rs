//! `--since` and `--until` as typed (a day or an instant) and the filter
//! `search`, `export` and `reextract` share, with the instants they bound.

use anyhow::{bail, Result};
use chrono::{DateTime, FixedOffset, NaiveDate, NaiveTime, TimeDelta};
use clap::Args;

/// A `--since`/`--until` bound: a whole day or an instant.
#[derive(Debug, Clone, Copy)]
pub enum When {
    /// `2026-11-01`: that day, in UTC.
    Day(NaiveDate),
    /// `2026-11-01T08:00:00+01:00` (RFC 3339).
    Instant(DateTime<FixedOffset>),
}

pub fn when(s: &str) -> Result<When, String> {
    let s = s.trim();
    // `26-11-01` was read as the year 26: a year has four digits.
    let year = s.split('-').next().unwrap_or_default();
    if year.len() != 4 && !year.is_empty() && year.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "{s:?}: the year must have four digits (2026-11-01, or an RFC 3339 time \
             such as 2026-11-01T08:00:00Z)"
        ));
    }
    if let Ok(day) = NaiveDate::parse_from_str(s, "%Y-%m-%d") {
        return Ok(When::Day(day));
    }
    DateTime::parse_from_rfc3339(s)
        .map(When::Instant)
        .map_err(|_| {
            "expected a day (2026-11-01) or an RFC 3339 time (2026-11-01T08:00:00Z)".into()
        })
}

/// Which stored articles `search` and `export` cover.
#[derive(Debug, Clone, Args)]
pub struct Filter {
    /// Only this site (its name in the config).
    #[arg(long, value_name = "NAME")]
    pub site: Option<String>,
    /// Only articles published on or after this day (UTC) or time
    /// (articles without a publication date are left out).
    #[arg(long, value_name = "WHEN", value_parser = when)]
    pub since: Option<When>,
    /// Only articles published on or before this day (the whole day, UTC)
    /// or time (articles without a publication date are left out).
    #[arg(long, value_name = "WHEN", value_parser = when)]
    pub until: Option<When>,
}

/// An instant bound, or none.
type Bound = Option<DateTime<FixedOffset>>;

/// The instants of a `--since`/`--until` pair: a day bound covers the
/// whole day in UTC. Refused when `since` is after `until`.
pub fn bounds(since: Option<When>, until: Option<When>) -> Result<(Bound, Bound)> {
    let day_start = |d: NaiveDate| d.and_time(NaiveTime::MIN).and_utc().fixed_offset();
    let since = since.map(|w| match w {
        When::Day(d) => day_start(d),
        When::Instant(t) => t,
    });
    let until = until.map(|w| match w {
        When::Day(d) => day_start(d) + TimeDelta::days(1) - TimeDelta::milliseconds(1),
        When::Instant(t) => t,
    });
    if let (Some(a), Some(b)) = (since, until) {
        if a > b {
            bail!("--since ({a}) is after --until ({b}): nothing can match");
        }
    }
    Ok((since, until))
}
