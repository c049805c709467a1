//! Sitemaps → URLs (quick-xml, by hand; gzip-compressed files and encodings
//! other than UTF-8 named in the XML declaration accepted).
//!
//! In: the bytes of a `<urlset>` or `<sitemapindex>` and the sitemap's URL.
//! Out: [`Sitemap::Urls`] with each page's `lastmod` — or, in a Google News
//! sitemap, `news:publication_date` and `news:title` — or
//! [`Sitemap::Index`] with the child sitemaps. Only a `<loc>` that is a
//! direct child of `<url>`/`<sitemap>` counts (image and video extensions
//! have `<image:loc>` etc. deeper down). Malformed or truncated XML is an
//! error, never a partial list — unless the body was cut short at its
//! limit on purpose ([`EntryBound::cut`]): then the whole entries before
//! the cut are read. At most [`EntryBound::max`] pages are read.

use std::io::Read;

use chrono::{DateTime, NaiveDate, SecondsFormat, Utc};
use quick_xml::events::Event;
use quick_xml::Reader;
use url::Url;

use super::{DiscoverError, Entry, EntryBound, Sitemap};
use crate::urls::normalize;

/// The sitemap protocol's limit for one file, uncompressed; it also bounds
/// what a gzip bomb can make us allocate.
const MAX_UNCOMPRESSED: u64 = 50 * 1024 * 1024;

#[derive(Default)]
struct Item {
    loc: Option<String>,
    lastmod: Option<String>,
    news_date: Option<String>,
    news_title: Option<String>,
}

/// The sitemap, and whether pages were left out under `bound`.
pub(super) fn sitemap(
    bytes: &[u8],
    base: &Url,
    bound: EntryBound,
) -> Result<(Sitemap, bool), DiscoverError> {
    let err = |m: String| DiscoverError::Sitemap(m);
    let inflated;
    let bytes = if bytes.starts_with(&[0x1f, 0x8b]) {
        inflated = gunzip(bytes, bound.cut)?;
        &inflated[..]
    } else {
        bytes
    };
    // No text trimming by the reader: it would eat the spaces around an
    // entity (`A &amp; B`); values are trimmed whole instead.
    let transcoded = transcode(bytes);
    let bytes = transcoded.as_deref().map_or(bytes, str::as_bytes);
    let mut reader = Reader::from_reader(bytes);
    // Local names of the open elements, root first.
    let mut stack: Vec<String> = Vec::new();
    let mut root: Option<String> = None;
    let mut item = Item::default();
    let mut text = String::new();
    let mut pages = Vec::new();
    let mut children = Vec::new();
    let mut left_out = false;
    loop {
        let ev = match reader.read_event() {
            Ok(ev) => ev,
            // A body cut on purpose ends inside some element.
            Err(_) if bound.cut && root.is_some() => break,
            Err(e) => return Err(err(format!("at byte {}: {e}", reader.buffer_position()))),
        };
        match ev {
            Event::Start(e) => {
                let name = String::from_utf8_lossy(e.local_name().as_ref()).to_lowercase();
                if stack.len() == 1 && name == "url" && pages.len() >= bound.max {
                    left_out = true;
                    break;
                }
                if root.is_none() {
                    if name != "urlset" && name != "sitemapindex" {
                        return Err(err(format!("root element is <{name}>")));
                    }
                    root = Some(name.clone());
                }
                if stack.len() == 1 {
                    item = Item::default();
                }
                stack.push(name);
                text.clear();
            }
            Event::Empty(_) | Event::Comment(_) | Event::PI(_) | Event::Decl(_) => {}
            Event::DocType(_) => {}
            Event::Text(t) => {
                text.push_str(&t.xml10_content().map_err(|e| err(e.to_string()))?);
            }
            Event::CData(t) => {
                text.push_str(&t.decode().map_err(|e| err(e.to_string()))?);
            }
            Event::GeneralRef(r) => {
                if let Some(c) = r.resolve_char_ref().map_err(|e| err(e.to_string()))? {
                    text.push(c);
                } else {
                    let name = r.decode().map_err(|e| err(e.to_string()))?;
                    let c = match name.as_ref() {
                        "amp" => '&',
                        "lt" => '<',
                        "gt" => '>',
                        "quot" => '"',
                        "apos" => '\'',
                        other => return Err(err(format!("unknown entity &{other};"))),
                    };
                    text.push(c);
                }
            }
            Event::End(_) => {
                let Some(name) = stack.pop() else {
                    return Err(err("unbalanced end tag".into()));
                };
                let value = text.trim().to_string();
                text.clear();
                let parent = stack.last().map(String::as_str);
                match (stack.len(), parent, name.as_str()) {
                    (2, Some("url" | "sitemap"), "loc") => item.loc = Some(value),
                    (2, Some("url" | "sitemap"), "lastmod") => item.lastmod = Some(value),
                    (_, Some("news"), "publication_date") => item.news_date = Some(value),
                    (_, Some("news"), "title") => item.news_title = Some(value),
                    (1, _, "url") => pages.extend(page(std::mem::take(&mut item), base)),
                    (1, _, "sitemap") => children.extend(page(std::mem::take(&mut item), base)),
                    _ => {}
                }
            }
            Event::Eof => break,
        }
    }
    if !stack.is_empty() && !left_out {
        if !bound.cut {
            return Err(err(format!("truncated inside <{}>", stack.join("><"))));
        }
        left_out = true;
    }
    match root.as_deref() {
        Some("urlset") => Ok((Sitemap::Urls(pages), left_out)),
        Some(_) => Ok((Sitemap::Index(children), left_out)),
        None => Err(err("no root element".into())),
    }
}

