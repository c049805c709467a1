//! The content of one bare site: what a reader meets on a news site that
//! nobody described to the crawler.
//!
//! In: the web's seed, the site's position and its [`Shape`]. Out: a
//! [`BareSite`]: articles (path, headline, author, date, tags, body),
//! sections, tags and authors, and the paths of every other page the site
//! serves (section fronts and their later pages, tag and author pages,
//! about, privacy, contact, sign-in and search). Content does not depend on
//! the port.

use chrono::{NaiveDate, TimeDelta};

use super::super::site::{first_sentence, Published};
use super::super::text::{slug, Lang, Rng, Writer};

/// Teasers on one page of a section, tag or author list.
pub const PAGE_SIZE: usize = 4;
/// Teasers on the home page.
pub const HOME_SIZE: usize = 6;
/// Entries of the feed and of the news sitemap: the newest only, as on real
/// sites; older articles are found through the sections.
pub const FEED_SIZE: usize = 8;
pub const SITEMAP_SIZE: usize = 10;

/// How a site spells its URLs and marks up its pages. Each family declares
/// its articles differently, so no one signal finds them all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// `/{yyyy}/{mm}/{dd}/{slug}.html`; `og:type=article`, JSON-LD
    /// `NewsArticle`; section fronts declare an `ItemList` of `NewsArticle`
    /// teasers; sections at `/{section}/`, later pages `/{section}/page/2/`.
    Dated,
    /// `/news/{slug}-{id}`; `og:type=article` and `article:published_time`
    /// only, an `<article>` with the headline, a "more stories" block;
    /// sections at `/section/{section}?page=2`.
    NewsId,
    /// `/story/{id}/{slug}`; declares nothing: a headline, a "Published …"
    /// line and the body; sections at `/c/{section}/`, `/c/{section}/2/`.
    StoryId,
    /// `/{section}/{slug}` (a blog CMS): `og:type=article` on every page,
    /// the about and privacy pages too, JSON-LD `BlogPosting` on posts and
    /// `CollectionPage` on categories; `/category/{section}/page/2/`.
    Blog,
    /// `/{section}/{slug}/` (an old CMS, 2005–2017): declares nothing and
    /// dates nothing, on its story pages, its teasers and in its feed;
    /// robots.txt names no sitemap. Only being listed in the feed, and
    /// then the shape of the listed stories, tells its stories from its
    /// about page; sections at `/{section}/`, `/{section}/page/2/`.
    Plain,
}

pub const SHAPES: [Shape; 5] = [
    Shape::Dated,
    Shape::NewsId,
    Shape::StoryId,
    Shape::Blog,
    Shape::Plain,
];

impl Shape {
    /// Its pages carry a publication date (story pages, teasers, feed
    /// entries).
    pub fn dates(self) -> bool {
        self != Shape::Plain
    }
}

pub const SECTIONS: [(&str, &str); 3] = [
    ("world", "World"),
    ("politics", "Politics"),
    ("science", "Science"),
];

pub const TAGS: [&str; 6] = [
    "elections",
    "climate",
    "transport",
    "health",
    "housing",
    "energy",
];

pub struct BareArticle {
    pub section: usize,
    pub path: String,
    pub title: String,
    pub teaser: String,
    pub author: usize,
    pub published: Published,
    /// Paragraphs joined by a blank line: the true body.
    pub body: String,
    pub tags: [usize; 2],
}

pub struct BareSite {
    pub name: String,
    pub display: String,
    pub lang: Lang,
    pub shape: Shape,
    pub authors: Vec<String>,
    /// Newest first.
    pub articles: Vec<BareArticle>,
    /// Paragraphs of the about and privacy pages.
    pub about: Vec<String>,
    pub privacy: Vec<String>,
}

impl BareSite {
    pub fn generate(seed: u64, position: usize, shape: Shape, articles: usize) -> BareSite {
        let lang = if position % 3 == 2 {
            Lang::Fr
        } else {
            Lang::En
        };
        let name = format!("bare-{}", position + 1);
        let display = format!("The Bare Courier {}", position + 1);
        let key = 0xba5e_0000 + position as u64;
        let mut rng = Rng::derive(seed, &[key]);
        let mut w = Writer::new(&mut rng, lang);
        // Every author and tag lists several articles, as on real sites.
        let authors: Vec<String> = (0..(articles / 4).max(1)).map(|_| w.person()).collect();
        let about = (0..3).map(|_| w.paragraph()).collect();
        let privacy = (0..5).map(|_| w.paragraph()).collect();
        let first_id = 200_000 + rng.below(700_000) as u64;
        let newest = NaiveDate::from_ymd_opt(2026, 11, 24)
            .and_then(|d| d.and_hms_opt(17, 45, 0))
            .unwrap_or_default();
        let list = (0..articles)
            .map(|i| {
                let mut rng = Rng::derive(seed, &[key, i as u64]);
                let published = Published(newest - TimeDelta::minutes(i as i64 * 511));
                make_article(&mut rng, shape, lang, first_id + 7 * i as u64, i, published)
                    .with_author(i % authors.len())
            })
            .collect();
        BareSite {
            name,
            display,
            lang,
            shape,
            authors,
            articles: list,
            about,
            privacy,
        }
    }

