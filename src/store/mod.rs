//! The corpus: the frontier, the fetch log, articles with full-text search,
//! and the per-site boilerplate line table, in SQLite (one file, the
//! embedded default) or in PostgreSQL (one database shared by many crawler
//! processes).
//!
//! In: write operations from the crawl's single writer (`write_batch`, one
//! transaction per batch) and queries from the commands. Out: rows, as the
//! same types on either store.
//!
//! Layout, top to bottom:
//! - this file: the types and errors both stores share (`page_judgement`
//!   and `outlook` hold a few of them);
//! - `target` (which store a command works on: [`StoreTarget`]) and `any`
//!   (the one [`open`]: a target for an [`Access`] in, an [`AnyStore`]
//!   out, either store behind one type, so that no caller names a backend);
//! - `sql` (the seam: `Sql` runs one statement text, numbered
//!   placeholders, on either connection; `Dialect` for the
//!   few fragments that differ) and `rows` (each row type mapped once,
//!   through `Columns`); `query` (the search syntax, no SQL);
//! - `rules`: every decision written once (storing an article,
//!   near-duplicates, learning and pruning, re-cleaning, re-extraction, a
//!   URL's host key and the claim's order, shape counts, the search's
//!   ranking cap and LIKE snippet), with its statements over `Sql` where
//!   both stores say them alike and over a small trait of batch primitives
//!   where they do not (PostgreSQL's `unnest` forms, SQLite's prepared
//!   loops);
//! - `portable`: the statements both stores run as one text: reads
//!   (lookup, export, browse, figures, the selection's conditions), the
//!   crawl's writes that are alike, requeue, kept pages;
//! - `sqlite` and `pg`, side by side: each holds only what its database
//!   does its own way (opening, migrations, the claim, search indexes,
//!   checkpoints, leases and turns, its `Sql` connection), and neither
//!   imports the other;
//! - `copy`: a whole corpus from one store to another (`newshound copy`).

mod any;
mod error;
pub use any::{open, Access, AnyStore, LineJudge, WithHtml};
pub use error::StoreError;
pub mod copy;
mod outlook;
mod page_judgement;
pub use outlook::{Outlook, OutlookRow, Requeue};
pub use page_judgement::PageJudgement;
pub mod pg;
/// The hosts' turns a store shared by several crawler processes keeps (global
/// politeness); the crawl sees them through these names, not a backend's.
pub use pg::{owner_name as process_name, HostTurns, Turn, TurnsAt};
mod query;
pub use query::{Query, QueryError, MAX_PREFIX_WORDS, MAX_TERMS};
pub(crate) mod portable;
pub use portable::imports::{ImportFile, ImportProgress};
mod rows;
pub(crate) mod rules;
pub use rules::reclean::{Recleaned, Which};
pub(crate) mod sql;
pub use rules::frontier::{url_host, DroppedUrls, UrlCaps};
mod sqlite;
pub use rules::reextract::{ReextractCounts, ReextractCursor, Reextracted};
pub use sqlite::checkpoint::{CHECKPOINT_AT, WAL_LIMIT};
pub use sqlite::kept::{
    kept_body, KeptCompressor, KeptHeaders, KeptHtml, KeptSizes, StoredHtml, ZSTD_LEVEL,
};
pub use sqlite::lines;
pub use sqlite::maintenance::Replayed;
pub use sqlite::overview::{DayCount, LanguageCount};
pub use sqlite::site_rules::{SiteRuleStats, SiteRuleUpdate};
pub use sqlite::trouble::FileTrouble;
pub use sqlite::Store;
mod stored;
pub use stored::StoredArticle;
pub mod target;
pub use target::StoreTarget;

use std::path::{Path, PathBuf};

use chrono::{DateTime, FixedOffset};

use serde::Serialize;

use crate::extract::{Article, Method};

/// What kind of page a frontier URL is expected to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum UrlKind {
    /// A configured start page.
    Seed,
    Feed,
    Sitemap,
    /// Matches the site's index patterns: followed, never stored as an article.
    Index,
    /// Matches the site's article patterns: extracted and stored.
    Article,
    /// Anything else on the site.
    Page,
}

