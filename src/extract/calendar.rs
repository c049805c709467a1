//! The names of months and weekdays that news pages write dates with, in
//! one table for every stage that reads dates: the metadata's date parser
//! and the furniture's dateline lines.
//!
//! English with its abbreviations; German, French, Spanish, Italian,
//! Portuguese and Dutch full names; Polish in the genitive that dates use
//! ("28 kwietnia 2023").

/// Month names, lowercased, with their numbers.
const MONTHS: &[(&str, u32)] = &[
    ("jan", 1),
    ("january", 1),
    ("januar", 1),
    ("januari", 1),
    ("janvier", 1),
    ("enero", 1),
    ("gennaio", 1),
    ("janeiro", 1),
    ("stycznia", 1),
    ("feb", 2),
    ("february", 2),
    ("februar", 2),
    ("februari", 2),
    ("février", 2),
    ("febrero", 2),
    ("febbraio", 2),
    ("fevereiro", 2),
    ("lutego", 2),
    ("mar", 3),
    ("march", 3),
    ("märz", 3),
    ("maart", 3),
    ("mars", 3),
    ("marzo", 3),
    ("março", 3),
    ("marca", 3),
    ("apr", 4),
    ("april", 4),
    ("avril", 4),
    ("abril", 4),
    ("aprile", 4),
    ("kwietnia", 4),
    ("may", 5),
    ("mai", 5),
    ("mei", 5),
    ("mayo", 5),
    ("maggio", 5),
    ("maio", 5),
    ("maja", 5),
    ("jun", 6),
    ("june", 6),
    ("juni", 6),
    ("juin", 6),
    ("junio", 6),
    ("giugno", 6),
    ("junho", 6),
    ("czerwca", 6),
    ("jul", 7),
    ("july", 7),
    ("juli", 7),
    ("juillet", 7),
    ("julio", 7),
    ("luglio", 7),
    ("julho", 7),
    ("lipca", 7),
    ("aug", 8),
    ("august", 8),
    ("augustus", 8),
    ("août", 8),
    ("agosto", 8),
    ("sierpnia", 8),
    ("sep", 9),
    ("sept", 9),
    ("september", 9),
    ("septembre", 9),
    ("septiembre", 9),
    ("setiembre", 9),
    ("settembre", 9),
    ("setembro", 9),
    ("września", 9),
    ("oct", 10),
    ("october", 10),
    ("oktober", 10),
    ("octobre", 10),
    ("octubre", 10),
    ("ottobre", 10),
    ("outubro", 10),
    ("października", 10),
    ("nov", 11),
    ("november", 11),
    ("novembre", 11),
    ("noviembre", 11),
    ("novembro", 11),
    ("listopada", 11),
    ("dec", 12),
    ("december", 12),
    ("dezember", 12),
    ("décembre", 12),
    ("diciembre", 12),
    ("dicembre", 12),
    ("dezembro", 12),
    ("grudnia", 12),
];

/// Weekday names and abbreviations, lowercased (English, French, Spanish,
/// German).
const WEEKDAYS: &[&str] = &[
    "mon",
    "monday",
    "tue",
    "tues",
    "tuesday",
    "wed",
    "wednesday",
    "thu",
    "thur",
    "thurs",
    "thursday",
    "fri",
    "friday",
    "sat",
    "saturday",
    "sun",
    "sunday",
    "lundi",
    "mardi",
    "mercredi",
    "jeudi",
    "vendredi",
    "samedi",
    "dimanche",
    "lunes",
    "martes",
    "miércoles",
    "jueves",
    "viernes",
    "sábado",
    "domingo",
    "montag",
    "dienstag",
    "mittwoch",
    "donnerstag",
    "freitag",
    "samstag",
    "sonntag",
];

/// The month a word names (any case), 1–12.
pub(crate) fn month_of(word: &str) -> Option<u32> {
    let lower = word.to_lowercase();
    MONTHS
        .iter()
        .find(|(name, _)| *name == lower)
        .map(|&(_, n)| n)
}

/// Whether a word (any case) names a weekday.
pub(crate) fn is_weekday(word: &str) -> bool {
    let lower = word.to_lowercase();
    WEEKDAYS.contains(&lower.as_str())
}

/// A regex alternation of every month name, longest first, for a pattern
/// that reads written dates case-insensitively.
pub(crate) fn month_alternation() -> String {
    let mut names: Vec<&str> = MONTHS.iter().map(|(name, _)| *name).collect();
    names.sort_by_key(|n| std::cmp::Reverse(n.chars().count()));
    names.join("|")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn months_are_read_in_any_case_and_only_whole() {
        assert_eq!(month_of("März"), Some(3));
        assert_eq!(month_of("SEPT"), Some(9));
        assert_eq!(month_of("août"), Some(8));
        assert_eq!(month_of("marching"), None);
        assert!(is_weekday("Mittwoch"));
        assert!(!is_weekday("week"));
        assert!(month_alternation().starts_with("października|"));
    }
}
