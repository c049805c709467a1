//! Article writes on PostgreSQL against a real server ([`TestDb`]): the
//! same outcomes, texts and line counts as the SQLite store, concurrent
//! writers adding up to one writer, deadlocks retried.
//!
//! [`TestDb`]: crate::store::pg::testing::TestDb

mod concurrent;
mod fixtures;
mod same_as_sqlite;
mod site_by_site;
mod speed;
