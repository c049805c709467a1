//! A [`Selection`] as SQL conditions on `a` (articles), written once for
//! both stores, and the numbered parameters a statement built piece by
//! piece collects on the way.
//!
//! In: a connection (to find the site's id) and a selection. Out: ` AND …`
//! conditions whose placeholders are numbered in [`Args`]. An author,
//! section or tag is looked up in the folded keys of
//! [`crate::store::rules::details`]. Dates compare
//! as instants: SQLite's `julianday` reads any RFC 3339 offset; PostgreSQL
//! reads [`PUBLISHED`] in a session set to UTC (so a date written without
//! an offset is UTC there too). Text that is not a date drops out of a
//! date bound on both rather than failing the query.

use super::site_id;
use crate::store::rules::details::{facet_pattern, Facet};
use crate::store::sql::{Dialect, Sql, Value};
use crate::store::{Selection, StoreError};

/// `a.published_at` (RFC 3339 text) as a PostgreSQL time; NULL for text
/// that is not a date (as SQLite's `julianday` gives it NULL).
const PUBLISHED: &str = "(CASE WHEN a.published_at ~ '^\\d{4}-\\d{2}-\\d{2}' \
    THEN a.published_at::timestamptz END)";

/// `a.published_at` as an instant, to compare and order by (call [`utc`]
/// first on PostgreSQL).
pub(crate) fn published(d: Dialect) -> &'static str {
    match d {
        Dialect::Sqlite => "julianday(a.published_at)",
        Dialect::Postgres => PUBLISHED,
    }
}

/// `a.published_at`'s UTC day as `YYYY-MM-DD` (NULL: not a date).
pub(crate) fn published_day(d: Dialect) -> String {
    match d {
        Dialect::Sqlite => "date(a.published_at)".to_string(),
        Dialect::Postgres => format!("to_char({PUBLISHED}, 'YYYY-MM-DD')"),
    }
}

/// Read dates without an offset as UTC, as SQLite's date functions do
/// (PostgreSQL otherwise reads them in the server's zone).
pub(crate) fn utc(sql: &mut dyn Sql) -> Result<(), StoreError> {
    if sql.dialect() == Dialect::Postgres {
        sql.execute("SET TIME ZONE 'UTC'", &[])?;
    }
    Ok(())
}

/// A parameter's value, owned while the statement is built.
#[derive(Debug, Clone)]
enum Arg {
    Int(i64),
    Text(String),
}

/// The parameters of a statement, numbered `?1`, `?2`, … as they are added.
#[derive(Debug, Clone, Default)]
pub(crate) struct Args(Vec<Arg>);

impl Args {
    /// The placeholder of a new integer (the largest if it does not fit).
    pub(crate) fn int(&mut self, n: impl TryInto<i64>) -> String {
        self.add(Arg::Int(n.try_into().unwrap_or(i64::MAX)))
    }

    /// The placeholder of a new text.
    pub(crate) fn text(&mut self, s: impl Into<String>) -> String {
        self.add(Arg::Text(s.into()))
    }

    fn add(&mut self, a: Arg) -> String {
        self.0.push(a);
        format!("?{}", self.0.len())
    }

    /// The values, in placeholder order.
    pub(crate) fn values(&self) -> Vec<Value<'_>> {
        self.0
            .iter()
            .map(|a| match a {
                Arg::Int(n) => Value::Int(*n),
                Arg::Text(s) => Value::Text(s),
            })
            .collect()
    }
}

/// The ` AND …` conditions of `sel` on `a`, their values added to `args`.
/// An unknown site is [`StoreError::UnknownSite`].
pub(crate) fn conditions(
    sql: &mut dyn Sql,
    sel: &Selection,
    args: &mut Args,
) -> Result<String, StoreError> {
    let d = sql.dialect();
    let mut out = String::new();
    if let Some(site) = &sel.site {
        let id = site_id(sql, site)?.ok_or_else(|| StoreError::UnknownSite(site.clone()))?;
        out.push_str(&format!(" AND a.site_id = {}", args.int(id)));
    }
    let bounds = [(sel.published_since, ">="), (sel.published_until, "<=")];
    if bounds.iter().any(|(b, _)| b.is_some()) {
        utc(sql)?;
    }
    for (bound, op) in bounds {
        let Some(bound) = bound else { continue };
        let instant = match d {
            Dialect::Sqlite => format!(
                "julianday({})",
                args.text(
                    bound
                        .with_timezone(&chrono::Utc)
                        .to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
                )
            ),
            Dialect::Postgres => format!("({}::text)::timestamptz", args.text(bound.to_rfc3339())),
        };
        out.push_str(&format!(" AND {} {op} {instant}", published(d)));
    }
    if let Some(lang) = &sel.language {
        out.push_str(&format!(" AND a.language = {}", args.text(lang)));
    }
    let facets = [
        (Facet::Author, &sel.author),
        (Facet::Section, &sel.section),
        (Facet::Tag, &sel.tag),
    ];
    for (kind, value) in facets {
        if let Some(v) = value {
            let p = args.text(facet_pattern(kind, v));
            out.push_str(&format!(" AND a.facets LIKE {p} ESCAPE '\\'"));
        }
    }
    Ok(out)
}
