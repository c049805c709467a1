//! PostgreSQL schema migrations: the numbered files of
//! `migrations/postgres/` (embedded at build time) in, a database with
//! every one of them applied out.
//!
//! All of them run in one transaction that first takes an advisory lock,
//! so crawler processes starting together against a new database migrate
//! it once: the others wait, then find every migration recorded. DDL is
//! transactional in PostgreSQL, so a failure leaves the previous schema.
//! Applied migrations are recorded in `schema_migrations`.

use std::collections::BTreeSet;
use std::path::PathBuf;

use super::{reason_of, StoreError};

/// `(version, sql)`, version = the file's number. Append new files here;
/// never edit a landed one.
pub(super) const MIGRATIONS: &[(i64, &str)] = &[
    (
        1,
        include_str!("../../../migrations/postgres/0001_init.sql"),
    ),
    (
        2,
        include_str!("../../../migrations/postgres/0002_page_judgement.sql"),
    ),
    (
        3,
        include_str!("../../../migrations/postgres/0003_url_shapes.sql"),
    ),
    (
        4,
        include_str!("../../../migrations/postgres/0004_refused_under.sql"),
    ),
    (
        5,
        include_str!("../../../migrations/postgres/0005_article_details.sql"),
    ),
    (
        6,
        include_str!("../../../migrations/postgres/0006_import_files.sql"),
    ),
    (
        7,
        include_str!("../../../migrations/postgres/0007_shape_stories.sql"),
    ),
    (
        8,
        include_str!("../../../migrations/postgres/0008_fetch_note.sql"),
    ),
];

/// The schema version this build writes.
pub(super) const SCHEMA_VERSION: i64 = MIGRATIONS[MIGRATIONS.len() - 1].0;

/// The advisory lock key that serialises migrations ("newshound" in hex,
/// truncated to 64 bits).
const MIGRATION_LOCK: i64 = 0x6e65_7773_686f_756e;

pub(super) fn migrate(client: &mut postgres::Client, shown: &str) -> Result<(), StoreError> {
    let failed = |e: postgres::Error| StoreError::PgMigrate {
        url: shown.to_string(),
        reason: reason_of(&e),
    };
    let mut tx = client.transaction().map_err(failed)?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .map_err(failed)?;
    tx.batch_execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations (
             version     BIGINT PRIMARY KEY,
             applied_at  BIGINT NOT NULL
         )",
    )
    .map_err(failed)?;
    let applied: BTreeSet<i64> = tx
        .query("SELECT version FROM schema_migrations", &[])
        .map_err(failed)?
        .iter()
        .map(|r| r.get(0))
        .collect();
    if let Some(&found) = applied.last().filter(|&&v| v > SCHEMA_VERSION) {
        return Err(StoreError::TooNew {
            path: PathBuf::from(shown),
            found,
            supported: SCHEMA_VERSION,
        });
    }
    for &(version, sql) in MIGRATIONS {
        if applied.contains(&version) {
            continue;
        }
        tx.batch_execute(sql).map_err(failed)?;
        tx.execute(
            "INSERT INTO schema_migrations (version, applied_at)
             VALUES ($1, (extract(epoch FROM clock_timestamp()) * 1000)::BIGINT)",
            &[&version],
        )
        .map_err(failed)?;
    }
    tx.commit().map_err(failed)
}
