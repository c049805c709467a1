//! Declared encodings: `Content-Type` header parameter, the WHATWG "prescan a
//! byte stream to determine its encoding" over the first 1024 bytes (`<meta
//! charset>`, `<meta http-equiv=content-type content=…>`), and the XML
//! declaration fallback the spec adds after a failed prescan.
//!
//! In: header value or raw page bytes. Out: an `encoding_rs` encoding, or
//! `None` when nothing usable is declared.

use encoding_rs::{Encoding, UTF_16BE, UTF_16LE, UTF_8, WINDOWS_1252, X_USER_DEFINED};

/// The spec scans this many bytes and no more.
const PRESCAN_LIMIT: usize = 1024;

/// `charset` parameter of a `Content-Type` header value.
pub fn header_charset(content_type: &str) -> Option<&'static Encoding> {
    content_type.split(';').skip(1).find_map(|param| {
        let (key, value) = param.split_once('=')?;
        if !key.trim().eq_ignore_ascii_case("charset") {
            return None;
        }
        let value = value.trim().trim_matches(|c| c == '"' || c == '\'');
        Encoding::for_label(value.as_bytes())
    })
}

/// WHATWG prescan of the first 1024 bytes, then the `<?xml encoding=…?>`
/// fallback. UTF-16 labels mean UTF-8 and `x-user-defined` means windows-1252,
/// as the spec says (a meta tag readable as ASCII cannot be in UTF-16).
pub fn prescan(bytes: &[u8]) -> Option<&'static Encoding> {
    let input = &bytes[..bytes.len().min(PRESCAN_LIMIT)];
    let found = prescan_meta(input).or_else(|| xml_declaration(input))?;
    Some(if found == UTF_16LE || found == UTF_16BE {
        UTF_8
    } else if found == X_USER_DEFINED {
        WINDOWS_1252
    } else {
        found
    })
}

fn is_space(b: u8) -> bool {
    matches!(b, 0x09 | 0x0A | 0x0C | 0x0D | 0x20)
}

fn starts_with_ci(input: &[u8], pos: usize, pat: &[u8]) -> bool {
    input
        .get(pos..pos + pat.len())
        .is_some_and(|s| s.eq_ignore_ascii_case(pat))
}

fn prescan_meta(input: &[u8]) -> Option<&'static Encoding> {
    let mut pos = 0;
    while pos < input.len() {
        if input[pos..].starts_with(b"<!--") {
            // The `>` must be preceded by `--`; `<!-->` closes (the dashes of
            // the opener count), hence searching from pos + 2.
            pos = find_comment_end(input, pos + 2)?;
        } else if starts_with_ci(input, pos, b"<meta")
            && input
                .get(pos + 5)
                .is_some_and(|&b| is_space(b) || b == b'/')
        {
            pos += 5;
            if let Some(enc) = meta_element(input, &mut pos)? {
                return Some(enc);
            }
        } else if input[pos] == b'<'
            && (input.get(pos + 1).is_some_and(u8::is_ascii_alphabetic)
                || (input.get(pos + 1) == Some(&b'/')
                    && input.get(pos + 2).is_some_and(u8::is_ascii_alphabetic)))
        {
            // Another tag: skip its name, then its attributes (so a `>` inside
            // a quoted attribute value does not end the tag early).
            while pos < input.len() && !is_space(input[pos]) && input[pos] != b'>' {
                pos += 1;
            }
            while get_attribute(input, &mut pos)?.is_some() {}
        } else if input[pos] == b'<' && matches!(input.get(pos + 1), Some(b'!' | b'/' | b'?')) {
            pos = find_byte(input, pos + 2, b'>')?;
        }
        pos += 1;
    }
    None
}

/// Index of the `>` ending a comment; `from` points at the dashes of `<!--`.
fn find_comment_end(input: &[u8], from: usize) -> Option<usize> {
    (from + 2..input.len()).find(|&i| input[i] == b'>' && &input[i - 2..i] == b"--")
}

fn find_byte(input: &[u8], from: usize, byte: u8) -> Option<usize> {
    let rel = input.get(from..)?.iter().position(|&b| b == byte)?;
    Some(from + rel)
}

