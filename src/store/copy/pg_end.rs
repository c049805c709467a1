//! A PostgreSQL database as either end of a copy.
//!
//! In: a [`PgStore`]. Out: its rows as typed [`Value`]s (read through a
//! cursor, so a large table is never held in memory), or rows written with
//! `ON CONFLICT DO NOTHING`, one transaction per batch; at the end the id
//! sequences set past the copied ids and URLs left `fetching` given an
//! ended lease.

use postgres::types::ToSql;

use super::super::pg::PgStore;
use super::super::target::redacted;
use super::{cell_error, ColType, CopyError, End, Table, Value};

/// Most bound values in one statement (the protocol allows 65,535).
const MAX_PARAMS: usize = 30_000;

/// Rows fetched from the server per round trip while reading.
const FETCH_ROWS: i32 = 1_000;

pub(super) struct PgEnd {
    store: PgStore,
}

impl PgEnd {
    pub(super) fn new(store: PgStore) -> PgEnd {
        PgEnd { store }
    }
}

/// A source must already be a newshound database: opening it would
/// otherwise create an empty schema in someone's database and copy nothing.
pub(super) fn require_schema(url: &str) -> Result<(), CopyError> {
    let shown = redacted(url);
    let mut client = postgres::Client::connect(url, postgres::NoTls).map_err(|e| {
        CopyError::Store(super::StoreError::PgConnect {
            url: shown.clone(),
            reason: super::super::pg::reason_of(&e),
        })
    })?;
    let has: bool = client
        .query_one("SELECT to_regclass('articles') IS NOT NULL", &[])?
        .get(0);
    if has {
        Ok(())
    } else {
        Err(CopyError::SourceEmpty(shown))
    }
}

/// Whether two URLs name one database: same hosts, ports and name.
pub(super) fn same_database(a: &str, b: &str) -> bool {
    let (Ok(a), Ok(b)) = (a.parse::<postgres::Config>(), b.parse::<postgres::Config>()) else {
        return a == b;
    };
    let ports = |c: &postgres::Config| match c.get_ports() {
        [] => vec![5432],
        p => p.to_vec(),
    };
    a.get_hosts() == b.get_hosts() && ports(&a) == ports(&b) && a.get_dbname() == b.get_dbname()
}

impl End for PgEnd {
    fn shown(&self) -> String {
        self.store.shown().to_string()
    }

    fn count(&mut self, table: &Table) -> Result<u64, CopyError> {
        let n: i64 = self
            .store
            .client()
            .query_one(&format!("SELECT count(*) FROM {}", table.name), &[])?
            .get(0);
        Ok(n.unsigned_abs())
    }

    fn read(
        &mut self,
        table: &Table,
        each: &mut dyn FnMut(Vec<Value>) -> Result<(), CopyError>,
    ) -> Result<(), CopyError> {
        let mut tx = self.store.client().transaction()?;
        let portal = tx.bind(&table.select(), &[])?;
        loop {
            let rows = tx.query_portal(&portal, FETCH_ROWS)?;
            if rows.is_empty() {
                break;
            }
            for row in &rows {
                let mut cells = Vec::with_capacity(table.columns.len());
                for (i, &(column, ty)) in table.columns.iter().enumerate() {
                    let get = |e: postgres::Error| cell_error(table, column, e.to_string());
                    cells.push(match ty {
                        ColType::I4 => Value::I4(row.try_get(i).map_err(get)?),
                        ColType::I8 => Value::I8(row.try_get(i).map_err(get)?),
                        ColType::F8 => Value::F8(row.try_get(i).map_err(get)?),
                        ColType::Text => Value::Text(row.try_get(i).map_err(get)?),
                        ColType::Bytes => Value::Bytes(row.try_get(i).map_err(get)?),
                        ColType::Bool => Value::Bool(row.try_get(i).map_err(get)?),
                    });
                }
                each(cells)?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    /// One multi-row `INSERT` per [`MAX_PARAMS`] values: a statement per
    /// row cost a round trip each.
    fn write(&mut self, table: &Table, rows: &[Vec<Value>]) -> Result<(), CopyError> {
        let width = table.columns.len();
        let mut tx = self.store.client().transaction()?;
        for chunk in rows.chunks((MAX_PARAMS / width).max(1)) {
            let tuples: Vec<String> = (0..chunk.len())
                .map(|r| {
                    let cells: Vec<String> =
                        (1..=width).map(|c| format!("${}", r * width + c)).collect();
                    format!("({})", cells.join(", "))
                })
                .collect();
            let sql = format!(
                "INSERT INTO {} ({}) VALUES {} ON CONFLICT DO NOTHING",
                table.name,
                table.column_list(),
                tuples.join(", ")
            );
            let params: Vec<&(dyn ToSql + Sync)> = chunk.iter().flatten().map(as_param).collect();
            tx.execute(&sql, &params)?;
        }
        tx.commit()?;
        Ok(())
    }

    fn pairs(&mut self, sql: &str) -> Result<Vec<(i64, String)>, CopyError> {
        Ok(self
            .store
            .client()
            .query(sql, &[])?
            .iter()
            .map(|r| (r.get(0), r.get(1)))
            .collect())
    }

    /// Each `BIGSERIAL` sequence continues after the highest copied id, and
    /// the planner learns the new tables' sizes.
    fn finish(&mut self) -> Result<(), CopyError> {
        for table in super::TABLES.iter().filter(|t| t.serial_id) {
            self.store.client().execute(
                &format!(
                    "SELECT setval(pg_get_serial_sequence('{0}', 'id'), max(id)) FROM {0} \
                     HAVING max(id) IS NOT NULL",
                    table.name
                ),
                &[],
            )?;
        }
        // A URL a SQLite crawl held when it stopped has no lease here: give
        // it one that has ended, so the next claim takes it up again.
        self.store.client().execute(
            "UPDATE urls SET lease_until = 0 WHERE state = 'fetching' AND lease_until IS NULL",
            &[],
        )?;
        self.store.client().batch_execute("ANALYZE")?;
        Ok(())
    }
}

fn as_param(v: &Value) -> &(dyn ToSql + Sync) {
    match v {
        Value::I4(x) => x,
        Value::I8(x) => x,
        Value::F8(x) => x,
        Value::Text(x) => x,
        Value::Bytes(x) => x,
        Value::Bool(x) => x,
    }
}
