//! Byline strings → an author name.
//!
//! In: raw author text from meta tags, `itemprop=author`, `rel=author` links
//! or byline elements ("By Jane Roe | Sep 5, 2019", "Von Jane Roe",
//! "作者：张三"), one name's part of it once [`super::authors`] has split a
//! list. Out: the name ("Jane Roe"), or `None` when the text does not look
//! like a name (a URL, a slug, a handle, an e-mail address, a paragraph of
//! biography, share links, a job title alone).

use crate::extract::calendar;
use regex::Regex;
use std::sync::LazyLock;

/// Byline lead-ins to drop: "By" and its equivalents in the languages of
/// the news (German "Von", French "Par", Spanish and Portuguese "Por",
/// Dutch "Door", Scandinavian "Av"/"Af", Italian "di"), each also after a
/// participle or noun that says what the person did ("Posted by",
/// "Eingestellt von", "Publié par", "Artikel von"), the labels "Author:",
/// "Text:", and the Chinese ones. A lead-in with nothing after it names
/// nobody: its name is in the next element, or missing.
static PREFIX: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^(?:(?:written|posted|published|reported|text|story|words)\s+)?by\s*:?(?:\s+|$)|^(?:(?:eingestellt|veröffentlicht|geschrieben|verfasst|artikel|beitrag|publié|écrit|rédigé|article|publicado|escrito|redactado|artículo|geplaatst|geschreven)\s+)?(?:von|par|por|door|av|af)\s*:?(?:\s+|$)|^(?-i:di)\s+|^(?:authors?|author\(s\)|autor(?:in|en)?|auteur|reporter|writer|text|texto)\s*[:：]\s*|^(?:作者|记者|文|撰文|来源作者|责任编辑)\s*[:：/／]?\s*")
        .expect("valid regex")
});
/// "By" inside a byline that starts with something else (a date).
static INNER_BY: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\b(?:By|BY)\s+").expect("valid regex"));
/// Where a byline stops being the name: separators, dates, roles.
static TAIL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\s*(?:[|•·/(\[\n<]|\s[-–—]\s|,?\s+(?:updated|published|posted|on)\b|,?\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d|\b\d|责任编辑|编辑|来源)")
        .expect("valid regex")
});

/// A trailing job title: "AP Sports Writer", ", Staff Writer".
static ROLE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?:,\s*|\s+)(?:(?:ap|associated\s+press|reuters|afp|staff|sports|entertainment|business|political|politics|senior|chief|special|national|security|foreign|environment|health|science|technology|tech)\s+)+(?:writer|reporter|correspondent|columnist|editor)s?\b|,\s*(?:writer|reporter|correspondent|columnist|editor)s?\b")
        .expect("valid regex")
});

/// Longest plausible author string (several co-authors included).
const MAX_CHARS: usize = 100;
const MAX_WORDS: usize = 12;

/// `raw` without its byline lead-in ("By ", "Von ", "Author: ").
pub(super) fn strip_lead_in(raw: &str) -> &str {
    PREFIX.find(raw).map_or(raw, |m| &raw[m.end()..])
}

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
    let body = match PREFIX.find(&collapsed) {
        Some(m) => &collapsed[m.end()..],
        None => INNER_BY
            .find(&collapsed)
            .map_or(&collapsed[..], |m| &collapsed[m.end()..]),
    };
    let cut = TAIL.find(body).map_or(body.len(), |m| m.start());
    let cut = ROLE.find(&body[..cut]).map_or(cut, |m| m.start());
    let name = body[..cut].trim_matches(|c: char| c.is_whitespace() || ",;:-–—".contains(c));
    let words = name.split_whitespace().count();
    let letters = name.chars().filter(|c| c.is_alphabetic()).count();
    // Two letters name nobody in Latin script ("vv"), but do in Chinese,
    // and an agency in capitals does ("AP").
    let acronym = name.len() == 2 && name.bytes().all(|b| b.is_ascii_uppercase());
    let min_letters = if name.is_ascii() && !acronym { 3 } else { 2 };
    let ok = letters >= min_letters
        && name.chars().count() <= MAX_CHARS
        && !lower.contains("photo")
        && words <= MAX_WORDS
        && !is_placeholder(name)
        && !is_slug(name)
        && !is_links_or_role(name);
    ok.then(|| name.to_string())
}

