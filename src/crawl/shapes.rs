//! URL shapes: what a site's article and index URLs look like, learned from
//! the pages judged so far (pure).
//!
//! In: URLs, and judged pages (a URL with what its page turned out to be:
//! an article, a listing of links such as a section front, or another page
//! such as about, privacy or sign-in). Out: each URL's [`Shape`] (its path
//! split into segments, each classed: `/{yyyy}/{mm}/{dd}/{slug}.html`,
//! `/news/{slug}-{id}`), a per-site [`ShapeTable`] of counts per shape, and
//! the [`ShapeClass`] of a URL once enough judged pages of its shape agree.
//!
//! A shape is kept at two levels: `exact` keeps fixed words (`/world/{slug}`,
//! `/tag/{word}` stays `/tag/economy`), `general` turns every fixed word into
//! `{word}` (`/{word}/{slug}`), so a site whose articles spread over twenty
//! sections learns one article shape instead of twenty that each need their
//! own evidence. The exact shape decides when it has evidence of its own;
//! the general one otherwise.
//!
//! The counts are the site's learning, as its boilerplate lines are: kept in
//! the store (`url_shapes`, both stores), loaded when a crawl starts,
//! updated from each judged page, shown by `stats` and used by `sites check`.
//!
//! A shape is trusted only while its pages agree with it. Pages that look
//! like stories but could not be stored (no date, not listed: see
//! `judge`) are counted apart, as stories: with at least one stored
//! article of the shape they make it an article shape, without one they
//! never do, and they keep it from being an index or other shape.
//! When an index or other shape stops being trusted because its pages
//! look like stories or were judged articles, its listings and others are
//! dropped ([`Observed::revised`]): what it learned came from pages it no
//! longer describes, and the stories of the shape then make it an article
//! shape as soon as enough of them are stored.

use std::collections::HashMap;

use url::Url;

use crate::config::SiteSettings;
use crate::store::{ShapeCounts, UrlKind};

mod key;
mod live;
pub use key::shape_of;
pub use live::{ExploreBudget, LiveShapes, Promoted, Revision, HELD_PER_SITE};

/// Judged pages of one shape needed before it is trusted.
pub const MIN_JUDGED: u64 = 3;
/// Share (per cent) of a shape's judged pages that must agree for it to be
/// trusted (one redirect or one odd page among ten does not undo a shape).
pub const AGREE_PERCENT: u64 = 90;
/// Shapes a site keeps in memory at most: shapes generalise, so a site has
/// a few dozen; more means generated paths, and new ones are not learned.
pub const MAX_SHAPES_PER_SITE: usize = 2000;

/// A URL's shape at both levels (see the module doc).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Shape {
    /// Fixed words kept: `/world/{yyyy}/{mm}/{dd}/{slug}.html`.
    pub exact: String,
    /// Fixed words as `{word}`; `None` when the path has no fixed word
    /// (then it is the exact shape).
    pub general: Option<String>,
}

impl Shape {
    /// The keys counted for this shape: the exact one, then the general one.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.exact.as_str()).chain(self.general.as_deref())
    }
}

/// What a judged page turned out to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Judged {
    Article,
    /// Not an article, and a page of links to articles: a section front, a
    /// later page of one, a tag or author page, a start page.
    Listing,
    /// Not an article and not a listing: about, privacy, contact, sign-in,
    /// search.
    Other,
    /// Not an article for want of evidence, but it looks like one: a long
    /// body under a headline, with no date and not listed.
    Story,
}

/// What the judged pages of a URL's shape say about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ShapeClass {
    /// An article shape: links of it are fetched first, as articles.
    Article,
    /// An index shape: links of it are followed and revisited.
    Index,
    /// Neither: judged pages of it were not articles nor listings (about,
    /// sign-in); links of it are not followed.
    Other,
    /// Too few judged pages, or they disagree.
    Unknown,
}

impl ShapeClass {
    /// The name `stats` and `sites check` print.
    pub fn as_str(self) -> &'static str {
        match self {
            ShapeClass::Article => "article",
            ShapeClass::Index => "index",
            ShapeClass::Other => "other",
            ShapeClass::Unknown => "unknown",
        }
    }

    /// The evidence a page judgement takes from the shape of its URL:
    /// `Some(true)` an article shape, `Some(false)` a trusted shape of
    /// pages that are not articles, `None` nothing known.
    pub fn hint(self) -> Option<bool> {
        match self {
            ShapeClass::Article => Some(true),
            ShapeClass::Index | ShapeClass::Other => Some(false),
            ShapeClass::Unknown => None,
        }
    }
}

