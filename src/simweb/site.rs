//! The content of one simulated site: sections, articles and URL scheme.
//!
//! In: the web's seed, the site's position and its [`Template`]. Out: a
//! [`SiteContent`] with every article (path, headline, byline, date, body
//! paragraphs, comments) and the paths of its index pages. Content does not
//! depend on the port, so two webs with the same seed differ only in ports.

use std::collections::HashSet;

use chrono::{NaiveDate, NaiveDateTime, TimeDelta};

use super::text::{slug, Lang, Rng, Writer};

/// The `wire` site's cookie banner: the last of its template lines.
pub const COOKIE_NOTICE: &str =
    "We use cookies to personalise content and ads and to analyse our traffic.";

/// Articles listed per index page.
pub const PAGE_SIZE: usize = 10;

/// The family a site belongs to: its markup, language and URL scheme.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Template {
    /// English, old-style nested `<div>`s; `/news/2026/11/25/<slug>-<id>.html`.
    Planet,
    /// French, HTML5 semantic tags; `/<rubrique>/article/2026/11/25/<slug>_<id>.html`.
    Globe,
    /// Chinese portal layout; `/n1/2026/1125/c<channel>-<id>.html`.
    Huaxia,
    /// English, today's markup: JSON-LD `NewsArticle`, `itemprop=articleBody`,
    /// cookie banner, captioned photo, comment thread, related rail;
    /// `/<section>/2026/11/25/<slug>-<id>`.
    Wire,
    /// English, table layout, the fault paths; `/story/<id>.html`.
    Faults,
    /// Like `Faults` but its robots.txt answers 500.
    RobotsFail,
}

pub struct Section {
    pub slug: &'static str,
    pub label: &'static str,
    /// Numeric channel code (used in Huaxia URLs).
    pub code: u32,
}

const fn sec(slug: &'static str, label: &'static str, code: u32) -> Section {
    Section { slug, label, code }
}

static PLANET_SECTIONS: [Section; 4] = [
    sec("world", "World", 1),
    sec("politics", "Politics", 2),
    sec("business", "Business", 3),
    sec("science", "Science", 4),
];
static GLOBE_SECTIONS: [Section; 4] = [
    sec("international", "International", 1),
    sec("politique", "Politique", 2),
    sec("economie", "Économie", 3),
    sec("culture", "Culture", 4),
];
static HUAXIA_SECTIONS: [Section; 4] = [
    sec("guonei", "国内", 1001),
    sec("guoji", "国际", 1002),
    sec("caijing", "财经", 1004),
    sec("shehui", "社会", 1008),
];
static FAULT_SECTIONS: [Section; 1] = [sec("world", "World", 1)];

/// A published date and time (UTC).
#[derive(Debug, Clone, Copy)]
pub struct Published(pub NaiveDateTime);

impl Published {
    pub fn rfc3339(&self) -> String {
        self.0.format("%Y-%m-%dT%H:%M:%SZ").to_string()
    }
    pub fn rfc2822(&self) -> String {
        self.0.format("%a, %d %b %Y %H:%M:%S +0000").to_string()
    }
    pub fn fmt(&self, f: &str) -> String {
        self.0.format(f).to_string()
    }
}

#[derive(Clone)]
pub struct Article {
    pub id: u64,
    pub section: usize,
    /// Path from the site root, starting with `/`.
    pub path: String,
    pub title: String,
    /// First sentence of the body, shown on index pages and in feeds.
    pub teaser: String,
    pub author: String,
    pub published: Published,
    /// The true body: paragraphs joined by a blank line (see [`Article::paragraphs`]).
    pub body: String,
    /// Reader comments: (name, text).
    pub comments: Vec<(String, String)>,
    /// Indices of other articles shown as "related stories".
    pub related: Vec<usize>,
}

impl Article {
    /// The body's paragraphs (kept joined only, to halve memory on big webs).
    pub fn paragraphs(&self) -> impl Iterator<Item = &str> {
        self.body.split("\n\n")
    }
}

