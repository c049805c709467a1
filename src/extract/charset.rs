//! Page bytes → UTF-8 text.
//!
//! Order (WHATWG-like): HTTP `Content-Type` charset → BOM → `<meta>` prescan of
//! the first 1024 bytes → chardetng guess (TLD-aware) → decode with encoding_rs.

use url::Url;

/// A decoded page and the encoding that was used.
#[derive(Debug, Clone)]
pub struct Decoded {
    pub text: String,
    pub encoding: &'static encoding_rs::Encoding,
}

/// Decode page bytes to UTF-8; never fails (malformed sequences become U+FFFD).
pub fn decode(bytes: &[u8], content_type: Option<&str>, url: Option<&Url>) -> Decoded {
    let _ = (bytes, content_type, url);
    todo!("charset detection")
}
