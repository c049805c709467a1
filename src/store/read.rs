//! What the read commands (`search`, `show`, `export`, `stats`) need from a
//! corpus, whichever store holds it: one small interface, implemented by
//! the SQLite [`Store`] and the PostgreSQL [`PgStore`], so the CLI picks a
//! store once and has no `if postgres` branches.
//!
//! In: requests (a query, an article reference, a selection). Out: the same
//! types and the same errors on both stores ([`StoreError::UnknownSite`],
//! [`StoreError::Query`]).

use super::pg::PgStore;
use super::{
    ArticleRef, DayCount, KeptSizes, LanguageCount, MarkdownSource, SearchHit, Selection,
    SiteStats, Store, StoreError, StoredArticle, StoredHtml,
};

/// A corpus to read.
pub trait CorpusRead {
    /// The database for messages: a path, or a URL without its password.
    fn shown(&self) -> String;

    /// Full-text search, best first, in the syntax of
    /// [`Query`](super::Query), among the selected articles.
    fn search_in(
        &mut self,
        query: &str,
        limit: usize,
        sel: &Selection,
    ) -> Result<Vec<SearchHit>, StoreError>;

    /// One article by id, or by any URL that led to it.
    fn article(&mut self, r: ArticleRef) -> Result<Option<StoredArticle>, StoreError>;

    /// The selected articles in id order to `f`; how many there were.
    fn export_articles(
        &mut self,
        sel: &Selection,
        f: &mut dyn FnMut(&StoredArticle) -> std::io::Result<()>,
    ) -> Result<u64, StoreError>;

    /// The kept pages of the selected articles in id order to `f`:
    /// `(written, selected articles without a kept page)`.
    fn export_html(
        &mut self,
        sel: &Selection,
        f: &mut dyn FnMut(&StoredHtml) -> std::io::Result<()>,
    ) -> Result<(u64, u64), StoreError>;

    /// Per-site figures (sites in name order), lines judged boilerplate
    /// under window `line_window`.
    fn site_stats(&mut self, line_window: u64) -> Result<Vec<SiteStats>, StoreError>;

    /// The site's most recurring lines (seen more than once), most first.
    fn top_lines(&mut self, site: &str, n: usize) -> Result<Vec<(String, u64)>, StoreError>;

    /// [`CorpusRead::search_in`] from the `offset`-th hit on (paging for
    /// `serve`): the best `offset + limit` hits are ranked and the first
    /// `offset` dropped.
    fn search_page(
        &mut self,
        query: &str,
        limit: usize,
        offset: usize,
        sel: &Selection,
    ) -> Result<Vec<SearchHit>, StoreError> {
        let mut hits = self.search_in(query, offset.saturating_add(limit), sel)?;
        Ok(hits.split_off(offset.min(hits.len())))
    }

    /// The selected articles, newest publication first (undated last), as
    /// hits whose snippet is the text's beginning and whose rank is 0.
    fn recent(
        &mut self,
        sel: &Selection,
        limit: usize,
        offset: usize,
    ) -> Result<Vec<SearchHit>, StoreError>;

    /// Whether the database knows a site of this name.
    fn site_known(&mut self, name: &str) -> Result<bool, StoreError>;

    /// Articles per site and day over the latest `max_days` dated days.
    fn articles_per_day(&mut self, max_days: usize) -> Result<Vec<DayCount>, StoreError>;

    /// Articles per language, most first.
    fn languages(&mut self) -> Result<Vec<LanguageCount>, StoreError>;

    /// How much the kept pages take.
    fn kept_sizes(&mut self) -> Result<KeptSizes, StoreError>;

    /// The kept page of one article (`None`: not kept, or no such article).
    fn kept_html(&mut self, article_id: i64) -> Result<Option<StoredHtml>, StoreError>;

    /// The file the store lives in (`None`: a server's database), so that
    /// an output file is never the database itself.
    fn file(&self) -> Option<&std::path::Path> {
        None
    }

    /// The store as the Markdown export reads it.
    fn markdown_source(&mut self) -> &mut dyn MarkdownSource;
}