pub struct SiteContent {
    pub template: Template,
    pub name: String,
    /// Masthead name, e.g. "The Daily Planet".
    pub display: String,
    pub lang: Lang,
    pub sections: &'static [Section],
    /// Newest first.
    pub articles: Vec<Article>,
    /// Articles shown in every page's "most read" box.
    pub most_read: Vec<usize>,
}

impl SiteContent {
    /// Generate site number `position` of the web (0-based) with `articles` articles.
    pub fn generate(
        seed: u64,
        position: usize,
        template: Template,
        articles: usize,
    ) -> SiteContent {
        let (base_name, base_display, lang, sections): (&str, &str, Lang, &'static [Section]) =
            match template {
                Template::Planet => (
                    "dailyplanet",
                    "The Daily Planet",
                    Lang::En,
                    &PLANET_SECTIONS,
                ),
                Template::Globe => ("globe", "Le Globe", Lang::Fr, &GLOBE_SECTIONS),
                Template::Huaxia => ("huaxia-news", "华夏新闻网", Lang::Zh, &HUAXIA_SECTIONS),
                Template::Wire => ("wire", "The Morning Wire", Lang::En, &PLANET_SECTIONS),
                Template::Faults => ("faults", "The Faulty Gazette", Lang::En, &FAULT_SECTIONS),
                Template::RobotsFail => (
                    "faults-robots",
                    "The Robots Error Times",
                    Lang::En,
                    &FAULT_SECTIONS,
                ),
            };
        // A fifth, sixth... site reuses a template under a numbered name.
        let round = position / super::CYCLE.len();
        let (name, display) =
            if round == 0 || matches!(template, Template::Faults | Template::RobotsFail) {
                (base_name.to_string(), base_display.to_string())
            } else {
                (
                    format!("{base_name}-{}", round + 1),
                    format!("{base_display} {}", round + 1),
                )
            };
        let site_key = position as u64 + 1;
        let mut site_rng = Rng::derive(seed, &[site_key]);
        let first_id = 100_000 + site_rng.below(800_000) as u64;
        let newest = NaiveDate::from_ymd_opt(2026, 11, 25)
            .and_then(|d| d.and_hms_opt(18, 30, 0))
            .unwrap_or_default();
        let mut list = Vec::with_capacity(articles);
        // A paragraph seen twice on a site would be learned as boilerplate.
        let mut seen = HashSet::new();
        for i in 0..articles {
            let mut rng = Rng::derive(seed, &[site_key, i as u64]);
            let id = first_id + 3 * i as u64;
            let published = Published(newest - TimeDelta::minutes(i as i64 * 397));
            list.push(make_article(
                &mut rng, template, lang, sections, id, published, &mut seen,
            ));
        }
        let n = list.len();
        for (i, a) in list.iter_mut().enumerate() {
            // Neighbours in the same section first, like a real "related" box.
            a.related = (1..n)
                .map(|k| (i + k) % n)
                .filter(|&j| j % sections.len() == i % sections.len())
                .take(3)
                .collect();
            if a.related.is_empty() && n > 1 {
                a.related.push((i + 1) % n);
            }
        }
        let most_read = (0..n.min(5)).map(|k| (k * 7 + 2) % n.max(1)).collect();
        SiteContent {
            template,
            name,
            display,
            lang,
            sections,
            articles: list,
            most_read,
        }
    }

    /// Republish every article `copies` more times, as a site serving the
    /// same story under several URLs does (updates, syndicated, print and AMP
    /// versions): copy `k` of an article has its own URL (`-v{k}` before the
    /// id), the same title, date and section, and paragraph `k - 1` (cycling)
    /// replaced by a fresh one. Copies follow the originals in the list.
    pub fn republish(&mut self, seed: u64, position: usize, copies: usize) {
        let originals = self.articles.len();
        let site_key = position as u64 + 1;
        for k in 1..=copies {
            for i in 0..originals {
                let a = &self.articles[i];
                let mut rng = Rng::derive(seed, &[site_key, i as u64, 0xc091, k as u64]);
                let fresh = Writer::new(&mut rng, self.lang).paragraph();
                let paragraphs: Vec<&str> = a.paragraphs().collect();
                let changed = (k - 1) % paragraphs.len().max(1);
                let body = paragraphs
                    .iter()
                    .enumerate()
                    .map(|(j, p)| if j == changed { fresh.as_str() } else { p })
                    .collect::<Vec<_>>()
                    .join("\n\n");
                let copy = Article {
                    path: copy_path(&a.path, k),
                    body,
                    ..a.clone()
                };
                self.articles.push(copy);
            }
        }
    }

    /// Articles of section `s`, newest first.
    pub fn section_articles(&self, s: usize) -> Vec<usize> {
        (0..self.articles.len())
            .filter(|&i| self.articles[i].section == s)
            .collect()
    }

    /// Number of index pages of section `s` (at least 1).
    pub fn section_pages(&self, s: usize) -> usize {
        self.section_articles(s).len().div_ceil(PAGE_SIZE).max(1)
    }

    /// Path of page `page` (1-based) of section `s`.
    pub fn section_path(&self, s: usize, page: usize) -> String {
        let slug = self.sections.get(s).map_or("", |x| x.slug);
        match (self.template, page) {
            (Template::Globe, 1) => format!("/rubrique/{slug}"),
            (Template::Globe, p) => format!("/rubrique/{slug}/page/{p}"),
            (Template::Huaxia, 1) => format!("/channel/{slug}/index.html"),
            (Template::Huaxia, p) => format!("/channel/{slug}/index_{p}.html"),
            (_, 1) => format!("/section/{slug}"),
            (_, p) => format!("/section/{slug}?page={p}"),
        }
    }

    /// Every index page path: the home page, then each section's pages.
    pub fn index_paths(&self) -> Vec<String> {
        let mut out = vec!["/".to_string()];
        for s in 0..self.sections.len() {
            for p in 1..=self.section_pages(s) {
                out.push(self.section_path(s, p));
            }
        }
        out
    }

    /// The (section, page) an index path names, if any.
    pub fn parse_section_path(&self, path_and_query: &str) -> Option<(usize, usize)> {
        (0..self.sections.len()).find_map(|s| {
            (1..=self.section_pages(s))
                .find(|&p| self.section_path(s, p) == path_and_query)
                .map(|p| (s, p))
        })
    }

    /// The private (robots-disallowed) path every page links to.
    pub fn private_path(&self) -> &'static str {
        match self.template {
            Template::Globe => "/private/abonnes",
            Template::Huaxia => "/private/vip.html",
            _ => "/private/members",
        }
    }

