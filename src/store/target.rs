//! Which store a command works on: [`StoreTarget`], defined beside the
//! configuration that names it (`config::target`, a layer below the
//! store, so that `Config::store_target` imports nothing from above),
//! re-exported here where the stores and their callers use it.
//!
//! In: nothing of its own. Out: the re-exported names.

pub use crate::config::target::{is_postgres_url, redacted, StoreTarget};
