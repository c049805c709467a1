//! Near-duplicate articles: a page whose distinctive text is mostly that of
//! one stored article of its site (a story republished with a line or two
//! changed: updates, syndicated copies, print and AMP versions) is a version
//! of that article, not a new one. It must not reach the line table: each
//! copy counted again would push the story's own lines past the boilerplate
//! rule, and later copies (then the site's every page) would come out empty.
//!
//! In: a transaction, a site id and a page's lines as the line filter splits
//! them. Out: the page's [`PageLines`] (each distinct line with the number of
//! the site's articles that had it, LC), the stored article it is a version
//! of ([`find`]), the index of a newly stored article's distinctive lines
//! ([`index`]) and the version record ([`record_version`]).
//!
//! Evidence: a line is distinctive when at most [`MAX_OWNERS`] stored
//! articles had it (template lines are far more common); its owners are
//! found in `article_lines` (the lines an article was first to have) and
//! `article_shared_lines` (the others, migration 0010). Shared text is weighed by
//! length in characters, both ways — the shared distinctive text must be at
//! least [`SHARE`] of the page's and of the article's — so a short template
//! line the first articles of a site have in common counts for little, and
//! a teaser is not a version of the long story it quotes.

use std::collections::HashMap;

use rusqlite::{params, OptionalExtension, Transaction};

use crate::boilerplate::{distinct_lines, LineHash, Piece};

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
pub struct PageLines {
    /// (hash, length in characters, LC before this page).
    lines: Vec<(LineHash, usize, i64)>,
}

impl PageLines {
    /// The page's lines that some article of the site had before (LC ≥ 1):
    /// those [`index`] leaves out.
    pub fn seen_before(&self) -> impl Iterator<Item = &LineHash> {
        self.lines
            .iter()
            .filter(|(_, _, lc)| *lc > 0)
            .map(|(hash, _, _)| hash)
    }
}

/// The stored article a page is a version of.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Version {
    pub article_id: i64,
    /// The smaller of the two shares (page side, article side).
    pub shared: f64,
}

/// Look up LC of each distinct line of the page (0 for lines never seen, or
/// pruned as rare).
pub fn read(
    tx: &Transaction<'_>,
    site_id: i64,
    pieces: &[Piece<'_>],
) -> rusqlite::Result<PageLines> {
    let mut lc =
        tx.prepare_cached("SELECT count FROM line_hashes WHERE site_id = ?1 AND md5 = ?2")?;
    let mut lines = Vec::new();
    for line in distinct_lines(pieces) {
        let count: i64 = lc
            .query_row(params![site_id, &line.hash[..]], |r| r.get(0))
            .optional()?
            .unwrap_or(0);
        lines.push((line.hash, line.normalized.chars().count(), count));
    }
    Ok(PageLines { lines })
}

/// The stored article of the site whose distinctive lines the page mostly
/// shares, if any (see the module doc for the rule).
pub fn find(
    tx: &Transaction<'_>,
    site_id: i64,
    page: &PageLines,
) -> rusqlite::Result<Option<Version>> {
    let mut owners = tx.prepare_cached(
        "SELECT article_id FROM article_lines WHERE site_id = ?1 AND md5 = ?2
         UNION
         SELECT article_id FROM article_shared_lines WHERE site_id = ?1 AND md5 = ?2",
    )?;
    let mut page_chars = 0usize;
    let mut shared: HashMap<i64, usize> = HashMap::new();
    for (hash, chars, lc) in &page.lines {
        if *lc > MAX_OWNERS {
            continue;
        }
        page_chars += chars;
        let ids = owners.query_map(params![site_id, &hash[..]], |r| r.get::<_, i64>(0))?;
        for id in ids {
            *shared.entry(id?).or_default() += chars;
        }
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
    let article_chars: i64 = tx
        .prepare_cached("SELECT coalesce(sum(chars), 0) FROM article_lines WHERE article_id = ?1")?
        .query_row([article_id], |r| r.get(0))?;
    let page_share = common as f64 / page_chars.max(1) as f64;
    let article_share = common as f64 / article_chars.max(1) as f64;
    let share = page_share.min(article_share);
    Ok((share >= SHARE).then_some(Version {
        article_id,
        shared: share,
    }))
}

/// Index the distinctive lines of a newly stored article: those no other
/// article of the site had (LC was 0).
pub fn index(
    tx: &Transaction<'_>,
    site_id: i64,
    article_id: i64,
    page: &PageLines,
) -> rusqlite::Result<()> {
    let mut insert = tx.prepare_cached(
        "INSERT OR IGNORE INTO article_lines(site_id, md5, article_id, chars) VALUES (?1, ?2, ?3, ?4)",
    )?;
    for (hash, chars, lc) in &page.lines {
        if *lc == 0 {
            insert.execute(params![
                site_id,
                &hash[..],
                article_id,
                i64::try_from(*chars).unwrap_or(i64::MAX)
            ])?;
        }
    }
    Ok(())
}

/// Record the page at `url` as a version of `v.article_id`, with its own text.
pub fn record_version(
    tx: &Transaction<'_>,
    url: &str,
    v: Version,
    raw_text: &str,
    content_hash: &str,
    fetched_at: i64,
) -> rusqlite::Result<()> {
    tx.prepare_cached(
        "INSERT OR IGNORE INTO article_versions(url, article_id, raw_text, content_hash, shared,
                                                fetched_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?
    .execute(params![
        url,
        v.article_id,
        raw_text,
        content_hash,
        v.shared,
        fetched_at
    ])?;
    Ok(())
}
