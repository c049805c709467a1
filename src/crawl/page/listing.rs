//! A fetched feed or sitemap → the URLs it lists (pure; see the parent
//! module for what is queued and why).
//!
//! In: a [`PageInput`] of kind feed or sitemap. Out: its [`PageOutput`]:
//! the entries as frontier URLs, sitemaps of an index, the cap reached
//! (entries left out, an index cut), or the problem (not a feed, not a
//! sitemap).

use super::{Found, PageInput, PageOutput};
use crate::crawl::discover;
use crate::crawl::kinds::{CapKind, ErrorKind};

/// Feeds and sitemaps are tried as what they were configured as first, then
/// as the other (sites list news sitemaps as feeds and vice versa).
pub(super) fn feed_or_sitemap(input: &PageInput<'_>, feed_first: bool) -> PageOutput {
    let mut out = PageOutput::default();
    let mut found = Found::new(input);
    let capped = std::cell::Cell::new(None);
    // A feed's or sitemap's pages; some left out under `input.entries`.
    let take = |found: &mut Found<'_>, entries: Vec<discover::Entry>, left_out: bool| {
        if left_out {
            capped.set(Some(CapKind::EntriesPerFeed));
        }
        for e in entries {
            found.entry(&e.url, e.published.as_deref());
        }
        true
    };
    let as_feed = |found: &mut Found<'_>| match discover::feed_entries_within(
        input.body,
        input.final_url,
        input.entries,
    ) {
        Ok((entries, left_out)) => take(found, entries, left_out),
        Err(_) => false,
    };
    let as_sitemap = |found: &mut Found<'_>| match discover::sitemap_within(
        input.body,
        input.final_url,
        input.entries,
    ) {
        // An index lists sitemaps, never other indexes (sitemaps.org).
        // Only a sitemap queued at depth 0 (configured, or named by
        // robots.txt) may be an index: one listed by an index is nested,
        // and its children are not followed (a chain of nested indexes
        // queued a million URLs).
        Ok((discover::Sitemap::Index(_), _)) if input.depth > 0 => false,
        Ok((discover::Sitemap::Index(mut maps), _)) => {
            // Each queued sitemap is fetched once a visit: the freshest
            // `max_index_sitemaps` bound what one index costs a visit.
            if maps.len() > input.max_index_sitemaps {
                maps.sort_by(|a, b| b.published.cmp(&a.published));
                maps.truncate(input.max_index_sitemaps);
                capped.set(Some(CapKind::SitemapsPerIndex));
            }
            for map in &maps {
                found.sitemap(&map.url);
            }
            true
        }
        Ok((discover::Sitemap::Urls(entries), left_out)) => take(found, entries, left_out),
        Err(_) => false,
    };
    let order: [&dyn Fn(&mut Found<'_>) -> bool; 2] = if feed_first {
        [&as_feed, &as_sitemap]
    } else {
        [&as_sitemap, &as_feed]
    };
    let parsed = order.iter().any(|parse| parse(&mut found));
    if !parsed {
        out.problem = Some(if feed_first {
            ErrorKind::BadFeed
        } else {
            ErrorKind::BadSitemap
        });
    }
    out.capped = capped.get();
    out.urls = found.urls;
    out.article_links = found.article_links;
    out.unmatched = found.unmatched;
    out.promote = found.promote;
    out.listed = found.listed;
    out
}
