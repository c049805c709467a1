//! What each href of a site's pages came to, remembered for the crawl: the
//! ~300 navigation, footer and tag links a templated site repeats on every
//! page then cost a hash lookup each, not resolving, normalising, checking
//! and classifying again.
//!
//! In: a site, the page's base URL, a raw href, and how to compute its
//! [`Verdict`] when it is not remembered. Out: the verdict.
//!
//! A verdict holds only what follows from the site's settings, the href and
//! the part of the base URL its resolution depends on ([`base_context`]) —
//! never the page's depth, nor whether the frontier knows the URL — so a
//! page given a remembered verdict yields exactly the URLs it yields
//! computing it (pinned by `page::tests::link_memo`). The depth limit and
//! de-duplication stay per page, and the writer's seen-set and the store
//! decide what the frontier already has: a memo made
//! [`LinkMemo::with_committed`] carries the writer's set of URLs whose insert
//! committed ([`CommittedUrls`]), and a page leaves out the URLs in it (an
//! admitted URL's fingerprint is part of its verdict, so that costs no
//! hashing).
//!
//! Bounded: two generations of at most `capacity` verdicts; when the current
//! one is full the older one is forgotten (verdicts still in use are copied
//! forward when found there). Keys are 128-bit fingerprints (two SipHash
//! sums, as in [`crate::crawl::seen`]), so nothing of the href is kept but
//! its resolved URL.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::{Arc, Mutex};

use url::{Position, Url};

use crate::crawl::seen::{self, CommittedUrls};
use crate::crawl::shapes::Shape;
use crate::store::UrlKind;

/// What an href of a site's page came to.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    /// The href resolved and normalised (`discover`'s spelling): a page's
    /// links are de-duplicated and counted (`max_links_per_page`) by it.
    /// `None`: not a link (fragment, `mailto:`, unparsable).
    pub resolved: Option<Arc<str>>,
    /// The URL in the frontier's spelling when it is on the site and no
    /// trap, with its kind by the site's patterns (and its shape).
    pub admitted: Option<Admitted>,
}

/// A link the site may follow.
#[derive(Debug, Clone, PartialEq)]
pub struct Admitted {
    pub url: Arc<str>,
    pub kind: UrlKind,
    /// [`seen::fingerprint`] of `url`.
    pub fingerprint: u128,
    /// A site without patterns: the URL's shape, which its page classes by
    /// the site's table as it is then (the table changes as the crawl
    /// learns; the shape does not).
    pub shape: Option<Arc<Shape>>,
}

impl Admitted {
    pub fn new(url: Arc<str>, kind: UrlKind, shape: Option<Shape>) -> Admitted {
        let fingerprint = seen::fingerprint(&url);
        Admitted {
            url,
            kind,
            fingerprint,
            shape: shape.map(Arc::new),
        }
    }
}

/// Verdicts of the crawl, shared by the pages processed at once.
pub struct LinkMemo {
    generations: Mutex<Generations>,
    capacity: usize,
    /// The URLs the crawl's writer committed to the frontier, if known.
    committed: Option<CommittedUrls>,
}

#[derive(Default)]
struct Generations {
    current: HashMap<u128, Verdict>,
    previous: HashMap<u128, Verdict>,
}

/// Verdicts per generation in a crawl: ≈ 250 bytes each, so at most ≈ 8 MB
/// for both; a templated site repeats a few hundred hrefs.
const LINK_MEMO_CAPACITY: usize = 16 * 1024;

impl LinkMemo {
    /// Remembers between `capacity` and 2 × `capacity` verdicts (at least 1).
    pub fn new(capacity: usize) -> LinkMemo {
        LinkMemo {
            generations: Mutex::new(Generations::default()),
            capacity: capacity.max(1),
            committed: None,
        }
    }

    /// This memo, letting pages leave out the URLs `committed` holds.
    pub fn with_committed(self, committed: CommittedUrls) -> LinkMemo {
        LinkMemo {
            committed: Some(committed),
            ..self
        }
    }

    /// The URLs the crawl's writer committed, if the memo knows them.
    pub fn committed(&self) -> Option<&CommittedUrls> {
        self.committed.as_ref()
    }

