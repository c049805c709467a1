//! What `copy` moves: every corpus table both stores have, in dependency
//! order (a row's references are copied before it), with the columns both
//! ends hold (read from their live schemas) and the type the destination
//! declares for each (the PostgreSQL client is strict: an `INTEGER` column
//! takes an `i32`, a `BIGINT` an `i64`).
//!
//! In: nothing (constants), both ends' columns, and a cell read from a
//! source. Out: [`TABLES`], the columns to copy ([`shared`]), and the cell
//! as the value its column's type takes ([`typed`]).
//!
//! Left out on purpose: `schema_migrations` (each database records its own
//! migrations), the SQLite FTS5 tables (rebuilt from `articles` at the
//! end), and what only PostgreSQL has: `hosts` (the politeness clock,
//! meaningless elsewhere), `urls.leased_by/lease_until` and
//! `fetches.fetched_by` (which process held or fetched a URL). A copy to
//! PostgreSQL leaves those NULL; a copy to SQLite drops them.

use super::super::rows::Cell;

/// A column's type in the destination (SQLite stores all of them as
/// integer, real, text or blob).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ColType {
    /// PostgreSQL's `INTEGER` (or `SMALLINT`).
    I4,
    /// PostgreSQL's `BIGINT` / `BIGSERIAL`, SQLite's `INTEGER`.
    I8,
    /// `DOUBLE PRECISION` (SQLite `REAL`).
    F8,
    Text,
    /// `BYTEA` (SQLite `BLOB`).
    Bytes,
    /// `BOOLEAN` (SQLite `INTEGER` 0/1).
    Bool,
}

impl ColType {
    /// The type a schema declares: PostgreSQL's `udt_name`, or SQLite's
    /// declared type.
    fn of(declared: &str) -> ColType {
        match declared.to_ascii_lowercase().as_str() {
            "int2" | "int4" => ColType::I4,
            "int8" | "integer" => ColType::I8,
            "float8" | "real" => ColType::F8,
            "bool" => ColType::Bool,
            "bytea" | "blob" => ColType::Bytes,
            _ => ColType::Text,
        }
    }
}

/// A table to copy.
#[derive(Debug)]
pub struct Table {
    pub name: &'static str,
    /// The key the rows are read in order of (and de-duplicated by on a
    /// second run).
    pub key: &'static [&'static str],
    /// Whether `id` is a PostgreSQL `BIGSERIAL` whose sequence must be set
    /// past the copied ids.
    pub serial_id: bool,
}

const fn table(name: &'static str, key: &'static [&'static str], serial_id: bool) -> Table {
    Table {
        name,
        key,
        serial_id,
    }
}

/// Every table, parents before children.
pub const TABLES: &[Table] = &[
    table("sites", &["id"], true),
    table("urls", &["id"], true),
    table("fetches", &["id"], true),
    table("articles", &["id"], true),
    table("article_urls", &["url"], false),
    table("line_hashes", &["site_id", "md5"], false),
    table("site_stats", &["site_id"], false),
    table("article_lines", &["site_id", "md5", "article_id"], false),
    table("article_versions", &["url"], false),
    table("article_html", &["article_id"], false),
    table("reextract_progress", &["selection"], false),
    table("site_rules", &["site_id"], false),
    table("url_shapes", &["site_id", "shape"], false),
    table("import_files", &["id"], true),
    table("line_changes", &["site_id", "md5"], false),
    table(
        "article_shared_lines",
        &["site_id", "md5", "article_id"],
        false,
    ),
];

/// A column both ends hold, with the destination's type for it.
pub(super) type Column = (String, ColType);

/// The columns of `dst` (name, declared type) that `src` holds too, in the
/// destination's order.
pub(super) fn shared(src: &[(String, String)], dst: Vec<(String, String)>) -> Vec<Column> {
    dst.into_iter()
        .filter(|(name, _)| src.iter().any(|(s, _)| s == name))
        .map(|(name, declared)| (name, ColType::of(&declared)))
        .collect()
}

/// `a, b, c`
pub(super) fn column_list(columns: &[Column]) -> String {
    let names: Vec<&str> = columns.iter().map(|(c, _)| c.as_str()).collect();
    names.join(", ")
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
        (ColType::I4 | ColType::I8, Cell::Bool(v)) => Cell::Int(v.into()),
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
