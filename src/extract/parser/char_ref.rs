//! Character references (`&amp;`, `&#8217;`, `&copy`) read as the HTML
//! tokenizer reads them, html5ever's `CharRefTokenizer` step for step:
//! the longest name of the entity table that the text starts with, the
//! legacy names without `;`, the attribute exception, and the numeric
//! values the standard replaces.

use html5ever::data::{C1_REPLACEMENTS, NAMED_ENTITIES};

/// What a reference at `&` yields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct CharRef {
    /// The characters it stands for; `None`: the `&` is a literal.
    pub chars: Option<(char, Option<char>)>,
    /// Where the text goes on: after the reference, or after the `&` when
    /// it is a literal.
    pub end: usize,
    /// The tokenizer reports a parse error here (the tree builder sees it).
    pub error: bool,
}

impl CharRef {
    fn literal(amp: usize, error: bool) -> CharRef {
        CharRef {
            chars: None,
            end: amp + 1,
            error,
        }
    }
}

/// The reference that starts at `input[amp] == '&'`, in an attribute's
/// value when `in_attribute`.
pub(super) fn char_ref(input: &str, amp: usize, in_attribute: bool) -> CharRef {
    let bytes = input.as_bytes();
    match bytes.get(amp + 1) {
        Some(b) if b.is_ascii_alphanumeric() => named(input, amp, in_attribute),
        Some(b'#') => numeric(bytes, amp),
        _ => CharRef::literal(amp, false),
    }
}

fn named(input: &str, amp: usize, in_attribute: bool) -> CharRef {
    let start = amp + 1;
    // The longest full match so far: (its end, its code points).
    let mut matched: Option<(usize, (u32, u32))> = None;
    let mut chars = input[start..].char_indices();
    // The char that could not continue any name, and where it ends.
    let mut stop: Option<(char, usize)> = None;
    for (i, c) in chars.by_ref() {
        let end = start + i + c.len_utf8();
        match NAMED_ENTITIES.get(&input[start..end]) {
            Some(&m) => {
                if m.0 != 0 {
                    matched = Some((end, m));
                }
            }
            None => {
                stop = Some((c, end));
                break;
            }
        }
    }
    let Some((name_end, (c1, c2))) = matched else {
        return match stop {
            // A name the table has no entry for: a parse error when it ends
            // in `;`, and the whole run is text.
            Some((c, end)) if c.is_ascii_alphanumeric() => {
                let rest = &input.as_bytes()[end..];
                let run = rest
                    .iter()
                    .take_while(|b| b.is_ascii_alphanumeric())
                    .count();
                CharRef::literal(amp, rest.get(run) == Some(&b';'))
            }
            Some((';', end)) => CharRef::literal(amp, end - start > 1),
            _ => CharRef::literal(amp, false),
        };
    };
    let last_matched = input.as_bytes()[name_end - 1];
    let next = input[name_end..].chars().next();
    if last_matched != b';' && in_attribute {
        if let Some(c) = next {
            if c == '=' || c.is_ascii_alphanumeric() {
                return CharRef::literal(amp, false);
            }
        }
    }
    CharRef {
        chars: Some((code_point(c1), (c2 != 0).then(|| code_point(c2)))),
        end: name_end,
        error: last_matched != b';',
    }
}

fn code_point(n: u32) -> char {
    char::from_u32(n).unwrap_or('\u{fffd}')
}

fn numeric(bytes: &[u8], amp: usize) -> CharRef {
    let mut at = amp + 2;
    let base = match bytes.get(at) {
        Some(b'x' | b'X') => {
            at += 1;
            16
        }
        _ => 10,
    };
    let digits_start = at;
    let mut num: u32 = 0;
    let mut too_big = false;
    while let Some(d) = bytes.get(at).and_then(|&b| (b as char).to_digit(base)) {
        num = num.wrapping_mul(base);
        if num > 0x10FFFF {
            too_big = true;
        }
        num = num.wrapping_add(d);
        at += 1;
    }
    if at == digits_start {
        // "&#" or "&#x" without digits: an error, and the text as written.
        return CharRef::literal(amp, true);
    }
    let mut error = false;
    if bytes.get(at) == Some(&b';') {
        at += 1;
    } else {
        error = true;
    }
    let (c, invalid) = match num {
        n if n > 0x10FFFF || too_big => ('\u{fffd}', true),
        0x00 | 0xD800..=0xDFFF => ('\u{fffd}', true),
        0x80..=0x9F => (
            C1_REPLACEMENTS[(num - 0x80) as usize].unwrap_or_else(|| code_point(num)),
            true,
        ),
        0x01..=0x08 | 0x0B | 0x0D..=0x1F | 0x7F | 0xFDD0..=0xFDEF => (code_point(num), true),
        n if (n & 0xFFFE) == 0xFFFE => (code_point(n), true),
        n => (code_point(n), false),
    };
    CharRef {
        chars: Some((c, None)),
        end: at,
        error: error || invalid,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(s: &str, attr: bool) -> (Option<(char, Option<char>)>, &str, bool) {
        let r = char_ref(s, 0, attr);
        (r.chars, &s[r.end..], r.error)
    }

    #[test]
    fn names_numbers_and_literals_read_as_the_tokenizer_reads_them() {
        assert_eq!(read("&amp;x", false), (Some(('&', None)), "x", false));
        assert_eq!(read("&ampx", false), (Some(('&', None)), "x", true));
        assert_eq!(read("&notit;", false), (Some(('¬', None)), "it;", true));
        assert_eq!(read("&notin;", false), (Some(('∉', None)), "", false));
        assert_eq!(read("&#8217;s", false), (Some(('’', None)), "s", false));
        assert_eq!(read("&#x41", false), (Some(('A', None)), "", true));
        assert_eq!(read("&#150;", false), (Some(('–', None)), "", true));
        assert_eq!(read("&#0;", false), (Some(('\u{fffd}', None)), "", true));
        assert_eq!(read("&#;", false), (None, "#;", true));
        assert_eq!(read("&T ", false), (None, "T ", false));
        assert_eq!(read("&bogus;", false), (None, "bogus;", true));
        assert_eq!(read("& x", false), (None, " x", false));
        assert_eq!(
            read("&NotEqualTilde;", false),
            (Some(('≂', Some('\u{338}'))), "", false)
        );
    }

    #[test]
    fn a_legacy_name_before_a_letter_or_equals_stays_text_in_an_attribute() {
        assert_eq!(read("&copy=1", true), (None, "copy=1", false));
        assert_eq!(read("&copyx", true), (None, "copyx", false));
        assert_eq!(read("&copy;=1", true), (Some(('©', None)), "=1", false));
        assert_eq!(read("&copy 1", true), (Some(('©', None)), " 1", true));
        assert_eq!(read("&copy=1", false), (Some(('©', None)), "=1", true));
    }
}