/// Whether a site's links are queued by their learned shapes: it has no
/// patterns (given patterns are the user's word and decide instead).
pub fn by_shapes(site: &SiteSettings) -> bool {
    site.article_patterns.is_empty() && site.index_patterns.is_empty()
}

/// What a fetched HTML page counts as for its shape when no page
/// judgement says (the crawl's evidence so far). A site with patterns:
/// what they decided (an article page that gave an article, a start or
/// index page a listing, any other page other). A site without patterns:
/// a page fetched as an article (a feed or sitemap entry, an
/// article-shaped link) that gave an article, and a start page (a
/// listing); nothing decided its other pages. Feeds and sitemaps are not
/// pages. Once pages are judged,
/// [`Judgement::shape_evidence`](crate::crawl::judge::Judgement::shape_evidence)
/// says instead for a site without patterns.
pub fn judged_by_kind(site: &SiteSettings, kind: UrlKind, article: bool) -> Option<Judged> {
    match kind {
        UrlKind::Feed | UrlKind::Sitemap => None,
        UrlKind::Article if article => Some(Judged::Article),
        UrlKind::Seed => Some(Judged::Listing),
        _ if by_shapes(site) => None,
        UrlKind::Index => Some(Judged::Listing),
        UrlKind::Article | UrlKind::Page => Some(Judged::Other),
    }
}

/// The learned shapes of one site: counts of judged pages per shape key.
#[derive(Debug, Clone, Default)]
pub struct ShapeTable {
    by_key: HashMap<String, Counts>,
    /// Keys whose class is [`ShapeClass::Article`] now.
    article_keys: usize,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Counts {
    articles: u64,
    listings: u64,
    others: u64,
    stories: u64,
}

impl Counts {
    /// Pages judged articles, listings or others: the evidence that may
    /// make a shape an article shape.
    fn decided(self) -> u64 {
        self.articles + self.listings + self.others
    }

    fn judged(self) -> u64 {
        self.decided() + self.stories
    }

    /// The trust rule: enough judged pages, and enough of them agreeing.
    /// An article shape needs at least one stored article, and its decided
    /// pages to agree: its stories count towards the pages it needs, not
    /// for or against it. An index or other shape needs all its judged
    /// pages to agree, stories included.
    fn class(self) -> ShapeClass {
        let agree = |k: u64, n: u64| k * 100 >= AGREE_PERCENT * n;
        let enough = self.judged() >= MIN_JUDGED;
        let not_articles = self.listings + self.others;
        if enough && self.articles > 0 && agree(self.articles, self.decided()) {
            ShapeClass::Article
        } else if enough && agree(not_articles, self.judged()) && self.listings >= self.others {
            ShapeClass::Index
        } else if enough && agree(not_articles, self.judged()) {
            ShapeClass::Other
        } else {
            ShapeClass::Unknown
        }
    }

    /// Whether this key's class stands for its shape: it is trusted, or
    /// enough decided pages disagree. A key of too few pages, or of
    /// stories only, leaves the decision to the general key.
    fn decides(self) -> bool {
        self.class() != ShapeClass::Unknown || self.decided() >= MIN_JUDGED
    }

    fn add(&mut self, judged: Judged, n: u64) {
        match judged {
            Judged::Article => self.articles += n,
            Judged::Listing => self.listings += n,
            Judged::Other => self.others += n,
            Judged::Story => self.stories += n,
        }
    }
}

/// What counting one judged page did ([`ShapeTable::observe`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Observed {
    /// The counts to add to the store: one per key learned; none when the
    /// table is full and the shape new.
    pub counts: Vec<ShapeCounts>,
    /// Keys that stopped being trusted index or other shapes because the
    /// page looked like a story or was an article: their listings and
    /// others are dropped, in the table and in the store.
    pub revised: Vec<String>,
    /// A key became an article shape: pages held back for want of
    /// evidence may now have it.
    pub article_learned: bool,
}

/// One shape of a site as `stats` and `sites check` show it.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct LearnedShape {
    pub shape: String,
    pub class: ShapeClass,
    pub articles: u64,
    pub listings: u64,
    pub others: u64,
    pub stories: u64,
}

impl LearnedShape {
    fn of(key: &str, c: Counts) -> LearnedShape {
        LearnedShape {
            shape: key.to_string(),
            class: c.class(),
            articles: c.articles,
            listings: c.listings,
            others: c.others,
            stories: c.stories,
        }
    }

    /// Its judged pages in words: `3 articles, 1 listings, 0 other pages,
    /// 2 stories judged`.
    pub fn judged_text(&self) -> String {
        format!(
            "{} articles, {} listings, {} other pages, {} undated stories judged",
            self.articles, self.listings, self.others, self.stories
        )
    }
}

