//! Near-duplicate articles on PostgreSQL: the pg twin of `store::near_dup`
//! (the rule, its constants and why, are there). A page whose distinctive
//! text is mostly one stored article's is a version of it and teaches the
//! line table nothing.
//!
//! In: a transaction holding the site's learning lock, a site id and a
//! page's lines. Out: the page's [`PageLines`] (each distinct line with its
//! LC before the page), the stored article it is a version of ([`find`]),
//! a newly stored article's distinctive lines ([`PageLines::distinctive`]) and
//! the version record ([`record_version`]). Each is one statement, the
//! lines passed as arrays.

use std::collections::HashMap;

use super::sql::Tx;
use postgres::types::Type;

use super::lines::sorted_lines;
use crate::boilerplate::{LineHash, Piece};
use crate::store::near_dup::{Version, MAX_OWNERS, MIN_SHARED_CHARS, SHARE};

/// A page's distinct lines with what the site knows of them.
pub(super) struct PageLines {
    /// (hash, length in characters, LC before this page), in md5 order.
    lines: Vec<(LineHash, usize, i64)>,
    /// (line, stored article having it) for the page's distinctive lines.
    owners: Vec<(LineHash, i64)>,
}

impl PageLines {
    /// The page's lines that some article of the site had before (LC ≥ 1):
    /// those [`PageLines::distinctive`] leaves out.
    pub(super) fn seen_before(&self) -> impl Iterator<Item = &LineHash> {
        self.lines
            .iter()
            .filter(|(_, _, lc)| *lc > 0)
            .map(|(hash, _, _)| hash)
    }

    /// The page's distinctive lines, those no other article of the site
    /// had (LC 0), with their lengths: what `article_lines` indexes for a
    /// newly stored article.
    pub(super) fn distinctive(&self) -> (Vec<&[u8]>, Vec<i32>) {
        self.lines
            .iter()
            .filter(|(_, _, lc)| *lc == 0)
            .map(|(hash, chars, _)| (&hash[..], i32::try_from(*chars).unwrap_or(i32::MAX)))
            .unzip()
    }
}

/// Look up LC of each distinct line of the page (0 for lines never seen,
/// or pruned as rare) and, for the distinctive ones (LC ≤ [`MAX_OWNERS`]),
/// the stored articles having them: one query.
pub(super) fn read(
    tx: &mut Tx<'_, '_>,
    site_id: i64,
    pieces: &[Piece<'_>],
) -> Result<PageLines, postgres::Error> {
    let lines = sorted_lines(pieces);
    let md5s: Vec<&[u8]> = lines.iter().map(|l| &l.hash[..]).collect();
    let rows = tx.query_typed(
        "WITH page AS (
             SELECT u.md5, coalesce(l.count, 0) AS lc FROM unnest($2::bytea[]) AS u(md5)
             LEFT JOIN line_hashes l ON l.site_id = $1 AND l.md5 = u.md5)
         SELECT p.md5, p.lc, o.article_id FROM page p
         LEFT JOIN LATERAL (
             SELECT article_id FROM article_lines a WHERE a.site_id = $1 AND a.md5 = p.md5
             UNION
             SELECT article_id FROM article_shared_lines s WHERE s.site_id = $1 AND s.md5 = p.md5
         ) o ON p.lc <= $3",
        &[
            (&site_id, Type::INT8),
            (&md5s, Type::BYTEA_ARRAY),
            (&MAX_OWNERS, Type::INT8),
        ],
    )?;
    let mut lc_of: HashMap<LineHash, i64> = HashMap::with_capacity(lines.len());
    let mut owners = Vec::new();
    for row in &rows {
        let Ok(hash) = LineHash::try_from(row.get::<_, &[u8]>(0)) else {
            continue;
        };
        lc_of.insert(hash, row.get(1));
        if let Some(id) = row.get::<_, Option<i64>>(2) {
            owners.push((hash, id));
        }
    }
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
/// shares, if any (the rule of `store::near_dup::find`).
pub(super) fn find(
    tx: &mut Tx<'_, '_>,
    page: &PageLines,
) -> Result<Option<Version>, postgres::Error> {
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
    let article_chars: i64 = tx
        .query_typed_one(
            "SELECT coalesce(sum(chars), 0)::BIGINT FROM article_lines WHERE article_id = $1",
            &[(&article_id, Type::INT8)],
        )?
        .get(0);
    let page_share = common as f64 / page_chars.max(1) as f64;
    let article_share = common as f64 / article_chars.max(1) as f64;
    let share = page_share.min(article_share);
    Ok((share >= SHARE).then_some(Version {
        article_id,
        shared: share,
    }))
}

/// Record the page at `url` as a version of `v.article_id`, with its own text.
pub(super) fn record_version(
    tx: &mut Tx<'_, '_>,
    url: &str,
    v: Version,
    raw_text: &str,
    content_hash: &str,
    fetched_at: i64,
) -> Result<(), postgres::Error> {
    tx.execute_typed(
        "INSERT INTO article_versions (url, article_id, raw_text, content_hash, shared, fetched_at)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT DO NOTHING",
        &[
            (&url, Type::TEXT),
            (&v.article_id, Type::INT8),
            (&raw_text, Type::TEXT),
            (&content_hash, Type::TEXT),
            (&v.shared, Type::FLOAT8),
            (&fetched_at, Type::INT8),
        ],
    )?;
    Ok(())
}
