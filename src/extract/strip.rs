//! HTML → HTML without non-content, in one streaming lol_html pass.
//!
//! In: decoded HTML. Out: the same HTML minus elements that never carry article
//! text (scripts, styles, comments, noscript, iframes, svg, form controls, …).
//!
//! Two traps this pass guards against (each has a regression test):
//! - `<head>` itself is never stripped: old pages that never close their head
//!   would lose the whole body with it. Only the content-free elements inside
//!   head go (scripts, styles); `<title>`, `<meta>`, `<link>` stay for metadata.
//! - A corrupt `<title>` (never closed, or with markup inside) makes the HTML
//!   parser read the rest of the page as title text (RCDATA). [`fix_title`]
//!   closes it at its first tag-like `<` before parsing.
//!
//! JSON-LD scripts are kept: metadata reads `datePublished` and friends there.
//!
//! A third guard protects the parser: html5ever checks "has a `<p>` in button
//! scope" by scanning the stack of open elements for every start tag, which
//! is quadratic in nesting depth (20,000 nested `<div>`s took 2 s, 100,000
//! about a minute). [`limit_depth`] drops the tags (not the text) nested deeper
//! than [`MAX_DEPTH`]; real pages stay far below it.

use std::borrow::Cow;
use std::sync::LazyLock;

use lol_html::html_content::{Comment, Element};
use lol_html::{DocumentContentHandlers, ElementContentHandlers, RewriteStrSettings, Selector};

/// Elements that never hold article text. Form controls go too (`<button>`
/// labels are "Share", "Subscribe"), but `<form>` stays: ASP.NET pages wrap the
/// whole body in one.
/// Images go too: they carry no text, and their tags are a tenth of a page's
/// bytes, which the parser would otherwise read. Rarer text-free elements
/// (math, canvas, template, dialog, …) are left to the DOM stage, which
/// skips them: every selector here costs compile time on every page.
const DROP: &str = "script, style, noscript, iframe, svg, img, input, button, select, textarea, \
                    audio, video";

static DROP_SELECTOR: LazyLock<Option<Selector>> = LazyLock::new(|| DROP.parse().ok());

static LINK_SELECTOR: LazyLock<Option<Selector>> = LazyLock::new(|| "a".parse().ok());

/// Nesting deeper than this is flattened before parsing (see the module doc).
pub const MAX_DEPTH: usize = 512;

/// Strip non-content elements; on a rewriter error, return the input (with its
/// title repaired) unchanged.
pub fn strip(html: &str) -> String {
    let out = strip_elements(html);
    match limit_depth(&out, MAX_DEPTH) {
        Cow::Borrowed(_) => out,
        Cow::Owned(o) => o,
    }
}

fn strip_elements(html: &str) -> String {
    let html = fix_title(html);
    let (Some(selector), Some(link_selector)) = (DROP_SELECTOR.as_ref(), LINK_SELECTOR.as_ref())
    else {
        return html.into_owned();
    };
    let settings = RewriteStrSettings::new()
        .append_element_content_handler((
            Cow::Borrowed(selector),
            ElementContentHandlers::default().element(|el: &mut Element<'_, '_>| {
                if el.tag_name() == "script" && is_json_ld(el) {
                    return Ok(());
                }
                el.remove();
                Ok(())
            }),
        ))
        // Link targets and scripts are most of the bytes of a link-heavy page and
        // extraction never reads them; `rel` stays for metadata.
        .append_element_content_handler((
            Cow::Borrowed(link_selector),
            ElementContentHandlers::default().element(|el: &mut Element<'_, '_>| {
                strip_link_attributes(el);
                Ok(())
            }),
        ))
        .append_document_content_handler(DocumentContentHandlers::default().comments(
            |c: &mut Comment<'_>| {
                c.remove();
                Ok(())
            },
        ))
        .with_strict(false);
    match lol_html::rewrite_str(&html, settings) {
        Ok(out) => out,
        Err(_) => html.into_owned(),
    }
}

/// Attributes of `<a>` that extraction never reads.
const LINK_DROP_ATTRS: [&str; 6] = [
    "href",
    "onclick",
    "onmouseover",
    "onmouseout",
    "title",
    "style",
];