/// A sitemap whose XML declaration names another encoding than UTF-8
/// (GBK on Chinese sites, ISO-8859-1 on old European ones), as UTF-8.
/// `None` when the bytes are already UTF-8 (or the label is unknown).
fn transcode(bytes: &[u8]) -> Option<String> {
    let head = &bytes[..bytes.len().min(256)];
    let head = String::from_utf8_lossy(head);
    let decl = head.split("?>").next().filter(|d| d.contains("<?xml"))?;
    let at = decl.find("encoding")? + "encoding".len();
    let rest = decl[at..].trim_start().strip_prefix('=')?.trim_start();
    let quote = rest.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let label = rest[1..].split(quote).next()?;
    let enc = encoding_rs::Encoding::for_label(label.trim().as_bytes())?;
    if enc == encoding_rs::UTF_8 {
        return None;
    }
    Some(enc.decode(bytes).0.into_owned())
}

fn page(item: Item, base: &Url) -> Option<Entry> {
    let url = resolve(base, item.loc.as_deref()?)?;
    let published = item
        .news_date
        .as_deref()
        .and_then(w3c_date)
        .or_else(|| item.lastmod.as_deref().and_then(w3c_date));
    Some(Entry {
        url,
        title: item.news_title.filter(|t| !t.is_empty()),
        published,
    })
}

fn resolve(base: &Url, loc: &str) -> Option<Url> {
    normalize(&base.join(loc).ok()?)
}

/// W3C datetime (the sitemap date format: `2026-11-26`, `2026-11-26T10:00Z`,
/// `2026-11-26T10:00:00+01:00`, `…:00.5Z`) → RFC 3339 UTC; unparseable → None.
fn w3c_date(s: &str) -> Option<String> {
    let s = s.trim();
    let utc = |d: DateTime<Utc>| d.to_rfc3339_opts(SecondsFormat::Secs, true);
    if let Ok(d) = DateTime::parse_from_rfc3339(s) {
        return Some(utc(d.with_timezone(&Utc)));
    }
    // Minutes without seconds (allowed by W3C-DTF, rejected by RFC 3339).
    for fmt in ["%Y-%m-%dT%H:%M%#z", "%Y-%m-%dT%H:%M%:z"] {
        if let Ok(d) = DateTime::parse_from_str(s, fmt) {
            return Some(utc(d.with_timezone(&Utc)));
        }
    }
    if let Some(m) = s.strip_suffix('Z') {
        if let Ok(d) = DateTime::parse_from_str(&format!("{m}+00:00"), "%Y-%m-%dT%H:%M%:z") {
            return Some(utc(d.with_timezone(&Utc)));
        }
    }
    let d = NaiveDate::parse_from_str(s, "%Y-%m-%d").ok()?;
    Some(utc(d.and_hms_opt(0, 0, 0)?.and_utc()))
}

