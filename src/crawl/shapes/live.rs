//! The crawl's learned shapes while it runs: every site's [`ShapeTable`],
//! shared by the pages processed at once, the pages held back for want of
//! evidence, and the exploration budget of sites without patterns.
//!
//! In: the stored counts and the pages held back when the crawl starts,
//! then each judged page. Out: a snapshot of a site's table for a page to
//! classify its links by (an `Arc`, so a page never holds the lock), the
//! counts to write to the store, the pages to judge again now that their
//! shape is learned, and whether a link of unknown shape may still be
//! explored.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use url::Url;

use super::{shape_of, Judged, Shape, ShapeClass, ShapeTable};
use crate::crawl::seen::fingerprint;
use crate::store::{NewUrl, ShapeCounts, ShapeUpdate};

/// Pages held back per site at most (see [`LiveShapes::hold`]); past it,
/// new ones wait for a feed to list them.
pub const HELD_PER_SITE: usize = 10_000;

/// URLs of feed and sitemap entries [`LiveShapes`] remembers per run at
/// most (≈ 40 bytes each; forgotten wholesale past it).
pub const LISTED_AT_MOST: usize = 200_000;

/// Every site's table, and its pages held back.
#[derive(Default)]
pub struct LiveShapes {
    tables: Mutex<HashMap<String, Arc<ShapeTable>>>,
    held: Mutex<Held>,
}

/// Pages held back for want of evidence, and the evidence seen this run.
#[derive(Default)]
struct Held {
    /// Per site: pages judged not articles for a reason their shape or a
    /// listing may change (`judge::REVISABLE`), with their shape.
    pages: HashMap<String, Vec<(Shape, String)>>,
    /// Fingerprints of the URLs feeds and sitemaps listed this run.
    listed: HashSet<u128>,
}

/// What one judged page changed in its site's learning.
#[derive(Debug, Default)]
pub struct Revision {
    /// The counts for the store (`None`: nothing learned, the table is
    /// full).
    pub update: Option<ShapeUpdate>,
    /// Pages held back whose shape is an article shape now: to be judged
    /// again.
    pub rejudge: Vec<String>,
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
            held: Mutex::default(),
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

    /// Count a judged page of `site` at `url` (`judged`: what it is as
    /// shape evidence, `None` when its shape decided). When that makes a
    /// shape an article shape, the held pages of it are to be judged again.
    pub fn observe(&self, site: &str, url: &Url, judged: Option<Judged>) -> Revision {
        let mut out = Revision::default();
        let Some(judged) = judged else { return out };
        let Ok(mut tables) = self.tables.lock() else {
            return out;
        };
        let table = Arc::make_mut(tables.entry(site.to_string()).or_default());
        let observed = table.observe(&shape_of(url), judged);
        if !observed.counts.is_empty() {
            out.update = Some(ShapeUpdate {
                site: site.to_string(),
                counts: observed.counts,
                revised: observed.revised,
            });
        }
        if observed.article_learned {
            if let Ok(mut held) = self.held.lock() {
                let pages = held.pages.entry(site.to_string()).or_default();
                out.rejudge = take_learned(pages, table, &HashSet::new());
            }
        }
        out
    }

    /// Feed or sitemap entries of `site` seen: a page of them judged
    /// without that evidence is judged again. Returns the held pages they
    /// list, taken out; a page held later is judged again when it is
    /// ([`LiveShapes::hold`]). Call before their writes are sent.
    pub fn listed<'a>(&self, site: &str, urls: impl IntoIterator<Item = &'a str>) -> Vec<String> {
        let table = self.table(site);
        let Ok(mut held) = self.held.lock() else {
            return Vec::new();
        };
        let Held { pages, listed } = &mut *held;
        for url in urls {
            if listed.len() >= LISTED_AT_MOST {
                listed.clear();
            }
            listed.insert(fingerprint(url));
        }
        match pages.get_mut(site) {
            Some(pages) => take_learned(pages, &table, listed),
            None => Vec::new(),
        }
    }

    /// Pages of `site` judged not articles for a reason their shape or a
    /// listing may change, their judgement written (or sent to the
    /// writer): held back until that evidence comes. Returns those that
    /// have it already (listed this run, or of an article shape now), to
    /// judge again now. Holding a page only after its writes were sent
    /// keeps a `Rejudge` of it behind its own fetch record.
    pub fn hold(&self, site: &str, urls: impl IntoIterator<Item = String>) -> Vec<String> {
        let table = self.table(site);
        let Ok(mut held) = self.held.lock() else {
            return Vec::new();
        };
        let Held { pages, listed } = &mut *held;
        let pages = pages.entry(site.to_string()).or_default();
        for url in urls {
            if let Ok(parsed) = Url::parse(&url) {
                pages.push((shape_of(&parsed), url));
            }
        }
        take_learned(pages, &table, listed)
    }
}

/// The held pages listed this run or whose shape is an article shape now,
/// taken out of `held`; the rest kept (the oldest dropped past
/// [`HELD_PER_SITE`]).
fn take_learned(
    held: &mut Vec<(Shape, String)>,
    table: &ShapeTable,
    listed: &HashSet<u128>,
) -> Vec<String> {
    let mut now = Vec::new();
    held.retain(|(shape, url)| {
        let learned =
            table.class_of(shape) == ShapeClass::Article || listed.contains(&fingerprint(url));
        if learned {
            now.push(url.clone());
        }
        !learned
    });
    if held.len() > HELD_PER_SITE {
        let extra = held.len() - HELD_PER_SITE;
        held.drain(..extra);
    }
    now
}

/// The URLs a crawl asked the store to promote
/// ([`WriteOp::Promote`](crate::store::WriteOp::Promote)), so each is asked
/// once per kind: the links of a site's navigation and rails come back on
/// every page.
/// Bounded: forgotten wholesale past `PROMOTED_AT_MOST` (asking again is
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
                stories: 0,
            },
        )]);
        let url = Url::parse("https://e.com/news/a-long-story-1234").unwrap();
        let before = live.table("s");
        assert_eq!(before.classify(&url), super::super::ShapeClass::Unknown);
        let update = live
            .observe("s", &url, Some(Judged::Article))
            .update
            .unwrap();
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
    fn held_pages_are_judged_again_once_listed_or_their_shape_is_learned() {
        let live = LiveShapes::default();
        let story = |n: u32| format!("https://e.com/world/story-number-{n}-told/");
        // Held before anything vouches for them.
        assert!(live.hold("s", [story(1), story(2)]).is_empty());
        // A feed lists one held: it is judged again; and one held after
        // its listing, when it is held.
        assert_eq!(
            live.listed("s", [story(2).as_str(), story(3).as_str()]),
            [story(2)]
        );
        assert_eq!(live.hold("s", [story(3)]), [story(3)]);
        // Their shape becomes an article shape: the held ones go.
        let mut rejudged = Vec::new();
        for n in 4..7 {
            let r = live.observe("s", &Url::parse(&story(n)).unwrap(), Some(Judged::Article));
            assert!(r.update.is_some());
            rejudged.extend(r.rejudge);
        }
        assert_eq!(rejudged, [story(1)]);
        // Held later, of a learned shape: at once.
        assert_eq!(live.hold("s", [story(8)]), [story(8)]);
        // Another site's pages are its own.
        assert!(live.hold("t", [story(9)]).is_empty());
        // A verdict its shape decided counts nothing.
        let none = live.observe("s", &Url::parse(&story(10)).unwrap(), None);
        assert!(none.update.is_none() && none.rejudge.is_empty());
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
