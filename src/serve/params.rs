//! Query strings of the API → typed, validated requests; every problem is an
//! [`ApiError`] (400) that names the parameter.
//!
//! `since`/`until` take a day (`2026-11-01`, whole days in UTC) or an RFC
//! 3339 time, as the CLI's `--since`/`--until` do; `lang` takes the codes
//! `export` writes (`eng`, `fra`, `cmn`: three lower-case letters);
//! `author`, `section` and `tag` one name each, compared as `search
//! --author` compares them.

use chrono::{DateTime, FixedOffset, NaiveDate, NaiveTime, TimeDelta};

use super::limits::{DEFAULT_LIMIT, MAX_LIMIT, MAX_OFFSET, MAX_QUERY_CHARS, MAX_QUERY_STRING};
use super::ApiError;
use crate::export::Format;
use crate::store::Selection;
use crate::words::is_stray_control;

/// `name=value` pairs of a query string, percent-decoded; unknown names are
/// an error (a typo must not silently widen a search), and so is a control
/// character other than whitespace in a name or value (a NUL made the
/// search fail with a 500).
pub fn pairs(raw: Option<&str>, allowed: &[&str]) -> Result<Vec<(String, String)>, ApiError> {
    let raw = raw.unwrap_or("");
    if raw.len() > MAX_QUERY_STRING {
        return Err(ApiError::bad_request(format!(
            "query string longer than {MAX_QUERY_STRING} bytes"
        )));
    }
    let mut out: Vec<(String, String)> = Vec::new();
    for (k, v) in url::form_urlencoded::parse(raw.as_bytes()) {
        if !allowed.contains(&k.as_ref()) {
            return Err(ApiError::bad_request(format!(
                "unknown parameter {k:?} (expected one of: {})",
                allowed.join(", ")
            )));
        }
        if let Some(c) = k.chars().chain(v.chars()).find(|c| is_stray_control(*c)) {
            return Err(ApiError::bad_request(format!(
                "parameter {k:?} holds the control character U+{:04X}; remove it",
                u32::from(c)
            )));
        }
        if out.iter().any(|(name, _)| *name == k) {
            return Err(ApiError::bad_request(format!(
                "parameter {k:?} given twice"
            )));
        }
        out.push((k.into_owned(), v.into_owned()));
    }
    Ok(out)
}

fn get<'a>(pairs: &'a [(String, String)], name: &str) -> Option<&'a str> {
    pairs
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.trim())
        .filter(|v| !v.is_empty())
}

/// The parameters of a [`Selection`].
const SELECTION: &[&str] = &["site", "since", "until", "lang", "author", "section", "tag"];

/// `site`, `since`, `until`, `lang`, `author`, `section`, `tag` → a
/// [`Selection`].
pub fn selection(pairs: &[(String, String)]) -> Result<Selection, ApiError> {
    let since = get(pairs, "since")
        .map(|s| bound(s, "since", false))
        .transpose()?;
    let until = get(pairs, "until")
        .map(|s| bound(s, "until", true))
        .transpose()?;
    if let (Some(a), Some(b)) = (since, until) {
        if a > b {
            return Err(ApiError::bad_request(format!(
                "since ({a}) is after until ({b}): no article can match"
            )));
        }
    }
    let language = get(pairs, "lang")
        .map(|l| {
            if l.len() == 3 && l.chars().all(|c| c.is_ascii_lowercase()) {
                Ok(l.to_string())
            } else {
                Err(ApiError::bad_request(format!(
                    "lang {l:?}: expected an ISO 639-3 code as exported (eng, fra, cmn)"
                )))
            }
        })
        .transpose()?;
    Ok(Selection {
        site: get(pairs, "site").map(str::to_string),
        published_since: since,
        published_until: until,
        language,
        author: get(pairs, "author").map(str::to_string),
        section: get(pairs, "section").map(str::to_string),
        tag: get(pairs, "tag").map(str::to_string),
    })
}

/// A day (its start, or with `end_of_day` its last millisecond, in UTC) or
/// an RFC 3339 instant.
fn bound(s: &str, name: &str, end_of_day: bool) -> Result<DateTime<FixedOffset>, ApiError> {
    if let Ok(day) = NaiveDate::parse_from_str(s, "%Y-%m-%d") {
        let start = day.and_time(NaiveTime::MIN).and_utc().fixed_offset();
        return Ok(if end_of_day {
            start + TimeDelta::days(1) - TimeDelta::milliseconds(1)
        } else {
            start
        });
    }
    DateTime::parse_from_rfc3339(s).map_err(|_| {
        ApiError::bad_request(format!(
            "{name} {s:?}: expected a day (2026-11-01) or an RFC 3339 time (2026-11-01T08:00:00Z)"
        ))
    })
}

