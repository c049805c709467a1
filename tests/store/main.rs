//! The store below the crawler: kill -9 safety of batched writes (the test
//! binary re-runs itself as the writer child).

mod kill;
