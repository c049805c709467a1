//! HTML → HTML without non-content, in one streaming lol_html pass after a
//! byte scan ([`prepass`]) that jumps over comments, scripts and styles.
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
//! A third guard protects the parser: nesting deeper than [`MAX_DEPTH`] is
//! flattened by the prepass (see there why).
//!
//! [`strip_collecting`] also hands back the page's link attributes
//! ([`links::LinkAttrs`]), read by the prepass on its way: the crawler's
//! link discovery without a second pass over an article page;
//! [`collect_links`] runs that prepass alone for the pages it does not
//! extract.

pub mod links;
mod prepass;

use std::borrow::Cow;
use std::sync::LazyLock;

use links::LinkAttrs;
use lol_html::html_content::Element;
use lol_html::{ElementContentHandlers, RewriteStrSettings, Selector};
use prepass::{find_ci, prepass_collecting};

/// Elements that never hold article text and that only a parser can find
/// the end of (they nest); the prepass has already dropped the simpler ones
/// (scripts, styles, noscript, iframes, images, inputs, textareas). Form
/// controls go too (`<button>` labels are "Share", "Subscribe"), but `<form>`
/// stays: ASP.NET pages wrap the whole body in one. Rarer text-free elements
/// (math, canvas, template, dialog, …) are left to the DOM stage, which skips
/// them: every selector here costs time on every tag.
const DROP: &str = "svg, button, select, audio, video";

/// The element names of [`DROP`], lower case.
const DROP_NAMES: &[&[u8]] = &[b"svg", b"button", b"select", b"audio", b"video"];

static DROP_SELECTOR: LazyLock<Selector> = LazyLock::new(|| {
    DROP.parse()
        .expect("the drop selector is valid (checked by a unit test)")
});

/// Nesting deeper than this is flattened before parsing (see the module doc).
pub const MAX_DEPTH: usize = 512;

/// Strip non-content elements; on a rewriter error, return the input (with its
/// title repaired) unchanged.
pub fn strip(html: &str) -> String {
    let html = fix_title(html);
    strip_elements(prepass_collecting(&html, MAX_DEPTH, None))
}

/// [`strip`], collecting the link attributes of the page (its title
/// repaired) into `links` on the way. The stripped HTML is the same.
pub fn strip_collecting(html: &str, links: &mut LinkAttrs) -> String {
    let html = fix_title(html);
    strip_elements(prepass_collecting(&html, MAX_DEPTH, Some(links)))
}

/// The link attributes of a page that is not extracted (a section front,
/// a start page): the prepass of [`strip_collecting`] alone, so that every
/// HTML page's links come from the same scan, read once.
pub fn collect_links(html: &str, links: &mut LinkAttrs) {
    let html = fix_title(html);
    let _ = prepass_collecting(&html, MAX_DEPTH, Some(links));
}

fn strip_elements(html: Cow<'_, str>) -> String {
    // A page that never opens one of these elements has nothing for the
    // rewriter to remove, and lol_html copies what it does not remove byte
    // for byte: skip the pass (two pages in three of page-signal-dev).
    if !has_start_tag_of(html.as_bytes(), DROP_NAMES) {
        return html.into_owned();
    }
    let settings = RewriteStrSettings::new()
        .append_element_content_handler((
            Cow::Borrowed(&*DROP_SELECTOR),
            ElementContentHandlers::default().element(|el: &mut Element<'_, '_>| {
                el.remove();
                Ok(())
            }),
        ))
        .with_strict(false);
    match lol_html::rewrite_str(&html, settings) {
        Ok(out) => out,
        Err(_) => html.into_owned(),
    }
}

