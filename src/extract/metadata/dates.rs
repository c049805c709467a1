//! Date strings and URLs → RFC 3339 timestamps.
//!
//! In: a date as pages write it (ISO 8601 with or without offset, RFC 2822,
//! "2019-09-05 11:10", "Sep 5, 2019", "5 September 2019", "5. September
//! 2019" and the month names of other European languages, "05.09.2019",
//! "28/09/2019", Chinese "2019年09月05日 11:10", Korean "2019년 9월 5일", possibly surrounded by other text such as
//! "2019-09-05 11:10:00 来源: 新华网"), or a URL path with /2019/09/05/ or
//! 20190905 in it. Out: `Some("2019-09-05T11:10:00+08:00")`, or `None`.
//!
//! Every accepted shape is an explicit pattern; the numbers go through chrono's
//! checked constructors, so 2019-02-30 or 25:61 are rejected rather than
//! rolled over. A time without an offset is read in the site's time zone when
//! one is configured (`timezone` in crawler.toml, `extract --timezone`), with
//! its daylight-saving rules, and written with that offset; otherwise it is
//! written as UTC (`Z`): RFC 3339 needs an offset and the page gave none. Years outside 1900–2100 and
//! the Unix epoch (a placeholder of broken CMSs) are rejected as absurd.

use chrono::{DateTime, Datelike, FixedOffset, NaiveDate, NaiveDateTime, NaiveTime, TimeZone};
use chrono_tz::Tz;
use regex::{Captures, Regex};
use std::sync::LazyLock;
use url::Url;

use crate::extract::calendar;

/// A month's name, as a capture group (the names of [`calendar`]).
fn month_group() -> String {
    format!("({})", calendar::month_alternation())
}
/// Optional clock time and zone after a written-out date.
const TIME: &str = r"(?:,?\s*(?:at\s+|-\s*)?(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([ap]\.?m\.?)?)?(?:\s*(z|utc|gmt|[+-]\d{2}:?\d{2}|[ecmp][sd]t|bst|cet|cest)\b)?";

/// 2019-09-05, 2019/09/05, 2019.09.05 with optional time and offset.
static ISO: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)(?:^|[^\d])(\d{4})([-/.])(\d{1,2})([-/.])(\d{1,2})(?:(?:t|\s+|\s*t\s*)(\d{1,2})[:：](\d{2})(?:[:：](\d{2})(?:[.,]\d+)?)?\s*(z|utc|gmt|[+-]\d{2}(?::?\d{2})?)?)?(?:[^\d]|$)",
    )
    .expect("valid regex")
});
/// 2019年09月05日 11:10(:00), 2019年9月5日 11时10分, Korean 2019년 9월 5일.
static CJK: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(\d{4})\s*[年년]\s*(\d{1,2})\s*[月월]\s*(\d{1,2})\s*[日일](?:\s*(\d{1,2})\s*[:：时시]\s*(\d{1,2})(?:\s*[:：分분]\s*(\d{1,2}))?)?")
        .expect("valid regex")
});
/// Sep 5, 2019 / September 5th, 2019 11:10 AM EST.
static MONTH_FIRST: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?i)\b{}\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})\b{TIME}",
        month_group()
    ))
    .expect("valid regex")
});
/// 5 September 2019 / 05 Sep 2019 11:10:00 GMT (RFC 2822 too); with the
/// day's dot or ordinal and the linking "de" of other languages: 5. September
/// 2019, 1er mai 2019, 5 de septiembre de 2019.
static DAY_FIRST: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?i)\b(\d{{1,2}})(?:st|nd|rd|th|er|º)?\.?\s+(?:of\s+|de\s+)?{}\.?,?\s+(?:de\s+)?(\d{{4}})\b{TIME}",
        month_group()
    ))
    .expect("valid regex")
});
/// 05.09.2019 (day first, as the dotted form is written in Europe).
static DOTTED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:^|[^\d.])(\d{1,2})\.(\d{1,2})\.(\d{4})(?:,?\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?(?:[^\d]|$)")
        .expect("valid regex")
});
/// 05.09.19: the dotted form with a two-digit year, as datelines print it
/// on many European sites ("Do 25.04.24 | 14:07 Uhr"). No digit or dot
/// may touch it on either side: "1.2.24." and "10.1.2.24" are versions
/// and addresses.
static DOTTED_SHORT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:^|[^\d.])(\d{1,2})\.(\d{1,2})\.(\d{2})(?:,?\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?(?:[^\d.]|$)")
        .expect("valid regex")
});
/// 28/04/2019 or 04/28/2019 (also with dashes), with an optional time
/// (a.m./p.m. and a zone too, as US pages write them after a slashed date): the
/// order of day and month is read from the numbers, and a date that reads
/// both ways (05/09/2019) is left unread.
static SLASHED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?:^|[^\d/.-])(\d{1,2})([/-])(\d{1,2})[/-](\d{4})(?:,?\s+(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*([ap]\.?m\.?))?(?:\s*(z|utc|gmt|[ecmp][sd]t|bst|cet|cest)\b)?)?(?:[^\d/.-]|$)")
        .expect("valid regex")
});
/// Dates in URL paths: /2019/09/05/, /2019-09-05-, /2019-09/05/, /20190905.
static URL_DATE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?:^|[^\d])((?:19|20)\d{2})[-/_]?(0[1-9]|1[0-2])[-/_]?(0[1-9]|[12]\d|3[01])(?:[^\d]|$)",
    )
    .expect("valid regex")
});

