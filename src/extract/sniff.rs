//! What kind of bytes a "page" is, before any decoding: HTML-ish text,
//! UTF-16 text without a byte order mark, or binary.
//!
//! In: the first bytes of a body or file. Out: [`Sniffed`]. Binary means a
//! known file signature (ELF, PNG, PDF, ZIP, gzip...) or NUL bytes in text
//! that is not UTF-16: `extract /bin/ls` printed ELF bytes as French text,
//! and servers label images `text/html` often enough. UTF-16 is full of NUL
//! bytes too (every ASCII character has one), so it is recognised first:
//! the head decodes in one byte order to text with markup and no control
//! characters.

use encoding_rs::{Encoding, UTF_16BE, UTF_16LE};

/// How many leading bytes are examined.
const HEAD: usize = 8192;

/// UTF-16 detection looks at the first this many bytes (512 code units).
const UTF16_HEAD: usize = 1024;

/// What the bytes are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sniffed {
    /// Text in some 8-bit or multi-byte encoding (the charset stage decides).
    Text,
    /// UTF-16 without a byte order mark, in this byte order.
    Utf16(&'static Encoding),
    /// Not text: what it looks like (`ELF executable`, `PNG image`,
    /// `NUL bytes`).
    Binary(&'static str),
}

/// File signatures (at offset 0) of formats that are never HTML.
const MAGIC: &[(&[u8], &str)] = &[
    (b"\x7fELF", "ELF executable"),
    (b"\x89PNG", "PNG image"),
    (b"GIF8", "GIF image"),
    (b"\xff\xd8\xff", "JPEG image"),
    (b"%PDF-", "PDF document"),
    (b"PK\x03\x04", "ZIP archive"),
    (b"\x1f\x8b", "gzip data"),
    (b"BZh", "bzip2 data"),
    (b"\xfd7zXZ\x00", "xz data"),
    (b"\x28\xb5\x2f\xfd", "zstd data"),
    (b"7z\xbc\xaf\x27\x1c", "7-zip archive"),
    (b"RIFF", "RIFF media"),
    (b"SQLite format 3\x00", "SQLite database"),
    (b"\x00asm", "WebAssembly module"),
    (b"\xca\xfe\xba\xbe", "Mach-O or Java class file"),
    (b"\xcf\xfa\xed\xfe", "Mach-O executable"),
    (b"\xce\xfa\xed\xfe", "Mach-O executable"),
    (b"MZ", "Windows executable"),
    (b"OggS", "Ogg media"),
    (b"ID3", "MP3 audio"),
    (b"\x1aE\xdf\xa3", "Matroska/WebM media"),
];

/// Classify `bytes` (only the head is read).
pub fn sniff(bytes: &[u8]) -> Sniffed {
    // A byte order mark is proof of text; the charset stage reads it.
    if bytes.starts_with(b"\xef\xbb\xbf")
        || bytes.starts_with(b"\xff\xfe")
        || bytes.starts_with(b"\xfe\xff")
    {
        return Sniffed::Text;
    }
    if let Some(enc) = utf16_without_bom(bytes) {
        return Sniffed::Utf16(enc);
    }
    if let Some((_, kind)) = MAGIC.iter().find(|(m, _)| bytes.starts_with(m)) {
        // `MZ` alone could start a text; a real executable has NULs as well.
        if *kind != "Windows executable" || has_nul(bytes) {
            return Sniffed::Binary(kind);
        }
    }
    // ISO media (MP4, MOV, HEIF): a box size, then `ftyp`.
    if bytes.get(4..8) == Some(b"ftyp") {
        return Sniffed::Binary("ISO media (MP4/MOV)");
    }
    if has_nul(bytes) {
        return Sniffed::Binary("NUL bytes");
    }
    Sniffed::Text
}

fn has_nul(bytes: &[u8]) -> bool {
    memchr::memchr(0, &bytes[..bytes.len().min(HEAD)]).is_some()
}

/// UTF-16 without a BOM: NUL bytes (ASCII markup in UTF-16 has a NUL in
/// every other byte), and the head decodes in that byte order to markup
/// (`<` and `>`) with no control characters and no broken surrogates.
/// Binary fails the decoding test: its code units include controls.
pub fn utf16_without_bom(bytes: &[u8]) -> Option<&'static Encoding> {
    let head = &bytes[..bytes.len().min(UTF16_HEAD) & !1];
    let units = head.len() / 2;
    if units < 2 {
        return None;
    }
    let nul_at = |parity: usize| {
        head.iter()
            .skip(parity)
            .step_by(2)
            .filter(|&&b| b == 0)
            .count()
    };
    let (even, odd) = (nul_at(0), nul_at(1));
    // Both sides can hold NULs (`一` is U+4E00); the byte order is the one
    // whose decoding reads as markup (the other turns `<` into U+3C00).
    [(odd, UTF_16LE), (even, UTF_16BE)]
        .into_iter()
        .filter(|(nuls, _)| *nuls >= 2)
        .map(|(_, enc)| enc)
        .find(|enc| reads_as_markup(enc, head))
}