    /// Boilerplate lines rendered on every article page, each as its own block.
    pub fn template_lines(&self) -> Vec<String> {
        let d = &self.display;
        let lines: Vec<String> = match self.template {
            Template::Globe => vec![
                format!("© 2026 {d}. Tous droits réservés."),
                "Recevez chaque matin l’essentiel de l’actualité avec la lettre du Globe.".into(),
                "Partager sur Facebook".into(),
                "Partager sur X".into(),
                "Envoyer par e-mail".into(),
                "À lire aussi".into(),
                "Les plus lus".into(),
                "Commentaires des lecteurs".into(),
                "Les commentaires sont modérés avant publication.".into(),
            ],
            Template::Huaxia => vec![
                format!("© 2026 {d} 版权所有"),
                "订阅华夏新闻早报，每天早上七点送达您的邮箱。".into(),
                "分享到微信".into(),
                "分享到微博".into(),
                "分享到QQ空间".into(),
                "相关新闻".into(),
                "热点排行".into(),
                "网友评论".into(),
                "文明上网，理性发言，请遵守新闻评论服务协议。".into(),
            ],
            _ => vec![
                format!("© 2026 {d}. All rights reserved."),
                format!(
                    "Get the {} Morning Briefing in your inbox every weekday.",
                    d.strip_prefix("The ").unwrap_or(d)
                ),
                "Share on Facebook".into(),
                "Share on X".into(),
                "Share by email".into(),
                "Related stories".into(),
                "Most read".into(),
                "Reader comments".into(),
                "Comments are moderated and may take a few minutes to appear.".into(),
            ],
        };
        if self.template == Template::Wire {
            let mut lines = lines;
            lines.push(COOKIE_NOTICE.into());
            return lines;
        }
        lines
    }
}

