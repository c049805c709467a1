//! What `copy` moves: every corpus table both stores have, in dependency
//! order (a row's references are copied before it), with the columns both
//! hold and the type each has on PostgreSQL (the client there is strict:
//! an `INTEGER` column takes an `i32`, a `BIGINT` an `i64`).
//!
//! In: nothing (constants), and a cell read from a source. Out: [`TABLES`],
//! and the cell as the value its column's type takes ([`typed`]).
//!
//! Left out on purpose: `schema_migrations` (each database records its own
//! migrations), the SQLite FTS5 tables (rebuilt from `articles` at the
//! end), and what only PostgreSQL has: `hosts` (the politeness clock,
//! meaningless elsewhere), `urls.leased_by/lease_until` and
//! `fetches.fetched_by` (which process held or fetched a URL). A copy to
//! PostgreSQL leaves those NULL; a copy to SQLite drops them.

use super::super::rows::Cell;

/// A column's type on PostgreSQL (SQLite stores all of them as integer,
/// real, text or blob).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColType {
    /// `INTEGER`.
    I4,
    /// `BIGINT` / `BIGSERIAL`.
    I8,
    /// `DOUBLE PRECISION` (SQLite `REAL`).
    F8,
    Text,
    /// `BYTEA` (SQLite `BLOB`).
    Bytes,
    /// `BOOLEAN` (SQLite `INTEGER` 0/1).
    Bool,
}

/// A table to copy.
#[derive(Debug)]
pub struct Table {
    pub name: &'static str,
    /// The columns both stores have, the key first.
    pub columns: &'static [(&'static str, ColType)],
    /// The key the rows are read in order of (and de-duplicated by on a
    /// second run).
    pub key: &'static [&'static str],
    /// Whether `id` is a PostgreSQL `BIGSERIAL` whose sequence must be set
    /// past the copied ids.
    pub serial_id: bool,
}

use ColType::{Bool, Bytes, Text, F8, I4, I8};

