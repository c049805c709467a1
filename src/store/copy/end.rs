//! Either end of a copy: a store, SQLite or PostgreSQL, that counts,
//! streams and takes a table's rows through the statements both run (one
//! text, `INSERT OR IGNORE` on SQLite and `ON CONFLICT DO NOTHING` on
//! PostgreSQL), and does its own bookkeeping at the end.
//!
//! In: an opened [`AnyStore`] (read-only for a source). Out: its rows as
//! [`Cell`]s of the table's column types, or rows written one transaction
//! per batch; at the end SQLite's FTS5 indexes rebuilt from `articles`, or
//! PostgreSQL's id sequences set past the copied ids and URLs left
//! `fetching` given an ended lease.

use super::super::rows::Cell;
use super::super::sql::{Dialect, Row, Value};
use super::super::{AnyStore, StoreError};
use super::tables::{column_list, typed, Column};
use super::{CopyError, Table, TABLES};

/// Most bound values in one statement (PostgreSQL's protocol allows
/// 65,535; SQLite 32,766).
const MAX_PARAMS: usize = 30_000;

pub(super) struct End(pub(super) AnyStore);

impl End {
    pub(super) fn count(&mut self, table: &Table) -> Result<u64, CopyError> {
        let count = format!("SELECT count(*) FROM {}", table.name);
        Ok(self.0.sql().one(&count, &[], |r| r.count(0))?)
    }

    /// Every row of `table` in key order, to `each`, as the rows arrive (a
    /// large table is never held in memory).
    pub(super) fn read(
        &mut self,
        table: &Table,
        columns: &[Column],
        each: &mut dyn FnMut(Vec<Cell>) -> Result<(), CopyError>,
    ) -> Result<(), CopyError> {
        // What stopped the stream, when it is the copy's own error rather
        // than the store's.
        let mut stopped = None;
        // Key order: the order both stores agree on within themselves,
        // which is all a read needs.
        let select = format!(
            "SELECT {} FROM {} ORDER BY {}",
            column_list(columns),
            table.name,
            table.key.join(", ")
        );
        let read = self.0.sql().each_row(&select, &[], &mut |r| {
            let mut row = || -> Result<(), CopyError> {
                let mut cells = Vec::with_capacity(columns.len());
                for (i, (column, ty)) in columns.iter().enumerate() {
                    let cell = typed(r.cell(i)?, *ty);
                    cells.push(cell.map_err(|reason| CopyError::Cell {
                        table: table.name,
                        column: column.clone(),
                        reason,
                    })?);
                }
                each(cells)
            };
            row().map_err(|e| {
                stopped = Some(e);
                StoreError::Io(std::io::Error::other("copy stopped"))
            })
        });
        match stopped {
            Some(e) => Err(e),
            None => Ok(read?),
        }
    }

    /// `rows` in one transaction; rows whose key is present are ignored.
    /// PostgreSQL takes one multi-row `INSERT` per [`MAX_PARAMS`] values (a
    /// statement per row cost a round trip each); SQLite, which has no
    /// round trips, one prepared statement a row (a statement of thousands
    /// of rows is slower to compile than to run, and kept in the cache).
    pub(super) fn write(
        &mut self,
        table: &Table,
        columns: &[Column],
        rows: &[Vec<Cell>],
    ) -> Result<(), CopyError> {
        let width = columns.len();
        self.0.in_transaction(|sql| {
            let (insert, ignore, per_statement) = match sql.dialect() {
                Dialect::Sqlite => ("INSERT OR IGNORE", "", 1),
                Dialect::Postgres => ("INSERT", " ON CONFLICT DO NOTHING", MAX_PARAMS / width),
            };
            let statement = |rows: usize| {
                let tuples: Vec<String> = (0..rows)
                    .map(|r| {
                        let cells: Vec<String> =
                            (1..=width).map(|c| format!("?{}", r * width + c)).collect();
                        format!("({})", cells.join(", "))
                    })
                    .collect();
                format!(
                    "{insert} INTO {} ({}) VALUES {}{ignore}",
                    table.name,
                    column_list(columns),
                    tuples.join(", ")
                )
            };
            let per_statement = per_statement.max(1);
            let full = statement(per_statement);
            for chunk in rows.chunks(per_statement) {
                let params: Vec<Value<'_>> = chunk.iter().flatten().map(Value::from).collect();
                if chunk.len() == per_statement {
                    sql.execute(&full, &params)?;
                } else {
                    sql.execute(&statement(chunk.len()), &params)?;
                }
            }
            Ok(())
        })?;
        Ok(())
    }

    /// The columns of `table` (name, declared type) in the schema's order.
    pub(super) fn columns(&mut self, table: &Table) -> Result<Vec<(String, String)>, CopyError> {
        let query = match self.0.sql().dialect() {
            Dialect::Sqlite => "SELECT name, type FROM pragma_table_info(?1) ORDER BY cid",
            Dialect::Postgres => {
                "SELECT column_name::text, udt_name::text FROM information_schema.columns \
                 WHERE table_schema = current_schema() AND table_name = ?1 \
                 ORDER BY ordinal_position"
            }
        };
        let pair = |r: &Row<'_>| Ok((r.text(0)?, r.text(1)?));
        Ok(self.0.sql().rows(query, &[table.name.into()], pair)?)
    }

    /// `(id, text)` rows of a query both SQL dialects understand.
    pub(super) fn pairs(&mut self, query: &str) -> Result<Vec<(i64, String)>, CopyError> {
        let pair = |r: &Row<'_>| Ok((r.int(0)?, r.text(1)?));
        Ok(self.0.sql().rows(query, &[], pair)?)
    }

    /// The store's own bookkeeping after the rows.
    pub(super) fn finish(&mut self) -> Result<(), StoreError> {
        match &mut self.0 {
            // The FTS5 indexes hold every copied article: emptied, then
            // filled from `articles` as a write batch fills them (so an
            // interrupted copy leaves no article indexed twice or missing).
            AnyStore::Sqlite(s) => {
                let tx = s.conn.transaction()?;
                tx.execute_batch(
                    "INSERT INTO articles_fts(articles_fts) VALUES ('delete-all');
                     INSERT INTO articles_fts_cjk(articles_fts_cjk) VALUES ('delete-all');",
                )?;
                super::super::sqlite::search_index::index_after(&tx, 0)?;
                tx.commit()?;
            }
            // Each `BIGSERIAL` sequence continues after the highest copied
            // id, and the planner learns the new tables' sizes.
            AnyStore::Pg(s) => {
                let client = s.client();
                for table in TABLES.iter().filter(|t| t.serial_id) {
                    client.execute(
                        &format!(
                            "SELECT setval(pg_get_serial_sequence('{0}', 'id'), max(id)) \
                             FROM {0} HAVING max(id) IS NOT NULL",
                            table.name
                        ),
                        &[],
                    )?;
                }
                // A URL a SQLite crawl held when it stopped has no lease
                // here: give it one that has ended, so the next claim takes
                // it up again.
                client.execute(
                    "UPDATE urls SET lease_until = 0 \
                     WHERE state = 'fetching' AND lease_until IS NULL",
                    &[],
                )?;
                client.batch_execute("ANALYZE")?;
            }
        }
        Ok(())
    }
}