/// The overview methods, delegated to each store's own of the same name.
macro_rules! overview_methods {
    ($store:ident) => {
        fn recent(
            &mut self,
            sel: &Selection,
            limit: usize,
            offset: usize,
        ) -> Result<Vec<SearchHit>, StoreError> {
            $store::recent(self, sel, limit, offset)
        }

        fn site_known(&mut self, name: &str) -> Result<bool, StoreError> {
            $store::site_known(self, name)
        }

        fn articles_per_day(&mut self, max_days: usize) -> Result<Vec<DayCount>, StoreError> {
            $store::articles_per_day(self, max_days)
        }

        fn languages(&mut self) -> Result<Vec<LanguageCount>, StoreError> {
            $store::languages(self)
        }

        fn kept_sizes(&mut self) -> Result<KeptSizes, StoreError> {
            $store::kept_sizes(self)
        }

        fn kept_html(&mut self, article_id: i64) -> Result<Option<StoredHtml>, StoreError> {
            $store::kept_html(self, article_id)
        }
    };
}

impl CorpusRead for Store {
    fn shown(&self) -> String {
        self.path().display().to_string()
    }

    fn search_in(
        &mut self,
        query: &str,
        limit: usize,
        sel: &Selection,
    ) -> Result<Vec<SearchHit>, StoreError> {
        Store::search_in(self, query, limit, sel)
    }

    fn article(&mut self, r: ArticleRef) -> Result<Option<StoredArticle>, StoreError> {
        Store::article(self, r)
    }

    fn export_articles(
        &mut self,
        sel: &Selection,
        f: &mut dyn FnMut(&StoredArticle) -> std::io::Result<()>,
    ) -> Result<u64, StoreError> {
        Store::export(self, sel, f)
    }

    fn export_html(
        &mut self,
        sel: &Selection,
        f: &mut dyn FnMut(&StoredHtml) -> std::io::Result<()>,
    ) -> Result<(u64, u64), StoreError> {
        Store::export_html(self, sel, f)
    }

    fn site_stats(&mut self, line_window: u64) -> Result<Vec<SiteStats>, StoreError> {
        Store::site_stats(self, line_window)
    }

    fn top_lines(&mut self, site: &str, n: usize) -> Result<Vec<(String, u64)>, StoreError> {
        Store::top_lines(self, site, n)
    }

    fn search_page(
        &mut self,
        query: &str,
        limit: usize,
        offset: usize,
        sel: &Selection,
    ) -> Result<Vec<SearchHit>, StoreError> {
        Store::search_page(self, query, limit, offset, sel)
    }

    overview_methods!(Store);

    fn file(&self) -> Option<&std::path::Path> {
        Some(self.path())
    }

    fn markdown_source(&mut self) -> &mut dyn MarkdownSource {
        self
    }
}

impl CorpusRead for PgStore {
    fn shown(&self) -> String {
        PgStore::shown(self).to_string()
    }

    fn markdown_source(&mut self) -> &mut dyn MarkdownSource {
        self
    }

    fn search_in(
        &mut self,
        query: &str,
        limit: usize,
        sel: &Selection,
    ) -> Result<Vec<SearchHit>, StoreError> {
        PgStore::search_in(self, query, limit, sel)
    }

    fn article(&mut self, r: ArticleRef) -> Result<Option<StoredArticle>, StoreError> {
        PgStore::article(self, r)
    }

    fn export_articles(
        &mut self,
        sel: &Selection,
        f: &mut dyn FnMut(&StoredArticle) -> std::io::Result<()>,
    ) -> Result<u64, StoreError> {
        PgStore::export(self, sel, f)
    }

    fn export_html(
        &mut self,
        sel: &Selection,
        f: &mut dyn FnMut(&StoredHtml) -> std::io::Result<()>,
    ) -> Result<(u64, u64), StoreError> {
        PgStore::export_html(self, sel, f)
    }

    fn site_stats(&mut self, line_window: u64) -> Result<Vec<SiteStats>, StoreError> {
        PgStore::site_stats(self, line_window)
    }

    fn top_lines(&mut self, site: &str, n: usize) -> Result<Vec<(String, u64)>, StoreError> {
        PgStore::top_lines(self, site, n)
    }

    overview_methods!(PgStore);
}
