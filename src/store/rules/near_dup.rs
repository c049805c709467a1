//! Near-duplicate articles: a page whose distinctive text is mostly that of
//! one stored article of its site (a story republished with a line or two
//! changed: updates, syndicated copies, print and AMP versions) is a version
//! of that article, not a new one. It must not reach the line table: each
//! copy counted again would push the story's own lines past the boilerplate
//! rule, and later copies (then the site's every page) would come out empty.
//!
//! In: a backend's [`ArticleSql`], a site id and a page's lines as the line
//! filter splits them. Out: the page's [`PageLines`] (each distinct line
//! with the number of the site's articles that had it, LC, and the stored
//! articles having its distinctive lines), the stored article it is a
//! version of ([`find`]) and a new article's index rows
//! ([`PageLines::new_lines`]).
//!
//! Evidence: a line is distinctive when at most [`MAX_OWNERS`] stored
//! articles had it (template lines are far more common); its owners are
//! found in `article_lines` (the lines an article was first to have) and
//! `article_shared_lines` (the others). Shared text is weighed by length in
//! characters, both ways — the shared distinctive text must be at least
//! [`SHARE`] of the page's and of the article's — so a short template line
//! the first articles of a site have in common counts for little, and a
//! teaser is not a version of the long story it quotes.

use std::collections::HashMap;

use super::learning::sorted_lines;
use super::{ArticleSql, NewLines};
use crate::boilerplate::{LineHash, Piece};
use crate::store::StoreError;

/// Least share of distinctive text (characters) a page and a stored article
/// must have in common, each way, for the page to be a version of it. Below
/// one half on purpose: two copies of a four-paragraph story, each with a
/// different paragraph changed, share only half their text when the
/// original was not seen first (measured on the simulated web under load).
pub const SHARE: f64 = 0.4;
/// Most stored articles a line may have been in and still be evidence. Two,
/// not one: two copies of a story stored before either was recognised (each
/// with its own paragraph changed, arriving in the same batch or before the
/// original) leave the story's lines at LC 2, and the original arriving
/// next must still be found to be a version — else it is counted again and
/// pushes the story's lines into the line table.
pub const MAX_OWNERS: i64 = 2;
/// Least distinctive text (characters) shared: below it, too little to tell.
pub const MIN_SHARED_CHARS: usize = 120;

/// A page's distinct lines with what the site knows of them.
pub(crate) struct PageLines {
    /// (hash, length in characters, LC before this page), in md5 order.
    lines: Vec<(LineHash, usize, i64)>,
    /// (line, stored article having it) for the page's distinctive lines.
    owners: Vec<(LineHash, i64)>,
}

impl PageLines {
    /// The index rows of the page stored as a new article: its
    /// distinctive lines (no other article of the site had them, LC 0)
    /// with their lengths, and the others.
    pub(crate) fn new_lines(&self) -> NewLines {
        let mut out = NewLines::default();
        for (hash, chars, lc) in &self.lines {
            if *lc == 0 {
                out.distinctive.push((*hash, *chars));
            } else {
                out.shared.push(*hash);
            }
        }
        out
    }
}

/// The stored article a page is a version of.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Version {
    pub article_id: i64,
    /// The smaller of the two shares (page side, article side).
    pub shared: f64,
}

/// Look up LC of each distinct line of the page (0 for lines never seen,
/// or pruned as rare) and, for the distinctive ones, the stored articles
/// having them.
pub(crate) fn read<S: ArticleSql + ?Sized>(
    sql: &mut S,
    site_id: i64,
    pieces: &[Piece<'_>],
) -> Result<PageLines, StoreError> {
    let lines = sorted_lines(pieces);
    let md5s: Vec<LineHash> = lines.iter().map(|l| l.hash).collect();
    let (lc_of, owners) = sql.page_lines(site_id, &md5s, MAX_OWNERS)?;
    let lines = lines
        .into_iter()
        .map(|l| {
            let lc = lc_of.get(&l.hash).copied().unwrap_or(0);
            (l.hash, l.normalized.chars().count(), lc)
        })
        .collect();
    Ok(PageLines { lines, owners })
}

/// The stored article of the site whose distinctive lines the page mostly
/// shares, if any (see the module doc for the rule).
pub(crate) fn find<S: ArticleSql + ?Sized>(
    sql: &mut S,
    page: &PageLines,
) -> Result<Option<Version>, StoreError> {
    let mut page_chars = 0usize;
    let mut chars_of: HashMap<LineHash, usize> = HashMap::new();
    for (hash, chars, lc) in &page.lines {
        if *lc > MAX_OWNERS {
            continue;
        }
        page_chars += chars;
        chars_of.insert(*hash, *chars);
    }
    let mut shared: HashMap<i64, usize> = HashMap::new();
    for (hash, id) in &page.owners {
        let chars = chars_of.get(hash).copied().unwrap_or(0);
        *shared.entry(*id).or_default() += chars;
    }
    // Most shared text first; the oldest article on a tie.
    let Some((article_id, common)) = shared
        .into_iter()
        .max_by_key(|&(id, chars)| (chars, std::cmp::Reverse(id)))
    else {
        return Ok(None);
    };
    if common < MIN_SHARED_CHARS {
        return Ok(None);
    }
    let article_chars = sql.distinctive_chars(article_id)?;
    let page_share = common as f64 / page_chars.max(1) as f64;
    let article_share = common as f64 / article_chars.max(1) as f64;
    let share = page_share.min(article_share);
    Ok((share >= SHARE).then_some(Version {
        article_id,
        shared: share,
    }))
}