/// The inflated bytes; of a body `cut` short, those before the cut.
fn gunzip(bytes: &[u8], cut: bool) -> Result<Vec<u8>, DiscoverError> {
    let mut out = Vec::new();
    let read = flate2::read::GzDecoder::new(bytes)
        .take(MAX_UNCOMPRESSED + 1)
        .read_to_end(&mut out);
    match read {
        Err(e) if cut && e.kind() == std::io::ErrorKind::UnexpectedEof => {}
        other => {
            other.map_err(|e| DiscoverError::Sitemap(format!("gzip: {e}")))?;
        }
    }
    if out.len() as u64 > MAX_UNCOMPRESSED {
        return Err(DiscoverError::Sitemap(format!(
            "larger than {MAX_UNCOMPRESSED} bytes uncompressed"
        )));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    fn sitemap(bytes: &[u8], base: &Url) -> Result<Sitemap, DiscoverError> {
        super::sitemap(bytes, base, EntryBound::WHOLE).map(|(map, _)| map)
    }

    #[test]
    fn only_the_first_pages_are_read_and_a_cut_sitemap_keeps_its_whole_ones() {
        let xml =
            "<urlset><url><loc>https://e.com/a</loc></url><url><loc>https://e.com/b</loc></url>\
                   <url><loc>https://e.com/c</loc></url></urlset>";
        let first = EntryBound { max: 2, cut: false };
        let (Sitemap::Urls(got), true) = super::sitemap(xml.as_bytes(), &base(), first).unwrap()
        else {
            panic!("two pages, some left out");
        };
        assert_eq!(got.len(), 2);
        let cut = &xml[..xml.find("/b<").unwrap()];
        assert!(sitemap(cut.as_bytes(), &base()).is_err());
        let bound = EntryBound {
            max: usize::MAX,
            cut: true,
        };
        let (Sitemap::Urls(got), true) = super::sitemap(cut.as_bytes(), &base(), bound).unwrap()
        else {
            panic!("the page before the cut");
        };
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].url.as_str(), "https://e.com/a");
    }

    fn base() -> Url {
        Url::parse("https://news.example.com/sitemap.xml").unwrap()
    }

    const URLSET: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
  <url><loc>https://news.example.com/a.html?x=1&amp;utm_source=sm</loc><lastmod>2026-11-25</lastmod>
    <image:image><image:loc>https://img.example.com/a.jpg</image:loc></image:image></url>
  <url><loc> /b.html </loc><lastmod>2026-11-25T10:30+01:00</lastmod></url>
  <url><loc><![CDATA[https://news.example.com/c.html]]></loc><lastmod>garbage</lastmod></url>
  <url><lastmod>2026-11-25</lastmod></url>
</urlset>"#;

    #[test]
    fn urlset_with_lastmod() {
        let Sitemap::Urls(got) = sitemap(URLSET.as_bytes(), &base()).unwrap() else {
            panic!("expected a urlset")
        };
        let urls: Vec<&str> = got.iter().map(|e| e.url.as_str()).collect();
        assert_eq!(
            urls,
            [
                "https://news.example.com/a.html?x=1",
                "https://news.example.com/b.html",
                "https://news.example.com/c.html",
            ]
        );
        assert_eq!(got[0].published.as_deref(), Some("2026-11-25T00:00:00Z"));
        assert_eq!(got[1].published.as_deref(), Some("2026-11-25T09:30:00Z"));
        assert_eq!(got[2].published, None);
    }

    #[test]
    fn google_news_sitemap() {
        let xml = r#"<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">
  <url><loc>https://news.example.com/2026/11/26/budget.html</loc>
    <news:news><news:publication><news:name>Example</news:name><news:language>en</news:language></news:publication>
      <news:publication_date>2026-11-26T07:15:00+00:00</news:publication_date>
      <news:title>Budget passes &amp; markets rise</news:title></news:news></url>
</urlset>"#;
        let Sitemap::Urls(got) = sitemap(xml.as_bytes(), &base()).unwrap() else {
            panic!("expected a urlset")
        };
        assert_eq!(got.len(), 1);
        assert_eq!(
            got[0].title.as_deref(),
            Some("Budget passes & markets rise")
        );
        assert_eq!(got[0].published.as_deref(), Some("2026-11-26T07:15:00Z"));
    }

    #[test]
    fn sitemap_index() {
        let xml = r#"<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>https://news.example.com/sm-1.xml</loc><lastmod>2026-11-26</lastmod></sitemap>
  <sitemap><loc>sm-2.xml.gz</loc></sitemap>
</sitemapindex>"#;
        let got = sitemap(xml.as_bytes(), &base()).unwrap();
        let Sitemap::Index(children) = got else {
            panic!("expected an index")
        };
        let urls: Vec<&str> = children.iter().map(|e| e.url.as_str()).collect();
        assert_eq!(
            urls,
            [
                "https://news.example.com/sm-1.xml",
                "https://news.example.com/sm-2.xml.gz"
            ]
        );
        assert_eq!(
            children[0].published.as_deref(),
            Some("2026-11-26T00:00:00Z")
        );
        assert_eq!(children[1].published, None);
    }

    #[test]
    fn gzip_sitemap_is_inflated() {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(URLSET.as_bytes()).unwrap();
        let bytes = gz.finish().unwrap();
        let Sitemap::Urls(got) = sitemap(&bytes, &base()).unwrap() else {
            panic!("expected a urlset")
        };
        assert_eq!(got.len(), 3);
    }

    #[test]
    fn malformed_sitemaps_are_errors() {
        for bad in [
            "",
            "<html><body>Not found</body></html>",
            "<urlset><url><loc>https://e.com/a</loc></url>",
            "<urlset><url><loc>https://e.com/a</lastmod></url></urlset>",
            "<urlset><url><loc>&bogus;</loc></url></urlset>",
            "\u{0}\u{1}garbage<<<",
        ] {
            assert!(
                matches!(
                    sitemap(bad.as_bytes(), &base()),
                    Err(DiscoverError::Sitemap(_))
                ),
                "{bad:?}"
            );
        }
        assert!(sitemap(&[0x1f, 0x8b, 0, 1, 2], &base()).is_err());
    }

    #[test]
    fn gbk_news_sitemap_is_decoded() {
        let xml = "<?xml version=\"1.0\" encoding=\"GBK\"?>\n<urlset xmlns:news=\"n\"><url>\
                   <loc>https://news.example.com/a.shtml</loc><news:news>\
                   <news:title>国务院常务会议</news:title></news:news></url></urlset>";
        let (gbk, _, bad) = encoding_rs::GBK.encode(xml);
        assert!(!bad);
        let Sitemap::Urls(got) = sitemap(&gbk, &base()).unwrap() else {
            panic!("expected a urlset")
        };
        assert_eq!(got[0].title.as_deref(), Some("国务院常务会议"));
    }

    #[test]
    fn w3c_dates() {
        assert_eq!(
            w3c_date("2026-11-26T10:00:00.5+01:00").as_deref(),
            Some("2026-11-26T09:00:00Z")
        );
        assert_eq!(
            w3c_date("2026-11-26T10:00Z").as_deref(),
            Some("2026-11-26T10:00:00Z")
        );
        assert_eq!(w3c_date("26/11/2026"), None);
    }
}
