//! RSS 0.9x/1.0/2.0, Atom and JSON Feed → entries (via feed-rs).
//!
//! In: the feed bytes and the feed's URL (for relative links). Out: one
//! [`Entry`] per item that has an http(s) link: the item's URL (normalised),
//! title, and published (else updated) date as RFC 3339 UTC.

use chrono::SecondsFormat;
use feed_rs::model;
use url::Url;

use super::feed_items::windows;
use super::{DiscoverError, Entry, EntryBound};
use crate::urls::normalize;

#[cfg(test)]
pub(super) fn feed_entries(bytes: &[u8], base: &Url) -> Result<Vec<Entry>, DiscoverError> {
    feed_entries_within(bytes, base, EntryBound::WHOLE).map(|(entries, _)| entries)
}

/// The feed's first `bound.max` entries (of a body cut short, the whole
/// ones before the cut), and whether any were left out.
pub(super) fn feed_entries_within(
    bytes: &[u8],
    base: &Url,
    bound: EntryBound,
) -> Result<(Vec<Entry>, bool), DiscoverError> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let mut keep = |feed: model::Feed, out: &mut Vec<Entry>| {
        out.extend(
            feed.entries
                .iter()
                .filter_map(|e| entry(e, base))
                .filter(|e| seen.insert(e.url.as_str().to_string())),
        );
    };
    let Some(windows) = windows(bytes, bound.max, bound.cut) else {
        // Small and whole, or JSON: parsed as it is.
        keep(parse(bytes, base)?, &mut out);
        let left_out = out.len() > bound.max;
        out.truncate(bound.max);
        return Ok((out, left_out));
    };
    for doc in windows.documents() {
        keep(parse(&doc, base)?, &mut out);
    }
    Ok((out, windows.left_out))
}

fn parse(bytes: &[u8], base: &Url) -> Result<model::Feed, DiscoverError> {
    feed_rs::parser::Builder::new()
        .base_uri(Some(base.as_str()))
        .build()
        .parse(bytes)
        .map_err(|e| DiscoverError::Feed(e.to_string()))
}

fn entry(e: &model::Entry, base: &Url) -> Option<Entry> {
    let url = entry_link(e)
        .and_then(|href| base.join(href.trim()).ok())
        .and_then(|u| normalize(&u))?;
    let title = e
        .title
        .as_ref()
        .map(|t| t.content.trim().to_string())
        .filter(|t| !t.is_empty());
    let published = e
        .published
        .or(e.updated)
        .map(|d| d.to_rfc3339_opts(SecondsFormat::Secs, true));
    Some(Entry {
        url,
        title,
        published,
    })
}

/// The item's own page: an `alternate` (or rel-less) link first, any other
/// link next, and finally an id that is itself a URL (RSS `guid
/// isPermaLink`, JSON Feed ids).
fn entry_link(e: &model::Entry) -> Option<&str> {
    let alternate = e.links.iter().find(|l| {
        l.rel
            .as_deref()
            .is_none_or(|r| r.eq_ignore_ascii_case("alternate"))
    });
    let not_self = e.links.iter().find(|l| {
        !l.rel.as_deref().is_some_and(|r| {
            ["self", "edit", "enclosure", "replies"]
                .iter()
                .any(|x| r.eq_ignore_ascii_case(x))
        })
    });
    alternate
        .or(not_self)
        .map(|l| l.href.as_str())
        .or_else(|| Some(e.id.as_str()).filter(|id| id.starts_with("http")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base() -> Url {
        Url::parse("https://news.example.com/rss/world.xml").unwrap()
    }

    #[test]
    fn rss2_items_with_dates() {
        let xml = r#"<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>World</title><link>https://news.example.com/</link>
<item><title> Storm hits coast </title><link>https://news.example.com/world/storm.html?utm_source=rss</link>
  <pubDate>Wed, 25 Nov 2026 18:30:00 +0100</pubDate></item>
<item><title>Relative</title><link>/world/rel.html</link></item>
<item><title>Guid only</title><guid isPermaLink="true">https://news.example.com/world/guid.html</guid></item>
<item><title>No link</title><description>x</description></item>
<item><title>Dup</title><link>https://news.example.com/world/storm.html</link></item>
</channel></rss>"#;
        let got = feed_entries(xml.as_bytes(), &base()).unwrap();
        let urls: Vec<&str> = got.iter().map(|e| e.url.as_str()).collect();
        assert_eq!(
            urls,
            [
                "https://news.example.com/world/storm.html",
                "https://news.example.com/world/rel.html",
                "https://news.example.com/world/guid.html",
            ]
        );
        assert_eq!(got[0].title.as_deref(), Some("Storm hits coast"));
        assert_eq!(got[0].published.as_deref(), Some("2026-11-25T17:30:00Z"));
        assert_eq!(got[1].published, None);
    }

    #[test]
    fn atom_entries_prefer_alternate_links() {
        let xml = r#"<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>T</title><id>urn:x</id><updated>2026-11-26T00:00:00Z</updated>
<entry><title>A</title><id>urn:a</id>
  <link rel="self" href="https://news.example.com/api/a.json"/>
  <link rel="alternate" type="text/html" href="https://news.example.com/a.html"/>
  <updated>2026-11-26T01:02:03+02:00</updated></entry>
</feed>"#;
        let got = feed_entries(xml.as_bytes(), &base()).unwrap();
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].url.as_str(), "https://news.example.com/a.html");
        assert_eq!(got[0].published.as_deref(), Some("2026-11-25T23:02:03Z"));
    }

    #[test]
    fn json_feed_items() {
        let json = r#"{"version":"https://jsonfeed.org/version/1.1","title":"J",
            "items":[{"id":"1","url":"https://news.example.com/j1.html","title":"J1",
                      "date_published":"2026-11-26T08:00:00Z"}]}"#;
        let got = feed_entries(json.as_bytes(), &base()).unwrap();
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].url.as_str(), "https://news.example.com/j1.html");
        assert_eq!(got[0].published.as_deref(), Some("2026-11-26T08:00:00Z"));
    }

    #[test]
    fn not_a_feed_is_an_error() {
        for bad in [
            &b"<html><body>hello</body></html>"[..],
            b"<rss><channel><item><title>unclosed",
            b"",
            b"\x00\x01\x02\xff",
            b"{\"not\":\"a feed\"}",
        ] {
            assert!(
                matches!(feed_entries(bad, &base()), Err(DiscoverError::Feed(_))),
                "{:?}",
                String::from_utf8_lossy(bad)
            );
        }
    }
}
