//! A byte scan before the lol_html pass: drops comments, the elements whose
//! end the tokenizer finds without parsing their content (scripts, styles,
//! `<noscript>`, `<iframe>`, `<textarea>`), inputs, the attributes no later
//! stage reads (an `<img>` keeps none: only where a photo stands is read),
//! and nesting deeper than a limit; whitespace runs with
//! a line break in them become one space (outside `<pre>`), and the common
//! character references in text become their characters ([`char_refs`]).
//! Form controls with plain content (`<select>` of options, `<button>` of
//! text) go too, as the lol_html pass would remove them.
//!
//! Why a separate scan: html5ever and lol_html both spend most of their time
//! per tag and per attribute (html5ever reads attribute values one character
//! at a time and interns every attribute name), and over a quarter of a news
//! page's bytes are scripts, styles and comments. Measured on page-signal-dev
//! with callgrind (instructions for 3 × 310 pages), against lol_html doing all
//! of it: strip 2.47 G → 1.78 G, parse 4.27 G → 3.65 G, whole extraction
//! 9.39 G → 8.00 G; 930–940 → 1,100–1,130 pages/s on one thread. The
//! extracted text and metadata of all 437 corpus pages were unchanged.
//! Collapsing line breaks then took parse to 3.28 G and the whole to 7.62 G
//! (1,200–1,230 pages/s): html5ever makes each line break a token of its own.
//! It changed no text, and 9 page-signal pages gained a publication date
//! (date lines padded with whitespace had run past the hint length limit).
//!
//! The scan is only a fast path: whatever it does not recognise is copied
//! through for lol_html (which removes the nested non-content elements) and
//! the parser.
//!
//! Tags are read the way the HTML tokenizer reads them (a quoted attribute
//! value may hold `<` and `>`), and the text of `<title>` and the other
//! raw-text elements is copied without looking for markup in it, as a parser
//! would. JSON-LD scripts are kept: metadata reads them.
//!
//! Depth: html5ever checks "has a `<p>` in button scope" by scanning the stack
//! of open elements for every start tag, which is quadratic in nesting depth
//! (20,000 nested `<div>`s took 2 s, 100,000 about a minute). Start and end
//! tags nested deeper than the limit are dropped (their text is kept). The
//! depth is an estimate (start tags minus end tags, ignoring void and
//! implicitly closed elements); real pages stay far below the limit.

mod attrs;
mod char_refs;

use std::borrow::Cow;
use std::ops::Range;

use attrs::{attr_value, keeps_attribute, tag_end, AttrScan};

use super::links::LinkAttrs;

/// `html` without comments, non-JSON-LD scripts, styles, the other elements
/// listed in the module doc and unread attributes, and with tags nested
/// deeper than `max_depth` removed. Borrowed when nothing changed.
#[cfg(test)]
pub fn prepass(html: &str, max_depth: usize) -> Cow<'_, str> {
    prepass_collecting(html, max_depth, None)
}

/// [`prepass`], also collecting the page's link attributes into `links`
/// (every start tag is read here anyway, see [`LinkAttrs`]).
pub fn prepass_collecting<'h>(
    html: &'h str,
    max_depth: usize,
    links: Option<&mut LinkAttrs>,
) -> Cow<'h, str> {
    let mut scan = Scan {
        html,
        bytes: html.as_bytes(),
        out: Edits::new(html),
        depth: Depth::new(max_depth),
        pre_depth: 0,
        foreign_depth: 0,
        links,
        kept: Vec::new(),
        no_refs_until: 0,
    };
    let mut pos = 0usize;
    while let Some(off) = memchr::memchr3(b'<', b'\n', b'&', &scan.bytes[pos..]) {
        let at = pos + off;
        let next = match scan.bytes[at] {
            b'\n' => Some(scan.line_break(pos, at)),
            b'&' => Some(scan.char_ref(at)),
            _ => scan.markup(at),
        };
        match next {
            Some(next) if next < scan.bytes.len() => pos = next,
            _ => break,
        }
    }
    scan.out.finish()
}

/// The state of one [`prepass`].
struct Scan<'a, 'l> {
    html: &'a str,
    bytes: &'a [u8],
    out: Edits<'a>,
    depth: Depth,
    /// Inside `<pre>`/`<listing>`, where line breaks are text.
    pre_depth: usize,
    /// Inside `<svg>`/`<math>` (foreign content), where `<title/>` is an
    /// empty element, not raw text running to a `</title>` that never comes.
    foreign_depth: usize,
    /// Where the link attributes go, when asked for.
    links: Option<&'l mut LinkAttrs>,
    /// The kept attributes of the tag being read (name to value end),
    /// reused from tag to tag.
    kept: Vec<Range<usize>>,
    /// End of the doctype or bogus comment the scan is in (see
    /// [`Scan::char_ref`]).
    no_refs_until: usize,
}

