//! The SQL both stores speak: one statement text, run on SQLite or on
//! PostgreSQL through [`Sql`], so that a query whose meaning is the same on
//! both is written once (in `store::shared`) rather than once per backend.
//!
//! In: a statement with numbered placeholders (`?1`, `?2`, … as SQLite
//! writes them; PostgreSQL's backend renumbers them `$1`, `$2`, …) and its
//! [`Value`]s. Out: the rows, each read through [`Row`] (the column
//! mapping of `store::rows`), or the number of rows a statement changed.
//! Where the dialects differ (date functions, collations, upserts that
//! lock), a statement asks [`Sql::dialect`] and writes the fragment each
//! needs; what both do alike stays one text.

use super::rows::{Cell, Columns};
use super::StoreError;

/// Which SQL a connection speaks, for the fragments that differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dialect {
    Sqlite,
    Postgres,
}

impl Dialect {
    /// What makes an `ORDER BY` on text compare bytes, as SQLite always
    /// does (PostgreSQL otherwise sorts by the database's locale).
    pub(crate) fn bytewise(self) -> &'static str {
        match self {
            Dialect::Sqlite => "",
            Dialect::Postgres => " COLLATE \"C\"",
        }
    }
}

/// A statement's parameter. An integer binds to any integer column (a
/// PostgreSQL `integer` takes it narrowed, failing if it does not fit),
/// text to any text column.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Value<'a> {
    Int(i64),
    Float(f64),
    Text(&'a str),
    Bytes(&'a [u8]),
    Bool(bool),
    Null,
}

impl From<i64> for Value<'_> {
    fn from(v: i64) -> Self {
        Value::Int(v)
    }
}

impl From<f64> for Value<'_> {
    fn from(v: f64) -> Self {
        Value::Float(v)
    }
}

impl<'a> From<&'a str> for Value<'a> {
    fn from(v: &'a str) -> Self {
        Value::Text(v)
    }
}

impl<'a> From<&'a String> for Value<'a> {
    fn from(v: &'a String) -> Self {
        Value::Text(v)
    }
}

impl<'a> From<&'a [u8]> for Value<'a> {
    fn from(v: &'a [u8]) -> Self {
        Value::Bytes(v)
    }
}

impl From<bool> for Value<'_> {
    fn from(v: bool) -> Self {
        Value::Bool(v)
    }
}

impl<'a, T: Into<Value<'a>>> From<Option<T>> for Value<'a> {
    fn from(v: Option<T>) -> Self {
        v.map_or(Value::Null, Into::into)
    }
}

impl<'a> From<&'a Cell> for Value<'a> {
    fn from(cell: &'a Cell) -> Self {
        match cell {
            Cell::Null => Value::Null,
            Cell::Int(v) => Value::Int(*v),
            Cell::Float(v) => Value::Float(*v),
            Cell::Text(v) => Value::Text(v),
            Cell::Bytes(v) => Value::Bytes(v),
            Cell::Bool(v) => Value::Bool(*v),
        }
    }
}

/// A count or limit as a parameter (the largest integer if it does not fit).
pub(crate) fn int(n: impl TryInto<i64>) -> Value<'static> {
    Value::Int(n.try_into().unwrap_or(i64::MAX))
}

/// One row of a result, read by column index.
pub(crate) type Row<'r> = dyn Columns<Error = StoreError> + 'r;

/// A connection (or a transaction on one) that runs statements.
pub(crate) trait Sql {
    fn dialect(&self) -> Dialect;

    /// Run a statement; the number of rows it changed.
    fn execute(&mut self, sql: &str, params: &[Value<'_>]) -> Result<u64, StoreError>;

    /// Run a query and hand each row to `each`, in order, as the rows
    /// arrive (a large result is never held whole).
    fn each_row(
        &mut self,
        sql: &str,
        params: &[Value<'_>],
        each: &mut dyn FnMut(&Row<'_>) -> Result<(), StoreError>,
    ) -> Result<(), StoreError>;
}

/// `impl Sql` for a backend's connection types, by the backend's own
/// `execute` and `each_row` functions (in scope where it is used), in
/// `dialect`.
macro_rules! sql_by {
    ($dialect:expr => $($ty:ty),+) => {$(
        impl Sql for $ty {
            fn dialect(&self) -> Dialect {
                $dialect
            }
            fn execute(&mut self, sql: &str, params: &[Value<'_>]) -> Result<u64, StoreError> {
                execute(self, sql, params)
            }
            fn each_row(
                &mut self,
                sql: &str,
                params: &[Value<'_>],
                each: &mut dyn FnMut(&Row<'_>) -> Result<(), StoreError>,
            ) -> Result<(), StoreError> {
                each_row(self, sql, params, each)
            }
        }
    )+};
}
pub(crate) use sql_by;

impl dyn Sql + '_ {
    /// Every row of a query, mapped.
    pub(crate) fn rows<T>(
        &mut self,
        sql: &str,
        params: &[Value<'_>],
        map: impl Fn(&Row<'_>) -> Result<T, StoreError>,
    ) -> Result<Vec<T>, StoreError> {
        let mut out = Vec::new();
        self.each_row(sql, params, &mut |r| {
            out.push(map(r)?);
            Ok(())
        })?;
        Ok(out)
    }

    /// The first row of a query, mapped (`None`: no row).
    pub(crate) fn first<T>(
        &mut self,
        sql: &str,
        params: &[Value<'_>],
        map: impl Fn(&Row<'_>) -> Result<T, StoreError>,
    ) -> Result<Option<T>, StoreError> {
        let mut out = None;
        self.each_row(sql, params, &mut |r| {
            if out.is_none() {
                out = Some(map(r)?);
            }
            Ok(())
        })?;
        Ok(out)
    }

    /// The one row a query always gives (an aggregate), mapped.
    pub(crate) fn one<T>(
        &mut self,
        sql: &str,
        params: &[Value<'_>],
        map: impl Fn(&Row<'_>) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        self.first(sql, params, map)?
            .ok_or_else(|| StoreError::NoRow(sql.lines().next().unwrap_or("").trim().to_string()))
    }
}

/// `sql` with SQLite's numbered placeholders (`?1`) written as PostgreSQL's
/// (`$1`). A `?` inside a quoted string or identifier is left alone.
pub(crate) fn dollar_numbered(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut quote = None;
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), _) if q == c => quote = None,
            (None, '?') if chars.peek().is_some_and(char::is_ascii_digit) => {
                out.push('$');
                continue;
            }
            _ => {}
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbered_placeholders_become_dollars_outside_quotes_only() {
        assert_eq!(
            dollar_numbered("SELECT ?1, '?2', \"a?3\" FROM t WHERE x = ?12 AND y ? 'k'"),
            "SELECT $1, '?2', \"a?3\" FROM t WHERE x = $12 AND y ? 'k'"
        );
    }

    #[test]
    fn a_doubled_quote_inside_a_string_keeps_the_string_open() {
        assert_eq!(
            dollar_numbered("SELECT 'it''s ?1', ?2"),
            "SELECT 'it''s ?1', $2"
        );
    }
}