/// The attribute loop of a `<meta` tag; `pos` is just past `<meta`. Outer
/// `None`: input ran out (prescan fails). `Some(None)`: this meta decided
/// nothing, keep scanning.
fn meta_element(input: &[u8], pos: &mut usize) -> Option<Option<&'static Encoding>> {
    let mut seen: Vec<Vec<u8>> = Vec::new();
    let mut got_pragma = false;
    let mut need_pragma: Option<bool> = None;
    let mut charset: Option<&'static Encoding> = None;
    while let Some((name, value)) = get_attribute(input, pos)? {
        if seen.contains(&name) {
            continue;
        }
        match name.as_slice() {
            b"http-equiv" => got_pragma |= value == b"content-type",
            b"content" if charset.is_none() => {
                if let Some(enc) = charset_from_content(&value) {
                    charset = Some(enc);
                    need_pragma = Some(true);
                }
            }
            b"charset" => {
                charset = Encoding::for_label(&value);
                need_pragma = Some(false);
            }
            _ => {}
        }
        seen.push(name);
    }
    Some(match need_pragma {
        None => None,
        Some(true) if !got_pragma => None,
        _ => charset,
    })
}

/// WHATWG "get an attribute". Outer `None`: input ran out. `Some(None)`: the
/// tag ended (`pos` at `>`). Names and values come back lower-cased.
fn get_attribute(input: &[u8], pos: &mut usize) -> Option<Option<(Vec<u8>, Vec<u8>)>> {
    while is_space(*input.get(*pos)?) || input[*pos] == b'/' {
        *pos += 1;
    }
    if input[*pos] == b'>' {
        return Some(None);
    }
    let mut name = Vec::new();
    let mut value = Vec::new();
    // Name.
    loop {
        let b = *input.get(*pos)?;
        if b == b'=' && !name.is_empty() {
            *pos += 1;
            break;
        }
        if is_space(b) {
            while is_space(*input.get(*pos)?) {
                *pos += 1;
            }
            if input[*pos] != b'=' {
                return Some(Some((name, value)));
            }
            *pos += 1;
            break;
        }
        if b == b'/' || b == b'>' {
            return Some(Some((name, value)));
        }
        name.push(b.to_ascii_lowercase());
        *pos += 1;
    }
    // Value.
    while is_space(*input.get(*pos)?) {
        *pos += 1;
    }
    let b = *input.get(*pos)?;
    if b == b'"' || b == b'\'' {
        loop {
            *pos += 1;
            let c = *input.get(*pos)?;
            if c == b {
                *pos += 1;
                return Some(Some((name, value)));
            }
            value.push(c.to_ascii_lowercase());
        }
    }
    if b == b'>' {
        return Some(Some((name, value)));
    }
    loop {
        let c = *input.get(*pos)?;
        if is_space(c) || c == b'>' {
            return Some(Some((name, value)));
        }
        value.push(c.to_ascii_lowercase());
        *pos += 1;
    }
}

/// WHATWG "extract a character encoding from a meta element" (the `content`
/// attribute of a `http-equiv` meta).
fn charset_from_content(content: &[u8]) -> Option<&'static Encoding> {
    let mut pos = 0;
    loop {
        let rel = content
            .get(pos..)?
            .windows(7)
            .position(|w| w.eq_ignore_ascii_case(b"charset"))?;
        pos += rel + 7;
        while content.get(pos).is_some_and(|&b| is_space(b)) {
            pos += 1;
        }
        if content.get(pos) == Some(&b'=') {
            pos += 1;
            break;
        }
    }
    while content.get(pos).is_some_and(|&b| is_space(b)) {
        pos += 1;
    }
    let first = *content.get(pos)?;
    let label = if first == b'"' || first == b'\'' {
        let end = find_byte(content, pos + 1, first)?;
        &content[pos + 1..end]
    } else {
        let end = (pos..content.len())
            .find(|&i| is_space(content[i]) || content[i] == b';')
            .unwrap_or(content.len());
        &content[pos..end]
    };
    Encoding::for_label(label)
}

/// `<?xml version="1.0" encoding="…"?>` at the very start (WHATWG "get an XML
/// encoding", used when the meta prescan finds nothing).
fn xml_declaration(input: &[u8]) -> Option<&'static Encoding> {
    if !input.starts_with(b"<?xml") {
        return None;
    }
    let end = find_byte(input, 0, b'>')?;
    let decl = &input[..end];
    let at = decl.windows(8).position(|w| w == b"encoding")? + 8;
    let mut pos = at;
    while decl.get(pos).is_some_and(|&b| b <= b' ') {
        pos += 1;
    }
    if decl.get(pos) != Some(&b'=') {
        return None;
    }
    pos += 1;
    while decl.get(pos).is_some_and(|&b| b <= b' ') {
        pos += 1;
    }
    let quote = *decl.get(pos)?;
    if quote != b'"' && quote != b'\'' {
        return None;
    }
    let close = find_byte(decl, pos + 1, quote)?;
    Encoding::for_label(&decl[pos + 1..close])
}