/// Does `html` hold `<` followed by one of `names` (lower case; matched
/// ignoring ASCII case, as HTML tag names are)? A start tag of any of those
/// elements does; a `false` means none can be in the parsed page. (Longer
/// names that start with one, `<svgx>`, answer `true` too: a needless pass,
/// never a missed one.)
fn has_start_tag_of(html: &[u8], names: &[&[u8]]) -> bool {
    memchr::memchr_iter(b'<', html).any(|lt| {
        let after = &html[lt + 1..];
        names
            .iter()
            .any(|n| after.len() >= n.len() && after[..n.len()].eq_ignore_ascii_case(n))
    })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drop_selector_parses() {
        // A bad selector would panic on the first page; it fails here first.
        let html = "<p>kept</p><svg><text>gone</text></svg><button>Share</button>";
        assert_eq!(strip_elements(Cow::Borrowed(html)), "<p>kept</p>");
    }

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
    fn collecting_links_strips_the_same_and_finds_them_in_document_order() {
        let html = "<html><head><title>T</title><base href=/b/><base href=/no/>\
             <link rel='Canonical Start' href=/c><link rel=alternate type=application/rss+xml href=/f>\
             <meta property=og:url content=/og><meta http-equiv=REFRESH content='0;url=/r'>\
             <script>'<a href=/s>'</script></head><body><!-- <a href=/x> -->\
             <a href=\"/1\" class=k>one</a><area href=/2><a>no</a><a href=/3 href=/4>\
             <div><a href='/5' id=q>five</a></div><a href=/unfinished";
        let mut links = LinkAttrs::new(4);
        assert_eq!(strip_collecting(html, &mut links), strip(html));
        // The refresh target comes first (document order) and counts.
        assert_eq!(links.links, ["/r", "/1", "/2", "/3"]);
        assert_eq!(links.base.as_deref(), Some("/b/"));
        assert_eq!(links.canonical.as_deref(), Some("/c"));
        assert_eq!(links.og_url.as_deref(), Some("/og"));
        assert_eq!(links.feeds, ["/f"]);
    }

    #[test]
    fn collecting_counts_the_form_fields_the_prepass_drops() {
        let html = "<form role=search><input type=search name=q></form>\
             <form><input name=s><input type=email name=e><INPUT TYPE=PASSWORD name=p>\
             <input type=hidden name=t><input type=checkbox><textarea name=m>hi</textarea>\
             <input name=who></form>";
        let mut links = LinkAttrs::new(4);
        let stripped = strip_collecting(html, &mut links);
        assert!(!stripped.contains("<input"), "{stripped}");
        let f = links.form_fields;
        assert_eq!((f.search, f.password, f.text), (2, 1, 3));
        assert_eq!(f.total(), 6);
    }

    #[test]
    fn a_page_without_dropped_elements_comes_out_as_lol_html_gives_it() {
        let page = "<html><head><title>T</title></head><body><div class=a>One &amp; <b>two</b>\
             <p>Three<br>four<img alt=x></div><x-video>kept</x-video></body>";
        assert!(!has_start_tag_of(page.as_bytes(), DROP_NAMES));
        let settings = RewriteStrSettings::new().with_strict(false);
        let rewritten = lol_html::rewrite_str(page, settings).unwrap();
        assert_eq!(strip_elements(Cow::Borrowed(page)), rewritten);
        assert_eq!(rewritten, page);
    }

    #[test]
    fn dropped_elements_are_found_in_any_case_and_removed() {
        for page in [
            "<p>a<SVG><text>x</text></svg>b</p>",
            "<p>a<Button type=submit>Share</button>b</p>",
            "<p>a<video src=v>Your browser</video>b</p>",
        ] {
            assert!(has_start_tag_of(page.as_bytes(), DROP_NAMES), "{page}");
            assert_eq!(strip_elements(Cow::Borrowed(page)), "<p>ab</p>", "{page}");
        }
    }

    #[test]
    fn good_title_untouched() {
        let html = "<TITLE>a < b</TITLE><p>x</p>";
        assert!(matches!(fix_title(html), Cow::Borrowed(_)));
    }
}
