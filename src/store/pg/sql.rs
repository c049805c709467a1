//! [`Sql`] on PostgreSQL: a client or a transaction runs the statements
//! both stores share, placeholders renumbered `$1`, `$2`, …; a [`Value`]
//! binds to the column type the server asks for.

use std::error::Error;

use bytes::BytesMut;
use postgres::fallible_iterator::FallibleIterator;
use postgres::types::{to_sql_checked, IsNull, ToSql, Type};
use postgres::GenericClient;

use crate::store::rows::{Cell, Columns};
use crate::store::sql::{dollar_numbered, sql_by, Dialect, Row, Sql, Value};
use crate::store::StoreError;

impl ToSql for Value<'_> {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut BytesMut,
    ) -> Result<IsNull, Box<dyn Error + Sync + Send>> {
        match *self {
            Value::Int(v) if *ty == Type::INT4 => i32::try_from(v)?.to_sql_checked(ty, out),
            Value::Int(v) if *ty == Type::INT2 => i16::try_from(v)?.to_sql_checked(ty, out),
            Value::Int(v) => v.to_sql_checked(ty, out),
            Value::Float(v) => v.to_sql_checked(ty, out),
            Value::Text(v) => v.to_sql_checked(ty, out),
            Value::Bytes(v) => v.to_sql_checked(ty, out),
            Value::Bool(v) => v.to_sql_checked(ty, out),
            Value::Null => Ok(IsNull::Yes),
        }
    }

    /// Any type: `to_sql` checks the one the value is written as.
    fn accepts(_: &Type) -> bool {
        true
    }

    to_sql_checked!();
}

impl Columns for postgres::Row {
    type Error = StoreError;
    fn int(&self, i: usize) -> Result<i64, StoreError> {
        Ok(self.try_get(i)?)
    }
    fn float(&self, i: usize) -> Result<f64, StoreError> {
        Ok(self.try_get(i)?)
    }
    fn text(&self, i: usize) -> Result<String, StoreError> {
        Ok(self.try_get(i)?)
    }
    fn opt_text(&self, i: usize) -> Result<Option<String>, StoreError> {
        Ok(self.try_get(i)?)
    }
    fn bytes(&self, i: usize) -> Result<Vec<u8>, StoreError> {
        Ok(self.try_get(i)?)
    }
    fn flag(&self, i: usize) -> Result<bool, StoreError> {
        Ok(self.try_get(i)?)
    }
    fn cell(&self, i: usize) -> Result<Cell, StoreError> {
        cell_of(self, i)
    }
    fn undecodable(&self, _: usize, e: std::io::Error) -> StoreError {
        StoreError::Io(e)
    }
}

/// Column `i` of a row as whatever its type is (NULL included).
fn cell_of(row: &postgres::Row, i: usize) -> Result<Cell, StoreError> {
    // A column past the row's falls through to `try_get`'s error.
    let ty = row.columns().get(i).map(|c| c.type_());
    let cell = if ty == Some(&Type::INT2) {
        row.try_get::<_, Option<i16>>(i)?
            .map(|v| Cell::Int(v.into()))
    } else if ty == Some(&Type::INT4) {
        row.try_get::<_, Option<i32>>(i)?
            .map(|v| Cell::Int(v.into()))
    } else if ty == Some(&Type::INT8) {
        row.try_get::<_, Option<i64>>(i)?.map(Cell::Int)
    } else if ty == Some(&Type::FLOAT8) {
        row.try_get::<_, Option<f64>>(i)?.map(Cell::Float)
    } else if ty == Some(&Type::BOOL) {
        row.try_get::<_, Option<bool>>(i)?.map(Cell::Bool)
    } else if ty == Some(&Type::BYTEA) {
        row.try_get::<_, Option<Vec<u8>>>(i)?.map(Cell::Bytes)
    } else {
        row.try_get::<_, Option<String>>(i)?.map(Cell::Text)
    };
    Ok(cell.unwrap_or(Cell::Null))
}

fn execute<C: GenericClient>(
    c: &mut C,
    sql: &str,
    params: &[Value<'_>],
) -> Result<u64, StoreError> {
    let params: Vec<&(dyn ToSql + Sync)> = params.iter().map(|p| p as _).collect();
    Ok(c.execute(dollar_numbered(sql).as_str(), &params)?)
}

fn each_row<C: GenericClient>(
    c: &mut C,
    sql: &str,
    params: &[Value<'_>],
    each: &mut dyn FnMut(&Row<'_>) -> Result<(), StoreError>,
) -> Result<(), StoreError> {
    let mut rows = c.query_raw(dollar_numbered(sql).as_str(), params.iter())?;
    while let Some(row) = rows.next()? {
        each(&row)?;
    }
    Ok(())
}

sql_by!(Dialect::Postgres => postgres::Client, postgres::Transaction<'_>);
