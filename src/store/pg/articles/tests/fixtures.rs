//! A deterministic stream of articles for several sites: shared template
//! lines (some on every page, some on a share of them), distinct stories,
//! exact duplicates under other URLs, near-duplicate copies, changed
//! refetches and kept pages; and readers of what the two stores hold.

use std::collections::BTreeMap;

use crate::boilerplate::LineSettings;
use crate::extract::Article;
use crate::store::pg::PgStore;
use crate::store::{KeptHeaders, KeptHtml, NewArticle, Store};

/// Words of the story text (no digits: digit runs are masked alike).
const WORDS: [&str; 48] = [
    "harbour",
    "council",
    "bridge",
    "orchard",
    "railway",
    "museum",
    "library",
    "stadium",
    "market",
    "theatre",
    "river",
    "mayor",
    "budget",
    "school",
    "farmers",
    "storm",
    "winter",
    "summer",
    "election",
    "court",
    "hospital",
    "workers",
    "prices",
    "festival",
    "village",
    "airport",
    "ferry",
    "coast",
    "forest",
    "miners",
    "students",
    "teachers",
    "police",
    "report",
    "inquiry",
    "tunnel",
    "garden",
    "castle",
    "valley",
    "island",
    "harvest",
    "engineers",
    "doctors",
    "pilots",
    "bakers",
    "painters",
    "sailors",
    "judges",
];

/// A small deterministic generator (xorshift), so runs repeat exactly.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }

    /// A Fisher–Yates shuffle.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

/// One paragraph (a line) of story text.
fn paragraph(rng: &mut Rng) -> String {
    let words: Vec<&str> = (0..14).map(|_| WORDS[rng.below(WORDS.len())]).collect();
    let mut p = words.join(" ");
    p.push('.');
    let mut chars = p.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

fn template(site: &str) -> (Vec<String>, Vec<String>) {
    let head = vec![
        format!("Home of {site} news"),
        "Sign in to read more".to_string(),
    ];
    let foot = vec![
        "Share this story".to_string(),
        format!("Copyright {site} media group. All rights reserved."),
        "Subscribe to our newsletter for the morning briefing.".to_string(),
    ];
    (head, foot)
}

/// Options of [`stream`].
#[derive(Clone, Copy)]
pub struct Mix {
    /// Stories per site.
    pub stories: usize,
    /// Every `dup_every`-th story is stored again under another URL (0: none).
    pub dup_every: usize,
    /// Every `near_every`-th story has a copy with one paragraph changed (0: none).
    pub near_every: usize,
    /// Every `refetch_every`-th story is fetched again with a changed
    /// paragraph (0: none).
    pub refetch_every: usize,
}

pub const SITES: [&str; 3] = ["alpha", "beta", "gamma"];

/// The articles of every site, interleaved as a crawl would store them:
/// `(article, refetch)`.
pub fn stream(mix: Mix, seed: u64) -> Vec<(NewArticle, bool)> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    let mut later = Vec::new();
    for i in 0..mix.stories {
        for site in SITES {
            let (head, foot) = template(site);
            let body: Vec<String> = (0..3 + rng.below(3)).map(|_| paragraph(&mut rng)).collect();
            let mut lines = head.clone();
            // A line on about a third of the pages: its status moves as RC
            // grows, what the re-clean must follow.
            if rng.below(3) == 0 {
                lines.push("Most read this week".to_string());
            }
            lines.extend(body.iter().cloned());
            // A line on two early pages only: LC 2 is boilerplate while
            // RC < 50 and kept again once RC reaches 50 (t = 2), a change
            // only the threshold step records for the re-clean.
            if i == 3 || i == 28 {
                lines.push("A correction was appended to this story.".to_string());
            }
            lines.extend(foot.iter().cloned());
            let url = format!("https://{site}.test/story/{i}");
            let text = lines.join("\n");
            let mut a = article(&url, site, &text, i);
            if i % 4 == 1 {
                a.html = Some(kept(&url, &text));
            }
            out.push((a, false));
            if mix.dup_every > 0 && i % mix.dup_every == 2 {
                later.push((article(&format!("{url}?amp"), site, &text, i), false));
            }
            if mix.near_every > 0 && i % mix.near_every == 3 {
                let mut copy = lines.clone();
                let at = head.len();
                copy[at] = paragraph(&mut rng);
                let text = copy.join("\n");
                later.push((article(&format!("{url}-v2"), site, &text, i), false));
            }
            if mix.refetch_every > 0 && i % mix.refetch_every == 4 {
                let mut changed = lines.clone();
                let last = changed.len() - foot.len() - 1;
                changed[last] = paragraph(&mut rng);
                let text = changed.join("\n");
                let mut a = article(&url, site, &text, i);
                a.html = Some(kept(&url, &text));
                later.push((a, true));
            }
        }
        // Duplicates and copies arrive a little after their originals.
        if i % 5 == 4 {
            out.append(&mut later);
        }
    }
    out.append(&mut later);
    out
}

