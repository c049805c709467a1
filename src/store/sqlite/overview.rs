//! The corpus at a glance, for `serve`: the rows of articles per day per
//! site and of the languages stored (read in `store::portable`).

use serde::Serialize;

/// Articles of one site published on one day (UTC).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DayCount {
    pub site: String,
    /// `YYYY-MM-DD`.
    pub day: String,
    pub articles: u64,
}

/// Articles stored in one language.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LanguageCount {
    /// ISO 639-3 code as stored (`eng`, `cmn`), `null` when undetected.
    pub language: Option<String>,
    pub articles: u64,
}
