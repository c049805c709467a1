//! The order in which both stores add a batch's URL shape counts.
//!
//! In: a batch's [`ShapeUpdate`]s. Out: their counts summed per (site,
//! shape), in that order, as the stores keep counts (signed integers).

use std::collections::BTreeMap;

use crate::store::ShapeUpdate;

/// The counts of a batch's updates summed per (site, shape), in that
/// order: one statement per row, and both stores touch rows in one order.
/// A sum past `i64::MAX` is kept as that.
pub(crate) fn summed(updates: &[ShapeUpdate]) -> BTreeMap<(&str, &str), [i64; 3]> {
    let mut out: BTreeMap<(&str, &str), (u64, u64, u64)> = BTreeMap::new();
    for u in updates {
        for c in &u.counts {
            let e = out.entry((u.site.as_str(), c.shape.as_str())).or_default();
            e.0 += c.articles;
            e.1 += c.listings;
            e.2 += c.others;
        }
    }
    let int = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
    out.into_iter()
        .map(|(key, (a, l, o))| (key, [int(a), int(l), int(o)]))
        .collect()
}
