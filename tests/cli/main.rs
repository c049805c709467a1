//! The `newshound` binary run as a user runs it: arguments and help, one-line
//! errors, `extract`, `crawl` on the simulated web, the store commands, and
//! closed pipes. Each module spawns the real binary; `support` holds the shared
//! helpers (run it, judge its stderr, build a demo database).

mod checkout;
mod copy;
mod crawl;
mod errors;
mod extract;
mod help;
mod import;
mod methods;
mod pg_read;
/// A database of its own per test: the library's test support, included
/// by path (it is not part of the library's API).
#[path = "../../src/store/pg/testing.rs"]
mod pg_testing;
mod pg_write;
mod pipes;
mod readme;
mod sites;
mod sites_add;
mod stats;
mod store_cmds;
mod store_url;
mod support;
