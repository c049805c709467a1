//! Crawl orchestration: frontier → politeness → fetch → extract → boilerplate
//! → store, with discovery feeding the frontier. Workers, shutdown, progress
//! and the run summary live here.

pub mod addr;
pub mod discover;
pub mod fetch;
pub mod frontier;
pub mod politeness;
pub mod robots;
pub mod summary;
pub mod writer;

#[cfg(test)]
mod test_server;
