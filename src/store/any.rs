//! The one way into a corpus, whichever store holds it: [`open`] a
//! [`StoreTarget`] for an [`Access`], get an [`AnyStore`].
//!
//! In: where the corpus lives and what the command will do with it. Out:
//! the store, SQLite or PostgreSQL, behind one type whose methods are the
//! same on both (the same requests, the same types, the same errors), so
//! that no caller matches on the target or names a backend after opening.
//! A method a store has no use for (a claim lease, the WAL checkpoints,
//! other processes' leases) is a no-op on the other.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::time::Duration;

use super::pg::{PgStore, TurnsAt};
use super::portable::articles_with_html;
use super::rules::reclean::{each_site, reclean_site, sites, Recleaned, Which};
use super::rules::reextract::apply_batch;
use super::rules::ArticleSql;
use super::sql::Sql;
use super::sqlite::articles::Sqlite;
use super::{
    ClaimFilter, DroppedUrls, QueuedUrl, ReextractCounts, Reextracted, SearchHit, Selection, Store,
    StoreError, StoreTarget, StoredArticle, StoredHtml, UrlCaps, WriteOp, WriteOutcome,
};
use crate::boilerplate::{LineHash, LineSettings};
use crate::extract::tree::rule::SiteRule;

/// What a command will do with the corpus it opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Only read an existing corpus (`search`, `show`, `export`, `stats`,
    /// `serve`): a SQLite file is opened read-only, so that a file this
    /// user may not write still reads, and never created.
    Read,
    /// Change an existing corpus (`reclean`, `reextract`): a missing SQLite
    /// file is an error, not a silently created empty database.
    Write,
    /// Crawl into the corpus, creating it if there is none yet.
    Create,
}

/// A corpus, opened: the SQLite store or the PostgreSQL one.
// One per command or `serve` connection, never in a collection: the
// PostgreSQL store's extra few hundred bytes are not worth a box.
#[allow(clippy::large_enum_variant)]
pub enum AnyStore {
    Sqlite(Store),
    Pg(PgStore),
}

/// Open the corpus at `target` for `access` (migrated, as each store's own
/// open does).
pub fn open(target: &StoreTarget, access: Access) -> Result<AnyStore, StoreError> {
    match target {
        StoreTarget::Sqlite(path) => {
            if access != Access::Create {
                require_existing(path)?;
            }
            Ok(AnyStore::Sqlite(match access {
                Access::Read => Store::open_read_only(path)?,
                Access::Write | Access::Create => Store::open(path)?,
            }))
        }
        StoreTarget::Postgres(url) => Ok(AnyStore::Pg(PgStore::open(url)?)),
    }
}

/// An existing SQLite file.
fn require_existing(path: &Path) -> Result<(), StoreError> {
    if path.is_dir() {
        return Err(StoreError::IsADirectory {
            path: path.to_path_buf(),
        });
    }
    if !path.exists() {
        return Err(StoreError::NoSuchDatabase {
            path: path.to_path_buf(),
        });
    }
    Ok(())
}

impl From<Store> for AnyStore {
    fn from(store: Store) -> AnyStore {
        AnyStore::Sqlite(store)
    }
}

impl From<PgStore> for AnyStore {
    fn from(store: PgStore) -> AnyStore {
        AnyStore::Pg(store)
    }
}

/// `$body` with `$s` bound to whichever store `$self` holds.
macro_rules! either {
    ($self:expr, $s:ident => $body:expr) => {
        match $self {
            AnyStore::Sqlite($s) => $body,
            AnyStore::Pg($s) => $body,
        }
    };
}

