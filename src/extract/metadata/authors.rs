//! Every source of author names on a page → the article's list of authors.
//!
//! In: the JSON-LD author names, the author metas and `itemprop=author`
//! values, `rel=author` links and byline elements, gathered by
//! [`super::page::Page`]; the site's name. Out: the names, in the page's
//! order, each once, each cleaned by [`author::clean_author`].
//!
//! One source gives the whole list, the first that names someone: JSON-LD
//! (what the article declares), then each author meta, then the first
//! `itemprop=author` element, then the first of the weak sources (links
//! and byline classes), whose names must also be written like names. Of
//! the elements in the body only the first counts: the ones after it are
//! as often the bylines of teasers in a rail. A source's strings are split into names
//! ([`split_names`]): bylines and CMS fields write several people in one
//! string ("Jane Roe und John Doe", "Jane Roe, AFP"), or one per element
//! of a byline (`<span>Jane Roe</span><span>John Doe</span>`).
//!
//! An organisation named as the author that is the site itself (by its
//! name, or by an address such as "ndr.de") is the publisher, not a
//! writer: it is the answer only when no source names a person (the page
//! then says, in its own markup, that the desk wrote it).

use super::author::{self, clean_author, looks_like_name};
use super::jsonld::{self, JsonLd};
use super::page::Page;
use super::AUTHOR_METAS;
use crate::words::is_cjk;

/// Most names one article lists (a long list is a team box or a widget).
const MAX_NAMES: usize = 12;
/// Most names one byline element of the body holds.
const MAX_BYLINE_NAMES: usize = 4;

/// The article's authors (see the module doc).
pub(super) fn find_authors(page: &Page, ld: &JsonLd, site_name: Option<&str>) -> Vec<String> {
    // The site by its name or by an address ("ndr.de").
    let is_site =
        |n: &String| author::is_domain(n) || site_name.is_some_and(|s| s.eq_ignore_ascii_case(n));
    let mut publisher_as_author: Vec<String> = Vec::new();
    let mut take = |names: Vec<String>| -> Option<Vec<String>> {
        let (site, people): (Vec<String>, Vec<String>) = names.into_iter().partition(is_site);
        if publisher_as_author.is_empty() {
            publisher_as_author = site;
        }
        (!people.is_empty()).then(|| dedup(people))
    };
    let from_ld = ld
        .authors
        .iter()
        .flat_map(|a| split_names(a, false))
        .collect();
    if let Some(names) = take(from_ld) {
        return names;
    }
    // Each meta key is one source (one meta per author, or one for all): a
    // page that writes `author` and `dc.creator` names the same people
    // twice.
    let metas = AUTHOR_METAS.iter().map(|k| {
        page.metas_for(k)
            .filter(|v| !jsonld::looks_like_url(v))
            .flat_map(|v| split_names(v, false))
            .collect::<Vec<String>>()
    });
    // In the body, the first element that names someone: the ones after
    // it are as often the bylines of teasers in a rail.
    let itemprop = page.itemprop_authors.iter().map(|v| split_names(v, false));
    for names in metas.chain(itemprop) {
        if let Some(names) = take(names) {
            return names;
        }
    }
    let weak = page
        .rel_authors
        .iter()
        .chain(&page.byline_name_hints)
        .chain(&page.byline_hints);
    for hint in weak {
        let names = split_names(hint, true);
        // More names than a byline holds: an author box (name, desk,
        // beat, topics) or a list of other stories' bylines.
        if names.len() > MAX_BYLINE_NAMES {
            continue;
        }
        if let Some(names) = take(names) {
            return names;
        }
    }
    dedup(publisher_as_author)
}

/// Names in the given order, each once (case aside), at most [`MAX_NAMES`].
fn dedup(names: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for n in names {
        if !out.iter().any(|s| s.eq_ignore_ascii_case(&n)) {
            out.push(n);
        }
    }
    out.truncate(MAX_NAMES);
    out
}

/// Words that join two names in a byline ("Jane Roe and John Doe"), in the
/// languages of the news the corpus holds.
const CONJUNCTIONS: &[&str] = &[
    "and", "und", "&", "og", "och", "en", "et", "y", "e", "i", "ja", "és", "a", "ve", "và", "dan",
    "ir", "oraz", "и", "і", "та", "și", "with", "mit", "avec", "con", "com", "met",
];

