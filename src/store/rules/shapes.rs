//! The order in which both stores add a batch's URL shape counts.
//!
//! In: a batch's [`ShapeUpdate`]s. Out: their counts summed per (site,
//! shape), in that order.

use std::collections::BTreeMap;

use crate::store::ShapeUpdate;

/// The counts of a batch's updates summed per (site, shape), in that
/// order: one statement per row, and both stores touch rows in one order.
pub(crate) fn summed(updates: &[ShapeUpdate]) -> BTreeMap<(&str, &str), (u64, u64, u64)> {
    let mut out: BTreeMap<(&str, &str), (u64, u64, u64)> = BTreeMap::new();
    for u in updates {
        for c in &u.counts {
            let e = out.entry((u.site.as_str(), c.shape.as_str())).or_default();
            e.0 += c.articles;
            e.1 += c.listings;
            e.2 += c.others;
        }
    }
    out
}