fn article(url: &str, site: &str, text: &str, i: usize) -> NewArticle {
    NewArticle {
        url: url.to_string(),
        url_id: None,
        site: site.to_string(),
        fetched_at: 1_000 + i as i64,
        article: Article {
            title: Some(format!("Story {i} of {site}")),
            published_at: Some("2026-11-26T01:00:00Z".into()),
            text: text.to_string(),
            ..Article::default()
        },
        lines: LineSettings::default(),
        html: None,
    }
}

fn kept(url: &str, text: &str) -> KeptHtml {
    let body = format!("<html><body><p>{text}</p></body></html>");
    KeptHtml::new(url, 200, KeptHeaders::default(), 5_000, body.as_bytes())
        .unwrap_or_else(|e| panic!("{e}"))
}

/// (site, md5 hex) → LC.
pub type LineCounts = BTreeMap<(String, String), i64>;
/// site → RC.
pub type SiteRc = BTreeMap<String, i64>;

pub fn sqlite_counts(s: &Store) -> (LineCounts, SiteRc) {
    let lc = s
        .conn
        .prepare(
            "SELECT s.name, lower(hex(l.md5)), l.count FROM line_hashes l
             JOIN sites s ON s.id = l.site_id",
        )
        .and_then(|mut st| {
            st.query_map([], |r| Ok(((r.get(0)?, r.get(1)?), r.get(2)?)))?
                .collect::<rusqlite::Result<LineCounts>>()
        })
        .unwrap_or_else(|e| panic!("{e}"));
    let rc = s
        .conn
        .prepare(
            "SELECT s.name, t.articles_processed FROM site_stats t JOIN sites s ON s.id = t.site_id",
        )
        .and_then(|mut st| {
            st.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect::<rusqlite::Result<SiteRc>>()
        })
        .unwrap_or_else(|e| panic!("{e}"));
    (lc, rc)
}

pub fn pg_counts(s: &mut PgStore) -> (LineCounts, SiteRc) {
    let c = s.client();
    let lc = c
        .query(
            "SELECT s.name, encode(l.md5, 'hex'), l.count FROM line_hashes l
             JOIN sites s ON s.id = l.site_id",
            &[],
        )
        .unwrap_or_else(|e| panic!("{e}"))
        .iter()
        .map(|r| ((r.get(0), r.get(1)), r.get(2)))
        .collect();
    let rc = c
        .query(
            "SELECT s.name, t.articles_processed FROM site_stats t JOIN sites s ON s.id = t.site_id",
            &[],
        )
        .unwrap_or_else(|e| panic!("{e}"))
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect();
    (lc, rc)
}

/// Every stored article: url → (site, content hash, text, raw text).
pub type Texts = BTreeMap<String, (String, String, String, String)>;

pub fn sqlite_texts(s: &Store) -> Texts {
    s.conn
        .prepare(
            "SELECT a.url, s.name, a.content_hash, a.text, a.raw_text FROM articles a
             JOIN sites s ON s.id = a.site_id",
        )
        .and_then(|mut st| {
            st.query_map([], |r| {
                Ok((r.get(0)?, (r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)))
            })?
            .collect::<rusqlite::Result<Texts>>()
        })
        .unwrap_or_else(|e| panic!("{e}"))
}

pub fn pg_texts(s: &mut PgStore) -> Texts {
    s.client()
        .query(
            "SELECT a.url, s.name, a.content_hash, a.text, a.raw_text FROM articles a
             JOIN sites s ON s.id = a.site_id",
            &[],
        )
        .unwrap_or_else(|e| panic!("{e}"))
        .iter()
        .map(|r| (r.get(0), (r.get(1), r.get(2), r.get(3), r.get(4))))
        .collect()
}

/// (site, content hash) → text: what is stored, whichever URL came first.
pub fn by_body(texts: &Texts) -> BTreeMap<(String, String), String> {
    texts
        .values()
        .map(|(site, hash, text, _)| ((site.clone(), hash.clone()), text.clone()))
        .collect()
}