/// A URL slug or user name in place of a name ("jane-roe", "j_roe"): one
/// lower-case word joined by hyphens or underscores.
fn is_slug(name: &str) -> bool {
    !name.contains(' ')
        && name.contains(['-', '_'])
        && !name.chars().any(char::is_uppercase)
        && name.chars().any(char::is_lowercase)
}

/// A domain name ("ndr.de", "Lrt.lt"): a publisher named by its address.
pub(super) fn is_domain(name: &str) -> bool {
    let Some((host, tld)) = name.rsplit_once('.') else {
        return false;
    };
    !name.contains(char::is_whitespace)
        && !host.is_empty()
        && (2..=6).contains(&tld.len())
        && tld.chars().all(|c| c.is_ascii_alphabetic())
        && host
            .chars()
            .all(|c| c.is_alphanumeric() || c == '.' || c == '-')
}

/// Job titles' last word ("Senior Writer", "Entertainment Reporter").
const ROLE_NOUNS: &[&str] = &[
    "writer",
    "reporter",
    "correspondent",
    "columnist",
    "editor",
    "editors",
    "redakteur",
    "redakteurin",
    "journalist",
    "journalistin",
    "contributor",
    "photographer",
    "producer",
];

/// Words of share and follow links ("Twitter Facebook", "E-Mail") and of
/// job titles ("Senior Writer"): an author box's links and labels, not a
/// name, when every word of the text is one of them.
fn is_links_or_role(name: &str) -> bool {
    const WORDS: &[&str] = &[
        "twitter",
        "facebook",
        "x",
        "instagram",
        "linkedin",
        "whatsapp",
        "telegram",
        "youtube",
        "tiktok",
        "pinterest",
        "reddit",
        "threads",
        "bluesky",
        "mastodon",
        "rss",
        "email",
        "e-mail",
        "mail",
        "share",
        "follow",
        "teilen",
        "folgen",
        "copy",
        "link",
        "print",
        "senior",
        "chief",
        "staff",
        "sports",
        "news",
        "political",
        "foreign",
        "national",
    ];
    name.split_whitespace().all(|w| {
        let w = w.trim_matches(',');
        WORDS
            .iter()
            .chain(ROLE_NOUNS)
            .any(|x| w.eq_ignore_ascii_case(x))
    })
}

/// A job title beside a name in a list ("Jane Roe, Entertainment Writer"):
/// its last word names a role.
pub(super) fn is_job_title(part: &str) -> bool {
    part.split_whitespace()
        .last()
        .is_some_and(|w| ROLE_NOUNS.iter().any(|r| w.eq_ignore_ascii_case(r)))
}

/// CMS defaults and byline fragments that name nobody: lead-in and label
/// words left alone ("Stand" is German's "as of" before a date), and the
/// date's own month and weekday names.
fn is_placeholder(name: &str) -> bool {
    const WORDS: &[&str] = &[
        "von",
        "par",
        "por",
        "door",
        "av",
        "af",
        "admin",
        "administrator",
        "author",
        "by",
        "unknown",
        "null",
        "none",
        "posted",
        "published",
        "publisher",
        "updated",
        "stand",
        "staff",
        "editor",
        "reporter",
        "share",
        "email",
        "print",
    ];
    let n = name.trim_end_matches('.');
    WORDS.iter().any(|p| n.eq_ignore_ascii_case(p))
        || calendar::month_of(n).is_some()
        || calendar::is_weekday(n)
}

