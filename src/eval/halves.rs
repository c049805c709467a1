//! Every set split by site into a half that is studied and a half that is
//! only scored, so a rule written while reading the first half is kept only
//! if it also helps the second: the sites it was not written for.
//!
//! In: a page's site (its publisher, or `super::site`'s: the host of its
//! canonical URL, or its file name's site part). Out: its [`Half`], and per
//! report the mean F1 (or the snippet F of the summed counts) of each half.
//!
//! The half is a function of the site alone (a bit of its MD5), not of the
//! other sites of the set: adding pages or sets never moves a site from one
//! half to the other.

use md5::{Digest, Md5};
use serde::Serialize;

use super::snippets::SnippetCounts;
use super::PageScore;

/// Which half of a set a site is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Half {
    /// Pages to read when looking for failures.
    Study,
    /// Pages only scored: the test of a rule found on the other half.
    Held,
}

/// The half of `site` (case and a leading `www.` ignored).
pub fn half_of(site: &str) -> Half {
    let key = site.trim().to_lowercase();
    let key = key.strip_prefix("www.").unwrap_or(&key);
    if Md5::digest(key.as_bytes())[0] & 1 == 0 {
        Half::Study
    } else {
        Half::Held
    }
}

/// One half's figures.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct HalfScore {
    pub pages: usize,
    pub sites: usize,
    /// Mean F1 of the half's pages, or the snippet F of their summed counts.
    pub f1: f64,
}

impl HalfScore {
    /// The F1 to three places, or "-" for a half without pages (a set of
    /// one site, your own pages).
    pub fn shown(&self) -> String {
        if self.pages == 0 {
            "-".to_string()
        } else {
            format!("{:.3}", self.f1)
        }
    }
}

/// Both halves of a report.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Halves {
    pub study: HalfScore,
    pub held: HalfScore,
}

/// The halves of scored pages (by each page's `site`).
pub fn halves(pages: &[PageScore]) -> Halves {
    let of = |half: Half| {
        let mine: Vec<&PageScore> = pages.iter().filter(|p| half_of(&p.site) == half).collect();
        let mut sites: Vec<&str> = mine.iter().map(|p| p.site.as_str()).collect();
        sites.sort_unstable();
        sites.dedup();
        let f1 = if mine.iter().any(|p| p.snippets.is_some()) {
            let mut sum = SnippetCounts::default();
            for c in mine.iter().filter_map(|p| p.snippets) {
                sum.add(c);
            }
            sum.f()
        } else if mine.is_empty() {
            0.0
        } else {
            mine.iter().map(|p| p.score.f1).sum::<f64>() / mine.len() as f64
        };
        HalfScore {
            pages: mine.len(),
            sites: sites.len(),
            f1,
        }
    };
    Halves {
        study: of(Half::Study),
        held: of(Half::Held),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Score;

    fn page(site: &str, f1: f64) -> PageScore {
        PageScore {
            name: format!("{site}_1"),
            site: site.to_string(),
            score: Score {
                f1,
                ..Score::default()
            },
            extracted_tokens: 1,
            gold_tokens: 1,
            millis: 0.0,
            snippets: None,
            record: None,
        }
    }

    #[test]
    fn a_site_keeps_its_half_whatever_its_spelling() {
        assert_eq!(half_of("example.com"), half_of("www.Example.com"));
        // Both halves occur among a handful of names.
        let names = [
            "a.com", "b.com", "c.com", "d.com", "e.com", "f.com", "g.com",
        ];
        assert!(names.iter().any(|n| half_of(n) == Half::Study));
        assert!(names.iter().any(|n| half_of(n) == Half::Held));
    }

    #[test]
    fn halves_average_their_own_pages_only() {
        let (study, held) = ["a.com", "b.com", "c.com", "d.com", "e.com", "f.com"]
            .iter()
            .partition::<Vec<&&str>, _>(|s| half_of(s) == Half::Study);
        let pages: Vec<PageScore> = study
            .iter()
            .map(|s| page(s, 1.0))
            .chain(held.iter().map(|s| page(s, 0.5)))
            .collect();
        let h = halves(&pages);
        assert_eq!(h.study.pages, study.len());
        assert_eq!(h.held.sites, held.len());
        assert!((h.study.f1 - 1.0).abs() < 1e-12);
        assert!((h.held.f1 - 0.5).abs() < 1e-12);
        assert_eq!(h.held.shown(), "0.500");
        // A set of one half's sites only: the other half has no score.
        let h = halves(&pages[..study.len()]);
        assert_eq!(
            (h.study.shown(), h.held.shown()),
            ("1.000".into(), "-".into())
        );
    }
}
