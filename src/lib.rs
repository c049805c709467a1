//! newshound — a focused news crawler with built-in article extraction.
//!
//! The pipeline runs in one direction; each stage has one home:
//!
//! ```text
//! config ─► crawl::frontier ─► crawl::politeness ─► crawl::fetch ─► extract::strip
//!        ─► extract (DOM + text density) ─► boilerplate (per-site line hashes) ─► store
//!                 ▲                                                              │
//!                 └──────────── crawl::discover (links, RSS/Atom, sitemaps) ◄────┘
//! ```
//!
//! - [`config`]: `crawler.toml` → validated [`config::Config`]; errors name the field.
//! - [`crawl`]: orchestration (workers, shutdown, progress, run summary) and the
//!   I/O-facing stages: frontier, politeness, fetch, discover.
//! - [`extract`]: HTML bytes → [`extract::Article`] (pure): charset, strip, DOM,
//!   density scoring, metadata.
//! - [`boilerplate`]: per-site MD5 line-hash rule of Li & Jiang (pure scoring).
//! - [`store`]: SQLite (WAL, numbered migrations): frontier, fetch log, articles,
//!   FTS5 search, line hashes.
//! - [`reextract`]: kept HTML → extraction again → articles updated in place.
//! - [`export`]: articles → JSONL, CSV, WARC, Markdown (streaming).
//! - [`serve`]: the read-only HTTP API and search page over the database.
//! - [`eval`]: LCS precision/recall/F1 of extracted text against gold text.
//! - [`simweb`]: the simulated news web on 127.0.0.1 for the demo, tests, benches.

pub mod boilerplate;
pub mod config;
pub mod crawl;
pub mod eval;
pub mod export;
pub mod extract;
pub mod reextract;
pub mod serve;
pub mod simweb;
pub mod store;
