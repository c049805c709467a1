//! The order in which both stores add a batch's URL shape counts.
//!
//! In: a batch's [`ShapeUpdate`]s. Out: their counts summed per (site,
//! shape), in that order, as the stores keep counts (signed integers), and
//! whether the shape's listings and others are dropped first.

use std::collections::BTreeMap;

use crate::store::ShapeUpdate;

/// What a batch does to one shape: counts to add (articles, listings,
/// others, stories) and whether the stored listings and others are
/// dropped before (the shape was revised within the batch; what the batch
/// counted before that revision is dropped too).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct ShapeSum {
    pub(crate) add: [i64; 4],
    pub(crate) revised: bool,
}

/// The counts of a batch's updates summed per (site, shape), in that
/// order: one statement per row, and both stores touch rows in one order.
/// A sum past `i64::MAX` is kept as that.
pub(crate) fn summed(updates: &[ShapeUpdate]) -> BTreeMap<(&str, &str), ShapeSum> {
    let mut out: BTreeMap<(&str, &str), ([u64; 4], bool)> = BTreeMap::new();
    for u in updates {
        for shape in &u.revised {
            let e = out.entry((u.site.as_str(), shape.as_str())).or_default();
            e.0[1] = 0;
            e.0[2] = 0;
            e.1 = true;
        }
        for c in &u.counts {
            let e = out.entry((u.site.as_str(), c.shape.as_str())).or_default();
            for (sum, n) in
                e.0.iter_mut()
                    .zip([c.articles, c.listings, c.others, c.stories])
            {
                *sum = sum.saturating_add(n);
            }
        }
    }
    let int = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
    out.into_iter()
        .map(|(key, (add, revised))| {
            let add = add.map(int);
            (key, ShapeSum { add, revised })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::ShapeCounts;

    fn counts(shape: &str, a: u64, l: u64, o: u64, s: u64) -> ShapeCounts {
        ShapeCounts {
            shape: shape.into(),
            articles: a,
            listings: l,
            others: o,
            stories: s,
        }
    }

    #[test]
    fn a_revision_drops_the_listings_and_others_counted_before_it_in_the_batch() {
        let updates = [
            ShapeUpdate {
                site: "s".into(),
                counts: vec![counts("/a", 0, 2, 1, 1), counts("/b", 1, 0, 0, 0)],
                revised: Vec::new(),
            },
            ShapeUpdate {
                site: "s".into(),
                counts: vec![counts("/a", 1, 0, 0, 0)],
                revised: vec!["/a".into()],
            },
            ShapeUpdate {
                site: "s".into(),
                counts: vec![counts("/a", 0, 1, 0, 0)],
                revised: Vec::new(),
            },
        ];
        let sums = summed(&updates);
        assert_eq!(
            sums[&("s", "/a")],
            ShapeSum {
                add: [1, 1, 0, 1],
                revised: true
            }
        );
        assert_eq!(
            sums[&("s", "/b")],
            ShapeSum {
                add: [1, 0, 0, 0],
                revised: false
            }
        );
    }
}