/// One author string → the names in it. Lists are split at commas,
/// semicolons, slashes, bars, the CJK list commas and the element
/// boundaries a byline's text keeps as line breaks; a part is split at a
/// conjunction when every side is written like a name. Of several parts,
/// those not written like names are dropped (a job title, an affiliation,
/// a domain); a lone part from a strong source (`weak` false) stays as
/// written ("Washington Post editors").
pub(super) fn split_names(raw: &str, weak: bool) -> Vec<String> {
    // Element boundaries separate names only when each element holds a
    // whole name: `<a>Jane</a> <a>Roe</a>` is one.
    let lines: Vec<&str> = raw
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let per_element = lines.len() > 1
        && lines
            .iter()
            .filter_map(|l| clean_author(l))
            .all(|n| n.split_whitespace().count() >= 2 || n.chars().any(is_cjk));
    let text = if per_element {
        lines.join(" , ")
    } else {
        lines.join(" ")
    };
    let text = author::strip_lead_in(text.trim());
    let parts: Vec<String> = text
        .split([',', ';', '|', '/', '·', '•', '、', '，', '；'])
        .flat_map(split_at_conjunction)
        .collect();
    let several = parts.iter().filter(|p| !p.trim().is_empty()).count() > 1;
    parts
        .iter()
        .filter_map(|p| clean_author(p))
        .filter(|n| !(weak || several) || (looks_like_name(n) && !author::is_job_title(n)))
        .collect()
}

/// A part split at its conjunctions when every side is a capitalised name
/// ("Sarah Charlton and Tanya Zack"; not "Department of Health and Human
/// Services").
fn split_at_conjunction(part: &str) -> Vec<String> {
    let words: Vec<&str> = part.split_whitespace().collect();
    let mut sides: Vec<Vec<&str>> = vec![Vec::new()];
    // As written, or in capitals ("JANE ROE AND JOHN DOE"); a capital
    // letter alone is an initial ("John A Smith"), not "a".
    let joins = |w: &str| {
        CONJUNCTIONS
            .iter()
            .any(|c| w == *c || (c.chars().count() > 1 && w == c.to_uppercase()))
    };
    for w in &words {
        if joins(w) {
            sides.push(Vec::new());
        } else if let Some(last) = sides.last_mut() {
            last.push(w);
        }
    }
    let whole = || vec![part.to_string()];
    if sides.len() < 2 {
        return whole();
    }
    let named = |side: &Vec<&str>| {
        !side.is_empty()
            && side
                .iter()
                .any(|w| w.chars().next().is_some_and(char::is_uppercase))
            && looks_like_name(&side.join(" "))
    };
    if sides.iter().all(named) {
        sides.into_iter().map(|s| s.join(" ")).collect()
    } else {
        whole()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(raw: &str) -> Vec<String> {
        split_names(raw, false)
    }

    #[test]
    fn several_names_in_one_string_are_split() {
        assert_eq!(
            names("Felix Schröder und Jörg Soldwisch"),
            ["Felix Schröder", "Jörg Soldwisch"]
        );
        assert_eq!(
            names("Sarah Charlton and Tanya Zack"),
            ["Sarah Charlton", "Tanya Zack"]
        );
        assert_eq!(
            names("Trine Juncher Jørgensen og Tôrtia Reimer-Johansen"),
            ["Trine Juncher Jørgensen", "Tôrtia Reimer-Johansen"]
        );
        assert_eq!(names("By Jane Roe and John Doe"), ["Jane Roe", "John Doe"]);
        assert_eq!(names("Jalilur Rehman, AFP"), ["Jalilur Rehman", "AFP"]);
        assert_eq!(names("牛镛、岳弘彬"), ["牛镛", "岳弘彬"]);
        // Not names on both sides: one name.
        assert_eq!(
            names("Department of Health and Human Services"),
            ["Department of Health and Human Services"]
        );
    }

    #[test]
    fn a_byline_of_one_element_per_name_is_split_at_the_elements() {
        let byline = "Birgit Baumann\nAnna Giulia Fink\nJan Michael Marchart";
        assert_eq!(
            split_names(byline, true),
            ["Birgit Baumann", "Anna Giulia Fink", "Jan Michael Marchart"]
        );
        // A name written over two elements is one name.
        assert_eq!(split_names("Jane\nRoe", true), ["Jane Roe"]);
        assert_eq!(split_names("By\nJane Roe", true), ["Jane Roe"]);
        // A participle lead-in in its own element ("Posted by").
        assert_eq!(
            split_names("Eingestellt von\nder Michel", true),
            ["der Michel"]
        );
    }

    #[test]
    fn parts_that_are_no_names_are_dropped_from_a_list() {
        let lrt = "Povilas Aleksandravičius, Mykolo Romerio universiteto Žmogaus ir visuomenės \
                   studijų fakulteto profesorius, Lrt.lt";
        // The address is the publisher: find_authors sets it apart.
        assert_eq!(names(lrt), ["Povilas Aleksandravičius", "Lrt.lt"]);
        assert_eq!(
            names("Michelle Solomon, Entertainment Writer"),
            ["Michelle Solomon"]
        );
        // A lone strong value stays as written.
        assert_eq!(
            names("Washington Post editors"),
            ["Washington Post editors"]
        );
        // Weak sources must look like names.
        assert!(split_names("Twitter Facebook", true).is_empty());
        assert!(split_names("more from this author", true).is_empty());
    }
}