/// A parsed date that carried its own offset, or a local time without one.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Stamp {
    Zoned(DateTime<FixedOffset>),
    Naive(NaiveDateTime),
}

impl Stamp {
    pub(super) fn date(&self) -> NaiveDate {
        match self {
            Stamp::Zoned(d) => d.date_naive(),
            Stamp::Naive(d) => d.date(),
        }
    }

    /// RFC 3339; a local time is read in `zone` (UTC without one).
    pub(super) fn to_rfc3339(self, zone: Option<Tz>) -> String {
        use chrono::SecondsFormat::AutoSi;
        match self {
            Stamp::Zoned(d) => d.to_rfc3339_opts(AutoSi, true),
            Stamp::Naive(d) => match zone.and_then(|z| local_in(z, d)) {
                Some(zoned) => zoned.to_rfc3339_opts(AutoSi, true),
                None => d.and_utc().to_rfc3339_opts(AutoSi, true),
            },
        }
    }
}

/// `local` as a wall-clock time in `zone`. A time that a daylight-saving
/// change makes ambiguous is read as the earlier one; one that falls in the
/// skipped hour is read an hour later (the clock the page's writer saw).
fn local_in(zone: Tz, local: NaiveDateTime) -> Option<DateTime<FixedOffset>> {
    let zoned = zone.from_local_datetime(&local).earliest().or_else(|| {
        zone.from_local_datetime(&(local + chrono::Duration::hours(1)))
            .earliest()
    })?;
    Some(zoned.fixed_offset())
}

/// Parse a date written by a page into RFC 3339 (a time without an offset is
/// read as UTC); the tests' view of [`parse_stamp`].
#[cfg(test)]
pub fn parse_date(s: &str) -> Option<String> {
    parse_stamp(s).map(|d| d.to_rfc3339(None))
}

pub(super) fn parse_stamp(s: &str) -> Option<Stamp> {
    let s = s.trim();
    if s.is_empty() || s.len() > 400 {
        return None;
    }
    let stamp = DateTime::parse_from_rfc3339(s)
        .or_else(|_| DateTime::parse_from_rfc2822(s))
        .map(Stamp::Zoned)
        .ok()
        .or_else(|| ISO.captures(s).and_then(|c| from_iso(&c)))
        .or_else(|| CJK.captures(s).and_then(|c| from_numeric(&c, [1, 2, 3])))
        .or_else(|| {
            MONTH_FIRST
                .captures(s)
                .and_then(|c| from_named(&c, 2, 1, 3))
        })
        .or_else(|| DAY_FIRST.captures(s).and_then(|c| from_named(&c, 1, 2, 3)))
        .or_else(|| DOTTED.captures(s).and_then(|c| from_numeric(&c, [3, 2, 1])))
        .or_else(|| DOTTED_SHORT.captures(s).and_then(|c| from_short_year(&c)))
        .or_else(|| SLASHED.captures(s).and_then(|c| from_slashed(&c)))?;
    plausible(&stamp).then_some(stamp)
}