/// Methods that are each store's own method of the same name.
macro_rules! same_on_both {
    ($($(#[$doc:meta])* fn $name:ident(&mut self $(, $arg:ident: $ty:ty)*) -> $ret:ty;)*) => {
        $(
            $(#[$doc])*
            pub fn $name(&mut self $(, $arg: $ty)*) -> $ret {
                either!(self, s => s.$name($($arg),*))
            }
        )*
    };
}

impl AnyStore {
    /// The connection, for the statements both stores run as one text.
    pub(crate) fn sql(&mut self) -> &mut dyn Sql {
        match self {
            AnyStore::Sqlite(s) => &mut s.conn,
            AnyStore::Pg(s) => s.client(),
        }
    }

    /// Re-clean the stored articles of one site (or every site) from their
    /// raw text with the current line counts, one transaction a site:
    /// every article ([`Which::All`], the `reclean` command: a site with
    /// learning off is left as it is), or at the end of a crawl only those
    /// having a line whose status changed since they were cleaned
    /// ([`Which::Changed`], which leaves the same texts). An unknown site
    /// changes nothing.
    pub fn reclean(
        &mut self,
        site: Option<&str>,
        which: Which,
        settings_for: &dyn Fn(&str) -> LineSettings,
    ) -> Result<Recleaned, StoreError> {
        let sites = sites(self.sql(), site)?;
        each_site(sites, which, settings_for, |id, settings| {
            self.in_article_transaction(|w| reclean_site(w, id, settings, which))
        })
    }

    /// Write one batch of re-extracted articles and move `key`'s cursor to
    /// `last_id`, in one transaction (see `rules::reextract`).
    pub fn apply_reextracted(
        &mut self,
        key: &str,
        batch: &[Reextracted],
        last_id: i64,
        settings_for: &dyn Fn(&str) -> LineSettings,
    ) -> Result<ReextractCounts, StoreError> {
        self.in_article_transaction(|w| apply_batch(w, key, batch, last_id, settings_for))
    }

    /// Stream the selected articles in id order to `f`, each with its kept
    /// page (`None`: not kept) and the line table to judge its lines by,
    /// one at a time, in one transaction; how many were written. A store
    /// error inside the stream ends it and is returned as itself.
    pub fn articles_with_html(
        &mut self,
        sel: &Selection,
        f: &mut WithHtml<'_>,
    ) -> Result<u64, StoreError> {
        self.in_article_transaction(|w| articles_with_html(w, sel, f))
    }

    /// `f` run in one transaction, committed when it succeeds.
    pub(crate) fn in_transaction<T>(
        &mut self,
        f: impl FnOnce(&mut dyn Sql) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        self.in_article_transaction(|w| f(w.sql()))
    }

    /// `f` over the article statements of one transaction, committed when
    /// it succeeds.
    pub(crate) fn in_article_transaction<T>(
        &mut self,
        f: impl FnOnce(&mut dyn ArticleSql) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        match self {
            AnyStore::Sqlite(s) => {
                let tx = s.conn.transaction()?;
                let out = f(&mut Sqlite(&tx))?;
                tx.commit()?;
                Ok(out)
            }
            AnyStore::Pg(s) => s.in_article_transaction(f),
        }
    }

    /// The database for messages: a path, or a URL without its password.
    pub fn shown(&self) -> String {
        match self {
            AnyStore::Sqlite(s) => s.path().display().to_string(),
            AnyStore::Pg(s) => s.shown().to_string(),
        }
    }

    /// The file the store lives in (`None`: a server's database), so that
    /// an output file is never the database itself.
    pub fn file(&self) -> Option<&Path> {
        match self {
            AnyStore::Sqlite(s) => Some(s.path()),
            AnyStore::Pg(_) => None,
        }
    }

    same_on_both! {
        /// Full-text search, best first, in the syntax of
        /// [`Query`](super::Query), among the selected articles.
        fn search_in(&mut self, query: &str, limit: usize, sel: &Selection)
            -> Result<Vec<SearchHit>, StoreError>;
        /// Bound the queries from now on to a time budget (`None`: no
        /// bound): one past it is stopped and fails as
        /// [`StoreError::OverBudget`]. On SQLite the budget counts from
        /// this call over every statement that follows (its progress
        /// handler); on PostgreSQL it bounds each statement
        /// (`statement_timeout`).
        fn set_query_budget(&mut self, budget: Option<Duration>) -> Result<(), StoreError>;
        /// Put back the URLs this store's crawl left claimed; how many.
        fn reset_in_flight(&mut self) -> Result<usize, StoreError>;
        /// Claim up to `limit` URLs due at `now_ms`.
        fn claim_due_for(&mut self, now_ms: i64, limit: usize, filter: &ClaimFilter)
            -> Result<Vec<QueuedUrl>, StoreError>;
        /// The next due time over `sites` (`None` = all).
        fn next_due_at_for(&mut self, sites: Option<&[String]>) -> Result<Option<i64>, StoreError>;
        /// One batch of writes, one transaction.
        fn write_batch(&mut self, ops: Vec<WriteOp>) -> Result<Vec<WriteOutcome>, StoreError>;
    }

    /// Every stored `tree` rule that parses, by site name: what `tree`
    /// extracts by (a rule that does not parse is left out, and relearned
    /// by the next crawl).
    pub fn learned_site_rules(&mut self) -> Result<HashMap<String, SiteRule>, StoreError> {
        Ok(self
            .site_rules()?
            .into_iter()
            .filter_map(|(site, json)| SiteRule::from_json(&json).map(|r| (site, r)))
            .collect())
    }

    /// [`AnyStore::search_in`] from the `offset`-th hit on (paging for
    /// `serve`): the best `offset + limit` hits are ranked and the first
    /// `offset` dropped, so a deep page costs as much as one that long.
    pub fn search_page(
        &mut self,
        query: &str,
        limit: usize,
        offset: usize,
        sel: &Selection,
    ) -> Result<Vec<SearchHit>, StoreError> {
        let mut hits = self.search_in(query, offset.saturating_add(limit), sel)?;
        Ok(hits.split_off(offset.min(hits.len())))
    }

    /// The crawl's frontier settings: the caps on URLs per site, and how
    /// long a claim holds its URLs on a store shared by several processes.
    pub fn configure_frontier(&mut self, caps: UrlCaps, lease: Duration) {
        match self {
            AnyStore::Sqlite(s) => {
                s.set_max_urls_per_site(caps.known);
                s.set_max_queued_per_site(caps.queued);
            }
            AnyStore::Pg(s) => {
                s.set_max_urls_per_site(caps.known);
                s.set_max_queued_per_site(caps.queued);
                s.set_lease(lease);
            }
        }
    }

    /// The new URLs dropped under the caps of [`AnyStore::configure_frontier`]
    /// since asked last.
    pub fn take_dropped_urls(&mut self) -> DroppedUrls {
        either!(self, s => s.take_dropped_urls())
    }

    /// How long until the first lease ends of the URLs of `sites` that
    /// other processes hold; `None` when they hold none (always, on a
    /// store of one process).
    pub fn held_elsewhere(
        &mut self,
        sites: Option<&[String]>,
    ) -> Result<Option<Duration>, StoreError> {
        match self {
            AnyStore::Sqlite(_) => Ok(None),
            AnyStore::Pg(s) => s.held_elsewhere(sites),
        }
    }

    /// Where a shared store keeps the hosts' turns for every process
    /// (global politeness); `None` for a store of one process.
    pub fn host_turns(&self) -> Option<TurnsAt> {
        match self {
            AnyStore::Sqlite(_) => None,
            AnyStore::Pg(s) => Some(s.host_turns()),
        }
    }

    /// From now on, keep the store's upkeep (SQLite's WAL checkpoints) off
    /// the writer's path.
    pub fn upkeep_in_background(&mut self) -> Result<(), StoreError> {
        match self {
            AnyStore::Sqlite(s) => s.checkpoint_in_background(),
            AnyStore::Pg(_) => Ok(()),
        }
    }

    /// Do the upkeep left and go back to doing it in line.
    pub fn upkeep_in_foreground(&mut self) -> Result<(), StoreError> {
        match self {
            AnyStore::Sqlite(s) => s.checkpoint_in_foreground(),
            AnyStore::Pg(_) => Ok(()),
        }
    }
}

/// The line table's judgement while a Markdown export streams: the hashes
/// of the lines of `text` (second argument) that the line table of the site
/// (first), as it is now, judges boilerplate under the settings (third).
pub type LineJudge<'j> =
    dyn FnMut(&str, &str, &LineSettings) -> Result<HashSet<LineHash>, StoreError> + 'j;

/// What the Markdown export does with each article: given the line table,
/// the article and its kept page.
pub type WithHtml<'f> =
    dyn FnMut(&mut LineJudge<'_>, &StoredArticle, Option<&StoredHtml>) -> std::io::Result<()> + 'f;