impl ShapeTable {
    /// A table from the stored counts of one site.
    pub fn from_counts<'a>(rows: impl IntoIterator<Item = &'a ShapeCounts>) -> ShapeTable {
        let mut t = ShapeTable::default();
        for r in rows {
            if t.by_key.len() >= MAX_SHAPES_PER_SITE {
                break;
            }
            let c = t.by_key.entry(r.shape.clone()).or_default();
            c.articles += r.articles;
            c.listings += r.listings;
            c.others += r.others;
            c.stories += r.stories;
        }
        t.article_keys = t
            .by_key
            .values()
            .filter(|c| c.class() == ShapeClass::Article)
            .count();
        t
    }

    /// Count one judged page of `shape` (see [`Observed`]).
    pub fn observe(&mut self, shape: &Shape, judged: Judged) -> Observed {
        let mut out = Observed::default();
        let not_article = |c: ShapeClass| matches!(c, ShapeClass::Index | ShapeClass::Other);
        for key in shape.keys() {
            if !self.by_key.contains_key(key) && self.by_key.len() >= MAX_SHAPES_PER_SITE {
                continue;
            }
            let c = self.by_key.entry(key.to_string()).or_default();
            let before = c.class();
            c.add(judged, 1);
            if not_article(before)
                && !not_article(c.class())
                && matches!(judged, Judged::Article | Judged::Story)
            {
                c.listings = 0;
                c.others = 0;
                out.revised.push(key.to_string());
            }
            let after = c.class();
            if before != after {
                if before == ShapeClass::Article {
                    self.article_keys -= 1;
                }
                if after == ShapeClass::Article {
                    self.article_keys += 1;
                    out.article_learned = true;
                }
            }
            let mut one = Counts::default();
            one.add(judged, 1);
            out.counts.push(ShapeCounts {
                shape: key.to_string(),
                articles: one.articles,
                listings: one.listings,
                others: one.others,
                stories: one.stories,
            });
        }
        out
    }

    /// The class of a shape: the exact key's when it decides (trusted, or
    /// [`MIN_JUDGED`] decided pages), else the general key's.
    pub fn class_of(&self, shape: &Shape) -> ShapeClass {
        self.class_with_key(shape).0
    }

    /// [`ShapeTable::class_of`] and the key that decided it (`None`: no key
    /// decides).
    pub fn class_with_key<'a>(&self, shape: &'a Shape) -> (ShapeClass, Option<&'a str>) {
        for key in shape.keys() {
            if let Some(c) = self.by_key.get(key).filter(|c| c.decides()) {
                return (c.class(), Some(key));
            }
        }
        (ShapeClass::Unknown, None)
    }

    /// The class by which a link of this shape is queued: as
    /// [`ShapeTable::class_of`], except that a link is left out (an other
    /// shape) only on the evidence of its exact shape. `/about`,
    /// `/privacy` and `/login` judged other pages must not make `/world`
    /// one through their general shape `/{word}`: not fetching is the one
    /// decision a wrong guess cannot undo.
    pub fn link_class(&self, shape: &Shape) -> ShapeClass {
        match self.class_with_key(shape) {
            (ShapeClass::Other, Some(key)) if key != shape.exact => ShapeClass::Unknown,
            (class, _) => class,
        }
    }

    /// The class of a URL's shape.
    pub fn classify(&self, url: &Url) -> ShapeClass {
        self.class_of(&shape_of(url))
    }

    /// Whether the site has a trusted article shape: then links of unknown
    /// shape inside its articles have earned nothing.
    pub fn knows_articles(&self) -> bool {
        self.article_keys > 0
    }

    /// The counts of one key as `stats` shows them.
    pub fn counts(&self, key: &str) -> Option<LearnedShape> {
        self.by_key.get(key).map(|c| LearnedShape::of(key, *c))
    }

    /// Every shape with its class, trusted ones first, then by judged pages.
    pub fn learned(&self) -> Vec<LearnedShape> {
        let mut out: Vec<LearnedShape> = (self.by_key.iter())
            .map(|(k, c)| LearnedShape::of(k, *c))
            .collect();
        out.sort_by(|a, b| {
            let unknown = |s: &LearnedShape| s.class == ShapeClass::Unknown;
            let n = |s: &LearnedShape| s.articles + s.listings + s.others + s.stories;
            unknown(a)
                .cmp(&unknown(b))
                .then(n(b).cmp(&n(a)))
                .then(a.shape.cmp(&b.shape))
        });
        out
    }

    pub fn is_empty(&self) -> bool {
        self.by_key.is_empty()
    }
}

#[cfg(test)]
mod tests;