/// A search request.
#[derive(Debug, Clone)]
pub struct SearchRequest {
    /// Empty: browse the selection, newest first.
    pub q: String,
    pub limit: usize,
    pub offset: usize,
    pub selection: Selection,
}

pub fn search(raw: Option<&str>) -> Result<SearchRequest, ApiError> {
    let allowed = [&["q", "limit", "offset"][..], SELECTION].concat();
    let pairs = pairs(raw, &allowed)?;
    let q = get(&pairs, "q").unwrap_or("").to_string();
    if q.chars().count() > MAX_QUERY_CHARS {
        return Err(ApiError::bad_request(format!(
            "q longer than {MAX_QUERY_CHARS} characters"
        )));
    }
    let limit = number(&pairs, "limit", DEFAULT_LIMIT, 1, MAX_LIMIT)?;
    let offset = number(&pairs, "offset", 0, 0, MAX_OFFSET)?;
    Ok(SearchRequest {
        q,
        limit,
        offset,
        selection: selection(&pairs)?,
    })
}

fn number(
    pairs: &[(String, String)],
    name: &str,
    default: usize,
    min: usize,
    max: usize,
) -> Result<usize, ApiError> {
    let Some(v) = get(pairs, name) else {
        return Ok(default);
    };
    match v.parse::<usize>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(ApiError::bad_request(format!(
            "{name} {v:?}: expected a whole number from {min} to {max}"
        ))),
    }
}

/// An export request: format (jsonl, csv or parquet) and selection.
pub fn export(raw: Option<&str>) -> Result<(Format, Selection), ApiError> {
    let pairs = pairs(raw, &[&["format"][..], SELECTION].concat())?;
    let format = match get(&pairs, "format").unwrap_or("jsonl") {
        "jsonl" => Format::Jsonl,
        "csv" => Format::Csv,
        "parquet" => Format::Parquet,
        other => {
            return Err(ApiError::bad_request(format!(
                "format {other:?}: expected jsonl, csv or parquet"
            )))
        }
    };
    Ok((format, selection(&pairs)?))
}

/// An article id from the path.
pub fn article_id(s: &str) -> Result<i64, ApiError> {
    s.parse::<i64>().ok().filter(|id| *id > 0).ok_or_else(|| {
        ApiError::bad_request(format!("article id {s:?}: expected a positive number"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_parameters_are_named_in_the_error() {
        let err = |q: &str| search(Some(q)).unwrap_err().message;
        assert!(err("limit=0").contains("limit"));
        assert!(err("limit=101").contains("from 1 to 100"));
        assert!(err("offset=-1").contains("offset"));
        assert!(err("qq=x").contains("unknown parameter \"qq\""));
        assert!(err("q=a&q=b").contains("twice"));
        assert!(err("since=yesterday").contains("since"));
        assert!(err("lang=English").contains("ISO 639-3"));
        assert!(err("since=2026-11-02&until=2026-11-01").contains("after"));
        let long = format!("q={}", "x".repeat(MAX_QUERY_CHARS + 1));
        assert!(err(&long).contains("longer"));
    }

    #[test]
    fn search_parameters_are_decoded_and_defaulted() {
        let r = search(Some(
            "q=%E6%B0%94%E5%80%99+talks&site=globe&until=2026-11-01&lang=eng",
        ))
        .unwrap();
        assert_eq!(r.q, "气候 talks");
        assert_eq!((r.limit, r.offset), (DEFAULT_LIMIT, 0));
        assert_eq!(r.selection.site.as_deref(), Some("globe"));
        assert_eq!(r.selection.language.as_deref(), Some("eng"));
        assert_eq!(
            r.selection.published_until.unwrap().to_rfc3339(),
            "2026-11-01T23:59:59.999+00:00"
        );
        assert!(search(None).unwrap().q.is_empty());
    }

    #[test]
    fn author_section_and_tag_select_on_search_and_export() {
        let r = search(Some("author=Jane+Roe&section=Local&tag=%C3%A9t%C3%A9")).unwrap();
        assert_eq!(r.selection.author.as_deref(), Some("Jane Roe"));
        assert_eq!(r.selection.section.as_deref(), Some("Local"));
        assert_eq!(r.selection.tag.as_deref(), Some("été"));
        let (_, sel) = export(Some("format=csv&tag=x")).unwrap();
        assert_eq!(sel.tag.as_deref(), Some("x"));
        assert!(search(Some("tags=x")).is_err(), "unknown parameter");
    }
}