fn make_article(
    rng: &mut Rng,
    template: Template,
    lang: Lang,
    sections: &'static [Section],
    id: u64,
    published: Published,
    seen: &mut HashSet<u64>,
) -> Article {
    let section = (id as usize / 3) % sections.len();
    let mut w = Writer::new(rng, lang);
    let title = w.headline();
    let author = w.person();
    let count = w.range(4, 10);
    let paragraphs: Vec<String> = (0..count)
        .map(|_| {
            let mut p = w.paragraph();
            for _ in 0..8 {
                if seen.insert(fnv1a(p.as_bytes())) {
                    break;
                }
                p = w.paragraph();
            }
            p
        })
        .collect();
    let comments = (0..3)
        .map(|_| (w.person(), w.comment()))
        .collect::<Vec<_>>();
    let teaser = first_sentence(paragraphs.first().map_or("", String::as_str), lang);
    let sec = &sections[section];
    let slug_text = match slug(&title) {
        s if s.is_empty() => format!("story{id}"),
        s => s,
    };
    let path = match template {
        Template::Planet => format!("/news/{}/{slug_text}-{id}.html", published.fmt("%Y/%m/%d")),
        Template::Globe => format!(
            "/{}/article/{}/{slug_text}_{id}.html",
            sec.slug,
            published.fmt("%Y/%m/%d")
        ),
        Template::Huaxia => format!("/n1/{}/c{}-{id}.html", published.fmt("%Y/%m%d"), sec.code),
        Template::Wire => format!(
            "/{}/{}/{slug_text}-{id}",
            sec.slug,
            published.fmt("%Y/%m/%d")
        ),
        Template::Faults | Template::RobotsFail => format!("/story/{id}.html"),
    };
    let body = paragraphs.join("\n\n");
    Article {
        id,
        section,
        path,
        title,
        teaser,
        author,
        published,
        body,
        comments,
        related: Vec::new(),
    }
}

/// FNV-1a: a stable 64-bit hash (std's hasher is randomised per process).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

pub(super) fn first_sentence(p: &str, lang: Lang) -> String {
    let ends: &[char] = match lang {
        Lang::Zh => &['。'],
        _ => &['.'],
    };
    match p.find(ends) {
        Some(i) => {
            let end = i + p[i..].chars().next().map_or(1, char::len_utf8);
            p[..end].to_string()
        }
        None => p.to_string(),
    }
}

/// The path of copy `k` of an article: `-v{k}` inserted before the id that
/// ends the file name (`slug-123.html` → `slug-v1-123.html`,
/// `slug_123.html` → `slug-v1_123.html`, `c12-34.html` → `c12-v1-34.html`).
pub fn copy_path(path: &str, k: usize) -> String {
    let name_start = path.rfind('/').map_or(0, |i| i + 1);
    match path[name_start..].rfind(['-', '_']) {
        Some(at) => {
            let at = name_start + at;
            format!("{}-v{k}{}", &path[..at], &path[at..])
        }
        None => format!("{path}-v{k}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn articles_have_4_to_10_paragraphs_and_unique_paths() {
        for t in [
            Template::Planet,
            Template::Globe,
            Template::Huaxia,
            Template::Wire,
        ] {
            let site = SiteContent::generate(42, 0, t, 40);
            let mut paths: Vec<&str> = site.articles.iter().map(|a| a.path.as_str()).collect();
            paths.sort();
            paths.dedup();
            assert_eq!(paths.len(), 40);
            for a in &site.articles {
                assert!(
                    (4..=10).contains(&a.paragraphs().count()),
                    "{}",
                    a.paragraphs().count()
                );
            }
        }
    }

    #[test]
    fn every_article_is_on_exactly_one_section_page() {
        let site = SiteContent::generate(1, 0, Template::Globe, 53);
        let mut listed = 0;
        for s in 0..site.sections.len() {
            listed += site.section_articles(s).len();
            let pages = site.section_pages(s);
            let last = site.section_path(s, pages);
            assert_eq!(site.parse_section_path(&last), Some((s, pages)));
        }
        assert_eq!(listed, 53);
    }
}
