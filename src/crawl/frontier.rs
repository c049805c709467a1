//! URL normalisation and priorities for the frontier (pure); the queue itself
//! is persisted in the store (`urls` table).

use url::Url;

use crate::store::UrlKind;

/// Normalise a URL: lowercase scheme/host, drop default ports, fragments and
/// tracking parameters (`utm_*`, `fbclid`, `gclid`...). `None` for non-http(s).
pub fn normalize(url: &Url) -> Option<Url> {
    let _ = url;
    todo!()
}

/// Priority of a URL in the frontier: higher is fetched first (fresh feed and
/// sitemap entries and article URLs before index pages and other pages).
pub fn priority(kind: UrlKind, depth: u32) -> i32 {
    let _ = (kind, depth);
    todo!()
}
