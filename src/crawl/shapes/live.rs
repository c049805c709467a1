//! The crawl's learned shapes while it runs: every site's [`ShapeTable`],
//! shared by the pages processed at once, and the exploration budget of
//! sites without patterns.
//!
//! In: the stored counts when the crawl starts, then each judged page.
//! Out: a snapshot of a site's table for a page to classify its links by
//! (an `Arc`, so a page never holds the lock), the counts to write to the
//! store, and whether a link of unknown shape may still be explored.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use url::Url;

use super::{shape_of, Judged, ShapeTable};
use crate::crawl::seen::fingerprint;
use crate::store::{NewUrl, ShapeCounts, ShapeUpdate};

/// Every site's table.
#[derive(Default)]
pub struct LiveShapes {
    tables: Mutex<HashMap<String, Arc<ShapeTable>>>,
}

impl LiveShapes {
    /// The tables of the stored counts: (site, counts) rows.
    pub fn from_rows(rows: Vec<(String, ShapeCounts)>) -> LiveShapes {
        let mut by_site: HashMap<String, Vec<ShapeCounts>> = HashMap::new();
        for (site, counts) in rows {
            by_site.entry(site).or_default().push(counts);
        }
        let tables = by_site
            .into_iter()
            .map(|(site, rows)| (site, Arc::new(ShapeTable::from_counts(&rows))))
            .collect();
        LiveShapes {
            tables: Mutex::new(tables),
        }
    }

    /// The site's table as it is now (empty for a site with nothing learned).
    pub fn table(&self, site: &str) -> Arc<ShapeTable> {
        self.tables
            .lock()
            .ok()
            .and_then(|t| t.get(site).cloned())
            .unwrap_or_default()
    }

    /// The evidence a page of `site` at `url` takes from its shape (see
    /// [`super::ShapeClass::hint`]).
    pub fn hint(&self, site: &str, url: &Url) -> Option<bool> {
        self.table(site).classify(url).hint()
    }

    /// Count a judged page of `site` at `url`; returns the update for the
    /// store (`None` when nothing was learned: the table is full).
    pub fn observe(&self, site: &str, url: &Url, judged: Judged) -> Option<ShapeUpdate> {
        let shape = shape_of(url);
        let mut tables = self.tables.lock().ok()?;
        let table = tables.entry(site.to_string()).or_default();
        let counts = Arc::make_mut(table).observe(&shape, judged);
        (!counts.is_empty()).then(|| ShapeUpdate {
            site: site.to_string(),
            counts,
        })
    }
}

/// The URLs a crawl asked the store to promote ([`WriteOp::Promote`]
/// (crate::store::WriteOp::Promote)), so each is asked once per kind: the
/// links of a site's navigation and rails come back on every page.
/// Bounded: forgotten wholesale past [`PROMOTED_AT_MOST`] (asking again is
/// only a wasted update).
#[derive(Default)]
pub struct Promoted {
    asked: Mutex<HashSet<(u128, &'static str)>>,
}

/// URLs [`Promoted`] remembers at most (≈ 40 bytes each).
pub const PROMOTED_AT_MOST: usize = 200_000;

impl Promoted {
    /// The URLs of `urls` not asked for before (as that kind).
    pub fn fresh(&self, urls: Vec<NewUrl>) -> Vec<NewUrl> {
        let Ok(mut asked) = self.asked.lock() else {
            return urls;
        };
        if asked.len() + urls.len() > PROMOTED_AT_MOST {
            asked.clear();
        }
        urls.into_iter()
            .filter(|u| asked.insert((fingerprint(&u.url), u.kind.as_str())))
            .collect()
    }
}

/// Links of unknown shape a site may still queue this run
/// (`[crawler] explore_per_site`).
pub struct ExploreBudget {
    per_site: u64,
    spent: Mutex<HashMap<String, u64>>,
}

impl ExploreBudget {
    pub fn new(per_site: u64) -> ExploreBudget {
        ExploreBudget {
            per_site,
            spent: Mutex::new(HashMap::new()),
        }
    }

    /// Take up to `n` links' worth of the site's budget; returns how many
    /// were granted.
    pub fn take(&self, site: &str, n: usize) -> usize {
        let Ok(mut spent) = self.spent.lock() else {
            return 0;
        };
        let used = spent.entry(site.to_string()).or_default();
        let room = self.per_site.saturating_sub(*used);
        let granted = room.min(n as u64);
        *used += granted;
        if granted < n as u64 && room > 0 {
            tracing::debug!(
                "{site}: exploration budget spent ({} links of unknown shape); such links are \
                 left for now",
                self.per_site
            );
        }
        usize::try_from(granted).unwrap_or(usize::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn observed_pages_change_later_snapshots_not_earlier_ones() {
        let live = LiveShapes::from_rows(vec![(
            "s".into(),
            ShapeCounts {
                shape: "/news/{slug}-{id}".into(),
                articles: 2,
                listings: 0,
                others: 0,
            },
        )]);
        let url = Url::parse("https://e.com/news/a-long-story-1234").unwrap();
        let before = live.table("s");
        assert_eq!(before.classify(&url), super::super::ShapeClass::Unknown);
        let update = live.observe("s", &url, Judged::Article).unwrap();
        assert_eq!(update.site, "s");
        assert_eq!(update.counts.len(), 2, "exact and general shape");
        assert_eq!(
            live.table("s").classify(&url),
            super::super::ShapeClass::Article
        );
        assert_eq!(before.classify(&url), super::super::ShapeClass::Unknown);
        assert!(live.table("other").is_empty());
        assert_eq!(live.hint("s", &url), Some(true));
        assert_eq!(live.hint("other", &url), None);
    }

    #[test]
    fn a_url_is_promoted_once_per_kind() {
        use crate::store::UrlKind;
        let url = |u: &str, kind| NewUrl {
            url: u.into(),
            site: "s".into(),
            kind,
            depth: 1,
            priority: 0,
        };
        let p = Promoted::default();
        let first = p.fresh(vec![url("a", UrlKind::Article), url("b", UrlKind::Index)]);
        assert_eq!(first.len(), 2);
        let again = p.fresh(vec![url("a", UrlKind::Article), url("a", UrlKind::Index)]);
        assert_eq!(again.len(), 1);
        assert_eq!(again[0].kind, UrlKind::Index);
    }

    #[test]
    fn the_exploration_budget_is_per_site_and_runs_out() {
        let b = ExploreBudget::new(5);
        assert_eq!(b.take("a", 3), 3);
        assert_eq!(b.take("a", 3), 2);
        assert_eq!(b.take("a", 1), 0);
        assert_eq!(b.take("b", 4), 4);
        assert_eq!(ExploreBudget::new(0).take("a", 1), 0);
    }
}