impl Scan<'_, '_> {
    /// A character reference at `amp` in text: written as its character
    /// when [`char_refs::decode`] knows it. Not in foreign content (a CDATA
    /// section there is not decoded) nor in a doctype or bogus comment.
    /// Returns where to go on.
    fn char_ref(&mut self, amp: usize) -> usize {
        if self.foreign_depth > 0 || amp < self.no_refs_until {
            return amp + 1;
        }
        match char_refs::decode(&self.bytes[amp..]) {
            Some((len, c)) => {
                self.out.replace(amp, amp + len, |o| o.push(c));
                amp + len
            }
            None => amp + 1,
        }
    }

    /// A line break at `at` in text that starts at or before `from`: the
    /// whitespace run around it becomes one space (outside `<pre>`). The
    /// parser makes each line break a token of its own, and text assembly
    /// turns any whitespace run into one space. Returns where to go on.
    fn line_break(&mut self, from: usize, at: usize) -> usize {
        if self.pre_depth > 0 {
            return at + 1;
        }
        let bytes = self.bytes;
        let back = bytes[from..at]
            .iter()
            .rev()
            .take_while(|&&b| is_space(b))
            .count();
        let end = at + 1 + bytes[at + 1..].iter().take_while(|&&b| is_space(b)).count();
        self.out.replace(at - back, end, |o| o.push(' '));
        end
    }

    /// Markup starting with the `<` at `lt`: returns where to go on, or
    /// `None` when the rest of the page is to be copied as it is.
    fn markup(&mut self, lt: usize) -> Option<usize> {
        let (html, bytes, n) = (self.html, self.bytes, self.bytes.len());
        let next = bytes.get(lt + 1).copied().unwrap_or(0);
        if next == b'!' && bytes[lt + 2..].starts_with(b"--") {
            let end = comment_end(bytes, lt + 4);
            self.out.cut(lt, end);
            return Some(end);
        }
        let close = next == b'/';
        let name_start = lt + 1 + usize::from(close);
        if !bytes.get(name_start).is_some_and(u8::is_ascii_alphabetic) {
            // `<!DOCTYPE …>`, `<?xml …>`, `</ …>`: the tokenizer reads up to
            // the next `>` as a doctype or a comment, where a reference is
            // not decoded.
            if matches!(next, b'!' | b'?' | b'/') {
                self.no_refs_until = memchr::memchr(b'>', &bytes[lt..]).map_or(n, |p| lt + p);
            }
            return Some(lt + 1);
        }
        let name_end = name_start
            + bytes[name_start..]
                .iter()
                .take_while(|&&b| !is_space(b) && b != b'/' && b != b'>')
                .count();
        let is_link = bytes[name_start..name_end].eq_ignore_ascii_case(b"a");
        let mut attrs = AttrScan::new(bytes, name_end);
        // The kept attributes are noted on the way, so that a tag that loses
        // some is written without reading its attributes again.
        let mut drops_attr = false;
        let mut attrs_end = name_end;
        self.kept.clear();
        for attr in attrs.by_ref().filter(|_| !close) {
            attrs_end = attr.end;
            if keeps_attribute(bytes, &attr, is_link) {
                self.kept.push(attr.name.start..attr.end);
            } else {
                drops_attr = true;
            }
        }
        let gt = attrs.i;
        let after = (gt + 1).min(n);
        let mut buf = [0u8; 10];
        let name = lower(&bytes[name_start..name_end], &mut buf);
        let self_closing = gt < n && gt > name_end && bytes[gt - 1] == b'/';
        if name == b"svg" || name == b"math" {
            self.foreign_depth = if close {
                self.foreign_depth.saturating_sub(1)
            } else {
                self.foreign_depth + usize::from(!self_closing)
            };
        }
        // In foreign content a self-closing tag is the whole element, as
        // the parser and lol_html read it (icon sets write `<title/>`): it
        // holds no raw text and does not deepen the tree (an icon sprite of
        // 600 `<path/>`s counted as open elements pushed the `</svg>` past
        // the depth limit, and the unclosed `<svg>` took the page with it).
        let whole_element = self_closing && self.foreign_depth > 0;
        let raw_text = !whole_element;
        if !close {
            // A tag unfinished at the end is no element (as for lol_html).
            if let Some(links) = self.links.as_deref_mut().filter(|_| gt < n) {
                if LinkAttrs::wants(name) {
                    links.tag(name, |a| attr_value(html, name_end, a));
                }
            }
            match name {
                b"script" | b"style" | b"noscript" | b"iframe" | b"textarea" if raw_text => {
                    let end = end_tag_end(bytes, after, name).unwrap_or(n);
                    if !(name == b"script" && is_json_ld(&bytes[name_end..gt.min(n)])) {
                        self.out.cut(lt, end);
                    }
                    return Some(end);
                }
                // Text up to the end tag is not markup; an element that is
                // never closed holds the rest of the page.
                b"title" | b"xmp" | b"noembed" | b"noframes" if raw_text => {
                    return end_tag_end(bytes, after, name);
                }
                b"plaintext" => return None,
                b"input" => {
                    self.out.cut(lt, after);
                    return Some(after);
                }
                // Where a photo stands is kept (a caption is the text
                // beside one), not what it says about itself.
                b"img" if gt < n => {
                    self.out.replace(lt, after, |o| o.push_str("<img>"));
                    return Some(after);
                }
                b"select" | b"button" if self.foreign_depth == 0 && gt < n => {
                    if let Some(end) = plain_control_end(bytes, after, name) {
                        self.out.cut(lt, end);
                        return Some(end);
                    }
                }
                _ => {}
            }
        }
        if name == b"pre" || name == b"listing" {
            self.pre_depth = if close {
                self.pre_depth.saturating_sub(1)
            } else {
                self.pre_depth + 1
            };
        }
        if counts_for_depth(name) && !whole_element && !self.depth.admit(close) {
            self.out.cut(lt, after);
            return Some(after);
        }
        // An unfinished tag at the end is dropped by the parser: left alone.
        if drops_attr && gt < n {
            let kept = &self.kept;
            self.out.replace(lt, after, |o| {
                write_kept_tag(o, html, lt..name_end, kept, attrs_end, gt);
            });
        }
        Some(after)
    }
}

