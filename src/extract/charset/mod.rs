//! Page bytes → UTF-8 text.
//!
//! In: raw page bytes, the HTTP `Content-Type` value, the page URL (its TLD
//! steers detection). Out: [`Decoded`] text plus the encoding used.
//!
//! Order: BOM → HTTP `Content-Type` charset → WHATWG `<meta>` prescan of the
//! first 1024 bytes ([`prescan`]) → chardetng guess (TLD-aware) → decode with
//! encoding_rs. The BOM goes first, as in the WHATWG decode algorithm: a BOM
//! is proof, a header is only a claim.
//!
//! Declarations are checked against the bytes, because they lie (a template
//! says UTF-8 while the articles are stored in GBK, or says ISO-8859-1 on a
//! UTF-8 site):
//! - bytes that are valid UTF-8 with non-ASCII content are UTF-8 whatever the
//!   page claims (legacy text is practically never valid UTF-8 by accident);
//! - a declared UTF-8 that the bytes break more than occasionally (more than
//!   one malformed sequence per 50 well-formed non-ASCII characters) is
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

/// chardetng sees at most this much; more only costs time on huge pages.
const DETECT_LIMIT: usize = 512 * 1024;

/// Decode page bytes to UTF-8; never fails (malformed sequences become U+FFFD).
pub fn decode(bytes: &[u8], content_type: Option<&str>, url: Option<&Url>) -> Decoded {
    if let Some((enc, bom_len)) = Encoding::for_bom(bytes) {
        return decode_with(enc, &bytes[bom_len..]);
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
    let stats = utf8_stats(bytes);
    if stats.errors == 0 {
        return match declared {
            // Pure ASCII: the declared encoding decodes it the same way, except
            // ISO-2022-JP, whose escapes are ASCII bytes — so honour the label.
            _ if stats.non_ascii == 0 => decode_with(declared.unwrap_or(UTF_8), bytes),
            // A few stray multi-byte CJK characters can form valid UTF-8.
            Some(enc) if is_cjk_multibyte(enc) && stats.non_ascii < 3 => decode_with(enc, bytes),
            _ => decode_with(UTF_8, bytes),
        };
    }
    match declared {
        Some(enc) if enc == UTF_8 && stats.errors * 50 <= stats.non_ascii => {
            decode_with(UTF_8, bytes)
        }
        Some(enc) if enc != UTF_8 => decode_declared_legacy(enc, bytes, url),
        _ => decode_with(detect(bytes, url), bytes),
    }
}

/// A declared legacy encoding, checked against chardetng's guess.
fn decode_declared_legacy(declared: &'static Encoding, bytes: &[u8], url: Option<&Url>) -> Decoded {
    let first = decode_with(declared, bytes);
    let errors = count_replacements(&first.text);
    let single_byte = declared.is_single_byte();
    if errors == 0 && !single_byte {
        return first;
    }
    let guess = detect(bytes, url);
    if guess == declared || (guess == GBK && declared == GB18030) {
        return first;
    }
    let second = decode_with(guess, bytes);
    let guess_errors = count_replacements(&second.text);
    let better = if single_byte {
        is_cjk_multibyte(guess) && guess_errors == 0
    } else {
        guess_errors < errors
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
    let (text, _) = enc.decode_without_bom_handling(bytes);
    Decoded {
        text: text.into_owned(),
        encoding: enc,
    }
}

/// chardetng's guess, steered by the URL's top-level domain.
fn detect(bytes: &[u8], url: Option<&Url>) -> &'static Encoding {
    let mut detector = EncodingDetector::new(Iso2022JpDetection::Deny);
    let sample = &bytes[..bytes.len().min(DETECT_LIMIT)];
    detector.feed(sample, sample.len() == bytes.len());
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