    /// The verdict on `href` of a page of `site` whose links resolve against
    /// `base`: remembered, or `compute`d (outside the lock) and remembered.
    #[cfg(test)]
    pub fn verdict(
        &self,
        site: &str,
        base: &Url,
        href: &str,
        compute: impl FnOnce() -> Verdict,
    ) -> Verdict {
        let keys = LinkMemo::keys(site, base, &[href]);
        if let Some(Some(v)) = self.lookup_all(&keys).pop() {
            return v;
        }
        let v = compute();
        self.remember_all(vec![(keys[0], v.clone())]);
        v
    }

    /// The keys of a page's `hrefs` (computed outside the lock).
    pub fn keys(site: &str, base: &Url, hrefs: &[&str]) -> Vec<u128> {
        hrefs
            .iter()
            .map(|h| key(site, base_context(base, h), h))
            .collect()
    }

    /// The verdicts remembered for `keys`, under one lock for the page (two
    /// pages are processed at once: a lock per link was 3 % of the crawl).
    pub fn lookup_all(&self, keys: &[u128]) -> Vec<Option<Verdict>> {
        let Ok(mut g) = self.generations.lock() else {
            return vec![None; keys.len()];
        };
        keys.iter()
            .map(|key| {
                if let Some(v) = g.current.get(key) {
                    return Some(v.clone());
                }
                let v = g.previous.remove(key)?;
                g.insert(*key, v.clone(), self.capacity);
                Some(v)
            })
            .collect()
    }

    /// Remember the verdicts a page computed.
    pub fn remember_all(&self, verdicts: Vec<(u128, Verdict)>) {
        if verdicts.is_empty() {
            return;
        }
        if let Ok(mut g) = self.generations.lock() {
            for (key, v) in verdicts {
                g.insert(key, v, self.capacity);
            }
        }
    }

    /// Verdicts held now (both generations).
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.generations
            .lock()
            .map_or(0, |g| g.current.len() + g.previous.len())
    }
}

impl Default for LinkMemo {
    fn default() -> Self {
        LinkMemo::new(LINK_MEMO_CAPACITY)
    }
}

impl Generations {
    fn insert(&mut self, key: u128, v: Verdict, capacity: usize) {
        if self.current.len() >= capacity {
            self.previous = std::mem::take(&mut self.current);
        }
        self.current.insert(key, v);
    }
}

/// 128 bits of (site, context, href).
fn key(site: &str, context: &str, href: &str) -> u128 {
    let half = |salt: u8| {
        let mut h = DefaultHasher::new();
        salt.hash(&mut h);
        site.hash(&mut h);
        context.hash(&mut h);
        href.hash(&mut h);
        h.finish()
    };
    (u128::from(half(0)) << 64) | u128::from(half(1))
}