/// `<name` (`html[name]`), the `kept` attributes, then `>` (or `/>`) for a
/// tag whose attributes end at `attrs_end` and whose `>` is at `gt`.
fn write_kept_tag(
    o: &mut String,
    html: &str,
    name: Range<usize>,
    kept: &[Range<usize>],
    attrs_end: usize,
    gt: usize,
) {
    o.push_str(&html[name]);
    for attr in kept {
        o.push(' ');
        o.push_str(&html[attr.clone()]);
    }
    // `/>` (not a `/` ending an unquoted value).
    if gt > attrs_end && html.as_bytes()[gt - 1] == b'/' {
        o.push('/');
    }
    o.push('>');
}

/// Nesting depth estimate: start tags minus end tags of the elements that
/// count (see [`counts_for_depth`]), with the tags beyond the limit dropped.
struct Depth {
    max: usize,
    depth: usize,
    /// Start tags dropped and not yet closed.
    excess: usize,
}

impl Depth {
    fn new(max: usize) -> Self {
        Depth {
            max,
            depth: 0,
            excess: 0,
        }
    }

    /// Whether a start (or, with `close`, end) tag stays.
    fn admit(&mut self, close: bool) -> bool {
        if close {
            if self.excess > 0 {
                self.excess -= 1;
                return false;
            }
            self.depth = self.depth.saturating_sub(1);
            true
        } else if self.depth >= self.max {
            self.excess += 1;
            false
        } else {
            self.depth += 1;
            true
        }
    }
}

/// The output, built only once something is cut.
struct Edits<'a> {
    src: &'a str,
    out: Option<String>,
    /// Start of the input not yet copied to `out`.
    copied: usize,
}

impl<'a> Edits<'a> {
    fn new(src: &'a str) -> Self {
        Edits {
            src,
            out: None,
            copied: 0,
        }
    }

    /// Drop `src[from..to]`. Both are at ASCII bytes or the end, so at char
    /// boundaries.
    fn cut(&mut self, from: usize, to: usize) {
        let o = self
            .out
            .get_or_insert_with(|| String::with_capacity(self.src.len()));
        o.push_str(&self.src[self.copied..from]);
        self.copied = to;
    }

    /// Replace `src[from..to]` with what `write` appends.
    fn replace(&mut self, from: usize, to: usize, write: impl FnOnce(&mut String)) {
        self.cut(from, to);
        if let Some(o) = self.out.as_mut() {
            write(o);
        }
    }

    fn finish(self) -> Cow<'a, str> {
        match self.out {
            None => Cow::Borrowed(self.src),
            Some(mut o) => {
                o.push_str(&self.src[self.copied.min(self.src.len())..]);
                Cow::Owned(o)
            }
        }
    }
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c')
}

