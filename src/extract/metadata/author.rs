//! Byline strings → an author name.
//!
//! In: raw author text from meta tags, `itemprop=author`, `rel=author` links
//! or byline elements ("By Jane Roe | Sep 5, 2019", "作者：张三"). Out: the
//! name ("Jane Roe"), or `None` when the text does not look like a name (a
//! URL, a handle, an e-mail address, a paragraph of biography).

use regex::Regex;
use std::sync::LazyLock;

/// Byline lead-ins to drop.
static PREFIX: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^(?:(?:written|posted|published|reported|text|story|words)\s+)?by\s*:?\s+|^(?:authors?|author\(s\)|reporter|writer)\s*[:：]\s*|^(?:作者|记者|文|撰文|来源作者)\s*[:：/／]?\s*")
        .expect("valid regex")
});
/// Where a byline stops being the name: separators, dates, roles.
static TAIL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\s*(?:[|•·/(\[\n]|\s[-–—]\s|,?\s+(?:updated|published|posted|on)\b|,?\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d|\d|责任编辑|编辑|来源)")
        .expect("valid regex")
});

/// Longest plausible author string (several co-authors included).
const MAX_CHARS: usize = 100;
const MAX_WORDS: usize = 12;

/// Clean one author string; `None` when it is not a plausible name.
pub(super) fn clean_author(raw: &str) -> Option<String> {
    let collapsed = raw.split_whitespace().collect::<Vec<_>>().join(" ");
    if collapsed.chars().count() > 4 * MAX_CHARS {
        return None;
    }
    let lower = collapsed.to_ascii_lowercase();
    if lower.contains("http") || lower.contains("www.") || collapsed.contains('@') {
        return None;
    }
    let body = PREFIX.replace(&collapsed, "");
    let cut = TAIL.find(&body).map_or(body.len(), |m| m.start());
    let name = body[..cut].trim_matches(|c: char| c.is_whitespace() || ",;:-–—".contains(c));
    let words = name.split_whitespace().count();
    let ok = name.chars().any(char::is_alphabetic)
        && name.chars().count() <= MAX_CHARS
        && words <= MAX_WORDS
        && !is_placeholder(name);
    ok.then(|| name.to_string())
}

/// CMS defaults that name nobody.
fn is_placeholder(name: &str) -> bool {
    [
        "admin",
        "administrator",
        "author",
        "by",
        "unknown",
        "null",
        "none",
    ]
    .iter()
    .any(|p| name.eq_ignore_ascii_case(p))
}

/// Join several names, dropping duplicates.
pub(super) fn join_names(names: &[String]) -> Option<String> {
    let mut seen: Vec<&str> = Vec::new();
    for n in names {
        if !seen.iter().any(|s| s.eq_ignore_ascii_case(n)) {
            seen.push(n);
        }
    }
    (!seen.is_empty()).then(|| seen.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(s: &str) -> Option<String> {
        clean_author(s)
    }

    #[test]
    fn bylines_are_cleaned() {
        assert_eq!(c("By Jane Roe").as_deref(), Some("Jane Roe"));
        assert_eq!(
            c("  by   JANE ROE | Sep 5, 2019").as_deref(),
            Some("JANE ROE")
        );
        assert_eq!(
            c("Written by Jane Roe, Sep 5, 2019").as_deref(),
            Some("Jane Roe")
        );
        assert_eq!(
            c("Jane Roe and John Doe, Updated 11:10").as_deref(),
            Some("Jane Roe and John Doe")
        );
        assert_eq!(c("Jane Roe - Staff Writer").as_deref(), Some("Jane Roe"));
        assert_eq!(c("Author: Jane Roe (@jroe)").as_deref(), None);
        assert_eq!(c("Author: Jane Roe (Reuters)").as_deref(), Some("Jane Roe"));
        assert_eq!(c("作者：张三 2019-09-05").as_deref(), Some("张三"));
        assert_eq!(c("记者 李四 责任编辑：王五").as_deref(), Some("李四"));
    }

    #[test]
    fn non_names_are_rejected() {
        let bio = "Jane Roe is a reporter who has covered politics and the economy for twenty years in three countries";
        for s in [
            "",
            "  ",
            "https://x.org/jane",
            "www.x.org",
            "jane@x.org",
            "@jroe",
            "admin",
            "By",
            "2019-09-05",
            bio,
        ] {
            assert_eq!(c(s), None, "{s:?}");
        }
    }

    #[test]
    fn joining_dedupes() {
        let v = vec![
            "Jane Roe".to_string(),
            "jane roe".to_string(),
            "John Doe".to_string(),
        ];
        assert_eq!(join_names(&v).as_deref(), Some("Jane Roe, John Doe"));
        assert_eq!(join_names(&[]), None);
    }
}
