//! Page bytes → UTF-8 text.
//!
//! In: raw page bytes, the HTTP `Content-Type` value, the page URL (its TLD
//! steers detection). Out: [`Decoded`] text plus the encoding used.
//!
//! Order: BOM → UTF-16 without a BOM (NUL bytes on one parity,
//! [`super::sniff`]) → HTTP `Content-Type` charset → WHATWG `<meta>` prescan of the
//! first 1024 bytes ([`prescan`]) → chardetng guess (TLD-aware) → decode with
//! encoding_rs. The BOM goes first, as in the WHATWG decode algorithm: a BOM
//! is proof, a header is only a claim.
//!
//! Declarations are checked against the bytes, because they lie (a template
//! says UTF-8 while the articles are stored in GBK, or says ISO-8859-1 on a
//! UTF-8 site):
//! - bytes that are valid UTF-8 with non-ASCII content are UTF-8 whatever the
//!   page claims (legacy text is practically never valid UTF-8 by accident),
//!   and so are bytes that are UTF-8 but for a few stray bytes (at most one
//!   malformed sequence per 50 well-formed non-ASCII characters);
//! - a declared UTF-8 that the bytes break more often than they keep it
//!   (more malformed sequences than well-formed non-ASCII characters) is
//!   ignored and the encoding is detected;
//! - a declared legacy encoding that fails to decode the same way is replaced
//!   by chardetng's guess when the guess decodes with fewer errors, and a
//!   declared single-byte encoding yields to a clean CJK guess (a GBK page
//!   labelled ISO-8859-1 decodes "without errors" as mojibake).

mod prescan;
#[cfg(test)]
mod tests;

use chardetng::{EncodingDetector, Iso2022JpDetection, Utf8Detection};
use encoding_rs::{
    Encoding, BIG5, EUC_JP, EUC_KR, GB18030, GBK, REPLACEMENT, SHIFT_JIS, UTF_16BE, UTF_16LE,
    UTF_8, WINDOWS_1252, X_USER_DEFINED,
};
use url::Url;

pub use prescan::{header_charset, prescan};

/// A decoded page and the encoding that was used.
#[derive(Debug, Clone)]
pub struct Decoded {
    pub text: String,
    pub encoding: &'static encoding_rs::Encoding,
}

/// Well-formed non-ASCII characters needed before a page with malformed
/// sequences counts as UTF-8 against its label.
const MOSTLY_UTF8_MIN: usize = 20;

/// chardetng sees at most this many bytes of non-ASCII words; more only
/// costs time on huge pages.
const DETECT_LIMIT: usize = 256 * 1024;

/// Decode page bytes to UTF-8; never fails (malformed sequences become U+FFFD).
pub fn decode(bytes: &[u8], content_type: Option<&str>, url: Option<&Url>) -> Decoded {
    if let Some((enc, bom_len)) = Encoding::for_bom(bytes) {
        return decode_with(enc, &bytes[bom_len..]);
    }
    // UTF-16 without a BOM shows itself by where its NUL bytes sit; the
    // bytes are proof, a header or meta tag only a claim.
    if let Some(enc) = super::sniff::utf16_without_bom(bytes) {
        return decode_with(enc, bytes);
    }
    let header = content_type.and_then(header_charset).and_then(usable);
    if let Some(enc) = header.filter(|&e| e == UTF_16LE || e == UTF_16BE) {
        // UTF-16 without a BOM is only believable if the markup shows the
        // NUL bytes that ASCII characters carry in UTF-16.
        if looks_like_utf16(bytes) {
            return decode_with(enc, bytes);
        }
    }
    let declared = header
        .filter(|&e| e != UTF_16LE && e != UTF_16BE)
        .or_else(|| prescan(bytes).and_then(usable));
    // Most pages are valid UTF-8, and whole-page validation was 2 % of a
    // crawl's CPU on large pages with std's validator; simdutf8 accepts
    // exactly the same bytes.
    if let Ok(text) = simdutf8::basic::from_utf8(bytes) {
        return decode_valid_utf8(text, declared);
    }
    let stats = utf8_stats(bytes);
    if stats.errors == 0 {
        // Valid but for a sequence cut off at the end (a truncated download).
        return decode_with(UTF_8, bytes);
    }
    // UTF-8 with a few stray legacy bytes (a pasted quote): UTF-8 whatever
    // the label says; legacy text never forms this much valid UTF-8.
    let mostly_utf8 = stats.non_ascii >= MOSTLY_UTF8_MIN && stats.errors * 50 <= stats.non_ascii;
    if mostly_utf8 {
        return decode_with(UTF_8, bytes);
    }
    match declared {
        // Declared UTF-8 and more well-formed than malformed: a stray byte
        // in a page of few non-ASCII characters (an English story with its
        // curly quotes). A legacy decoding would garble every one of them
        // to mend the stray byte; legacy text mislabelled UTF-8 forms next
        // to no well-formed sequence.
        Some(enc) if enc == UTF_8 && stats.errors <= stats.non_ascii => decode_with(UTF_8, bytes),
        Some(enc) if enc != UTF_8 => decode_declared_legacy(enc, bytes, url),
        _ => decode_with(detect(bytes, url), bytes),
    }
}

