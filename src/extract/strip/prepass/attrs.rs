//! Attributes of a tag as the HTML tokenizer reads them, and which of them
//! the later stages read.

use std::ops::Range;

use super::{find_ci, is_space};

/// One attribute of a tag, as byte ranges of the page.
pub(super) struct RawAttr {
    pub(super) name: Range<usize>,
    /// Value without its quotes; `None` for a bare attribute.
    value: Option<Range<usize>>,
    /// One past the attribute's last byte (its closing quote included).
    pub(super) end: usize,
}

/// The attributes of a tag whose name ends at `i`, read as the tokenizer
/// reads them (a quoted value may hold `>`). After the last one, `i` is at
/// the `>` that ends the tag, or at the end of the input.
pub(super) struct AttrScan<'a> {
    bytes: &'a [u8],
    pub(super) i: usize,
}

impl<'a> AttrScan<'a> {
    pub(super) fn new(bytes: &'a [u8], i: usize) -> Self {
        AttrScan { bytes, i }
    }

    fn skip_space(&mut self) {
        while self.i < self.bytes.len() && is_space(self.bytes[self.i]) {
            self.i += 1;
        }
    }
}

impl Iterator for AttrScan<'_> {
    type Item = RawAttr;

    fn next(&mut self) -> Option<RawAttr> {
        let (bytes, n) = (self.bytes, self.bytes.len());
        while self.i < n && (is_space(bytes[self.i]) || bytes[self.i] == b'/') {
            self.i += 1;
        }
        if self.i >= n || bytes[self.i] == b'>' {
            return None;
        }
        // The name's first character may be anything, even `=`.
        let start = self.i;
        self.i += 1;
        while self.i < n && !is_space(bytes[self.i]) && !matches!(bytes[self.i], b'/' | b'>' | b'=')
        {
            self.i += 1;
        }
        let name = start..self.i;
        let mut end = self.i;
        let mut value = None;
        self.skip_space();
        if self.i < n && bytes[self.i] == b'=' {
            self.i += 1;
            self.skip_space();
            match bytes.get(self.i) {
                Some(&q @ (b'"' | b'\'')) => {
                    let v = self.i + 1;
                    // Values run long (URLs, `srcset`, JSON in `data-*`):
                    // a SIMD search finds the quote.
                    match memchr::memchr(q, &bytes[v..]) {
                        Some(p) => {
                            value = Some(v..v + p);
                            self.i = v + p + 1;
                        }
                        None => {
                            value = Some(v..n);
                            self.i = n;
                        }
                    }
                }
                _ => {
                    let v = self.i;
                    while self.i < n && !is_space(bytes[self.i]) && bytes[self.i] != b'>' {
                        self.i += 1;
                    }
                    value = Some(v..self.i);
                }
            }
            end = self.i;
        }
        Some(RawAttr { name, value, end })
    }
}

/// The value of the first attribute named `wanted` (lower case) of the tag
/// whose name ends at `name_end`: `""` for a bare attribute, `None` when the
/// tag has none.
pub(super) fn attr_value<'h>(html: &'h str, name_end: usize, wanted: &str) -> Option<&'h str> {
    let bytes = html.as_bytes();
    AttrScan::new(bytes, name_end)
        .find(|a| bytes[a.name.clone()].eq_ignore_ascii_case(wanted.as_bytes()))
        .map(|a| a.value.map_or("", |v| &html[v]))
}

/// Index of the `>` that ends a tag whose name ends at `from`, or the input
/// length when the tag never ends.
pub(super) fn tag_end(bytes: &[u8], from: usize) -> usize {
    let mut scan = AttrScan::new(bytes, from);
    scan.by_ref().for_each(drop);
    scan.i
}

/// A `javascript:` URL (leading spaces and case ignored, as browsers do).
fn is_script_url(value: &[u8]) -> bool {
    const SCHEME: &[u8] = b"javascript:";
    let start = value.iter().take_while(|&&b| is_space(b)).count();
    value[start..]
        .get(..SCHEME.len())
        .is_some_and(|v| v.eq_ignore_ascii_case(SCHEME))
}

/// Attributes some later stage reads (`dom::read_attrs`, the metadata page
/// scan): a stage that starts reading another one must add it here. Link targets
/// go (`rel` stays for bylines; a `javascript:` one stays), and inline styles unless they may hide the
/// element.
pub(super) fn keeps_attribute(bytes: &[u8], attr: &RawAttr, is_link: bool) -> bool {
    // The longest name kept, `aria-hidden`, fits: longer names are dropped.
    let raw = &bytes[attr.name.clone()];
    let mut buf = [0u8; 11];
    let Some(name) = buf.get_mut(..raw.len()) else {
        return false;
    };
    for (d, s) in name.iter_mut().zip(raw) {
        *d = s.to_ascii_lowercase();
    }
    match &*name {
        b"class" | b"id" | b"hidden" | b"aria-hidden" | b"aria-modal" | b"itemprop" | b"role"
        | b"content" | b"name" | b"property" | b"rel" | b"type" | b"datetime" | b"pubdate"
        | b"http-equiv" | b"charset" => true,
        // A link's target is not read, except to tell a script button
        // (`javascript:`) from a link (the DOM's `SCRIPT_LINK`).
        b"href" => !is_link || attr.value.clone().is_some_and(|v| is_script_url(&bytes[v])),
        b"style" => {
            let value = attr.value.clone().map_or(&[][..], |v| &bytes[v]);
            find_ci(value, 0, b"none").is_some() || find_ci(value, 0, b"hidden").is_some()
        }
        _ => false,
    }
}