fn reads_as_markup(enc: &'static Encoding, head: &[u8]) -> bool {
    let (text, _) = enc.decode_without_bom_handling(head);
    // A surrogate pair cut at the end of the head decodes to U+FFFD.
    let text = text.strip_suffix('\u{FFFD}').unwrap_or(&text);
    let clean = !text
        .chars()
        .any(|c| c == '\u{FFFD}' || (c.is_control() && !c.is_whitespace()));
    clean && text.contains('<') && text.contains('>')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utf16(s: &str, enc: &'static Encoding) -> Vec<u8> {
        let units: Vec<u16> = s.encode_utf16().collect();
        units
            .iter()
            .flat_map(|u| {
                if enc == UTF_16LE {
                    u.to_le_bytes()
                } else {
                    u.to_be_bytes()
                }
            })
            .collect()
    }

    #[test]
    fn elf_png_pdf_and_nul_bytes_are_binary() {
        let mut elf = b"\x7fELF\x02\x01\x01\x00".to_vec();
        elf.extend_from_slice(&[0; 64]);
        assert_eq!(sniff(&elf), Sniffed::Binary("ELF executable"));
        assert_eq!(sniff(b"\x89PNG\r\n\x1a\n"), Sniffed::Binary("PNG image"));
        assert_eq!(sniff(b"%PDF-1.7\n"), Sniffed::Binary("PDF document"));
        assert_eq!(
            sniff(b"\x00\x00\x00\x18ftypmp42"),
            Sniffed::Binary("ISO media (MP4/MOV)")
        );
        assert_eq!(
            sniff(b"<html>\x00\x01\x02\x03</html>"),
            Sniffed::Binary("NUL bytes")
        );
    }

    #[test]
    fn html_and_text_starting_like_a_signature_are_text() {
        assert_eq!(sniff(b"<!doctype html><p>Hi</p>"), Sniffed::Text);
        assert_eq!(sniff("<p>中文新闻</p>".as_bytes()), Sniffed::Text);
        assert_eq!(sniff(b"MZ is a town, said the page."), Sniffed::Text);
        assert_eq!(sniff(b""), Sniffed::Text);
        // A BOM settles it, NULs or not.
        assert_eq!(sniff(b"\xff\xfe<\x00p\x00>\x00"), Sniffed::Text);
    }

    #[test]
    fn utf16_without_bom_is_detected_in_both_byte_orders() {
        let page = "<html><body><p>Hello, 世界 — a page in UTF-16.</p></body></html>";
        assert_eq!(sniff(&utf16(page, UTF_16LE)), Sniffed::Utf16(UTF_16LE));
        assert_eq!(sniff(&utf16(page, UTF_16BE)), Sniffed::Utf16(UTF_16BE));
        // Mostly Chinese text still has its markup's NULs on one side.
        let zh = format!("<p>{}</p>", "新华社北京十一月二十六日电".repeat(20));
        assert_eq!(sniff(&utf16(&zh, UTF_16LE)), Sniffed::Utf16(UTF_16LE));
    }

    #[test]
    fn binary_with_nuls_on_one_side_is_not_utf16() {
        // Little-endian integers: NULs in odd bytes, but control characters
        // and no markup when read as UTF-16.
        let ints: Vec<u8> = (1u16..300).flat_map(|i| (i % 200).to_le_bytes()).collect();
        assert_eq!(utf16_without_bom(&ints), None);
        assert_eq!(sniff(&ints), Sniffed::Binary("NUL bytes"));
    }
}