/// Every table, parents before children.
pub const TABLES: &[Table] = &[
    Table {
        name: "sites",
        columns: &[("id", I8), ("name", Text)],
        key: &["id"],
        serial_id: true,
    },
    Table {
        name: "urls",
        columns: &[
            ("id", I8),
            ("url", Text),
            ("site_id", I8),
            ("host", Text),
            ("kind", Text),
            ("state", Text),
            ("priority", I4),
            ("depth", I4),
            ("next_fetch_at", I8),
            ("etag", Text),
            ("last_modified", Text),
            ("attempts", I4),
            ("last_status", I4),
            ("last_error", Text),
            ("discovered_at", I8),
            ("fetched_at", I8),
        ],
        key: &["id"],
        serial_id: true,
    },
    Table {
        name: "fetches",
        columns: &[
            ("id", I8),
            ("url_id", I8),
            ("started_at", I8),
            ("status", I4),
            ("error_kind", Text),
            ("bytes", I8),
            ("elapsed_ms", I8),
            ("final_url", Text),
            ("content_type", Text),
            ("skipped", Bool),
            ("judged", Text),
            ("judge_reason", Text),
        ],
        key: &["id"],
        serial_id: true,
    },
    Table {
        name: "articles",
        columns: &[
            ("id", I8),
            ("url_id", I8),
            ("url", Text),
            ("canonical_url", Text),
            ("site_id", I8),
            ("title", Text),
            ("author", Text),
            ("published_at", Text),
            ("modified_at", Text),
            ("language", Text),
            ("site_name", Text),
            ("text", Text),
            ("raw_text", Text),
            ("content_hash", Text),
            ("word_count", I8),
            ("fetched_at", I8),
            ("method", Text),
        ],
        key: &["id"],
        serial_id: true,
    },
    Table {
        name: "article_urls",
        columns: &[("url", Text), ("article_id", I8)],
        key: &["url"],
        serial_id: false,
    },
    Table {
        name: "line_hashes",
        columns: &[
            ("site_id", I8),
            ("md5", Bytes),
            ("count", I8),
            ("first_seen", I8),
            ("last_seen", I8),
            ("sample", Text),
        ],
        key: &["site_id", "md5"],
        serial_id: false,
    },
    Table {
        name: "site_stats",
        columns: &[
            ("site_id", I8),
            ("articles_processed", I8),
            ("last_prune_rc", I8),
            ("cleaned_with", Text),
        ],
        key: &["site_id"],
        serial_id: false,
    },
    Table {
        name: "article_lines",
        columns: &[
            ("site_id", I8),
            ("md5", Bytes),
            ("article_id", I8),
            ("chars", I4),
        ],
        key: &["site_id", "md5", "article_id"],
        serial_id: false,
    },
    Table {
        name: "article_versions",
        columns: &[
            ("url", Text),
            ("article_id", I8),
            ("raw_text", Text),
            ("content_hash", Text),
            ("shared", F8),
            ("fetched_at", I8),
        ],
        key: &["url"],
        serial_id: false,
    },
    Table {
        name: "article_html",
        columns: &[
            ("article_id", I8),
            ("url", Text),
            ("status", I4),
            ("content_type", Text),
            ("last_modified", Text),
            ("etag", Text),
            ("date", Text),
            ("fetched_at", I8),
            ("body_bytes", I8),
            ("body_zstd", Bytes),
        ],
        key: &["article_id"],
        serial_id: false,
    },
    Table {
        name: "reextract_progress",
        columns: &[
            ("selection", Text),
            ("last_id", I8),
            ("changed", I8),
            ("seen", I8),
        ],
        key: &["selection"],
        serial_id: false,
    },
    Table {
        name: "site_rules",
        columns: &[
            ("site_id", I8),
            ("rule", Text),
            ("display", Text),
            ("pages_by_rule", I8),
            ("pages_by_tree", I8),
            ("dropped", I8),
        ],
        key: &["site_id"],
        serial_id: false,
    },
    Table {
        name: "url_shapes",
        columns: &[
            ("site_id", I8),
            ("shape", Text),
            ("articles", I8),
            ("listings", I8),
            ("others", I8),
        ],
        key: &["site_id", "shape"],
        serial_id: false,
    },
    Table {
        name: "line_changes",
        columns: &[("site_id", I8), ("md5", Bytes), ("before_id", I8)],
        key: &["site_id", "md5"],
        serial_id: false,
    },
    Table {
        name: "article_shared_lines",
        columns: &[("site_id", I8), ("md5", Bytes), ("article_id", I8)],
        key: &["site_id", "md5", "article_id"],
        serial_id: false,
    },
];

impl Table {
    /// `a, b, c`
    pub fn column_list(&self) -> String {
        self.columns
            .iter()
            .map(|(c, _)| *c)
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// `SELECT cols FROM t ORDER BY key` (the order both stores agree on
    /// within themselves, which is all a read needs).
    pub fn select(&self) -> String {
        format!(
            "SELECT {} FROM {} ORDER BY {}",
            self.column_list(),
            self.name,
            self.key.join(", ")
        )
    }
}

/// `cell` as a value of column type `ty`, which both stores take (SQLite
/// keeps a boolean, and a real without a fraction, as an integer); or why
/// it cannot travel.
pub(super) fn typed(cell: Cell, ty: ColType) -> Result<Cell, String> {
    Ok(match (ty, cell) {
        (_, Cell::Null) => Cell::Null,
        (ColType::I4, Cell::Int(v)) if i32::try_from(v).is_err() => {
            return Err(format!("{v} is out of INTEGER range"))
        }
        (ColType::I4 | ColType::I8, cell @ Cell::Int(_)) => cell,
        (ColType::Bool, Cell::Int(v)) => Cell::Bool(v != 0),
        (ColType::F8, Cell::Int(v)) => Cell::Float(v as f64),
        (ColType::Bool, cell @ Cell::Bool(_))
        | (ColType::F8, cell @ Cell::Float(_))
        | (ColType::Text, cell @ Cell::Text(_))
        | (ColType::Bytes, cell @ Cell::Bytes(_)) => cell,
        (ColType::Text, _) => return Err("not text".to_string()),
        (ColType::Bytes, _) => return Err("not bytes".to_string()),
        (ColType::F8, _) => return Err("not a number".to_string()),
        (ColType::I4 | ColType::I8 | ColType::Bool, _) => return Err("not an integer".to_string()),
    })
}