/// A date in the URL path (day precision), e.g. `/2019/09/05/slug`; the
/// tests' view of [`url_stamp`].
#[cfg(test)]
pub fn date_from_url(url: &Url) -> Option<String> {
    url_stamp(url).map(|d| d.to_rfc3339(None))
}

pub(super) fn url_stamp(url: &Url) -> Option<Stamp> {
    let caps = URL_DATE.captures(url.path())?;
    let date = ymd(num(&caps, 1)?, num(&caps, 2)?, num(&caps, 3)?)?;
    let stamp = Stamp::Naive(date.and_time(NaiveTime::MIN));
    plausible(&stamp).then_some(stamp)
}

fn num(c: &Captures, i: usize) -> Option<u32> {
    c.get(i)?.as_str().parse().ok()
}

fn ymd(y: u32, m: u32, d: u32) -> Option<NaiveDate> {
    NaiveDate::from_ymd_opt(i32::try_from(y).ok()?, m, d)
}

fn from_iso(c: &Captures) -> Option<Stamp> {
    // The two separators must agree: 2019-09/05 is more likely a path.
    if c.get(2)?.as_str() != c.get(4)?.as_str() {
        return None;
    }
    let date = ymd(num(c, 1)?, num(c, 3)?, num(c, 5)?)?;
    let time = clock(c, 6, 7, 8, None)?;
    let zone = c.get(9).map(|m| m.as_str());
    finish(date.and_time(time), zone)
}

/// Year, month, day at the given groups, then optional hour, minute, second
/// in groups 4–6.
fn from_numeric(c: &Captures, ymd_at: [usize; 3]) -> Option<Stamp> {
    let date = ymd(num(c, ymd_at[0])?, num(c, ymd_at[1])?, num(c, ymd_at[2])?)?;
    let time = clock(c, 4, 5, 6, None)?;
    Some(Stamp::Naive(date.and_time(time)))
}

/// [`DOTTED_SHORT`]: a year 00–69 is of this century, 70–99 of the last
/// (as POSIX reads two-digit years).
fn from_short_year(c: &Captures) -> Option<Stamp> {
    let short = num(c, 3)?;
    let year = if short < 70 {
        2000 + short
    } else {
        1900 + short
    };
    let date = ymd(year, num(c, 2)?, num(c, 1)?)?;
    let time = clock(c, 4, 5, 6, None)?;
    Some(Stamp::Naive(date.and_time(time)))
}

/// [`SLASHED`]: day and month in the order their values allow (a first
/// number over 12 is the day, a second one over 12 the day), then the time.
fn from_slashed(c: &Captures) -> Option<Stamp> {
    let (first, second, year) = (num(c, 1)?, num(c, 3)?, num(c, 4)?);
    let (day, month) = match (first > 12, second > 12) {
        (true, false) => (first, second),
        (false, true) => (second, first),
        _ => return None,
    };
    let date = ymd(year, month, day)?;
    let time = clock(c, 5, 6, 7, c.get(8).map(|m| m.as_str()))?;
    finish(date.and_time(time), c.get(9).map(|m| m.as_str()))
}

/// A written-out month: groups for day, month name and year, then [`TIME`]'s
/// five groups 4–8 (hour, minute, second, am/pm, zone).
fn from_named(c: &Captures, day: usize, month: usize, year: usize) -> Option<Stamp> {
    let month = calendar::month_of(c.get(month)?.as_str())?;
    let date = ymd(num(c, year)?, month, num(c, day)?)?;
    let time = clock(c, 4, 5, 6, c.get(7).map(|m| m.as_str()))?;
    finish(date.and_time(time), c.get(8).map(|m| m.as_str()))
}

/// The clock time at the given groups (midnight when absent); `None` only when
/// present but impossible.
fn clock(c: &Captures, h: usize, m: usize, s: usize, meridiem: Option<&str>) -> Option<NaiveTime> {
    let Some(hour) = num(c, h) else {
        return Some(NaiveTime::MIN);
    };
    let minute = num(c, m).unwrap_or(0);
    let second = num(c, s).unwrap_or(0);
    let hour = match meridiem.map(|p| p.starts_with(['p', 'P'])) {
        Some(_) if !(1..=12).contains(&hour) => return None,
        Some(true) => hour % 12 + 12,
        Some(false) => hour % 12,
        None => hour,
    };
    NaiveTime::from_hms_opt(hour, minute, second)
}