/// Bytes that are valid UTF-8: UTF-8 unless the page is pure ASCII (then
/// the label decides, which matters for ISO-2022-JP, whose escapes are
/// ASCII) or declares a CJK encoding and has only a couple of non-ASCII
/// characters (which can form valid UTF-8 by chance; the label wins if it
/// decodes them cleanly too).
fn decode_valid_utf8(text: &str, declared: Option<&'static Encoding>) -> Decoded {
    let utf8 = || Decoded {
        text: text.to_owned(),
        encoding: UTF_8,
    };
    match declared {
        Some(enc) if text.is_ascii() => decode_with(enc, text.as_bytes()),
        None if text.is_ascii() => utf8(),
        Some(enc) if is_cjk_multibyte(enc) && count_lead_bytes(text.as_bytes()) < 3 => {
            let d = decode_with(enc, text.as_bytes());
            if count_replacements(&d.text) == 0 {
                d
            } else {
                utf8()
            }
        }
        _ => utf8(),
    }
}

/// A declared legacy encoding, checked against chardetng's guess.
fn decode_declared_legacy(declared: &'static Encoding, bytes: &[u8], url: Option<&Url>) -> Decoded {
    let (first, had_errors) = decode_checked(declared, bytes);
    let single_byte = declared.is_single_byte();
    // Detection is the slow step: skip it when the declaration decodes
    // cleanly, and for single-byte labels unless the bytes look like CJK.
    if !had_errors && (!single_byte || !looks_double_byte(bytes)) {
        return first;
    }
    let guess = detect(bytes, url);
    if guess == declared || (guess == GBK && declared == GB18030) {
        return first;
    }
    let (second, guess_had_errors) = decode_checked(guess, bytes);
    let better = if single_byte {
        is_cjk_multibyte(guess) && !guess_had_errors
    } else {
        count_replacements(&second.text) < count_replacements(&first.text)
    };
    if better {
        second
    } else {
        first
    }
}