/// `name` in ASCII lower case, or an empty slice when it is longer than
/// `buf` (no tag this scan treats specially is).
fn lower<'b>(name: &[u8], buf: &'b mut [u8; 10]) -> &'b [u8] {
    if name.len() > buf.len() {
        return &[];
    }
    for (d, s) in buf.iter_mut().zip(name) {
        *d = s.to_ascii_lowercase();
    }
    &buf[..name.len()]
}

/// Index just past a comment whose text starts at `from` (after `<!--`), as
/// the tokenizer ends it: `<!-->`, `<!--->`, `-->` or `--!>`; the end of the
/// input when it never closes.
fn comment_end(bytes: &[u8], from: usize) -> usize {
    let rest = &bytes[from.min(bytes.len())..];
    if rest.starts_with(b">") {
        return from + 1;
    }
    if rest.starts_with(b"->") {
        return from + 2;
    }
    let mut i = from;
    while let Some(p) = find(bytes, i, b"--") {
        let tail = &bytes[p + 2..];
        if tail.starts_with(b">") {
            return p + 3;
        }
        if tail.starts_with(b"!>") {
            return p + 4;
        }
        i = p + 1;
    }
    bytes.len()
}

/// Index just past the end tag of a `<select>` or `<button>` (`name`) whose
/// content, from `from`, is plain: text and, in a `<select>`, `<option>`
/// and `<optgroup>` tags. The lol_html pass removes such an element from its
/// start tag to the first end tag of its name, exactly this span, and a
/// page left without any of its elements skips that pass (most pages that
/// have one have only such form controls). Anything else inside (a
/// comment, an icon, a nested element) leaves the element to that pass.
fn plain_control_end(bytes: &[u8], from: usize, name: &[u8]) -> Option<usize> {
    let mut i = from;
    loop {
        let lt = i + memchr::memchr(b'<', bytes.get(i..)?)?;
        let close = bytes.get(lt + 1) == Some(&b'/');
        let name_start = lt + 1 + usize::from(close);
        let name_end = name_start
            + bytes[name_start..]
                .iter()
                .take_while(|b| b.is_ascii_alphanumeric())
                .count();
        if !bytes
            .get(name_end)
            .is_some_and(|&b| is_space(b) || b == b'/' || b == b'>')
        {
            return None;
        }
        let gt = tag_end(bytes, name_end);
        if gt >= bytes.len() {
            return None;
        }
        let tag = &bytes[name_start..name_end];
        if close && tag.eq_ignore_ascii_case(name) {
            return Some(gt + 1);
        }
        let option = [&b"option"[..], b"optgroup"]
            .iter()
            .any(|o| tag.eq_ignore_ascii_case(o));
        if name != b"select" || !option {
            return None;
        }
        i = gt + 1;
    }
}

/// Index just past the end tag `</name…>` of a raw-text element whose text
/// starts at `from`, or `None` when there is none.
fn end_tag_end(bytes: &[u8], from: usize, name: &[u8]) -> Option<usize> {
    let mut i = from;
    while let Some(p) = find(bytes, i, b"</") {
        let name_start = p + 2;
        let name_end = name_start + name.len();
        if bytes
            .get(name_start..name_end)
            .is_some_and(|s| s.eq_ignore_ascii_case(name))
            && bytes
                .get(name_end)
                .is_some_and(|&b| is_space(b) || b == b'/' || b == b'>')
        {
            return Some((tag_end(bytes, name_end) + 1).min(bytes.len()));
        }
        i = p + 2;
    }
    None
}

fn is_json_ld(attrs: &[u8]) -> bool {
    find_ci(attrs, 0, b"ld+json").is_some()
}

/// Position of the first occurrence of `needle` in `hay[from..]`.
fn find(hay: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    memchr::memmem::find(hay.get(from..)?, needle).map(|p| from + p)
}

/// Position of the first ASCII-case-insensitive occurrence of `needle` (lower
/// case) in `hay[from..]`.
pub(super) fn find_ci(hay: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    if needle.is_empty() || hay.len() < needle.len() {
        return None;
    }
    let first = needle[0];
    if first.is_ascii_uppercase() {
        // No byte lowers to an upper-case letter.
        return None;
    }
    let last_start = hay.len() - needle.len();
    let mut i = from;
    while i <= last_start {
        // The bytes that lower to `first`, found with SIMD (this runs over
        // whole pages: `<title`, `</script`, …).
        let pos = memchr::memchr2(first, first.to_ascii_uppercase(), hay.get(i..=last_start)?)?;
        let start = i + pos;
        if hay[start..start + needle.len()].eq_ignore_ascii_case(needle) {
            return Some(start);
        }
        i = start + 1;
    }
    None
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

#[cfg(test)]
mod tests;
