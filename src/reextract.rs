//! `reextract`: stored articles extracted again from their kept pages, after
//! an extractor upgrade or an option change, without fetching.
//!
//! In: an open store ([`AnyStore`]: SQLite or PostgreSQL) with kept HTML (`[store] keep_html`), the
//! [`Config`] (sites' time zones, boilerplate settings), the extraction
//! options to apply and a [`Selection`]. Out: the articles' text, raw text,
//! metadata and search index updated in place, and a [`ReextractSummary`]
//! (how many articles' text changed, 0 when nothing did).
//!
//! Steps per batch: 1. read [`BATCH`] kept pages after the cursor; 2. decode
//! the charset and extract each page exactly as the crawl does (the site's
//! time zone, the same options, for `tree` the site's learned rule, which
//! is used but not updated), on up to [`THREADS`] threads; 3. write
//! the batch and move the cursor in one transaction (line filter applied
//! with the current counts, nothing learned). A killed run loses at most
//! the batch in flight; the next run with the same selection resumes after
//! the last committed batch (the canonical URL is not re-read: it is kept).

use std::collections::HashMap;

use url::Url;

use crate::config::Config;
use crate::extract::{Algorithm, Article, ExtractOptions, Extractor, Page, SiteRule};
use crate::store::{AnyStore, ReextractCounts, Reextracted, Selection, StoreError, StoredHtml};

/// Kept pages read, extracted and committed together.
pub const BATCH: usize = 256;
/// Extraction threads per batch (the machines we run on have two cores).
pub const THREADS: usize = 2;

/// How a run proceeds.
#[derive(Debug, Clone, Copy)]
pub struct ReextractLimits {
    /// Pages per batch (one transaction each).
    pub batch: usize,
    /// Stop after this many batches, leaving the cursor for a later run
    /// (`None`: run to the end). Tests use it to stand in for a kill.
    pub max_batches: Option<usize>,
}

impl Default for ReextractLimits {
    fn default() -> Self {
        Self {
            batch: BATCH,
            max_batches: None,
        }
    }
}

/// What a run did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReextractSummary {
    /// This run's counts.
    pub counts: ReextractCounts,
    /// Counts of the interrupted runs this one resumed (articles seen, text
    /// changed), zero when it started afresh.
    pub resumed_seen: u64,
    pub resumed_changed: u64,
    /// False when stopped by `max_batches` before the end.
    pub finished: bool,
}

impl ReextractSummary {
    /// Articles whose text changed over the whole selection, resumed runs
    /// included.
    pub fn changed_total(&self) -> u64 {
        self.resumed_changed + self.counts.changed
    }
}

/// The cursor key of a selection: runs resume only the same selection.
pub fn selection_key(sel: &Selection) -> String {
    format!(
        "site={};since={};until={}",
        sel.site.as_deref().unwrap_or(""),
        sel.published_since
            .map(|d| d.to_rfc3339())
            .unwrap_or_default(),
        sel.published_until
            .map(|d| d.to_rfc3339())
            .unwrap_or_default(),
    )
}

/// Extract a kept page as the crawl extracts a fetched one.
pub fn extract_kept(page: &StoredHtml, config: &Config, opts: &ExtractOptions) -> Article {
    extract_kept_by_rule(page, config, opts, None)
}

/// [`extract_kept`] with the site's learned `tree` rule, as the crawl uses
/// it: the text of the rule's element when it matches, else the tree's
/// (other algorithms ignore the rule). Nothing is learned or stored.
pub fn extract_kept_by_rule(
    page: &StoredHtml,
    config: &Config,
    opts: &ExtractOptions,
    rule: Option<&SiteRule>,
) -> Article {
    let url = Url::parse(&page.url).ok();
    let site_zone = config.site(&page.site).and_then(|s| s.timezone);
    let opts = ExtractOptions {
        timezone: site_zone.or(opts.timezone),
        ..opts.clone()
    };
    let page = Page::from_bytes(&page.body, page.headers.content_type.as_deref())
        .url(url.as_ref())
        .site_rule(rule);
    let mut article = Extractor::new(opts).extract(page).article;
    // Stored as the crawl stores it: at most `[store] max_text_bytes`.
    article.cap_text(config.store.max_text_bytes);
    article
}

/// Re-extract the selected articles that have a kept page, on either store.
pub fn reextract(
    store: &mut AnyStore,
    config: &Config,
    opts: &ExtractOptions,
    sel: &Selection,
    limits: ReextractLimits,
) -> Result<ReextractSummary, StoreError> {
    let key = selection_key(sel);
    let cursor = store.reextract_cursor(&key)?.unwrap_or_default();
    let mut summary = ReextractSummary {
        resumed_seen: cursor.seen,
        resumed_changed: cursor.changed,
        ..ReextractSummary::default()
    };
    // `tree` extracts by each site's learned rule, as the crawl does.
    let rules = if opts.algorithm == Algorithm::Tree {
        store.learned_site_rules()?
    } else {
        HashMap::new()
    };
    let mut after = cursor.last_id;
    let mut batches = 0;
    loop {
        if limits.max_batches.is_some_and(|max| batches >= max) {
            return Ok(summary);
        }
        let pages = store.kept_html_batch(sel, after, limits.batch.max(1))?;
        let Some(last) = pages.last().map(|p| p.article_id) else {
            break;
        };
        let batch = extract_all(&pages, config, opts, &rules);
        let counts = store
            .apply_reextracted(&key, &batch, last, &|site| config.line_settings(Some(site)))?;
        summary.counts.add(&counts);
        after = last;
        batches += 1;
    }
    store.clear_reextract_cursor(&key)?;
    summary.finished = true;
    Ok(summary)
}

/// Extraction is pure and CPU-bound: split the batch over a few threads.
fn extract_all(
    pages: &[StoredHtml],
    config: &Config,
    opts: &ExtractOptions,
    rules: &HashMap<String, SiteRule>,
) -> Vec<Reextracted> {
    let chunk = pages.len().div_ceil(THREADS).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = pages
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .map(|p| Reextracted {
                            article_id: p.article_id,
                            article: extract_kept_by_rule(p, config, opts, rules.get(&p.site)),
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| match h.join() {
                Ok(done) => done,
                // A panic in the pure extractor is a bug; re-raise it here
                // rather than silently skipping part of the batch.
                Err(panic) => std::panic::resume_unwind(panic),
            })
            .collect()
    })
}
