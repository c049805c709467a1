//! A time budget for the queries a SQLite connection runs next.
//!
//! In: a budget (or none). Out: from now on, a statement still running
//! when the budget is spent is interrupted by SQLite's progress handler,
//! and fails as [`StoreError::OverBudget`] (see `From<rusqlite::Error>`).
//! The budget counts from the call, over every statement that follows
//! until the next call: `serve` sets it before each request.

use std::time::{Duration, Instant};

use super::{Store, StoreError};

/// SQLite virtual machine steps between two looks at the clock: a few
/// microseconds of work, so a query stops within a hair of its budget.
const STEPS_PER_CHECK: std::ffi::c_int = 1_000;

impl Store {
    /// Bound the statements from now on to `budget` in all (`None`: no
    /// bound).
    pub fn set_query_budget(&mut self, budget: Option<Duration>) -> Result<(), StoreError> {
        match budget {
            Some(budget) => {
                let deadline = Instant::now() + budget;
                self.conn
                    .progress_handler(STEPS_PER_CHECK, Some(move || Instant::now() >= deadline))?;
            }
            None => self.conn.progress_handler(0, None::<fn() -> bool>)?,
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A statement of many steps: counting ten million rows.
    const LONG: &str =
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 10000000)
                        SELECT count(*) FROM c";

    fn long_query(store: &Store) -> Result<i64, StoreError> {
        Ok(store.conn.query_row(LONG, [], |r| r.get(0))?)
    }

    #[test]
    fn regression_a_query_ran_past_any_time_budget() {
        let mut store = Store::open_in_memory().unwrap();
        store
            .set_query_budget(Some(Duration::from_millis(1)))
            .unwrap();
        assert!(matches!(long_query(&store), Err(StoreError::OverBudget)));
        // The budget counts from each call, and can be lifted.
        store
            .set_query_budget(Some(Duration::from_secs(600)))
            .unwrap();
        assert_eq!(
            store
                .conn
                .query_row("SELECT 1", [], |r| r.get::<_, i64>(0))
                .unwrap(),
            1
        );
        store.set_query_budget(None).unwrap();
        assert_eq!(long_query(&store).unwrap(), 10_000_000);
    }
}
