//! A `[[sites]]` block added after the last site of a `crawler.toml`'s
//! text (at the end when it has none), the rest of the file (comments,
//! order, spacing) left exactly as it was (pure; `toml_edit` keeps what it
//! does not touch).
//!
//! In: the file's text and the new site ([`SiteBlock`]). Out: the new text,
//! or why not: the file does not parse, or a site of that name exists.

use toml_edit::{Array, ArrayOfTables, DocumentMut, Item, Table};

/// A site to append: only what the user gave or `sites add` discovered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SiteBlock {
    pub name: String,
    pub start: Vec<String>,
    pub feeds: Vec<String>,
    pub sitemaps: Vec<String>,
    /// Extra hosts (of feeds and sitemaps on other hosts).
    pub hosts: Vec<String>,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum AppendError {
    #[error("not valid TOML: {0}")]
    Syntax(String),
    #[error("a site named {0:?} is already configured (choose another with --name)")]
    NameTaken(String),
    #[error("`sites` is not a list of [[sites]] tables")]
    NotSites,
}

/// The names of the `[[sites]]` in a config's text (for a default name
/// that is free).
pub fn site_names(text: &str) -> Result<Vec<String>, AppendError> {
    let doc: DocumentMut = text
        .parse()
        .map_err(|e: toml_edit::TomlError| AppendError::Syntax(e.to_string()))?;
    Ok(names_in(&doc))
}