/// Whether a cleaned byline from a weak source (a class name, a link) is
/// written like a name: in Latin script every word is capitalised except
/// particles ("Jane van Roe", not "Fighting back").
pub(super) fn looks_like_name(name: &str) -> bool {
    const PARTICLES: &[&str] = &[
        "and", "de", "da", "di", "van", "von", "der", "den", "del", "la", "le", "bin", "al", "y",
        "&",
    ];
    name.split_whitespace().all(|w| {
        let first = w.chars().find(|c| c.is_alphabetic());
        match first {
            None => true,
            Some(c) if !c.is_ascii() && !c.is_uppercase() && !c.is_lowercase() => true,
            Some(c) => c.is_uppercase() || PARTICLES.contains(&w),
        }
    })
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
        assert_eq!(
            c("Jeff Latzke AP Sports Writer").as_deref(),
            Some("Jeff Latzke")
        );
        assert_eq!(
            c("TARIQ PANJA Associated Press Writer").as_deref(),
            Some("TARIQ PANJA")
        );
        assert_eq!(
            c("Michelle Solomon, Entertainment Writer").as_deref(),
            Some("Michelle Solomon")
        );
        assert_eq!(c("Jane Roe, Reporter").as_deref(), Some("Jane Roe"));
        // Role words inside a name are not cut.
        assert_eq!(
            c("Washington Post editors").as_deref(),
            Some("Washington Post editors")
        );
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
            "January",
            "Dec.",
            "Published",
            "vv",
            "STAFF PHOTO BY KATHY ANDERSON",
            "Photo: Jane Roe",
        ] {
            assert_eq!(c(s), None, "{s:?}");
        }
    }

    #[test]
    fn dated_bylines_and_markup() {
        assert_eq!(
            c("Friday, January 11, 2008 By Jalilur Rehman, AFP").as_deref(),
            Some("Jalilur Rehman, AFP")
        );
        assert_eq!(
            c("AL ALEXANDER<BR>The Patriot Ledger").as_deref(),
            Some("AL ALEXANDER")
        );
        assert_eq!(c("Friday"), None);
    }

    #[test]
    fn name_shape() {
        assert!(looks_like_name("Jane van Roe"));
        assert!(looks_like_name("JANE ROE and JOHN DOE"));
        assert!(looks_like_name("张三"));
        assert!(looks_like_name("Łukasz Żak"));
        assert!(!looks_like_name("Fighting back"));
        assert!(!looks_like_name("Authorizing... Thanks for your patience"));
        assert!(!looks_like_name("more from this author"));
    }

    #[test]
    fn lead_ins_acronyms_slugs_and_share_links() {
        assert_eq!(c("Von BR24 Redaktion").as_deref(), Some("BR24 Redaktion"));
        assert_eq!(c("von dpa").as_deref(), Some("dpa"));
        assert_eq!(c("Par Jeanne Roe").as_deref(), Some("Jeanne Roe"));
        assert_eq!(c("Por Juana Roe").as_deref(), Some("Juana Roe"));
        assert_eq!(c("di Mario Rossi").as_deref(), Some("Mario Rossi"));
        // A name that starts like a lead-in keeps it.
        assert_eq!(c("Di Maria").as_deref(), Some("Di Maria"));
        assert_eq!(c("AP").as_deref(), Some("AP"));
        for s in [
            "Von",
            "jane-roe",
            "j_roe",
            "Twitter Facebook",
            "Senior Writer",
        ] {
            assert_eq!(c(s), None, "{s:?}");
        }
        assert!(is_domain("ndr.de") && is_domain("Lrt.lt"));
        assert!(!is_domain("J. Roe") && !is_domain("Jane Roe"));
    }

    #[test]
    fn participle_lead_ins_labels_and_weekdays_name_nobody() {
        assert_eq!(c("Eingestellt von Jane Roe").as_deref(), Some("Jane Roe"));
        assert_eq!(c("Publié par Jeanne Roe").as_deref(), Some("Jeanne Roe"));
        assert_eq!(c("Escrito por Juana Roe").as_deref(), Some("Juana Roe"));
        // A particle inside a name is not a lead-in.
        assert_eq!(
            c("Christoph von Ritter").as_deref(),
            Some("Christoph von Ritter")
        );
        for s in [
            "Eingestellt von",
            "Artikel von",
            "Posted by",
            "Stand:",
            "publisher",
            "Donnerstag",
            "Mercredi",
            "Sept.",
        ] {
            assert_eq!(c(s), None, "{s:?}");
        }
    }
}
