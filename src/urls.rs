//! URLs as the crawler spells them: one home for normalisation, the
//! trailing-slash rule and host keys (the bottom of the house: it imports
//! nothing of the crate).
//!
//! In: a parsed URL. Out: the one spelling under which the frontier and the
//! store know it ([`normalize`], [`normalize_with`]) and its politeness key
//! ([`host_key`]).

use serde::Deserialize;
use url::Url;

/// How URL normalisation treats a trailing slash (`[crawler] trailing_slash`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TrailingSlash {
    #[default]
    Keep,
    Strip,
}

/// Query parameters that only track the reader; dropping them merges URLs
/// that name the same page. Keys are compared lowercase; `utm_*` is a prefix.
const TRACKING_PARAMS: &[&str] = &[
    "fbclid",
    "gclid",
    "gclsrc",
    "dclid",
    "gbraid",
    "wbraid",
    "msclkid",
    "yclid",
    "igshid",
    "mc_cid",
    "mc_eid",
    "ref_src",
    "ref_url",
    "_ga",
    "_gl",
    "_hsenc",
    "_hsmi",
    "mkt_tok",
    "cmpid",
    "ocid",
    "smid",
    "at_medium",
    "at_campaign",
    "__twitter_impression",
];

/// Normalise a URL: lowercase scheme/host, drop default ports, fragments,
/// credentials ([`strip_credentials`]) and tracking parameters (`utm_*`,
/// `fbclid`, `gclid`...). `None` for non-http(s).
///
/// The order of the remaining query parameters is kept: some sites route on
/// it, and sorting would merge nothing the site itself links to.
pub fn normalize(url: &Url) -> Option<Url> {
    // The url crate already lowercases scheme and host, drops default ports,
    // resolves dot segments, gives an empty path as "/" and percent-encodes
    // what must be encoded.
    if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none_or(str::is_empty) {
        return None;
    }
    let mut out = url.clone();
    out.set_fragment(None);
    strip_credentials(&mut out);
    if let Some(q) = url.query() {
        let kept: Vec<&str> = q
            .split('&')
            .filter(|p| !p.is_empty() && !is_tracking(param_key(p)))
            .collect();
        if kept.is_empty() {
            out.set_query(None);
        } else {
            out.set_query(Some(&kept.join("&")));
        }
    }
    Some(out)
}

/// [`normalize`], then the configured trailing-slash rule: with `Strip`,
/// `/world/` becomes `/world` (the root `/` stays).
pub fn normalize_with(url: &Url, trailing: TrailingSlash) -> Option<Url> {
    let mut out = normalize(url)?;
    if trailing == TrailingSlash::Strip && out.path() != "/" && out.path().ends_with('/') {
        let path = out.path().trim_end_matches('/').to_string();
        // All slashes ("//") leave the root.
        out.set_path(if path.is_empty() { "/" } else { &path });
    }
    Some(out)
}

/// Whether `url` carries a user name or password (`https://user:pass@host/`).
pub fn has_credentials(url: &Url) -> bool {
    !url.username().is_empty() || url.password().is_some()
}

/// Drop `url`'s user name and password. The HTTP client sends them as Basic
/// auth to the host with every request to that URL, and a stored URL would
/// keep them in the database and every export: a URL with credentials is
/// never stored, nor sent.
pub fn strip_credentials(url: &mut Url) {
    // Only URLs without a host cannot have credentials; those fail here,
    // and have none to drop.
    let _ = url.set_username("");
    let _ = url.set_password(None);
}

/// `url` for a message: its credentials, if any, shown as `***`.
pub fn redacted(url: &Url) -> String {
    if !has_credentials(url) {
        return url.to_string();
    }
    let mut shown = url.clone();
    strip_credentials(&mut shown);
    let _ = shown.set_username("***");
    shown.to_string()
}

fn param_key(pair: &str) -> &str {
    pair.split_once('=').map_or(pair, |(k, _)| k)
}

fn is_tracking(key: &str) -> bool {
    let key = key.to_ascii_lowercase();
    key.starts_with("utm_") || TRACKING_PARAMS.contains(&key.as_str())
}

