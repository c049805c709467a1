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

use std::collections::HashMap;

use url::Url;

use crate::config::SiteSettings;
use crate::store::{ShapeCounts, UrlKind};

mod live;
pub use live::{ExploreBudget, LiveShapes, Promoted};

/// Judged pages of one shape needed before it is trusted.
pub const MIN_JUDGED: u64 = 3;
/// Share (per cent) of a shape's judged pages that must agree for it to be
/// trusted (one redirect or one odd page among ten does not undo a shape).
pub const AGREE_PERCENT: u64 = 90;
/// Shapes a site keeps in memory at most: shapes generalise, so a site has
/// a few dozen; more means generated paths, and new ones are not learned.
pub const MAX_SHAPES_PER_SITE: usize = 2000;
/// Fixed words longer than this are not words an editor chose for a
/// section: they read as a slug.
const MAX_WORD_LEN: usize = 30;

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
}

impl Judged {
    /// A page judgement as shape evidence: an article; else a listing when
    /// the judgement found the page to be mostly links to other pages (a
    /// teaser list), else another page.
    pub fn of_judgement(article: bool, listing: bool) -> Judged {
        match (article, listing) {
            (true, _) => Judged::Article,
            (false, true) => Judged::Listing,
            (false, false) => Judged::Other,
        }
    }
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
/// pages. Once pages are judged, [`Judged::of_judgement`] says instead for
/// a site without patterns.
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

/// The shape of a URL; the host is not part of it (tables are per site).
pub fn shape_of(url: &Url) -> Shape {
    let path = url.path();
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let mut exact = String::with_capacity(path.len());
    let mut general = String::with_capacity(path.len());
    let mut has_word = false;
    let mut prev = Class::Start;
    for (i, seg) in segments.iter().enumerate() {
        let last = i + 1 == segments.len();
        let (stem, ext) = if last { split_ext(seg) } else { (*seg, "") };
        let class = class_of(stem, prev);
        exact.push('/');
        general.push('/');
        match class {
            Class::Word => {
                has_word = true;
                exact.push_str(&word_shape(stem));
                general.push_str("{word}");
            }
            other => {
                exact.push_str(other.placeholder());
                general.push_str(other.placeholder());
            }
        }
        if !ext.is_empty() {
            let ext = ext.to_ascii_lowercase();
            exact.push('.');
            exact.push_str(&ext);
            general.push('.');
            general.push_str(&ext);
        }
        prev = class;
    }
    if segments.is_empty() || path.ends_with('/') {
        exact.push('/');
        general.push('/');
    }
    if let Some(q) = url.query().filter(|q| !q.is_empty()) {
        let query = query_shape(q);
        exact.push_str(&query);
        general.push_str(&query);
    }
    Shape {
        exact,
        general: has_word.then_some(general),
    }
}

/// How one path segment is classed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    Start,
    Year,
    Month,
    Day,
    /// `2026-11-26`, `20261126`.
    Date,
    /// Digits, or a long mix of digits and letters (a hash).
    Id,
    /// Three or more words joined by `-` or `_`: a headline.
    Slug,
    /// A headline ending in a number: `budget-vote-delayed-12345`.
    SlugId,
    /// A number then a headline: `12345-budget-vote-delayed`.
    IdSlug,
    /// A fixed word: `news`, `world`, `about-us`, `page`.
    Word,
}

impl Class {
    fn placeholder(self) -> &'static str {
        match self {
            Class::Year => "{yyyy}",
            Class::Month => "{mm}",
            Class::Day => "{dd}",
            Class::Date => "{date}",
            Class::Id => "{id}",
            Class::Slug => "{slug}",
            Class::SlugId => "{slug}-{id}",
            Class::IdSlug => "{id}-{slug}",
            Class::Start | Class::Word => "",
        }
    }
}