    /// Articles of section `s`, newest first.
    pub fn in_section(&self, s: usize) -> Vec<usize> {
        (0..self.articles.len())
            .filter(|&i| self.articles[i].section == s)
            .collect()
    }

    pub fn with_tag(&self, t: usize) -> Vec<usize> {
        (0..self.articles.len())
            .filter(|&i| self.articles[i].tags.contains(&t))
            .collect()
    }

    pub fn by_author(&self, a: usize) -> Vec<usize> {
        (0..self.articles.len())
            .filter(|&i| self.articles[i].author == a)
            .collect()
    }

    /// Path of page `page` (1-based) of section `s`.
    pub fn section_path(&self, s: usize, page: usize) -> String {
        let slug = SECTIONS[s].0;
        match (self.shape, page) {
            (Shape::Dated | Shape::Plain, 1) => format!("/{slug}/"),
            (Shape::Dated | Shape::Plain, p) => format!("/{slug}/page/{p}/"),
            (Shape::NewsId, 1) => format!("/section/{slug}"),
            (Shape::NewsId, p) => format!("/section/{slug}?page={p}"),
            (Shape::StoryId, 1) => format!("/c/{slug}/"),
            (Shape::StoryId, p) => format!("/c/{slug}/{p}/"),
            (Shape::Blog, 1) => format!("/category/{slug}/"),
            (Shape::Blog, p) => format!("/category/{slug}/page/{p}/"),
        }
    }

    pub fn tag_path(&self, t: usize) -> String {
        format!("/tag/{}/", TAGS[t])
    }

    pub fn author_path(&self, a: usize) -> String {
        format!("/author/{}/", slug(&self.authors[a]))
    }

    /// Pages of a list of `n` teasers.
    pub fn pages(n: usize) -> usize {
        n.div_ceil(PAGE_SIZE).max(1)
    }

    /// Every HTML page that is not an article, by kind: `home`, `section`,
    /// `tag`, `author`, `about`, `privacy`, `contact`, `sign-in`, `search`.
    pub fn other_pages(&self) -> Vec<(&'static str, String)> {
        let mut out = vec![("home", "/".to_string())];
        for s in 0..SECTIONS.len() {
            for p in 1..=Self::pages(self.in_section(s).len()) {
                out.push(("section", self.section_path(s, p)));
            }
        }
        for t in 0..TAGS.len() {
            out.push(("tag", self.tag_path(t)));
        }
        for a in 0..self.authors.len() {
            out.push(("author", self.author_path(a)));
        }
        for (kind, path) in FIXED_PAGES {
            out.push((kind, path.to_string()));
        }
        out
    }
}

/// The pages every bare site has, by kind and path.
pub const FIXED_PAGES: [(&str, &str); 5] = [
    ("about", "/about/"),
    ("privacy", "/privacy-policy/"),
    ("contact", "/contact/"),
    ("sign-in", "/account/sign-in"),
    ("search", "/search"),
];

impl BareArticle {
    fn with_author(mut self, a: usize) -> BareArticle {
        self.author = a;
        self
    }
}

fn make_article(
    rng: &mut Rng,
    shape: Shape,
    lang: Lang,
    id: u64,
    i: usize,
    published: Published,
) -> BareArticle {
    let mut w = Writer::new(rng, lang);
    let title = w.headline();
    let count = w.range(4, 9);
    let paragraphs: Vec<String> = (0..count).map(|_| w.paragraph()).collect();
    let teaser = first_sentence(&paragraphs[0], lang);
    let section = i % SECTIONS.len();
    let slug_text = match slug(&title) {
        s if s.is_empty() => format!("story-{id}"),
        s => s,
    };
    let path = match shape {
        Shape::Dated => format!("/{}/{slug_text}.html", published.fmt("%Y/%m/%d")),
        Shape::NewsId => format!("/news/{slug_text}-{id}"),
        Shape::StoryId => format!("/story/{id}/{slug_text}"),
        Shape::Blog => format!("/{}/{slug_text}", SECTIONS[section].0),
        Shape::Plain => format!("/{}/{slug_text}/", SECTIONS[section].0),
    };
    BareArticle {
        section,
        path,
        title,
        teaser,
        author: 0,
        published,
        body: paragraphs.join("\n\n"),
        tags: [i % TAGS.len(), (i / TAGS.len() + i + 1) % TAGS.len()],
    }
}