fn finish(local: NaiveDateTime, zone: Option<&str>) -> Option<Stamp> {
    let Some(zone) = zone else {
        return Some(Stamp::Naive(local));
    };
    let offset = FixedOffset::east_opt(zone_seconds(zone)?)?;
    local.and_local_timezone(offset).single().map(Stamp::Zoned)
}

/// Seconds east of UTC for `Z`, `UTC`, `+08`, `+0800`, `-05:00`, `EST`…
fn zone_seconds(zone: &str) -> Option<i32> {
    let z = zone.to_ascii_lowercase();
    let hours = match z.as_str() {
        "z" | "utc" | "gmt" => 0,
        "est" => -5,
        "edt" => -4,
        "cst" => -6,
        "cdt" => -5,
        "mst" => -7,
        "mdt" => -6,
        "pst" => -8,
        "pdt" => -7,
        "bst" | "cet" => 1,
        "cest" => 2,
        _ => {
            let sign = if z.starts_with('-') { -1 } else { 1 };
            let digits: String = z.chars().filter(char::is_ascii_digit).collect();
            let (h, m) = match digits.len() {
                2 => (digits.parse::<i32>().ok()?, 0),
                4 => (
                    digits[..2].parse::<i32>().ok()?,
                    digits[2..].parse::<i32>().ok()?,
                ),
                _ => return None,
            };
            if h > 14 || m > 59 {
                return None;
            }
            return Some(sign * (h * 3600 + m * 60));
        }
    };
    Some(hours * 3600)
}