/// `story.html` → (`story`, `html`); an extension is 1–5 letters or digits
/// after the last dot, not the whole segment.
fn split_ext(seg: &str) -> (&str, &str) {
    match seg.rsplit_once('.') {
        Some((stem, ext))
            if !stem.is_empty()
                && (1..=5).contains(&ext.len())
                && ext.bytes().all(|b| b.is_ascii_alphanumeric())
                && ext.bytes().any(|b| b.is_ascii_alphabetic()) =>
        {
            (stem, ext)
        }
        _ => (seg, ""),
    }
}

const MONTHS: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];

fn class_of(seg: &str, prev: Class) -> Class {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let number = |s: &str| s.parse::<u32>().ok();
    if digits(seg) {
        let n = number(seg);
        return match (seg.len(), prev, n) {
            (4, _, Some(1900..=2099)) => Class::Year,
            (1 | 2, Class::Year, Some(1..=12)) => Class::Month,
            (1 | 2, Class::Month, Some(1..=31)) => Class::Day,
            (8, _, _) if is_compact_date(seg) => Class::Date,
            _ => Class::Id,
        };
    }
    let lower = seg.to_ascii_lowercase();
    if prev == Class::Year
        && MONTHS
            .iter()
            .any(|m| lower == *m || (lower.len() > 3 && lower.starts_with(m)))
        && lower.len() <= 9
        && lower.bytes().all(|b| b.is_ascii_alphabetic())
    {
        return Class::Month;
    }
    let parts: Vec<&str> = seg.split(['-', '_']).filter(|p| !p.is_empty()).collect();
    if parts.len() == 3
        && parts[0].len() == 4
        && parts.iter().all(|p| digits(p))
        && parts[1].len() <= 2
        && parts[2].len() <= 2
    {
        return Class::Date;
    }
    if parts.len() >= 2 {
        let first_id = digits(parts[0]) && parts[0].len() >= 3;
        // `story-12345`, or a headline of two words or more and any number.
        let last = parts[parts.len() - 1];
        let last_id = digits(last) && (last.len() >= 3 || parts.len() >= 3);
        if last_id && !parts[..parts.len() - 1].iter().all(|p| digits(p)) {
            return Class::SlugId;
        }
        if first_id && !parts[1..].iter().all(|p| digits(p)) {
            return Class::IdSlug;
        }
        if parts.iter().all(|p| digits(p)) {
            return Class::Id;
        }
    }
    if parts.len() >= 3 {
        return Class::Slug;
    }
    let has_digit = seg.bytes().any(|b| b.is_ascii_digit());
    let has_alpha = seg.bytes().any(|b| b.is_ascii_alphabetic());
    if has_digit && has_alpha && seg.len() >= 6 && parts.len() == 1 {
        return Class::Id;
    }
    if seg.len() > MAX_WORD_LEN {
        return Class::Slug;
    }
    Class::Word
}

/// A fixed word, lowercased, with a short trailing number made `{n}`:
/// `page-2` and `page-3` are one shape, `page-{n}`.
fn word_shape(stem: &str) -> String {
    let word = stem.to_ascii_lowercase();
    let head = word.trim_end_matches(|c: char| c.is_ascii_digit());
    let tail = word.len() - head.len();
    if (1..=3).contains(&tail)
        && head
            .trim_end_matches(['-', '_'])
            .bytes()
            .any(|b| b.is_ascii_alphabetic())
    {
        format!("{head}{{n}}")
    } else {
        word
    }
}

/// `20261126`: a plausible year, month and day.
fn is_compact_date(s: &str) -> bool {
    let y: u32 = s[..4].parse().unwrap_or(0);
    let m: u32 = s[4..6].parse().unwrap_or(0);
    let d: u32 = s[6..8].parse().unwrap_or(0);
    (1900..=2099).contains(&y) && (1..=12).contains(&m) && (1..=31).contains(&d)
}

/// `?page=2&b=x` → `?b&page`: the names, sorted, values dropped (the value
/// of `page` or `id` is what varies between pages of one shape).
fn query_shape(q: &str) -> String {
    let mut names: Vec<String> = q
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| p.split_once('=').map_or(p, |(k, _)| k).to_ascii_lowercase())
        .collect();
    names.sort();
    names.dedup();
    format!("?{}", names.join("&"))
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
}