/// A URL to add to the frontier (ignored if already known).
#[derive(Debug, Clone)]
pub struct NewUrl {
    pub url: String,
    pub site: String,
    pub kind: UrlKind,
    pub depth: u32,
    /// Higher is fetched first.
    pub priority: i32,
}

/// Which due URLs a claim may take ([`Store::claim_due_for`]).
#[derive(Debug, Clone, Default)]
pub struct ClaimFilter {
    /// Only these sites' URLs (`None` = every site). A crawl of some sites
    /// on a shared database never claims (and so never delays) the others'.
    pub sites: Option<Vec<String>>,
    /// At most this many URLs of one host per claim (0 = no per-host cap).
    pub per_host: usize,
    /// Hosts to leave alone this time (the caller holds enough of their
    /// URLs, or the host is paused).
    pub skip_hosts: std::collections::HashSet<String>,
}

impl ClaimFilter {
    /// URLs of one host a claim of `limit` takes at most.
    pub(crate) fn per_host_in(&self, limit: usize) -> usize {
        match self.per_host {
            0 => limit,
            n => n.min(limit),
        }
    }
}

/// A URL claimed from the frontier for fetching.
#[derive(Debug, Clone)]
pub struct QueuedUrl {
    pub id: i64,
    pub url: String,
    pub site: String,
    /// The URL's authority (`host` or `host:port`), the per-host key.
    pub host: String,
    /// Fetched successfully before (an article's refetch, a revisit).
    pub fetched_before: bool,
    pub kind: UrlKind,
    pub depth: u32,
    pub attempts: u32,
    pub etag: Option<String>,
    pub last_modified: Option<String>,
}

/// Whether an article should be reached by id or by URL (`show ID|URL`).
#[derive(Debug, Clone)]
pub enum ArticleRef {
    Id(i64),
    Url(String),
}

/// Which stored articles [`AnyStore::search_in`] and [`AnyStore::export`] cover;
/// the default is all of them. A date bound leaves out articles without a
/// publication date.
#[derive(Debug, Clone, Default)]
pub struct Selection {
    /// Only this site (its configured name).
    pub site: Option<String>,
    /// Published at or after this instant.
    pub published_since: Option<DateTime<FixedOffset>>,
    /// Published at or before this instant.
    pub published_until: Option<DateTime<FixedOffset>>,
    /// Only articles in this language (the ISO 639-3 code stored and
    /// exported, e.g. `eng`, `cmn`).
    pub language: Option<String>,
    /// Only articles by this author (one of its names; case, width and
    /// spacing aside).
    pub author: Option<String>,
    /// Only articles of this section (compared as authors are).
    pub section: Option<String>,
    /// Only articles with this tag (compared as authors are).
    pub tag: Option<String>,
}

impl Selection {
    /// All articles of one site.
    pub fn site(name: &str) -> Self {
        Selection {
            site: Some(name.to_string()),
            ..Selection::default()
        }
    }
}

/// [`Method`] as `articles.method` stores it (its `extract --json` name).
pub fn method_name(m: Method) -> &'static str {
    m.name()
}

/// `articles.method` read back; `None` for NULL (stored before 0009) or a
/// name this build does not know.
pub fn method_of_name(name: Option<&str>) -> Option<Method> {
    Method::ALL
        .into_iter()
        .find(|&m| Some(method_name(m)) == name)
}

/// Unix milliseconds as `2026-11-26T09:20:00.123Z`.
pub fn ms_to_rfc3339(ms: i64) -> Option<String> {
    chrono::DateTime::from_timestamp_millis(ms)
        .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Millis, true))
}