fn plausible(stamp: &Stamp) -> bool {
    let date = stamp.date();
    let epoch = date.year() == 1970 && date.ordinal() == 1;
    (1900..=2100).contains(&date.year()) && !epoch
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Option<String> {
        parse_date(s)
    }

    fn in_zone(s: &str, zone: &str) -> Option<String> {
        let zone: Tz = zone.parse().expect("zone");
        parse_stamp(s).map(|d| d.to_rfc3339(Some(zone)))
    }

    #[test]
    fn local_times_are_read_in_the_site_zone() {
        // No offset on the page: the zone's offset on that day, DST included.
        assert_eq!(
            in_zone("2019年09月05日 11:10", "Asia/Shanghai").as_deref(),
            Some("2019-09-05T11:10:00+08:00")
        );
        assert_eq!(
            in_zone("2019-07-01 09:00", "Europe/Paris").as_deref(),
            Some("2019-07-01T09:00:00+02:00")
        );
        assert_eq!(
            in_zone("2019-12-01 09:00", "Europe/Paris").as_deref(),
            Some("2019-12-01T09:00:00+01:00")
        );
        // The page's own offset wins over the zone.
        assert_eq!(
            in_zone("2019-07-01T09:00:00-04:00", "Europe/Paris").as_deref(),
            Some("2019-07-01T09:00:00-04:00")
        );
        // 02:30 does not exist on the spring-forward night: read an hour later;
        // on the fall-back night it exists twice: the earlier one.
        assert_eq!(
            in_zone("2019-03-31 02:30", "Europe/Paris").as_deref(),
            Some("2019-03-31T03:30:00+02:00")
        );
        assert_eq!(
            in_zone("2019-10-27 02:30", "Europe/Paris").as_deref(),
            Some("2019-10-27T02:30:00+02:00")
        );
        // Without a zone, as before: UTC.
        assert_eq!(
            p("2019-07-01 09:00").as_deref(),
            Some("2019-07-01T09:00:00Z")
        );
    }

    #[test]
    fn iso_forms() {
        assert_eq!(
            p("2019-09-05T11:10:00Z").as_deref(),
            Some("2019-09-05T11:10:00Z")
        );
        assert_eq!(
            p("2019-09-05T11:10:00+02:00").as_deref(),
            Some("2019-09-05T11:10:00+02:00")
        );
        assert_eq!(
            p("2019-09-05T11:10:00.123-0400").as_deref(),
            Some("2019-09-05T11:10:00-04:00")
        );
        assert_eq!(
            p("2019-09-05T11:10:00").as_deref(),
            Some("2019-09-05T11:10:00Z")
        );
        assert_eq!(
            p("2019-09-05T11:10").as_deref(),
            Some("2019-09-05T11:10:00Z")
        );
        assert_eq!(
            p("2019-09-05 11:10").as_deref(),
            Some("2019-09-05T11:10:00Z")
        );
        assert_eq!(p("2019-09-05").as_deref(), Some("2019-09-05T00:00:00Z"));
        assert_eq!(
            p("2019/9/5 08:01:02 +08").as_deref(),
            Some("2019-09-05T08:01:02+08:00")
        );
        assert_eq!(
            p(" Updated: 2019-09-05 ").as_deref(),
            Some("2019-09-05T00:00:00Z")
        );
    }

    #[test]
    fn rfc2822_and_written_months() {
        assert_eq!(
            p("Thu, 05 Sep 2019 11:10:00 GMT").as_deref(),
            Some("2019-09-05T11:10:00Z")
        );
        assert_eq!(
            p("Thu, 05 Sep 2019 11:10:00 +0100").as_deref(),
            Some("2019-09-05T11:10:00+01:00")
        );
        assert_eq!(p("Sep 5, 2019").as_deref(), Some("2019-09-05T00:00:00Z"));
        assert_eq!(
            p("Sept. 5th, 2019 at 3:04 PM EDT").as_deref(),
            Some("2019-09-05T15:04:00-04:00")
        );
        assert_eq!(
            p("Thursday, September 5, 2019 12:30 am").as_deref(),
            Some("2019-09-05T00:30:00Z")
        );
        assert_eq!(
            p("5 September 2019").as_deref(),
            Some("2019-09-05T00:00:00Z")
        );
        assert_eq!(
            p("Published 05 Sep 2019 11:10 BST").as_deref(),
            Some("2019-09-05T11:10:00+01:00")
        );
        assert_eq!(
            p("05.09.2019, 11:10").as_deref(),
            Some("2019-09-05T11:10:00Z")
        );
    }

    #[test]
    fn dotted_dates_with_a_two_digit_year_are_read_but_not_versions_or_addresses() {
        assert_eq!(
            p("Do 25.04.24 | 14:07 Uhr").as_deref(),
            Some("2024-04-25T00:00:00Z")
        );
        assert_eq!(
            p("25.04.24, 14:07").as_deref(),
            Some("2024-04-25T14:07:00Z")
        );
        assert_eq!(p("3.1.98").as_deref(), Some("1998-01-03T00:00:00Z"));
        for text in [
            "v1.2.24.",
            "10.1.2.24",
            "192.168.1.10",
            "31.02.24",
            "1.13.24",
        ] {
            assert_eq!(p(text), None, "{text}");
        }
    }

    #[test]
    fn written_months_of_other_languages() {
        let day = |s: &str| p(s).map(|d| d[..10].to_string());
        for (text, want) in [
            ("28. April 2023", "2023-04-28"),
            ("Veröffentlicht am 3. März 2024, 14:07 Uhr", "2024-03-03"),
            ("Stand: 1. Dezember 2025", "2025-12-01"),
            ("1er mai 2023", "2023-05-01"),
            ("Publié le 15 août 2022 à 10:00", "2022-08-15"),
            ("Publicado el 28 de abril de 2023", "2023-04-28"),
            ("28 de setembro de 2024", "2024-09-28"),
            ("12 giugno 2021", "2021-06-12"),
            ("6 juillet 2020", "2020-07-06"),
            ("6 juin 2020", "2020-06-06"),
            ("3 maart 2023", "2023-03-03"),
            ("17 mei 2023", "2023-05-17"),
            ("28 kwietnia 2023", "2023-04-28"),
            ("9 października 2023", "2023-10-09"),
            ("2 MAI 2023", "2023-05-02"),
        ] {
            assert_eq!(day(text).as_deref(), Some(want), "{text}");
        }
        // A word that only begins like a month is none.
        assert_eq!(p("28 Maine 2023"), None);
        assert_eq!(p("31. Juni 2023"), None);
    }

    #[test]
    fn slashed_dates_are_read_when_their_order_is_clear() {
        assert_eq!(p("28/04/2023").as_deref(), Some("2023-04-28T00:00:00Z"));
        assert_eq!(
            p("Publié le 28/04/2023 à 14:07").as_deref(),
            Some("2023-04-28T00:00:00Z")
        );
        assert_eq!(
            p("28-04-2023 14:07").as_deref(),
            Some("2023-04-28T14:07:00Z")
        );
        assert_eq!(p("04/28/2023").as_deref(), Some("2023-04-28T00:00:00Z"));
        assert_eq!(
            p("5/31/2005 06:29:00 PM").as_deref(),
            Some("2005-05-31T18:29:00Z")
        );
        assert_eq!(
            p("Article Launched: 01/14/2008 02:57:26 AM PST").as_deref(),
            Some("2008-01-14T02:57:26-08:00")
        );
        // Both ways a date: which one the page meant is unknown.
        assert_eq!(p("05/09/2023"), None);
        // Neither way a date.
        assert_eq!(p("31/13/2023"), None);
        // Parts of longer numbers or paths are none.
        assert_eq!(p("1/28/04/2023"), None);
        assert_eq!(p("version 28/04/20231"), None);
    }

    #[test]
    fn korean_form() {
        assert_eq!(
            p("2023년 4월 28일 14:07").as_deref(),
            Some("2023-04-28T14:07:00Z")
        );
        assert_eq!(
            p("2023년 4월 28일").as_deref(),
            Some("2023-04-28T00:00:00Z")
        );
    }

    #[test]
    fn chinese_forms() {
        assert_eq!(
            p("2019年09月05日 11:10").as_deref(),
            Some("2019-09-05T11:10:00Z")
        );
        assert_eq!(p("2019年9月5日").as_deref(), Some("2019-09-05T00:00:00Z"));
        assert_eq!(
            p("发布时间：2019年9月5日 11时10分").as_deref(),
            Some("2019-09-05T11:10:00Z")
        );
        assert_eq!(
            p("2019-09-05 11:10:00 来源: 新华网").as_deref(),
            Some("2019-09-05T11:10:00Z")
        );
        assert_eq!(
            p("2019-09-05 11：10：00").as_deref(),
            Some("2019-09-05T11:10:00Z")
        );
    }

    #[test]
    fn garbage_and_absurd_dates() {
        for s in [
            "",
            "   ",
            "yesterday",
            "2019-02-30",
            "2019-13-01",
            "2019-09-05 25:10",
            "0001-01-01T00:00:00Z",
            "9999-12-31",
            "1970-01-01T00:00:00Z",
            "12345678",
            "Sep 35, 2019",
            "13:00 PM Sep 5 2019x",
            "Sep 5, 2019 13:00 pm",
            "2019-09/05",
            "٢٠١٩-٠٩-٠٥",
            "2019-09-05T11:10:00+99:00",
        ] {
            assert_eq!(p(s), None, "{s:?}");
        }
        // Long junk is refused quickly rather than scanned.
        assert_eq!(p(&"2019-09-05 ".repeat(100)), None);
    }

    #[test]
    fn url_dates() {
        let u = |s: &str| date_from_url(&Url::parse(s).expect("url"));
        assert_eq!(
            u("https://x.com/2019/09/05/slug.html").as_deref(),
            Some("2019-09-05T00:00:00Z")
        );
        assert_eq!(
            u("http://news.cn/2019-09/05/c_1124966743.htm").as_deref(),
            Some("2019-09-05T00:00:00Z")
        );
        assert_eq!(
            u("https://x.com/news/20190905/abc").as_deref(),
            Some("2019-09-05T00:00:00Z")
        );
        assert_eq!(
            u("https://x.com/a-2019-09-05-b").as_deref(),
            Some("2019-09-05T00:00:00Z")
        );
        assert_eq!(u("https://x.com/article/1234567890"), None);
        assert_eq!(u("https://x.com/2019/09/slug"), None);
        assert_eq!(u("https://x.com/?d=2019/09/05"), None);
    }
}
