//! Store tests: open/migrate, frontier, batched writes, search, export.
//! In: in-memory or temp-file databases. Out: assertions. Shared fixtures
//! live here; the tests are grouped by what they exercise.

mod checkpoint;
mod details;
mod frontier;
mod method;
mod old_rows;
mod open;
mod reclean;
mod requeue;
mod search;
mod search_index;
mod search_syntax;
mod url_cap;
mod writes;

use super::*;
use crate::boilerplate::LineSettings;

/// Shorthands of the tests for a one-op batch and a claim with the
/// default filter.
impl Store {
    /// Add URLs to the frontier (one transaction); known URLs are ignored.
    /// Returns how many were new.
    pub(crate) fn add_urls(&mut self, urls: &[crate::store::NewUrl]) -> Result<usize, StoreError> {
        let out = self.write_batch(vec![crate::store::WriteOp::AddUrls(urls.to_vec())])?;
        Ok(match out[..] {
            [crate::store::WriteOutcome::UrlsAdded(n)] => n,
            _ => unreachable!("a batch gives one outcome per op"),
        })
    }

    /// Claim up to `limit` queued URLs due at `now_ms` of any site, with no
    /// per-host cap: [`Store::claim_due_for`] with the default filter.
    pub(crate) fn claim_due(
        &mut self,
        now_ms: i64,
        limit: usize,
    ) -> Result<Vec<crate::store::QueuedUrl>, StoreError> {
        self.claim_due_for(now_ms, limit, &crate::store::ClaimFilter::default())
    }
}

/// The reads both stores share, on a bare SQLite store (the library has
/// them on [`AnyStore`] only).
impl Store {
    pub(crate) fn search(&self, query: &str, limit: usize) -> Result<Vec<SearchHit>, StoreError> {
        self.search_in(query, limit, &Selection::default())
    }
    pub(crate) fn article(&self, r: ArticleRef) -> Result<Option<StoredArticle>, StoreError> {
        crate::store::portable::article(&mut &self.conn, r)
    }
    pub(crate) fn export(
        &self,
        sel: &Selection,
        mut f: impl FnMut(&StoredArticle) -> std::io::Result<()>,
    ) -> Result<u64, StoreError> {
        crate::store::portable::export(&mut &self.conn, sel, &mut f)
    }
    pub(crate) fn site_stats(&self, line_window: u64) -> Result<Vec<SiteStats>, StoreError> {
        crate::store::rules::stats::site_stats(&mut &self.conn, line_window)
    }
    pub(crate) fn pages_by_site(
        &self,
    ) -> Result<std::collections::HashMap<String, u64>, StoreError> {
        crate::store::portable::writes::pages_by_site(&mut &self.conn)
    }

    /// The re-clean as `AnyStore::reclean` runs it.
    pub(crate) fn reclean(
        &mut self,
        site: Option<&str>,
        which: crate::store::Which,
        settings_for: impl Fn(&str) -> LineSettings,
    ) -> Result<crate::store::Recleaned, StoreError> {
        use crate::store::rules::reclean::{each_site, reclean_site, sites};
        use crate::store::sqlite::articles::Sqlite;
        let sites = sites(&mut &self.conn, site)?;
        each_site(sites, which, settings_for, |id, settings| {
            let tx = self.conn.transaction()?;
            let done = reclean_site(&mut Sqlite(&tx), id, settings, which)?;
            tx.commit()?;
            Ok(done)
        })
    }
}

pub(super) fn off() -> LineSettings {
    LineSettings {
        enabled: false,
        ..LineSettings::default()
    }
}

pub(super) fn url(u: &str, site: &str, kind: UrlKind, priority: i32) -> NewUrl {
    NewUrl {
        url: u.into(),
        site: site.into(),
        kind,
        depth: 1,
        priority,
    }
}

pub(super) fn article(u: &str, site: &str, title: &str, text: &str) -> NewArticle {
    NewArticle {
        url: u.into(),
        url_id: None,
        site: site.into(),
        fetched_at: 1_000,
        article: Article {
            title: Some(title.into()),
            published_at: Some("2026-11-26T01:00:00Z".into()),
            modified_at: None,
            language: None,
            canonical_url: None,
            site_name: None,
            text: text.into(),
            ..Article::default()
        },
        lines: off(),
        html: None,
    }
}

pub(super) fn fetched(url_id: i64, next: NextState, error: Option<&str>) -> FetchRecord {
    FetchRecord {
        url_id,
        started_at: 5_000,
        status: if error.is_some() {
            Some(503)
        } else {
            Some(200)
        },
        error_kind: error.map(String::from),
        bytes: 1234,
        elapsed_ms: 12,
        final_url: None,
        content_type: Some("text/html".into()),
        etag: Some("\"v1\"".into()),
        last_modified: None,
        next,
        judgement: None,
        refused_under: None,
        note: None,
    }
}

pub(super) fn store_one(s: &mut Store, a: NewArticle) -> WriteOutcome {
    let mut out = s.write_batch(vec![WriteOp::Article(a)]).unwrap();
    out.pop().unwrap()
}
