//! What the Markdown export reads, written once for both stores: each
//! selected article in id order with its kept page, and a judgement over
//! its site's line table as it is now (nothing learned).
//!
//! In: the article statements of one transaction (the whole export reads
//! one snapshot), a [`Selection`]. Out: the articles handed to the
//! export one at a time, read [`ROWS`] per statement (memory stays bounded
//! however large the corpus), each page read beside them.

use std::collections::HashMap;

use super::selection::{conditions, Args};
use super::{kept_html, site_id};
use crate::boilerplate::LineSettings;
use crate::store::rows::{stored_article, ARTICLE_COLUMNS};
use crate::store::rules::learning::boilerplate_hashes;
use crate::store::rules::ArticleSql;
use crate::store::sql::Value;
use crate::store::{Selection, StoreError, WithHtml};

/// Articles read per statement.
const ROWS: usize = 200;

/// Stream the selected articles in id order to `f`, each with its kept
/// page (`None`: not kept) and a judge over the line table; how many were
/// written. A store error ends the stream and is returned as itself.
pub(crate) fn articles_with_html(
    w: &mut dyn ArticleSql,
    sel: &Selection,
    f: &mut WithHtml<'_>,
) -> Result<u64, StoreError> {
    let mut args = Args::default();
    let (after, limit) = (args.int(0), args.int(ROWS));
    let cond = conditions(w.sql(), sel, &mut args)?;
    let query = format!(
        "SELECT {ARTICLE_COLUMNS} FROM articles a JOIN sites s ON s.id = a.site_id
         WHERE a.id > {after}{cond} ORDER BY a.id LIMIT {limit}"
    );
    let mut values = args.values();
    let mut site_ids: HashMap<String, Option<i64>> = HashMap::new();
    let mut written = 0;
    loop {
        let articles = w.sql().rows(&query, &values, |r| stored_article(r))?;
        for a in &articles {
            let page = kept_html(w.sql(), a.id)?;
            let mut judge = |site: &str, text: &str, settings: &LineSettings| {
                let id = match site_ids.get(site) {
                    Some(id) => *id,
                    None => {
                        let id = site_id(w.sql(), site)?;
                        site_ids.insert(site.to_string(), id);
                        id
                    }
                };
                // A site that is not there is an error, not "no lines".
                let id = id.ok_or_else(|| StoreError::UnknownSite(site.to_string()))?;
                boilerplate_hashes(w, id, text, settings)
            };
            f(&mut judge, a, page.as_ref())?;
            written += 1;
        }
        match articles.last() {
            Some(last) if articles.len() == ROWS => values[0] = Value::Int(last.id),
            _ => return Ok(written),
        }
    }
}
