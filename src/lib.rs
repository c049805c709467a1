//! newshound — a focused news crawler with built-in article extraction.
//!
//! The pipeline runs in one direction; each stage has one home:
//!
//! ```text
//! config ─► SiteSettings (per site: time zone, rate, boilerplate switch, patterns; resolved once)
//!   │
//!   ▼
//! crawl: scheduler ─► worker: politeness ─► fetch ─► extract::strip ─► extract (DOM + text density)
//!   ▲      (claims from          (per-host        (HTTP,              (HTML → Article: text and
//!   │       the frontier)         rate, robots)    charset → UTF-8)     metadata, pure)
//!   │                                                                   │
//!   │                                              crawl::writer ◄──────┘  one task, batched transactions
//!   │                                                │
//!   │                                                ▼
//!   │                 store: one write transaction per batch = article + boilerplate learning
//!   │                 (store::rules decides: de-duplication, near-duplicates, the site's
//!   │                 line counts with boilerplate's pure rule, over either backend's SQL)
//!   │                                                │
//!   └──── crawl::discover (links, RSS/Atom, sitemaps) ◄┘  new URLs go to the frontier (store)
//! ```
//!
//! A page reaches the corpus from HTTP (`crawl`) or from a web-archive
//! record (`import`, read by [`warc`]); both hand it to the one page path,
//! `crawl::path` (decode, extract, judge, then the writer's operations),
//! and to the same store writer. The crawl alone admits the page's links to
//! the frontier.
//!
//! - [`corpus_archive`]: the evaluation corpus as the repository keeps it (one
//!   `tar.zst` per set under `tests/corpus/`), unpacked on demand.
//! - [`words`]: CJK ranges, tokens and word counts (one definition for all).
//! - [`urls`]: URL normalisation, the trailing-slash rule, host keys.
//! - [`warc`]: web archives read back: WARC records, one at a time, and
//!   their archived HTTP responses (pure; `export` writes them).
//! - [`extract`]: HTML bytes → [`extract::Article`] (pure): charset, strip, DOM,
//!   density scoring, metadata, behind one entry, [`extract::Extractor`].
//! - [`extract_dir`]: a directory of pages → texts or JSONL on worker
//!   threads (the files and threads around `extract`); its page list and
//!   pool are `eval`'s too.
//! - [`boilerplate`]: per-site MD5 line-hash rule of Li & Jiang (pure scoring)
//!   and its [`boilerplate::LineSettings`].
//! - [`config`]: `crawler.toml` → validated [`config::Config`] and each site's
//!   resolved [`config::SiteSettings`]; errors name the field.
//! - [`store`]: the corpus in SQLite (`store::sqlite`: WAL, numbered
//!   migrations, FTS5) or in PostgreSQL (`store::pg`: shared by many crawler
//!   processes): frontier, fetch log, articles and their near-duplicate
//!   versions, search, line hashes (learning runs inside its write
//!   transaction). [`store::open`] opens either as an [`store::AnyStore`];
//!   `store::rules` makes every decision once for both backends and
//!   `store::portable` holds the statements both run as one text (through
//!   the `store::sql` seam); the backends hold only what their database
//!   does its own way and do not import each other; `store::copy` moves a
//!   corpus between them.
//! - [`crawl`]: orchestration (scheduler, workers, the single writer,
//!   shutdown, run summary) and the I/O-facing stages: frontier rules,
//!   politeness, fetch, discover.
//! - [`export`]: articles → JSONL, CSV, WARC, Markdown (streaming, constant memory).
//! - [`import`]: web archives (WARC files, CC-NEWS) → the corpus, through
//!   the crawl's page path and store writer; resumable, shared by several
//!   processes on PostgreSQL.
//! - [`reextract`]: kept HTML → extraction again → articles updated in place.
//! - [`serve`]: the read-only HTTP API and search page over the database.
//! - [`eval`]: LCS precision/recall/F1 against gold text, and the evaluation
//!   drivers (a directory of pages; boilerplate learning over page sequences).
//! - [`simweb`]: the simulated news web on 127.0.0.1 for the demo, tests, benches.
//!
//! Layers, bottom to top. A module imports only from lower layers (never from
//! a higher one, nor from another module of its own layer), so there is no
//! cycle; `layering` checks it by reading the sources:
//!
//! 0. words, urls, corpus_archive, warc
//! 1. extract, boilerplate
//! 2. config, extract_dir
//! 3. store
//! 4. crawl, export, reextract
//! 5. eval (it judges pages as the crawl does)
//! 6. simweb, serve, import
//!
//! Above the library: the binary (`main.rs`, `cli/`).
//!
//! Extraction as a library: build an [`extract::Extractor`] once with its
//! [`extract::ExtractOptions`] (algorithm, model, time zone, Markdown, text
//! only, …) and give it pages, as bytes with their `Content-Type` or as
//! decoded HTML:
//!
//! ```
//! use newshound::extract::{Algorithm, ExtractOptions, Extractor, Page};
//!
//! let html = "<html><head><title>Harbour reopens</title></head><body>\
//!     <nav><a href=/>Home</a> <a href=/news>News</a></nav>\
//!     <h1>Harbour reopens</h1>\
//!     <p>The harbour reopened on Monday after a month of repairs, the port said.</p>\
//!     <p>Ferries to the islands run again from Tuesday, with two extra crossings.</p>\
//!     </body></html>";
//! let extractor = Extractor::new(ExtractOptions {
//!     algorithm: Algorithm::Auto,
//!     ..ExtractOptions::default()
//! });
//! let url = url::Url::parse("https://example.com/news/harbour").unwrap();
//! let page = Page::from_bytes(html.as_bytes(), Some("text/html; charset=utf-8")).url(&url);
//! let article = extractor.extract(page).article;
//! assert_eq!(article.title.as_deref(), Some("Harbour reopens"));
//! assert!(article.text.starts_with("The harbour reopened on Monday"));
//! assert!(!article.text.contains("Home"));
//! ```
//!
//! Tests: a unit test module is `mod tests` at the bottom of its file, or
//! `<module>/tests.rs` (`<module>/tests/` when it has parts) once it is long;
//! integration tests are four binaries, `tests/{cli,crawl,store,eval}/`, one
//! module per topic (each binary links the whole crate, so add a module, not
//! a binary), and `tests/pg_crawl/`: several crawler processes on one
//! PostgreSQL database.

pub mod boilerplate;
pub mod config;
pub mod corpus_archive;
pub mod crawl;
pub mod eval;
pub mod export;
pub mod extract;
pub mod extract_dir;
pub mod import;
pub mod reextract;
pub mod serve;
pub mod simweb;
pub mod store;
pub mod urls;
pub mod warc;
pub mod words;

#[cfg(test)]
mod layering;