fn names_in(doc: &DocumentMut) -> Vec<String> {
    doc.get("sites")
        .and_then(Item::as_array_of_tables)
        .map(|sites| {
            sites
                .iter()
                .filter_map(|t| t.get("name").and_then(Item::as_str).map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

fn strings(list: &[String]) -> Item {
    toml_edit::value(list.iter().map(String::as_str).collect::<Array>())
}

/// `text` with `site` appended as the last `[[sites]]` block, every other
/// byte of `text` kept: a UTF-8 byte order mark, and CRLF line endings (the
/// new block gets the file's line ending). toml_edit writes LF and drops
/// the mark, so it is run on the text without them, only to learn where
/// the block goes and how it reads; the block is then put in the text as
/// it was.
pub fn append_site(text: &str, site: &SiteBlock) -> Result<String, AppendError> {
    const BOM: &str = "\u{feff}";
    let (bom, body) = match text.strip_prefix(BOM) {
        Some(rest) => (BOM, rest),
        None => ("", text),
    };
    let crlf = body.contains("\r\n");
    let lf = if crlf {
        body.replace("\r\n", "\n")
    } else {
        body.to_string()
    };
    let out = append_site_lf(&lf, site)?;
    let Some((at, added)) = insertion(&lf, &out) else {
        // toml_edit changed more than it added: its text, in the file's
        // line endings.
        let out = if crlf { out.replace('\n', "\r\n") } else { out };
        return Ok(format!("{bom}{out}"));
    };
    let added = if crlf {
        added.replace('\n', "\r\n")
    } else {
        added.to_string()
    };
    let at = original_offset(body, at);
    Ok(format!("{bom}{}{added}{}", &body[..at], &body[at..]))
}

/// Where `out` is `text` with one piece added: its offset in `text`, and
/// the piece.
fn insertion<'a>(text: &str, out: &'a str) -> Option<(usize, &'a str)> {
    let added = out.len().checked_sub(text.len())?;
    let mut at = text
        .bytes()
        .zip(out.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    while !text.is_char_boundary(at) || !out.is_char_boundary(at) {
        at -= 1;
    }
    let piece = out.get(at..at + added)?;
    (out[..at] == text[..at] && out[at + added..] == text[at..]).then_some((at, piece))
}

/// The offset in `original` of offset `at` of its text with every CRLF
/// made LF.
fn original_offset(original: &str, at: usize) -> usize {
    let bytes = original.as_bytes();
    let (mut i, mut n) = (0, 0);
    while n < at && i < bytes.len() {
        i += if bytes[i..].starts_with(b"\r\n") {
            2
        } else {
            1
        };
        n += 1;
    }
    i
}

fn append_site_lf(text: &str, site: &SiteBlock) -> Result<String, AppendError> {
    let mut doc: DocumentMut = text
        .parse()
        .map_err(|e: toml_edit::TomlError| AppendError::Syntax(e.to_string()))?;
    if names_in(&doc).contains(&site.name) {
        return Err(AppendError::NameTaken(site.name.clone()));
    }
    let mut table = Table::new();
    table.insert("name", toml_edit::value(site.name.as_str()));
    table.insert("start", strings(&site.start));
    if !site.feeds.is_empty() {
        table.insert("feeds", strings(&site.feeds));
    }
    if !site.sitemaps.is_empty() {
        table.insert("sitemaps", strings(&site.sitemaps));
    }
    if !site.hosts.is_empty() {
        table.insert("hosts", strings(&site.hosts));
    }
    if !text.trim().is_empty() {
        // A blank line apart from what comes before.
        table.decor_mut().set_prefix("\n");
    }
    match doc.get_mut("sites") {
        None => {
            let mut sites = ArrayOfTables::new();
            sites.push(table);
            doc.insert("sites", Item::ArrayOfTables(sites));
        }
        Some(Item::ArrayOfTables(sites)) => sites.push(table),
        Some(_) => return Err(AppendError::NotSites),
    }
    let mut out = doc.to_string();
    if !text.is_empty() && !text.ends_with('\n') && out.starts_with(text) {
        // The old last line had no newline: the new block starts on a line
        // of its own all the same.
        out.insert(text.len(), '\n');
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::config::Config;

    fn block(name: &str) -> SiteBlock {
        SiteBlock {
            name: name.into(),
            start: vec!["https://news.example/".into()],
            feeds: vec!["https://news.example/feed.xml".into()],
            sitemaps: vec![],
            hosts: vec![],
        }
    }

    const CONFIG: &str = r#"# My crawler.
[crawler]
database = "news.db"   # where articles go

# The sites.
[[sites]]
name = "planet"
start = ["https://planet.example/"]
article_patterns = ['/news/\d{4}/']   # keep this

[store]
keep_html = true
"#;

    #[test]
    fn the_block_is_appended_and_the_rest_of_the_file_kept_byte_for_byte() {
        let out = append_site(CONFIG, &block("mine")).unwrap();
        // Placed after the last site, the rest of the file as it was.
        let added = "\n[[sites]]\nname = \"mine\"\nstart = [\"https://news.example/\"]\n\
                     feeds = [\"https://news.example/feed.xml\"]\n";
        let at = out.find(added).expect("the block");
        assert_eq!(
            format!("{}{}", &out[..at], &out[at + added.len()..]),
            CONFIG
        );
        assert!(out[..at].ends_with("# keep this\n"), "{out}");
        let cfg = Config::parse(&out, Path::new("t.toml"), Path::new(".")).unwrap();
        let names: Vec<&str> = cfg.sites.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["planet", "mine"]);
        assert_eq!(cfg.sites[1].feeds.len(), 1);
        assert!(cfg.sites[1].article_patterns.is_empty());
        assert!(cfg.store.keep_html);
    }

    #[test]
    fn regression_sites_add_rewrote_crlf_as_lf_and_dropped_a_bom() {
        let crlf = format!("\u{feff}{}", CONFIG.replace('\n', "\r\n"));
        let out = append_site(&crlf, &block("mine")).unwrap();
        let added = "\r\n[[sites]]\r\nname = \"mine\"\r\nstart = [\"https://news.example/\"]\r\n\
                     feeds = [\"https://news.example/feed.xml\"]\r\n";
        let at = out.find(added).expect("the block, in CRLF");
        assert_eq!(format!("{}{}", &out[..at], &out[at + added.len()..]), crlf);
        assert!(out[..at].ends_with("# keep this\r\n"), "{out:?}");
        let cfg = Config::parse(&out, Path::new("t.toml"), Path::new(".")).unwrap();
        assert_eq!(cfg.sites.len(), 2);
        // A file whose last line has no line ending gets one, its own.
        let out = append_site("[crawler]\r\ndatabase = \"x.db\"", &block("m")).unwrap();
        assert!(
            out.starts_with("[crawler]\r\ndatabase = \"x.db\"\r\n"),
            "{out:?}"
        );
        assert!(!out.replace("\r\n", "").contains('\n'), "{out:?}");
    }

    #[test]
    fn a_name_already_present_is_refused() {
        assert_eq!(
            append_site(CONFIG, &block("planet")),
            Err(AppendError::NameTaken("planet".into()))
        );
        assert_eq!(site_names(CONFIG).unwrap(), ["planet"]);
    }

    #[test]
    fn an_empty_or_siteless_file_gets_its_first_site() {
        let out = append_site("", &block("mine")).unwrap();
        assert!(out.starts_with("[[sites]]\nname = \"mine\""), "{out}");
        let text = "[crawler]\ndatabase = \"x.db\"";
        let out = append_site(text, &block("mine")).unwrap();
        assert!(out.starts_with("[crawler]\ndatabase = \"x.db\"\n"), "{out}");
        let cfg = Config::parse(&out, Path::new("t.toml"), Path::new(".")).unwrap();
        assert_eq!(cfg.sites.len(), 1);
    }

    #[test]
    fn odd_characters_in_a_url_are_written_as_valid_toml() {
        let mut b = block("odd");
        b.start = vec!["https://news.example/?q=\"x\"\\y".into()];
        let out = append_site("", &b).unwrap();
        let doc: DocumentMut = out.parse().unwrap();
        let start = doc["sites"][0]["start"][0].as_str();
        assert_eq!(start, Some("https://news.example/?q=\"x\"\\y"));
    }

    #[test]
    fn a_file_that_is_not_toml_is_refused() {
        assert!(matches!(
            append_site("[[sites]\nname=", &block("x")),
            Err(AppendError::Syntax(_))
        ));
        assert_eq!(
            append_site("sites = 3\n", &block("x")),
            Err(AppendError::NotSites)
        );
    }
}
