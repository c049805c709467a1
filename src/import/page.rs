//! One archived page on the processing pool: the crawl's page path, then
//! the import's own filters, the kept page, and the writer's operations.
//!
//! In: an [`Archived`] page, what every page of the import shares
//! ([`PageWork`]: extraction options, what the run learns, the filters),
//! the pool thread's tools. Out: [`Processed`]: the operations for the
//! store writer (the article with its kept page, the `tree` rule's use,
//! the URL shape's counts — [`crate::crawl::path::record`], as for a
//! crawled page) and what the page came to.
//!
//! The filters: `--since`/`--until` hold the page's publication date, or
//! its fetch time (`WARC-Date`) when it gives none; `--lang` its language.
//! A page left out by them leaves nothing in the store.

use std::sync::Arc;

use chrono::{DateTime, FixedOffset};

use super::records::Archived;
use crate::config::SiteSettings;
use crate::crawl::discover;
use crate::crawl::path::record::{self, Learned, Source};
use crate::crawl::path::{self, PageIn};
use crate::crawl::pool::PageTools;
use crate::crawl::shapes::by_shapes;
use crate::extract::{Algorithm, Article, ExtractOptions};
use crate::store::WriteOp;
use crate::urls::TrailingSlash;

/// What every page of an import shares.
pub struct PageWork {
    pub extract: ExtractOptions,
    pub learned: Arc<Learned>,
    pub trailing_slash: TrailingSlash,
    /// `[store] keep_html`.
    pub keep_html: bool,
    /// `[store] max_text_bytes`.
    pub max_text_bytes: usize,
    pub filters: Filters,
}

/// The import's filters on articles.
#[derive(Debug, Clone, Default)]
pub struct Filters {
    pub since: Option<DateTime<FixedOffset>>,
    pub until: Option<DateTime<FixedOffset>>,
    /// An ISO 639-3 code (`eng`), as articles store their language.
    pub lang: Option<String>,
}

impl Filters {
    /// Why `article` (fetched at `fetched_at`, unix ms) is left out, if it is.
    pub fn rejects(&self, article: &Article, fetched_at: i64) -> Option<&'static str> {
        if self.since.is_some() || self.until.is_some() {
            let when = article
                .published_at
                .as_deref()
                .and_then(|p| DateTime::parse_from_rfc3339(p).ok())
                .or_else(|| DateTime::from_timestamp_millis(fetched_at).map(|t| t.fixed_offset()));
            let before = |since: &DateTime<FixedOffset>| when.is_none_or(|w| w < *since);
            let after = |until: &DateTime<FixedOffset>| when.is_none_or(|w| w > *until);
            if self.since.as_ref().is_some_and(before) || self.until.as_ref().is_some_and(after) {
                return Some("date");
            }
        }
        match &self.lang {
            Some(lang) if article.language.as_deref() != Some(lang.as_str()) => Some("lang"),
            _ => None,
        }
    }
}

/// What a page came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Article,
    NotArticle,
    /// An article the filters left out (`date`, `lang`).
    Filtered(&'static str),
}

pub struct Processed {
    pub ops: Vec<WriteOp>,
    pub verdict: Verdict,
}

/// Process one page (see the module doc).
pub fn process(work: &PageWork, page: Archived, tools: &mut PageTools) -> Processed {
    let Archived {
        fetched,
        site,
        member,
    } = page;
    let site: &SiteSettings = &site;
    let url = &fetched.final_url;
    // What the site's patterns say of the URL, as the frontier would have
    // queued it.
    let kind = discover::classify(site, url);
    let learned = &work.learned;
    let shapes = by_shapes(site).then(|| learned.shapes.table(&site.name));
    let site_rule = (work.extract.algorithm == Algorithm::Tree)
        .then(|| learned.rules.get(&site.name))
        .flatten();
    let outcome = path::run(&PageIn {
        url,
        redirected: false,
        content_type: fetched.content_type.as_deref(),
        body: &fetched.body,
        site,
        kind,
        extract: &work.extract,
        site_rule: site_rule.as_ref(),
        shapes: shapes.as_deref(),
        trailing_slash: work.trailing_slash,
        max_links: None,
    });
    let done = |ops, verdict| Processed { ops, verdict };
    if let Some(why) =
        (outcome.article.as_ref()).and_then(|a| work.filters.rejects(a, fetched.fetched_at))
    {
        return done(Vec::new(), Verdict::Filtered(why));
    }
    let verdict = if outcome.article.is_some() {
        Verdict::Article
    } else {
        Verdict::NotArticle
    };
    let keep = work.keep_html && outcome.article.is_some();
    let html = match (keep, member) {
        (false, _) => None,
        (true, Some(member)) => Some(record::kept_member(&fetched, member)),
        (true, None) => record::kept_page(tools, &fetched, &fetched.body),
    };
    let from = Source {
        site,
        kind,
        url: url.as_str(),
        url_id: None,
        page_url: url,
        fetched_at: fetched.fetched_at,
        refetch: false,
        max_text_bytes: work.max_text_bytes,
    };
    let mut ops = Vec::new();
    record::writes(
        &from,
        outcome.article,
        Some(outcome.judgement),
        outcome.rule,
        html,
        learned,
        &mut ops,
    );
    done(ops, verdict)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> DateTime<FixedOffset> {
        DateTime::parse_from_rfc3339(s).unwrap()
    }

    #[test]
    fn dates_bound_the_publication_else_the_archive_date_and_languages_match_exactly() {
        let published = Article {
            published_at: Some("2026-11-10T09:00:00+01:00".into()),
            language: Some("eng".into()),
            ..Article::default()
        };
        let undated = Article {
            language: Some("deu".into()),
            ..Article::default()
        };
        let archived = at("2026-11-20T08:30:00Z").timestamp_millis();
        let window = |since: &str, until: &str| Filters {
            since: Some(at(since)),
            until: Some(at(until)),
            lang: None,
        };
        let november = window("2026-11-01T00:00:00Z", "2026-11-30T23:59:59Z");
        assert_eq!(november.rejects(&published, archived), None);
        assert_eq!(november.rejects(&undated, archived), None);
        // The publication date decides, not the archive's.
        let late = window("2026-11-15T00:00:00Z", "2026-11-30T23:59:59Z");
        assert_eq!(late.rejects(&published, archived), Some("date"));
        assert_eq!(late.rejects(&undated, archived), None);
        let early = window("2026-11-01T00:00:00Z", "2026-11-15T00:00:00Z");
        assert_eq!(early.rejects(&undated, archived), Some("date"));
        let english = Filters {
            lang: Some("eng".into()),
            ..Filters::default()
        };
        assert_eq!(english.rejects(&published, archived), None);
        assert_eq!(english.rejects(&undated, archived), Some("lang"));
        assert_eq!(english.rejects(&Article::default(), archived), Some("lang"));
    }
}