/// Remove [`LINK_DROP_ATTRS`] from a link. lol_html's `remove_attribute`
/// allocates twice per call whether or not the attribute is there; the names
/// present are found in one sweep (one allocation per attribute) and only those
/// are removed (same output as removing every name).
fn strip_link_attributes(el: &mut Element<'_, '_>) {
    let mut present: [Option<&'static str>; LINK_DROP_ATTRS.len()] = [None; LINK_DROP_ATTRS.len()];
    let mut n = 0;
    for attr in el.attributes() {
        let name = attr.name();
        if let Some(&drop) = LINK_DROP_ATTRS.iter().find(|d| **d == name) {
            if n < present.len() {
                present[n] = Some(drop);
                n += 1;
            }
        }
    }
    for name in present.into_iter().flatten() {
        el.remove_attribute(name);
    }
}

fn is_json_ld(el: &Element<'_, '_>) -> bool {
    el.get_attribute("type")
        .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/ld+json"))
}

/// Close a corrupt `<title>` at its first tag-like `<`.
///
/// A title is corrupt when no `</title` follows it, or when markup (`<` then a
/// letter, `/` or `!`) appears before the closing tag. Only the first `<title`
/// of the page is examined (the document title; svg titles are stripped).
pub fn fix_title(html: &str) -> Cow<'_, str> {
    let bytes = html.as_bytes();
    let Some(open) = find_ci(bytes, 0, b"<title") else {
        return Cow::Borrowed(html);
    };
    // `<title>` or `<title attr…>`, not `<titlefoo>`.
    let after_name = open + 6;
    match bytes.get(after_name) {
        Some(b'>' | b' ' | b'\t' | b'\n' | b'\r' | b'/') => {}
        _ => return Cow::Borrowed(html),
    }
    let Some(gt) = bytes[after_name..].iter().position(|&b| b == b'>') else {
        return Cow::Borrowed(html);
    };
    let content_start = after_name + gt + 1;
    let close = find_ci(bytes, content_start, b"</title");
    let content_end = close.unwrap_or(bytes.len());
    let markup = bytes[content_start..content_end]
        .windows(2)
        .position(|w| w[0] == b'<' && (w[1].is_ascii_alphabetic() || w[1] == b'/' || w[1] == b'!'))
        .map(|p| content_start + p);
    let cut = match (close, markup) {
        (_, Some(m)) => m,
        (None, None) => {
            // Unclosed and no markup until EOF: the title holds the whole rest.
            // Close it after the first line of text at most.
            let rest = &bytes[content_start..];
            content_start + rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len())
        }
        (Some(_), None) => return Cow::Borrowed(html),
    };
    // `cut` is at an ASCII byte or the end, so it is a char boundary.
    let mut out = String::with_capacity(html.len() + 8);
    out.push_str(&html[..cut]);
    out.push_str("</title>");
    out.push_str(&html[cut..]);
    Cow::Owned(out)
}

/// Elements that are void or closed implicitly by their next sibling: they
/// do not deepen the tree, so they are not counted.
fn counts_for_depth(name: &[u8]) -> bool {
    !matches!(
        name,
        b"area"
            | b"base"
            | b"br"
            | b"col"
            | b"embed"
            | b"hr"
            | b"img"
            | b"input"
            | b"link"
            | b"meta"
            | b"param"
            | b"source"
            | b"track"
            | b"wbr"
            | b"p"
            | b"li"
            | b"dt"
            | b"dd"
            | b"tr"
            | b"td"
            | b"th"
            | b"option"
            | b"tbody"
            | b"thead"
            | b"tfoot"
            | b"html"
            | b"head"
            | b"body"
    )
}

