//! Crawl orchestration: frontier → politeness → fetch → extract → boilerplate
//! → store, with discovery feeding the frontier. Workers, shutdown, progress
//! and the run summary live here.

pub mod discover;
pub mod fetch;
pub mod frontier;
pub mod politeness;
