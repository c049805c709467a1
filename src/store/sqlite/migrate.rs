//! Schema migrations: the numbered files of `migrations/` (embedded at build
//! time) in, a database with every one of them applied out.
//!
//! Every migration the database does not record is applied, in number
//! order, each in its own transaction with its ledger row and the
//! `PRAGMA user_version` bump (the highest applied), so a crash during one
//! leaves the previous state intact. Applying only those above the highest
//! recorded one would skip a migration numbered below one already applied
//! (written on a branch that merged later).
//!
//! Recorded: the rows of `schema_migrations` (migration 0009). A database
//! from before that ledger recorded only `user_version`, the highest
//! applied; there a migration up to that version counts as applied unless
//! a table it creates is missing (no migration drops a table, so a missing
//! one means it never ran: a database that recorded 0008 before 0006 and
//! 0007 existed).

use std::collections::BTreeSet;
use std::time::{SystemTime, UNIX_EPOCH};

use rusqlite::{params, Connection, OptionalExtension};

/// Schema migrations: `(version, sql)`, version = the file's number. Append
/// new files here; never edit a landed one.
pub(super) const MIGRATIONS: &[(i64, &str)] = &[
    (1, include_str!("../../../migrations/0001_init.sql")),
    (2, include_str!("../../../migrations/0002_claim_index.sql")),
    (
        3,
        include_str!("../../../migrations/0003_cjk_index_only_cjk.sql"),
    ),
    (
        4,
        include_str!("../../../migrations/0004_claim_per_host.sql"),
    ),
    (5, include_str!("../../../migrations/0005_fetch_skips.sql")),
    (
        6,
        include_str!("../../../migrations/0006_near_duplicates.sql"),
    ),
    (7, include_str!("../../../migrations/0007_kept_html.sql")),
    (8, include_str!("../../../migrations/0008_site_rules.sql")),
    (
        9,
        include_str!("../../../migrations/0009_method_and_migration_ledger.sql"),
    ),
    (
        10,
        include_str!("../../../migrations/0010_reclean_changed_lines.sql"),
    ),
    (
        11,
        include_str!("../../../migrations/0011_page_judgement.sql"),
    ),
    (12, include_str!("../../../migrations/0012_url_shapes.sql")),
    (
        13,
        include_str!("../../../migrations/0013_refused_under.sql"),
    ),
    (
        14,
        include_str!("../../../migrations/0014_article_details.sql"),
    ),
    (
        15,
        include_str!("../../../migrations/0015_import_files.sql"),
    ),
    (
        16,
        include_str!("../../../migrations/0016_shape_stories.sql"),
    ),
    (17, include_str!("../../../migrations/0017_fetch_note.sql")),
    (
        18,
        include_str!("../../../migrations/0018_cjk_delete_by_index.sql"),
    ),
];

/// The schema version this build writes.
pub(super) const SCHEMA_VERSION: i64 = MIGRATIONS[MIGRATIONS.len() - 1].0;

/// The ledger of applied migrations (migration 0009).
const LEDGER: &str = "schema_migrations";

fn table_exists(conn: &Connection, name: &str) -> rusqlite::Result<bool> {
    Ok(conn
        .prepare_cached("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1")?
        .query_row([name], |_| Ok(()))
        .optional()?
        .is_some())
}

/// The tables a migration's SQL creates (`CREATE [VIRTUAL] TABLE name`).
fn created_tables(sql: &str) -> Vec<&str> {
    sql.lines()
        .filter_map(|line| {
            let line = line.trim_start();
            let rest = line
                .strip_prefix("CREATE TABLE ")
                .or_else(|| line.strip_prefix("CREATE VIRTUAL TABLE "))?;
            let rest = rest.trim_start();
            let rest = rest.strip_prefix("IF NOT EXISTS ").unwrap_or(rest);
            rest.split(|c: char| c.is_whitespace() || c == '(')
                .next()
                .filter(|name| !name.is_empty())
        })
        .collect()
}

/// The versions the database records as applied (see the module doc).
pub(super) fn recorded(conn: &Connection) -> rusqlite::Result<BTreeSet<i64>> {
    if table_exists(conn, LEDGER)? {
        return conn
            .prepare("SELECT version FROM schema_migrations")?
            .query_map([], |r| r.get(0))?
            .collect();
    }
    let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    let mut out = BTreeSet::new();
    for &(v, sql) in MIGRATIONS.iter().filter(|(v, _)| *v <= version) {
        let mut ran = true;
        for table in created_tables(sql) {
            ran &= table_exists(conn, table)?;
        }
        if ran {
            out.insert(v);
        }
    }
    Ok(out)
}

/// The migrations of this build that the database does not record, in
/// number order.
pub(super) fn pending(conn: &Connection) -> rusqlite::Result<Vec<i64>> {
    let done = recorded(conn)?;
    Ok(MIGRATIONS
        .iter()
        .map(|&(v, _)| v)
        .filter(|v| !done.contains(v))
        .collect())
}

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

/// Apply every pending migration, in number order. Returns the versions
/// applied.
pub(super) fn apply_pending(conn: &mut Connection) -> rusqlite::Result<Vec<i64>> {
    let mut done = recorded(conn)?;
    let todo: Vec<(i64, &str)> = MIGRATIONS
        .iter()
        .copied()
        .filter(|(v, _)| !done.contains(v))
        .collect();
    let mut applied_now = Vec::new();
    for (version, sql) in todo {
        let tx = conn.transaction()?;
        tx.execute_batch(sql)?;
        done.insert(version);
        applied_now.push(version);
        if table_exists(&tx, LEDGER)? {
            // The ledger's first write also records what `user_version`
            // said was applied before it existed (time unknown: NULL).
            let mut insert = tx.prepare_cached(
                "INSERT OR IGNORE INTO schema_migrations(version, applied_at) VALUES (?1, ?2)",
            )?;
            for &v in &done {
                let at = applied_now.contains(&v).then(now_ms);
                insert.execute(params![v, at])?;
            }
        }
        let highest = done.last().copied().unwrap_or(version);
        tx.pragma_update(None, "user_version", highest)?;
        tx.commit()?;
    }
    Ok(applied_now)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn created_tables_are_read_from_the_sql() {
        let sql = "CREATE TABLE a (\n x INT);\n  CREATE VIRTUAL TABLE b USING fts5(t);\n\
                   CREATE TABLE IF NOT EXISTS c(y);\nCREATE INDEX d ON a(x);\n-- CREATE TABLE e";
        assert_eq!(created_tables(sql), ["a", "b", "c"]);
        assert_eq!(
            created_tables(MIGRATIONS[6].1),
            ["article_html", "reextract_progress"]
        );
    }
}
