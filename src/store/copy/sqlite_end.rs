//! A SQLite database as either end of a copy.
//!
//! In: a [`Store`] (read-only for a source). Out: its rows as typed
//! [`Value`]s, or rows written with `INSERT OR IGNORE`, one transaction per
//! batch; at the end the FTS5 indexes rebuilt from `articles`.

use rusqlite::types::{ToSqlOutput, ValueRef};
use rusqlite::ToSql;

use super::super::sqlite::search_index;
use super::super::Store;
use super::{cell_error, ColType, CopyError, End, Table, Value};

pub(super) struct SqliteEnd {
    store: Store,
}

impl SqliteEnd {
    pub(super) fn new(store: Store) -> SqliteEnd {
        SqliteEnd { store }
    }
}

impl End for SqliteEnd {
    fn shown(&self) -> String {
        self.store.path().display().to_string()
    }

    fn count(&mut self, table: &Table) -> Result<u64, CopyError> {
        let n: i64 = self.store.conn.query_row(
            &format!("SELECT count(*) FROM {}", table.name),
            [],
            |r| r.get(0),
        )?;
        Ok(n.unsigned_abs())
    }

    fn read(
        &mut self,
        table: &Table,
        each: &mut dyn FnMut(Vec<Value>) -> Result<(), CopyError>,
    ) -> Result<(), CopyError> {
        let mut stmt = self.store.conn.prepare(&table.select())?;
        let mut rows = stmt.query([])?;
        while let Some(row) = rows.next()? {
            let mut cells = Vec::with_capacity(table.columns.len());
            for (i, &(column, ty)) in table.columns.iter().enumerate() {
                cells.push(
                    cell(row.get_ref(i)?, ty)
                        .map_err(|reason| cell_error(table, column, reason))?,
                );
            }
            each(cells)?;
        }
        Ok(())
    }

    fn write(&mut self, table: &Table, rows: &[Vec<Value>]) -> Result<(), CopyError> {
        let sql = format!(
            "INSERT OR IGNORE INTO {} ({}) VALUES ({})",
            table.name,
            table.column_list(),
            vec!["?"; table.columns.len()].join(", ")
        );
        let tx = self.store.conn.transaction()?;
        {
            let mut insert = tx.prepare_cached(&sql)?;
            for row in rows {
                insert.execute(rusqlite::params_from_iter(row.iter()))?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    fn pairs(&mut self, sql: &str) -> Result<Vec<(i64, String)>, CopyError> {
        let mut stmt = self.store.conn.prepare(sql)?;
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The FTS5 indexes hold every copied article: emptied, then filled
    /// from `articles` as a write batch fills them (so an interrupted copy
    /// leaves no article indexed twice or missing).
    fn finish(&mut self) -> Result<(), CopyError> {
        let tx = self.store.conn.transaction()?;
        tx.execute_batch(
            "INSERT INTO articles_fts(articles_fts) VALUES ('delete-all');
             INSERT INTO articles_fts_cjk(articles_fts_cjk) VALUES ('delete-all');",
        )?;
        search_index::index_after(&tx, 0)?;
        tx.commit()?;
        Ok(())
    }
}

/// A SQLite cell as the column's typed value.
fn cell(v: ValueRef<'_>, ty: ColType) -> Result<Value, String> {
    if v == ValueRef::Null {
        return Ok(match ty {
            ColType::I4 => Value::I4(None),
            ColType::I8 => Value::I8(None),
            ColType::F8 => Value::F8(None),
            ColType::Text => Value::Text(None),
            ColType::Bytes => Value::Bytes(None),
            ColType::Bool => Value::Bool(None),
        });
    }
    let int = || v.as_i64().map_err(|e| e.to_string());
    Ok(match ty {
        ColType::I4 => Value::I4(Some(
            i32::try_from(int()?).map_err(|_| format!("{v:?} is out of INTEGER range"))?,
        )),
        ColType::I8 => Value::I8(Some(int()?)),
        ColType::Bool => Value::Bool(Some(int()? != 0)),
        ColType::F8 => Value::F8(Some(match v {
            ValueRef::Integer(i) => i as f64,
            _ => v.as_f64().map_err(|e| e.to_string())?,
        })),
        ColType::Text => Value::Text(Some(
            v.as_str()
                .map_err(|e| format!("not text: {e}"))?
                .to_string(),
        )),
        ColType::Bytes => Value::Bytes(Some(
            v.as_bytes()
                .map_err(|e| format!("not bytes: {e}"))?
                .to_vec(),
        )),
    })
}

impl ToSql for Value {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        match self {
            Value::I4(v) => v.to_sql(),
            Value::I8(v) => v.to_sql(),
            Value::F8(v) => v.to_sql(),
            Value::Text(v) => v.to_sql(),
            Value::Bytes(v) => v.to_sql(),
            Value::Bool(v) => v.to_sql(),
        }
    }
}