#[derive(Debug, Clone, Serialize)]
pub struct SearchHit {
    pub id: i64,
    pub url: String,
    pub site: String,
    pub title: Option<String>,
    /// Matched text with the hits marked `[…]`.
    pub snippet: String,
    /// Relevance, higher is better (negated FTS5 bm25; occurrence count for
    /// the LIKE fallback of short CJK queries).
    pub rank: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct SiteStats {
    pub site: String,
    pub urls_known: u64,
    pub pages_fetched: u64,
    pub articles: u64,
    /// RC: articles processed by the line filter.
    pub articles_processed: u64,
    /// Rows in the line table for the site.
    pub lines_tracked: u64,
    /// Lines currently judged boilerplate.
    pub boilerplate_lines: u64,
    /// Failed fetches by error kind, most frequent first.
    #[serde(serialize_with = "pairs_as_map")]
    pub errors: Vec<(String, u64)>,
    /// URLs put back without a request (robots, parked host, budget) by reason.
    #[serde(serialize_with = "pairs_as_map")]
    pub skipped: Vec<(String, u64)>,
    /// The `tree` site rule and its hit rate.
    pub site_rule: SiteRuleStats,
    /// The site's URL shapes and their judged pages, most judged first
    /// (at most [`STATS_SHAPES`]); `crawl::shapes` says what each is
    /// (`stats --json` shows them with that class).
    #[serde(skip)]
    pub url_shapes: Vec<ShapeCounts>,
}

/// Shapes per site in [`SiteStats::url_shapes`].
pub const STATS_SHAPES: usize = 20;

/// Judged pages of one URL shape of a site (migration 0012): the learned
/// counts, or what one batch adds to them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ShapeCounts {
    /// `/{yyyy}/{mm}/{dd}/{slug}.html` (see `crawl::shapes`).
    pub shape: String,
    pub articles: u64,
    /// Pages of links: section fronts, their later pages, tag pages.
    pub listings: u64,
    /// Pages neither: about, privacy, sign-in.
    pub others: u64,
    /// Pages that looked like stories (a long body under a headline) but
    /// gave too little evidence to be stored (migration 0016).
    pub stories: u64,
}

/// Counts to add to a site's URL shapes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShapeUpdate {
    pub site: String,
    pub counts: Vec<ShapeCounts>,
    /// Shapes whose listings and others are dropped before `counts` are
    /// added: the shape was trusted as an index or other shape until its
    /// pages stopped agreeing (`crawl::shapes` decides).
    pub revised: Vec<String>,
}

/// `[("timeout", 3)]` as `{"timeout": 3}`, keeping the order.
fn pairs_as_map<S: serde::Serializer>(pairs: &[(String, u64)], s: S) -> Result<S::Ok, S::Error> {
    s.collect_map(pairs.iter().map(|(k, n)| (k, n)))
}

/// How many frontier URLs are in each state.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct FrontierCounts {
    pub queued: u64,
    pub fetching: u64,
    pub done: u64,
    pub failed: u64,
    pub skipped: u64,
}

/// The next state of a fetched frontier URL.
#[derive(Debug, Clone, PartialEq)]
pub enum NextState {
    /// Fetched for good (articles, pages).
    Done,
    /// Fetch again at this time (unix ms): retry after an error, or the next
    /// scheduled visit of a feed/index page.
    At(i64),
    /// Given up (attempts exhausted, 4xx, disallowed by robots...).
    Failed,
}

/// The result of one fetch, for the frontier and the fetch log.
#[derive(Debug, Clone)]
pub struct FetchRecord {
    pub url_id: i64,
    pub started_at: i64,
    pub status: Option<u16>,
    /// `None` on success; otherwise a short machine-readable kind such as
    /// `timeout`, `connect`, `http_5xx`, `too_large`, `robots`, `redirect_loop`.
    pub error_kind: Option<String>,
    pub bytes: u64,
    pub elapsed_ms: u64,
    pub final_url: Option<String>,
    pub content_type: Option<String>,
    pub etag: Option<String>,
    pub last_modified: Option<String>,
    pub next: NextState,
    /// The settings that refused the URL ([`crate::crawl`]'s retry rule):
    /// kept so that a crawl under other settings tries it again.
    pub refused_under: Option<String>,
    /// What the crawl judged the fetched page to be (HTML pages only).
    pub judgement: Option<PageJudgement>,
    /// What a successful fetch left out (`fetches.note`): `text_cut
    /// ORIGINAL KEPT` when the article's text was cut at `[store]
    /// max_text_bytes`.
    pub note: Option<String>,
}

