//! A URL's shape (pure): its path split into segments, each classed
//! (`{yyyy}`, `{mm}`, `{dd}`, `{date}`, `{id}`, `{slug}`, `{slug}-{id}`,
//! `{id}-{slug}`, or the fixed word itself), the extension and a trailing
//! slash kept, of a query only its parameter names.
//!
//! In: a URL. Out: its [`Shape`] at both levels (see `crawl::shapes`).

use url::Url;

use super::Shape;

/// Fixed words longer than this are not words an editor chose for a
/// section: they read as a slug.
const MAX_WORD_LEN: usize = 30;

/// The shape of a URL; the host is not part of it (tables are per site).
pub fn shape_of(url: &Url) -> Shape {
    let path = url.path();
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let mut exact = String::with_capacity(path.len());
    let mut general = String::with_capacity(path.len());
    let mut has_word = false;
    let mut prev = Class::Start;
    for (i, seg) in segments.iter().enumerate() {
        let last = i + 1 == segments.len();
        let (stem, ext) = if last { split_ext(seg) } else { (*seg, "") };
        let class = class_of(stem, prev);
        exact.push('/');
        general.push('/');
        match class {
            Class::Word => {
                has_word = true;
                exact.push_str(&word_shape(stem));
                general.push_str("{word}");
            }
            other => {
                exact.push_str(other.placeholder());
                general.push_str(other.placeholder());
            }
        }
        if !ext.is_empty() {
            let ext = ext.to_ascii_lowercase();
            exact.push('.');
            exact.push_str(&ext);
            general.push('.');
            general.push_str(&ext);
        }
        prev = class;
    }
    if segments.is_empty() || path.ends_with('/') {
        exact.push('/');
        general.push('/');
    }
    if let Some(q) = url.query().filter(|q| !q.is_empty()) {
        let query = query_shape(q);
        exact.push_str(&query);
        general.push_str(&query);
    }
    Shape {
        exact,
        general: has_word.then_some(general),
    }
}

/// How one path segment is classed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    Start,
    Year,
    Month,
    Day,
    /// `2026-11-26`, `20261126`.
    Date,
    /// Digits, or a long mix of digits and letters (a hash).
    Id,
    /// Three or more words joined by `-` or `_`: a headline.
    Slug,
    /// A headline ending in a number: `budget-vote-delayed-12345`.
    SlugId,
    /// A number then a headline: `12345-budget-vote-delayed`.
    IdSlug,
    /// A fixed word: `news`, `world`, `about-us`, `page`.
    Word,
}

impl Class {
    fn placeholder(self) -> &'static str {
        match self {
            Class::Year => "{yyyy}",
            Class::Month => "{mm}",
            Class::Day => "{dd}",
            Class::Date => "{date}",
            Class::Id => "{id}",
            Class::Slug => "{slug}",
            Class::SlugId => "{slug}-{id}",
            Class::IdSlug => "{id}-{slug}",
            Class::Start | Class::Word => "",
        }
    }
}

/// `story.html` → (`story`, `html`); an extension is 1–5 letters or digits
/// after the last dot, not the whole segment.
fn split_ext(seg: &str) -> (&str, &str) {
    match seg.rsplit_once('.') {
        Some((stem, ext))
            if !stem.is_empty()
                && (1..=5).contains(&ext.len())
                && ext.bytes().all(|b| b.is_ascii_alphanumeric())
                && ext.bytes().any(|b| b.is_ascii_alphabetic()) =>
        {
            (stem, ext)
        }
        _ => (seg, ""),
    }
}

const MONTHS: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];

fn class_of(seg: &str, prev: Class) -> Class {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let number = |s: &str| s.parse::<u32>().ok();
    if digits(seg) {
        let n = number(seg);
        return match (seg.len(), prev, n) {
            (4, _, Some(1900..=2099)) => Class::Year,
            (1 | 2, Class::Year, Some(1..=12)) => Class::Month,
            (1 | 2, Class::Month, Some(1..=31)) => Class::Day,
            (8, _, _) if is_compact_date(seg) => Class::Date,
            _ => Class::Id,
        };
    }
    let lower = seg.to_ascii_lowercase();
    if prev == Class::Year
        && MONTHS
            .iter()
            .any(|m| lower == *m || (lower.len() > 3 && lower.starts_with(m)))
        && lower.len() <= 9
        && lower.bytes().all(|b| b.is_ascii_alphabetic())
    {
        return Class::Month;
    }
    let parts: Vec<&str> = seg.split(['-', '_']).filter(|p| !p.is_empty()).collect();
    if parts.len() == 3
        && parts[0].len() == 4
        && parts.iter().all(|p| digits(p))
        && parts[1].len() <= 2
        && parts[2].len() <= 2
    {
        return Class::Date;
    }
    if parts.len() >= 2 {
        let first_id = digits(parts[0]) && parts[0].len() >= 3;
        // `story-12345`, `budget-vote-delayed-123`: an id of three digits
        // or more. A shorter number ends a headline (`council-agrees-after-87`,
        // `top-10`) or tells two posts of one title apart (`my-post-2`): a
        // slug like the site's others.
        let last = parts[parts.len() - 1];
        let last_id = digits(last) && last.len() >= 3;
        if last_id && !parts[..parts.len() - 1].iter().all(|p| digits(p)) {
            return Class::SlugId;
        }
        if first_id && !parts[1..].iter().all(|p| digits(p)) {
            return Class::IdSlug;
        }
        if parts.iter().all(|p| digits(p)) {
            return Class::Id;
        }
    }
    if parts.len() >= 3 {
        return Class::Slug;
    }
    let has_digit = seg.bytes().any(|b| b.is_ascii_digit());
    let has_alpha = seg.bytes().any(|b| b.is_ascii_alphabetic());
    if has_digit && has_alpha && seg.len() >= 6 && parts.len() == 1 {
        return Class::Id;
    }
    if seg.len() > MAX_WORD_LEN {
        return Class::Slug;
    }
    Class::Word
}

/// A fixed word, lowercased, with a short trailing number made `{n}`:
/// `page-2` and `page-3` are one shape, `page-{n}`.
fn word_shape(stem: &str) -> String {
    let word = stem.to_ascii_lowercase();
    let head = word.trim_end_matches(|c: char| c.is_ascii_digit());
    let tail = word.len() - head.len();
    if (1..=3).contains(&tail)
        && head
            .trim_end_matches(['-', '_'])
            .bytes()
            .any(|b| b.is_ascii_alphabetic())
    {
        format!("{head}{{n}}")
    } else {
        word
    }
}

/// `20261126`: a plausible year, month and day.
fn is_compact_date(s: &str) -> bool {
    let y: u32 = s[..4].parse().unwrap_or(0);
    let m: u32 = s[4..6].parse().unwrap_or(0);
    let d: u32 = s[6..8].parse().unwrap_or(0);
    (1900..=2099).contains(&y) && (1..=12).contains(&m) && (1..=31).contains(&d)
}

/// `?page=2&b=x` → `?b&page`: the names, sorted, values dropped (the value
/// of `page` or `id` is what varies between pages of one shape).
fn query_shape(q: &str) -> String {
    let mut names: Vec<String> = q
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| p.split_once('=').map_or(p, |(k, _)| k).to_ascii_lowercase())
        .collect();
    names.sort();
    names.dedup();
    format!("?{}", names.join("&"))
}
