//! The crawler end to end on local servers (the simulated news web on
//! 127.0.0.1): sites and discovery, sites known by their address alone
//! (`bare`), politeness, robots.txt, faults, refetch,
//! continuous mode, shutdown, resume and kill -9 of the real binary, the
//! (ignored) memory measurement, and the corpus leaving the box on a crawled
//! web: kept HTML, reextract, exports (`corpus_out`, `markdown_export`,
//! `warc_reader`) and
//! `serve` over HTTP, under load (a child process) and in headless Chromium
//! (`serve`, `serve_load`, `serve_browser`). `support` starts the web with its config.

mod bare;
mod continuous;
mod corpus_out;
mod faults;
mod hostile;
mod import;
mod import_bad;
mod import_kill;
mod import_remote;
mod kill;
mod markdown_export;
mod memory;
mod modern;
/// A database of its own per test: the library's test support, included
/// by path (it is not part of the library's API).
#[path = "../../src/store/pg/testing.rs"]
mod pg_testing;
mod politeness;
mod reclean;
mod refetch;
mod resume;
mod retries;
mod robots;
mod serve;
mod serve_browser;
mod serve_huge;
mod serve_input;
mod serve_load;
mod serve_pg;
mod shapes;
mod shutdown;
mod simweb;
mod sites;
mod support;
mod undated;
mod warc_files;
mod warc_reader;