/// `host` or `host:port` when the port is not the scheme's default: the key for
/// per-host politeness (the simulated web runs sites on distinct ports).
pub fn host_key(url: &Url) -> String {
    match (url.host_str(), url.port()) {
        (Some(h), Some(p)) => format!("{h}:{p}"),
        (Some(h), None) => h.to_string(),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(s: &str) -> Option<String> {
        normalize(&Url::parse(s).ok()?).map(String::from)
    }

    #[test]
    fn regression_credentials_in_a_link_were_stored_and_sent() {
        assert_eq!(
            n("https://user:secret@news.example.com/a").as_deref(),
            Some("https://news.example.com/a")
        );
        assert_eq!(
            n("http://token@news.example.com/").as_deref(),
            Some("http://news.example.com/")
        );
        let url = Url::parse("https://user:secret@news.example.com/a").unwrap();
        assert!(has_credentials(&url));
        assert_eq!(redacted(&url), "https://***@news.example.com/a");
        let plain = Url::parse("https://news.example.com/a").unwrap();
        assert!(!has_credentials(&plain));
        assert_eq!(redacted(&plain), "https://news.example.com/a");
    }

    #[test]
    fn normalize_lowercases_and_drops_default_port_and_fragment() {
        assert_eq!(
            n("HTTP://News.Example.COM:80/World/Story?id=3#comments").as_deref(),
            Some("http://news.example.com/World/Story?id=3")
        );
        assert_eq!(
            n("https://example.com:443").as_deref(),
            Some("https://example.com/")
        );
        assert_eq!(
            n("https://example.com:8443/a").as_deref(),
            Some("https://example.com:8443/a")
        );
    }

    #[test]
    fn normalize_drops_tracking_params_and_keeps_order_of_the_rest() {
        assert_eq!(
            n("https://e.com/a?b=2&utm_source=x&UTM_Medium=y&a=1&fbclid=z&gclid=q&mc_cid=1&mc_eid=2&ref_src=t")
                .as_deref(),
            Some("https://e.com/a?b=2&a=1")
        );
        assert_eq!(
            n("https://e.com/a?utm_campaign=x").as_deref(),
            Some("https://e.com/a")
        );
        assert_eq!(n("https://e.com/a?").as_deref(), Some("https://e.com/a"));
        assert_eq!(
            n("https://e.com/a?&&x=1&").as_deref(),
            Some("https://e.com/a?x=1")
        );
    }

    #[test]
    fn normalize_resolves_dot_segments_and_encodes() {
        assert_eq!(
            n("https://e.com/a/./b/../c d").as_deref(),
            Some("https://e.com/a/c%20d")
        );
    }

    #[test]
    fn normalize_rejects_non_http() {
        assert_eq!(n("mailto:x@e.com"), None);
        assert_eq!(n("javascript:void(0)"), None);
        assert_eq!(n("ftp://e.com/x"), None);
        assert_eq!(n("file:///etc/passwd"), None);
    }

    #[test]
    fn normalize_is_idempotent() {
        for u in [
            "https://E.com/x/../y?utm_x=1&k=v#f",
            "http://e.com:80",
            "https://例子.cn/新闻?a=1",
        ] {
            let once = n(u).unwrap();
            assert_eq!(n(&once).as_deref(), Some(once.as_str()), "{u}");
        }
    }

    #[test]
    fn trailing_slashes_are_kept_or_stripped_as_configured() {
        let w = |s: &str, t| normalize_with(&Url::parse(s).unwrap(), t).map(String::from);
        let keep = TrailingSlash::Keep;
        let strip = TrailingSlash::Strip;
        assert_eq!(
            w("https://e.com/a/", keep).as_deref(),
            Some("https://e.com/a/")
        );
        assert_eq!(
            w("https://e.com/a/", strip).as_deref(),
            Some("https://e.com/a")
        );
        assert_eq!(
            w("https://e.com/a/b//?x=1#f", strip).as_deref(),
            Some("https://e.com/a/b?x=1")
        );
        assert_eq!(
            w("https://e.com/", strip).as_deref(),
            Some("https://e.com/")
        );
        assert_eq!(w("https://e.com", strip).as_deref(), Some("https://e.com/"));
        assert_eq!(
            w("https://e.com//", strip).as_deref(),
            Some("https://e.com/")
        );
        let once = w("https://e.com/a//", strip).unwrap();
        assert_eq!(w(&once, strip), Some(once.clone()));
    }

    #[test]
    fn host_key_keeps_non_default_ports() {
        let u = Url::parse("http://127.0.0.1:8080/a").unwrap();
        assert_eq!(host_key(&u), "127.0.0.1:8080");
        let u = Url::parse("https://example.com:443/a").unwrap();
        assert_eq!(host_key(&u), "example.com");
    }
}
