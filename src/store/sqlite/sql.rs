//! [`Sql`] on SQLite: a connection (or a shared borrow of one, such as a
//! transaction's) runs the statements both stores share, each prepared once
//! per connection (the statement cache), its rows read through [`Columns`].

use rusqlite::types::{ToSqlOutput, ValueRef};
use rusqlite::{params_from_iter, Connection, ToSql};

use crate::store::rows::{Cell, Columns};
use crate::store::sql::{sql_by, Dialect, Row, Sql, Value};
use crate::store::StoreError;

impl ToSql for Value<'_> {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::Borrowed(match *self {
            Value::Int(v) => ValueRef::Integer(v),
            Value::Float(v) => ValueRef::Real(v),
            Value::Text(v) => ValueRef::Text(v.as_bytes()),
            Value::Bytes(v) => ValueRef::Blob(v),
            Value::Bool(v) => ValueRef::Integer(i64::from(v)),
            Value::Null => ValueRef::Null,
        }))
    }
}

/// A row of a statement both stores run, with the store's errors.
struct SharedRow<'a, 'r>(&'a rusqlite::Row<'r>);

impl Columns for SharedRow<'_, '_> {
    type Error = StoreError;
    fn int(&self, i: usize) -> Result<i64, StoreError> {
        Ok(self.0.get(i)?)
    }
    fn float(&self, i: usize) -> Result<f64, StoreError> {
        Ok(self.0.get(i)?)
    }
    fn text(&self, i: usize) -> Result<String, StoreError> {
        Ok(self.0.get(i)?)
    }
    fn opt_text(&self, i: usize) -> Result<Option<String>, StoreError> {
        Ok(self.0.get(i)?)
    }
    fn bytes(&self, i: usize) -> Result<Vec<u8>, StoreError> {
        Ok(self.0.get(i)?)
    }
    fn flag(&self, i: usize) -> Result<bool, StoreError> {
        Ok(self.0.get(i)?)
    }
    fn cell(&self, i: usize) -> Result<Cell, StoreError> {
        Ok(cell_of(self.0.get_ref(i)?))
    }
    fn undecodable(&self, _: usize, e: std::io::Error) -> StoreError {
        StoreError::Io(e)
    }
}

/// A SQLite value as a [`Cell`] (text that is not UTF-8 as bytes, which a
/// text column then refuses by name).
fn cell_of(v: ValueRef<'_>) -> Cell {
    match v {
        ValueRef::Null => Cell::Null,
        ValueRef::Integer(v) => Cell::Int(v),
        ValueRef::Real(v) => Cell::Float(v),
        ValueRef::Text(v) => match std::str::from_utf8(v) {
            Ok(text) => Cell::Text(text.to_string()),
            Err(_) => Cell::Bytes(v.to_vec()),
        },
        ValueRef::Blob(v) => Cell::Bytes(v.to_vec()),
    }
}

fn execute(conn: &Connection, sql: &str, params: &[Value<'_>]) -> Result<u64, StoreError> {
    let changed = conn
        .prepare_cached(sql)?
        .execute(params_from_iter(params))?;
    Ok(u64::try_from(changed).unwrap_or(u64::MAX))
}

fn each_row(
    conn: &Connection,
    sql: &str,
    params: &[Value<'_>],
    each: &mut dyn FnMut(&Row<'_>) -> Result<(), StoreError>,
) -> Result<(), StoreError> {
    let mut stmt = conn.prepare_cached(sql)?;
    let mut rows = stmt.query(params_from_iter(params))?;
    while let Some(row) = rows.next()? {
        each(&SharedRow(row))?;
    }
    Ok(())
}

sql_by!(Dialect::Sqlite => Connection, &Connection);