/// The part of `base` that resolving `href` depends on: nothing for an
/// absolute http(s) URL, the scheme for `//host/…`, scheme and authority for
/// `/path` (shared by every page of a host), the directory for a relative
/// path, and the whole base (without fragment) for anything else (`?query`,
/// character references, odd characters first). Each is a prefix of the
/// base's serialisation holding all it depends on, so equal contexts resolve
/// an href alike.
pub fn base_context<'b>(base: &'b Url, href: &str) -> &'b str {
    let h = href.trim();
    let b = h.as_bytes();
    let starts_ci = |p: &str| h.get(..p.len()).is_some_and(|s| s.eq_ignore_ascii_case(p));
    if starts_ci("http://") || starts_ci("https://") {
        ""
    } else if h.starts_with("//") {
        base.scheme()
    } else if h.starts_with('/') {
        &base[..Position::BeforePath]
    } else if b
        .first()
        .is_some_and(|&c| c.is_ascii_alphanumeric() || c == b'.')
    {
        // A relative path (or another scheme, which needs no base at all).
        let path_end = &base[..Position::AfterPath];
        path_end
            .rfind('/')
            .map_or(path_end, |slash| &path_end[..=slash])
    } else {
        &base[..Position::AfterQuery]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crawl::discover::resolve_href;

    fn url(s: &str) -> Url {
        Url::parse(s).expect("url")
    }

    const HREFS: &[&str] = &[
        "https://news.example.com/a/1.html",
        " HTTP://Other.example.org/x?utm_source=y ",
        "//cdn.example.com/img",
        "/section/world/",
        "/\\evil.example.com/x",
        "/\t/tab.example.com/y",
        "story.html",
        "../up/story.html?x=1",
        "./here",
        "?page=2",
        "#top",
        "",
        "&#47;encoded/root",
        "javascript:void(0)",
        "mailto:desk@example.com",
        "foo:bar",
        "http:relative",
        "\\back\\slash",
        "新闻/1.html",
    ];

    #[test]
    fn hrefs_with_one_context_resolve_alike() {
        // Pairs of bases; where an href's context is the same for both, it
        // must resolve to the same URL against either.
        let bases = [
            "https://news.example.com/world/2026/a.html",
            "https://news.example.com/world/2026/b.html?x=1#f",
            "https://news.example.com/sport/c.html",
            "https://news.example.com/",
            "https://user:pw@news.example.com/world/2026/a.html",
            "https://news.example.com:8443/world/2026/a.html",
            "http://news.example.com/world/2026/a.html",
            "https://other.example.net/world/2026/a.html",
        ];
        let mut shared = 0;
        for a in bases {
            for b in bases {
                let (a, b) = (url(a), url(b));
                for h in HREFS {
                    if base_context(&a, h) == base_context(&b, h) {
                        shared += usize::from(a != b);
                        assert_eq!(resolve_href(&a, h), resolve_href(&b, h), "{a} {b} {h:?}");
                    }
                }
            }
        }
        // The contexts do share: template links resolve once per host.
        assert!(shared > 100, "{shared}");
    }

    #[test]
    fn contexts_by_the_shape_of_the_href() {
        let base = url("https://news.example.com/world/2026/a.html?x=1#f");
        let ctx = |h| base_context(&base, h);
        assert_eq!(ctx("https://o.example/x"), "");
        assert_eq!(ctx("//o.example/x"), "https");
        assert_eq!(ctx("/x"), "https://news.example.com");
        assert_eq!(ctx("b.html"), "https://news.example.com/world/2026/");
        assert_eq!(
            ctx("?p=2"),
            "https://news.example.com/world/2026/a.html?x=1"
        );
        assert_eq!(
            ctx("&#47;x"),
            "https://news.example.com/world/2026/a.html?x=1"
        );
    }

    fn verdict(n: usize) -> Verdict {
        Verdict {
            resolved: Some(format!("https://news.example.com/{n}").into()),
            admitted: None,
        }
    }

    #[test]
    fn a_verdict_is_computed_once_per_site_context_and_href() {
        let memo = LinkMemo::new(100);
        let base = url("https://news.example.com/a/b.html");
        let other_page = url("https://news.example.com/c/d.html");
        let mut computed = 0;
        let mut get = |site: &str, base: &Url, href: &str| {
            memo.verdict(site, base, href, || {
                computed += 1;
                verdict(computed)
            })
        };
        let first = get("news", &base, "/x");
        assert_eq!(
            get("news", &other_page, "/x"),
            first,
            "same host, same verdict"
        );
        assert_ne!(
            get("other", &base, "/x"),
            first,
            "another site computes its own"
        );
        get("news", &base, "x");
        get("news", &other_page, "x");
        assert_eq!(computed, 4, "a relative href depends on the directory");
    }

    #[test]
    fn the_memo_is_bounded_and_keeps_what_is_in_use() {
        let memo = LinkMemo::new(8);
        let base = url("https://news.example.com/");
        let mut nav_computed = 0;
        for i in 0..1000 {
            let href = format!("/p/{i}");
            memo.verdict("news", &base, &href, || verdict(i));
            // A template link, used on every page, survives the rotations.
            memo.verdict("news", &base, "/nav", || {
                nav_computed += 1;
                verdict(usize::MAX)
            });
            assert!(memo.len() <= 16, "{}", memo.len());
        }
        assert_eq!(nav_computed, 1);
        // One used only once is forgotten.
        let mut again = false;
        memo.verdict("news", &base, "/p/0", || {
            again = true;
            verdict(0)
        });
        assert!(again);
    }
}
