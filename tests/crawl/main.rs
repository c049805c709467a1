//! The crawler end to end on local servers (the simulated news web on
//! 127.0.0.1): sites and discovery, politeness, robots.txt, faults, refetch,
//! continuous mode, shutdown, resume and kill -9 of the real binary, the
//! (ignored) memory measurement, and the corpus leaving the box on a crawled
//! web: kept HTML, reextract, exports (`corpus_out`, `markdown_export`,
//! `warc_reader`) and
//! `serve` over HTTP and in headless Chromium (`serve`, `serve_browser`). `support` starts the web with its config.

mod continuous;
mod corpus_out;
mod faults;
mod kill;
mod markdown_export;
mod memory;
mod modern;
mod politeness;
mod reclean;
mod refetch;
mod resume;
mod retries;
mod robots;
mod serve;
mod serve_browser;
mod serve_pg;
mod shutdown;
mod simweb;
mod sites;
mod support;
mod warc_reader;
