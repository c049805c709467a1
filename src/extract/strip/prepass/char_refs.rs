//! Character references in text that the prepass writes as their
//! characters, so that the parser does not decode them.
//!
//! html5ever decodes a reference one character at a time, looking up every
//! prefix of a name in its table of 2,231 names; news pages write
//! hundreds of `&nbsp;`, `&quot;`, `&#8217;`. The prepass replaces the
//! common ones, always with their `;`, by the very character the parser
//! would have produced. Never one that decodes to `&`, `<` or `>` (the
//! parser would read it as markup or as the start of another reference),
//! nor a code point the parser maps to another one (`&#0;`, `&#150;`,
//! surrogates), nor whitespace or controls: those are left to the parser.

/// The character of the reference at the start of `text` (which starts with
/// `&`) and the reference's length, when it is one the prepass writes out.
pub(super) fn decode(text: &[u8]) -> Option<(usize, char)> {
    let rest = text.get(1..)?;
    if rest.first() == Some(&b'#') {
        return numeric(rest);
    }
    // The longest name in the table has 6 letters.
    let semi = rest.iter().take(8).position(|&b| b == b';')?;
    let name = &rest[..semi];
    let i = NAMED.binary_search_by(|(n, _)| n.cmp(&name)).ok()?;
    Some((semi + 2, NAMED[i].1))
}

/// `&#NNN;` or `&#xHHH;` (`rest` starts at the `#`).
fn numeric(rest: &[u8]) -> Option<(usize, char)> {
    let (hex, digits_at) = match rest.get(1) {
        Some(b'x' | b'X') => (true, 2),
        _ => (false, 1),
    };
    let digits = rest[digits_at..]
        .iter()
        .take(7)
        .take_while(|b| {
            if hex {
                b.is_ascii_hexdigit()
            } else {
                b.is_ascii_digit()
            }
        })
        .count();
    if digits == 0 || digits == 7 || rest.get(digits_at + digits) != Some(&b';') {
        return None;
    }
    let text = std::str::from_utf8(&rest[digits_at..digits_at + digits]).ok()?;
    let code = u32::from_str_radix(text, if hex { 16 } else { 10 }).ok()?;
    let plain = matches!(code, 0x21..=0x7E if !matches!(code, 0x26 | 0x3C | 0x3E))
        || matches!(code, 0xA0..=0xD7FF | 0xE000..=0xFDCF | 0xFDF0..=0xFFFD);
    let c = char::from_u32(code).filter(|_| plain)?;
    Some((digits_at + digits + 2, c))
}

