//! How article writes send their statements: prepared once per connection
//! and reused ([`Prepared`]), or each sent whole with its parameter types.
//!
//! In: a transaction, a statement's text and its typed parameters. Out:
//! its rows. The same transaction runs the statements both stores share
//! ([`Sql`]), prepared and kept the same way. Why prepare: the server plans a statement sent whole every
//! time it comes, and planning, not running, was most of the cost of the
//! small statements an article needs (≈ 190 µs against ≈ 50 µs for the
//! duplicate lookup, measured on the shared test server under load). The
//! statement texts are the cache's keys.

use std::collections::HashMap;

use postgres::fallible_iterator::FallibleIterator;
use postgres::types::{ToSql, Type};
use postgres::{Row, Statement, Transaction};

use crate::store::sql::{dollar_numbered, Dialect, Sql, Value};
use crate::store::StoreError;

/// Statements prepared on one connection, by their text. Keep it beside
/// the connection it was filled on: a statement is valid only there.
#[derive(Default)]
pub struct Prepared {
    statements: HashMap<String, Statement>,
}

/// A transaction with the way its statements are sent.
pub(in crate::store::pg) struct Tx<'t, 'c> {
    tx: &'t mut Transaction<'c>,
    prepared: Option<&'t mut Prepared>,
}

type Params<'p> = [(&'p (dyn ToSql + Sync), Type)];

impl<'t, 'c> Tx<'t, 'c> {
    /// Each statement sent whole (one round trip, planned every time).
    pub(in crate::store::pg) fn plain(tx: &'t mut Transaction<'c>) -> Self {
        Tx { tx, prepared: None }
    }

    /// Statements prepared on first use and reused from `prepared`.
    pub(in crate::store::pg) fn prepared(
        tx: &'t mut Transaction<'c>,
        prepared: &'t mut Prepared,
    ) -> Self {
        Tx {
            tx,
            prepared: Some(prepared),
        }
    }

    fn statement(
        &mut self,
        sql: &'static str,
        params: &Params<'_>,
    ) -> Result<Option<Statement>, postgres::Error> {
        let Some(cache) = self.prepared.as_deref_mut() else {
            return Ok(None);
        };
        if let Some(s) = cache.statements.get(sql) {
            return Ok(Some(s.clone()));
        }
        let types: Vec<Type> = params.iter().map(|(_, t)| t.clone()).collect();
        let s = self.tx.prepare_typed(sql, &types)?;
        cache.statements.insert(sql.to_string(), s.clone());
        Ok(Some(s))
    }

    pub(in crate::store::pg) fn query_typed(
        &mut self,
        sql: &'static str,
        params: &Params<'_>,
    ) -> Result<Vec<Row>, postgres::Error> {
        match self.statement(sql, params)? {
            Some(s) => self.tx.query(&s, &values(params)),
            None => self.tx.query_typed(sql, params),
        }
    }

    pub(in crate::store::pg) fn query_typed_one(
        &mut self,
        sql: &'static str,
        params: &Params<'_>,
    ) -> Result<Row, postgres::Error> {
        match self.statement(sql, params)? {
            Some(s) => self.tx.query_one(&s, &values(params)),
            None => self.tx.query_typed_one(sql, params),
        }
    }

    pub(in crate::store::pg) fn query_typed_opt(
        &mut self,
        sql: &'static str,
        params: &Params<'_>,
    ) -> Result<Option<Row>, postgres::Error> {
        match self.statement(sql, params)? {
            Some(s) => self.tx.query_opt(&s, &values(params)),
            None => self.tx.query_typed_opt(sql, params),
        }
    }

    pub(in crate::store::pg) fn execute_typed(
        &mut self,
        sql: &'static str,
        params: &Params<'_>,
    ) -> Result<u64, postgres::Error> {
        match self.statement(sql, params)? {
            Some(s) => self.tx.execute(&s, &values(params)),
            None => self.tx.execute_typed(sql, params),
        }
    }
}

fn values<'p>(params: &'p Params<'p>) -> Vec<&'p (dyn ToSql + Sync)> {
    params.iter().map(|(v, _)| *v).collect()
}

impl Tx<'_, '_> {
    /// A shared statement (numbered placeholders), its parameter types
    /// those the server infers; kept like the others when they are.
    pub(in crate::store::pg) fn shared(&mut self, sql: &str) -> Result<Statement, postgres::Error> {
        if let Some(s) = self.prepared.as_deref().and_then(|c| c.statements.get(sql)) {
            return Ok(s.clone());
        }
        let s = self.tx.prepare(&dollar_numbered(sql))?;
        if let Some(cache) = self.prepared.as_deref_mut() {
            cache.statements.insert(sql.to_string(), s.clone());
        }
        Ok(s)
    }
}

impl Sql for Tx<'_, '_> {
    fn dialect(&self) -> Dialect {
        Dialect::Postgres
    }

    fn execute(&mut self, sql: &str, params: &[Value<'_>]) -> Result<u64, StoreError> {
        let statement = self.shared(sql)?;
        let params: Vec<&(dyn ToSql + Sync)> = params.iter().map(|p| p as _).collect();
        Ok(self.tx.execute(&statement, &params)?)
    }

    fn each_row(
        &mut self,
        sql: &str,
        params: &[Value<'_>],
        each: &mut dyn FnMut(&crate::store::sql::Row<'_>) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        let statement = self.shared(sql)?;
        let mut rows = self.tx.query_raw(&statement, params.iter())?;
        while let Some(row) = rows.next()? {
            each(&row)?;
        }
        Ok(())
    }
}