/// Drop labels that cannot decode a page usefully: `replacement` (ISO-2022-KR,
/// HZ…) would turn the page into one U+FFFD, and `x-user-defined` maps bytes to
/// private-use characters.
fn usable(enc: &'static Encoding) -> Option<&'static Encoding> {
    if enc == REPLACEMENT {
        None
    } else if enc == X_USER_DEFINED {
        Some(WINDOWS_1252)
    } else {
        Some(enc)
    }
}

fn is_cjk_multibyte(enc: &'static Encoding) -> bool {
    [GBK, GB18030, BIG5, SHIFT_JIS, EUC_JP, EUC_KR].contains(&enc)
}

fn decode_with(enc: &'static Encoding, bytes: &[u8]) -> Decoded {
    decode_checked(enc, bytes).0
}

/// Decode, also saying whether any malformed sequence was replaced.
fn decode_checked(enc: &'static Encoding, bytes: &[u8]) -> (Decoded, bool) {
    let (text, had_errors) = enc.decode_without_bom_handling(bytes);
    let decoded = Decoded {
        text: text.into_owned(),
        encoding: enc,
    };
    (decoded, had_errors)
}

/// chardetng's guess, steered by the URL's top-level domain.
///
/// Only the "words" holding non-ASCII bytes are fed, each followed by a
/// space: markup and ASCII text carry no evidence, and skipping them makes
/// detection on a Western page nearly free. Words are split at whitespace
/// and `<`/`>`, bytes below 0x40 that are never part of a multi-byte
/// character in the legacy CJK encodings or UTF-8, so no character is cut.
fn detect(bytes: &[u8], url: Option<&Url>) -> &'static Encoding {
    let mut detector = EncodingDetector::new(Iso2022JpDetection::Deny);
    let mut fed = 0;
    let is_separator = |b: &u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'<' | b'>');
    for word in bytes.split(is_separator) {
        if word.is_ascii() {
            continue;
        }
        detector.feed(word, false);
        detector.feed(b" ", false);
        fed += word.len() + 1;
        if fed >= DETECT_LIMIT {
            break;
        }
    }
    detector.feed(b"", true);
    let tld = url.and_then(tld_of);
    detector.guess(tld.as_deref().map(str::as_bytes), Utf8Detection::Allow)
}

/// Last label of the host, lower-case ASCII (chardetng panics on anything
/// else, so the check is strict).
fn tld_of(url: &Url) -> Option<String> {
    let host = url.host_str()?;
    let label = host.trim_end_matches('.').rsplit('.').next()?;
    let ok = !label.is_empty()
        && label
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-')
        && !label.bytes().all(|b| b.is_ascii_digit());
    ok.then(|| label.to_ascii_lowercase())
}

fn count_replacements(text: &str) -> usize {
    text.chars().filter(|&c| c == '\u{FFFD}').count()
}

/// Whether the non-ASCII bytes come in runs, as in double-byte CJK text,
/// rather than alone between ASCII letters, as in accented Latin text.
fn looks_double_byte(bytes: &[u8]) -> bool {
    let mut non_ascii = 0usize;
    let mut paired = 0usize;
    for w in bytes.windows(2) {
        if w[0] >= 0x80 {
            non_ascii += 1;
            paired += usize::from(w[1] >= 0x80);
        }
    }
    non_ascii >= 32 && paired * 2 >= non_ascii
}

/// UTF-16 without BOM: many NUL bytes among the first bytes.
fn looks_like_utf16(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(1024)];
    let nuls = head.iter().filter(|&&b| b == 0).count();
    head.len() >= 4 && nuls * 4 >= head.len()
}

#[derive(Debug, Default, PartialEq)]
struct Utf8Stats {
    /// Malformed sequences (an incomplete sequence cut off at the very end,
    /// as in a truncated download, does not count).
    errors: usize,
    /// Well-formed non-ASCII characters.
    non_ascii: usize,
}

fn utf8_stats(bytes: &[u8]) -> Utf8Stats {
    let mut stats = Utf8Stats::default();
    let mut rest = bytes;
    loop {
        match std::str::from_utf8(rest) {
            Ok(s) => {
                stats.non_ascii += count_lead_bytes(s.as_bytes());
                return stats;
            }
            Err(e) => {
                stats.non_ascii += count_lead_bytes(&rest[..e.valid_up_to()]);
                match e.error_len() {
                    Some(len) => {
                        stats.errors += 1;
                        rest = &rest[e.valid_up_to() + len..];
                    }
                    None => return stats,
                }
            }
        }
    }
}

/// In well-formed UTF-8, one lead byte per non-ASCII character.
fn count_lead_bytes(valid: &[u8]) -> usize {
    valid.iter().filter(|&&b| b >= 0xC0).count()
}