/// Names (without `&` and `;`) and characters, sorted by name for a binary
/// search; the test checks each against the parser.
const NAMED: &[(&[u8], char)] = &[
    (b"AElig", '\u{C6}'),
    (b"Aacute", '\u{C1}'),
    (b"Acirc", '\u{C2}'),
    (b"Agrave", '\u{C0}'),
    (b"Aring", '\u{C5}'),
    (b"Atilde", '\u{C3}'),
    (b"Auml", '\u{C4}'),
    (b"Ccedil", '\u{C7}'),
    (b"Dagger", '\u{2021}'),
    (b"Eacute", '\u{C9}'),
    (b"Ecirc", '\u{CA}'),
    (b"Egrave", '\u{C8}'),
    (b"Euml", '\u{CB}'),
    (b"Iacute", '\u{CD}'),
    (b"Icirc", '\u{CE}'),
    (b"Igrave", '\u{CC}'),
    (b"Iuml", '\u{CF}'),
    (b"Ntilde", '\u{D1}'),
    (b"OElig", '\u{152}'),
    (b"Oacute", '\u{D3}'),
    (b"Ocirc", '\u{D4}'),
    (b"Ograve", '\u{D2}'),
    (b"Oslash", '\u{D8}'),
    (b"Otilde", '\u{D5}'),
    (b"Ouml", '\u{D6}'),
    (b"Prime", '\u{2033}'),
    (b"Scaron", '\u{160}'),
    (b"Uacute", '\u{DA}'),
    (b"Ucirc", '\u{DB}'),
    (b"Ugrave", '\u{D9}'),
    (b"Uuml", '\u{DC}'),
    (b"aacute", '\u{E1}'),
    (b"acirc", '\u{E2}'),
    (b"acute", '\u{B4}'),
    (b"aelig", '\u{E6}'),
    (b"agrave", '\u{E0}'),
    (b"apos", '\u{27}'),
    (b"aring", '\u{E5}'),
    (b"atilde", '\u{E3}'),
    (b"auml", '\u{E4}'),
    (b"bdquo", '\u{201E}'),
    (b"bull", '\u{2022}'),
    (b"ccedil", '\u{E7}'),
    (b"cedil", '\u{B8}'),
    (b"cent", '\u{A2}'),
    (b"copy", '\u{A9}'),
    (b"dagger", '\u{2020}'),
    (b"deg", '\u{B0}'),
    (b"divide", '\u{F7}'),
    (b"eacute", '\u{E9}'),
    (b"ecirc", '\u{EA}'),
    (b"egrave", '\u{E8}'),
    (b"emsp", '\u{2003}'),
    (b"ensp", '\u{2002}'),
    (b"euml", '\u{EB}'),
    (b"euro", '\u{20AC}'),
    (b"frac12", '\u{BD}'),
    (b"frac14", '\u{BC}'),
    (b"frac34", '\u{BE}'),
    (b"hellip", '\u{2026}'),
    (b"iacute", '\u{ED}'),
    (b"icirc", '\u{EE}'),
    (b"iexcl", '\u{A1}'),
    (b"igrave", '\u{EC}'),
    (b"iquest", '\u{BF}'),
    (b"iuml", '\u{EF}'),
    (b"laquo", '\u{AB}'),
    (b"ldquo", '\u{201C}'),
    (b"lrm", '\u{200E}'),
    (b"lsaquo", '\u{2039}'),
    (b"lsquo", '\u{2018}'),
    (b"mdash", '\u{2014}'),
    (b"micro", '\u{B5}'),
    (b"middot", '\u{B7}'),
    (b"nbsp", '\u{A0}'),
    (b"ndash", '\u{2013}'),
    (b"ntilde", '\u{F1}'),
    (b"oacute", '\u{F3}'),
    (b"ocirc", '\u{F4}'),
    (b"oelig", '\u{153}'),
    (b"ograve", '\u{F2}'),
    (b"ordf", '\u{AA}'),
    (b"ordm", '\u{BA}'),
    (b"oslash", '\u{F8}'),
    (b"otilde", '\u{F5}'),
    (b"ouml", '\u{F6}'),
    (b"para", '\u{B6}'),
    (b"plusmn", '\u{B1}'),
    (b"pound", '\u{A3}'),
    (b"prime", '\u{2032}'),
    (b"quot", '\u{22}'),
    (b"raquo", '\u{BB}'),
    (b"rdquo", '\u{201D}'),
    (b"reg", '\u{AE}'),
    (b"rlm", '\u{200F}'),
    (b"rsaquo", '\u{203A}'),
    (b"rsquo", '\u{2019}'),
    (b"sbquo", '\u{201A}'),
    (b"scaron", '\u{161}'),
    (b"sect", '\u{A7}'),
    (b"shy", '\u{AD}'),
    (b"sup2", '\u{B2}'),
    (b"sup3", '\u{B3}'),
    (b"szlig", '\u{DF}'),
    (b"thinsp", '\u{2009}'),
    (b"times", '\u{D7}'),
    (b"trade", '\u{2122}'),
    (b"uacute", '\u{FA}'),
    (b"ucirc", '\u{FB}'),
    (b"ugrave", '\u{F9}'),
    (b"uuml", '\u{FC}'),
    (b"yacute", '\u{FD}'),
    (b"yen", '\u{A5}'),
    (b"yuml", '\u{FF}'),
    (b"zwj", '\u{200D}'),
    (b"zwnj", '\u{200C}'),
];

#[cfg(test)]
mod tests {
    use super::*;

    /// The text the parser makes of `html` in a `<p>`.
    fn parsed(html: &str) -> String {
        let doc = scraper::Html::parse_document(&format!("<p>{html}</p>"));
        let p = scraper::Selector::parse("p").expect("valid selector");
        doc.select(&p).flat_map(|e| e.text()).collect()
    }

    #[test]
    fn every_named_reference_decodes_as_the_parser_decodes_it() {
        assert!(NAMED.windows(2).all(|w| w[0].0 < w[1].0), "sorted by name");
        for (name, c) in NAMED {
            let text = format!("&{};", std::str::from_utf8(name).expect("ASCII"));
            assert_eq!(decode(text.as_bytes()), Some((text.len(), *c)), "{text}");
            assert_eq!(parsed(&text), c.to_string(), "{text}");
        }
    }

    #[test]
    fn numeric_references_decode_as_the_parser_decodes_them() {
        for text in [
            "&#160;", "&#8217;", "&#x2019;", "&#X201c;", "&#39;", "&#0039;", "&#xfffd;",
        ] {
            let (len, c) = decode(text.as_bytes()).expect(text);
            assert_eq!(len, text.len());
            assert_eq!(parsed(text), c.to_string(), "{text}");
        }
    }

    #[test]
    fn references_the_parser_reads_otherwise_are_left_to_it() {
        for text in [
            "&amp;",
            "&lt;",
            "&gt;",
            "&#38;",
            "&#60;",
            "&#x3e;",
            "&#0;",
            "&#150;",
            "&#xD800;",
            "&#32;",
            "&#10;",
            "&#1114112;",
            "&nbsp",
            "&nbsp x",
            "&notin;",
            "& ",
            "&#;",
            "&#x;",
            "&#12345678;",
        ] {
            assert_eq!(decode(text.as_bytes()), None, "{text}");
        }
    }
}