impl Counts {
    fn judged(self) -> u64 {
        self.articles + self.listings + self.others
    }

    /// The trust rule: enough judged pages, and enough of them agreeing.
    fn class(self) -> ShapeClass {
        let n = self.judged();
        if n < MIN_JUDGED {
            return ShapeClass::Unknown;
        }
        let agree = |k: u64| k * 100 >= AGREE_PERCENT * n;
        let not_articles = self.listings + self.others;
        if agree(self.articles) {
            ShapeClass::Article
        } else if agree(not_articles) && self.listings >= self.others {
            ShapeClass::Index
        } else if agree(not_articles) {
            ShapeClass::Other
        } else {
            ShapeClass::Unknown
        }
    }

    fn add(&mut self, judged: Judged, n: u64) {
        match judged {
            Judged::Article => self.articles += n,
            Judged::Listing => self.listings += n,
            Judged::Other => self.others += n,
        }
    }
}

/// One shape of a site as `stats` and `sites check` show it.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct LearnedShape {
    pub shape: String,
    pub class: ShapeClass,
    pub articles: u64,
    pub listings: u64,
    pub others: u64,
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
        }
        t.article_keys = t
            .by_key
            .values()
            .filter(|c| c.class() == ShapeClass::Article)
            .count();
        t
    }

    /// Count one judged page of `shape`; returns the counts to add to the
    /// store (one per key learned; none when the table is full and the
    /// shape new).
    pub fn observe(&mut self, shape: &Shape, judged: Judged) -> Vec<ShapeCounts> {
        let mut added = Vec::new();
        for key in shape.keys() {
            if !self.by_key.contains_key(key) && self.by_key.len() >= MAX_SHAPES_PER_SITE {
                continue;
            }
            let c = self.by_key.entry(key.to_string()).or_default();
            let before = c.class();
            c.add(judged, 1);
            let after = c.class();
            if before != after {
                if before == ShapeClass::Article {
                    self.article_keys -= 1;
                }
                if after == ShapeClass::Article {
                    self.article_keys += 1;
                }
            }
            let mut one = Counts::default();
            one.add(judged, 1);
            added.push(ShapeCounts {
                shape: key.to_string(),
                articles: one.articles,
                listings: one.listings,
                others: one.others,
            });
        }
        added
    }

    /// The class of a shape: the exact key's when it has
    /// [`MIN_JUDGED`] judged pages, else the general key's.
    pub fn class_of(&self, shape: &Shape) -> ShapeClass {
        self.class_with_key(shape).0
    }

    /// [`ShapeTable::class_of`] and the key that decided it (`None`: no key
    /// has enough judged pages).
    pub fn class_with_key<'a>(&self, shape: &'a Shape) -> (ShapeClass, Option<&'a str>) {
        for key in shape.keys() {
            if let Some(c) = self.by_key.get(key).filter(|c| c.judged() >= MIN_JUDGED) {
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

    /// The counts of one key (articles, listings, others).
    pub fn counts(&self, key: &str) -> Option<(u64, u64, u64)> {
        self.by_key
            .get(key)
            .map(|c| (c.articles, c.listings, c.others))
    }

    /// Every shape with its class, trusted ones first, then by judged pages.
    pub fn learned(&self) -> Vec<LearnedShape> {
        let mut out: Vec<LearnedShape> = self
            .by_key
            .iter()
            .map(|(k, c)| LearnedShape {
                shape: k.clone(),
                class: c.class(),
                articles: c.articles,
                listings: c.listings,
                others: c.others,
            })
            .collect();
        out.sort_by(|a, b| {
            let unknown = |s: &LearnedShape| s.class == ShapeClass::Unknown;
            let n = |s: &LearnedShape| s.articles + s.listings + s.others;
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