/// A claimed URL put back without a request (disallowed by robots.txt,
/// host parked, site budget exhausted). Logged in the fetch log under its
/// reason, but not a failed attempt: `attempts` (the backoff exponent) and
/// the last status are left alone. `next = Failed` means "never fetch"
/// (state `skipped`).
#[derive(Debug, Clone)]
pub struct SkipRecord {
    pub url_id: i64,
    pub at: i64,
    pub reason: String,
    pub next: NextState,
    /// As in [`FetchRecord::refused_under`].
    pub refused_under: Option<String>,
}

/// An extracted article to store, with the URL it was fetched from.
#[derive(Debug, Clone)]
pub struct NewArticle {
    pub url: String,
    pub url_id: Option<i64>,
    pub site: String,
    pub fetched_at: i64,
    pub article: Article,
    /// Boilerplate settings for this site.
    pub lines: crate::boilerplate::LineSettings,
    /// The response the article came from, kept when `[store] keep_html`.
    pub html: Option<KeptHtml>,
}

/// One write in a batch; a batch is one transaction.
#[derive(Debug, Clone)]
pub enum WriteOp {
    AddUrls(Vec<NewUrl>),
    Fetched(FetchRecord),
    Skipped(SkipRecord),
    /// URLs known without being fetched (an article's canonical URL): added
    /// as `done`, or set `done` if still queued, so they are never fetched.
    Known(Vec<NewUrl>),
    Article(NewArticle),
    /// An article's URL fetched again to catch updates: if the body changed,
    /// the stored article is updated in place (see `articles::refetched`).
    Refetched(NewArticle),
    /// A `tree` article page's use of its site's rule (migration 0008).
    SiteRule(SiteRuleUpdate),
    /// A judged page's shape counted (migration 0012).
    Shapes(ShapeUpdate),
    /// URLs the frontier may hold as plain pages (`page`), now known to be
    /// of the given kind (a site's learned URL shape, a feed entry): a
    /// queued plain page takes that kind and priority, so an article found
    /// before its shape was learned is still fetched as one, in its turn.
    /// Other URLs are left as they are; none is added.
    Promote(Vec<NewUrl>),
    /// How far `import` has read an archive file (migration 0015).
    ImportProgress(ImportProgress),
    /// URLs fetched and judged not to be articles, for a reason new
    /// evidence may change, that have new evidence now (a feed lists them,
    /// their shape is learned): a done plain or index page whose last
    /// judgement gave one of the reasons is queued again, due now, as the
    /// given kind. Other URLs are left as they are.
    Rejudge(Rejudge),
}

/// See [`WriteOp::Rejudge`].
#[derive(Debug, Clone)]
pub struct Rejudge {
    pub urls: Vec<NewUrl>,
    /// The `judge_reason`s that new evidence may change (the crawl's
    /// judgement names them).
    pub reasons: Vec<&'static str>,
}

/// What a write did.
#[derive(Debug, Clone, PartialEq)]
pub enum WriteOutcome {
    UrlsAdded(usize),
    FetchRecorded,
    ArticleStored {
        id: i64,
        lines_dropped: usize,
    },
    /// Same body (content hash) already stored: the URL is recorded against it.
    ArticleDuplicate {
        id: i64,
    },
    /// Mostly the same body as article `id` (a republished copy with small
    /// edits): recorded as a version of it, its lines not learned.
    ArticleNearDuplicate {
        id: i64,
    },
    /// Nothing left after boilerplate removal / extraction found no text.
    ArticleEmpty,
    /// A refetched article's body had changed: text, raw text, title and
    /// dates replaced (the FTS index follows).
    ArticleUpdated {
        id: i64,
    },
    /// A refetched article was the same (or cannot be updated: see
    /// `articles::refetched`).
    ArticleUnchanged {
        id: i64,
    },
    /// A site rule update was recorded.
    RuleRecorded,
    /// Shape counts were added.
    ShapesRecorded,
    /// Queued plain pages given the kind their URL turned out to have.
    UrlsPromoted(usize),
    /// An import file's progress was recorded.
    ImportProgressed,
    /// Judged pages queued again to be judged on new evidence.
    UrlsRejudged(usize),
}