/// Drop start and end tags nested deeper than `max` (an estimate from a byte
/// scan: start tags minus end tags, ignoring void and implicitly closed
/// elements). Text is kept. Returns the input when nothing is that deep.
pub fn limit_depth(html: &str, max: usize) -> Cow<'_, str> {
    let bytes = html.as_bytes();
    let mut depth = 0usize;
    let mut excess = 0usize;
    let mut out: Option<String> = None;
    // Start of the text not yet copied to `out`.
    let mut copied = 0usize;
    let mut i = 0usize;
    while let Some(off) = html[i..].find('<') {
        let lt = i + off;
        let close = bytes.get(lt + 1) == Some(&b'/');
        let name_start = lt + 1 + usize::from(close);
        let name_len = bytes[name_start..]
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric())
            .count();
        if name_len == 0 || !bytes[name_start].is_ascii_alphabetic() {
            i = lt + 1;
            continue;
        }
        // Names longer than the buffer are never void/implicit ones: counted.
        let mut buf = [0u8; 8];
        let counted = name_len > buf.len() || {
            for (d, s) in buf
                .iter_mut()
                .zip(&bytes[name_start..name_start + name_len])
            {
                *d = s.to_ascii_lowercase();
            }
            counts_for_depth(&buf[..name_len])
        };
        // `/>` is ignored on non-void elements by HTML parsers, so it is not
        // looked at; the scan resumes after the name (a `<` inside an
        // attribute value only disturbs the estimate).
        let mut drop_tag = false;
        if counted {
            if close {
                if excess > 0 {
                    excess -= 1;
                    drop_tag = true;
                } else {
                    depth = depth.saturating_sub(1);
                }
            } else if depth >= max {
                excess += 1;
                drop_tag = true;
            } else {
                depth += 1;
            }
        }
        i = name_start + name_len;
        if drop_tag {
            let next = (tag_end(bytes, i) + 1).min(bytes.len());
            let o = out.get_or_insert_with(|| String::with_capacity(html.len()));
            o.push_str(&html[copied..lt]);
            copied = next;
            i = next;
        }
        if i >= bytes.len() {
            break;
        }
    }
    match out {
        None => Cow::Borrowed(html),
        Some(mut o) => {
            o.push_str(&html[copied.min(html.len())..]);
            Cow::Owned(o)
        }
    }
}

/// Index of the `>` ending a tag whose attributes start at `from` (quotes
/// respected), or the last index when the tag never ends.
fn tag_end(bytes: &[u8], from: usize) -> usize {
    let mut quote: Option<u8> = None;
    for (k, &b) in bytes.iter().enumerate().skip(from) {
        match quote {
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None if b == b'"' || b == b'\'' => quote = Some(b),
            None if b == b'>' => return k,
            None => {}
        }
    }
    bytes.len().saturating_sub(1)
}

/// Position of the first ASCII-case-insensitive occurrence of `needle` (lower
/// case) in `hay[from..]`.
fn find_ci(hay: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    if needle.is_empty() || hay.len() < needle.len() {
        return None;
    }
    let first = needle[0];
    let last_start = hay.len() - needle.len();
    let mut i = from;
    while i <= last_start {
        let pos = hay[i..=last_start]
            .iter()
            .position(|&b| b.to_ascii_lowercase() == first)?;
        let start = i + pos;
        if hay[start..start + needle.len()].eq_ignore_ascii_case(needle) {
            return Some(start);
        }
        i = start + 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drops_scripts_styles_comments_keeps_text() {
        let out = strip(
            "<html><head><style>p{}</style><script>var a='<p>x</p>';</script></head>\
             <body><!-- c --><p>Hello</p><noscript>Enable JS</noscript></body></html>",
        );
        assert!(out.contains("<p>Hello</p>"), "{out}");
        assert!(!out.contains("var a"));
        assert!(!out.contains("p{}"));
        assert!(!out.contains("Enable JS"));
        assert!(!out.contains("<!--"));
    }

    #[test]
    fn head_never_closed_keeps_body() {
        let out = strip("<html><head><title>T</title><meta charset=utf-8><p>Body text here.</p>");
        assert!(out.contains("Body text here."), "{out}");
    }

    #[test]
    fn keeps_json_ld() {
        let out = strip(
            r#"<head><script type="application/ld+json">{"datePublished":"2020"}</script></head>"#,
        );
        assert!(out.contains("datePublished"));
    }

    #[test]
    fn corrupt_title_unclosed_is_closed() {
        let fixed = fix_title("<html><head><title>News<body><p>Story</p></body>");
        assert_eq!(
            fixed,
            "<html><head><title>News</title><body><p>Story</p></body>"
        );
    }

    #[test]
    fn corrupt_title_with_markup_is_closed() {
        let fixed = fix_title("<title>A <b>bold</b> title</title><p>x</p>");
        assert!(fixed.starts_with("<title>A </title><b>"), "{fixed}");
    }

    #[test]
    fn limit_depth_flattens_only_deep_tags() {
        let html = "<div><div><div><p>x</div></div></div>";
        assert!(matches!(limit_depth(html, 3), Cow::Borrowed(_)));
        let deep = "<div><div><span a='>'>t</span></div></div>";
        assert_eq!(limit_depth(deep, 1), "<div>t</div>");
    }

    #[test]
    fn good_title_untouched() {
        let html = "<TITLE>a < b</TITLE><p>x</p>";
        assert!(matches!(fix_title(html), Cow::Borrowed(_)));
    }
}
