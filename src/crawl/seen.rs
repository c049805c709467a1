//! The URLs the frontier already has, remembered in memory by fingerprint,
//! so a page's hundreds of links to known pages (menus, rails, related
//! stories) do not each cost an `INSERT OR IGNORE` in the store.
//!
//! In: URLs the writer has committed to the frontier ([`SeenUrls::insert`]).
//! Out: whether a URL is certainly known already ([`SeenUrls::contains`]).
//! [`CommittedUrls`] shares the writer's set with page processing, so a
//! page can leave out the URLs the frontier has for certain before building
//! them (one lock per page, by fingerprints its link memo already holds).
//! A URL is only ever remembered after its insert committed, so a URL the
//! set holds is in the frontier (or was refused by the site's URL cap, which
//! only grows stricter during a run): dropping it loses nothing. A URL the
//! set does not hold simply goes to the store, which ignores known ones.
//!
//! Bounded: two generations of at most `capacity` fingerprints each; when
//! the current one is full the older one is forgotten. Fingerprints are 128
//! bits (two SipHash-1-3 sums), so two URLs sharing one is not a practical
//! concern (≈ 10⁻²⁸ for a million URLs).

use std::collections::HashSet;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::{Arc, Mutex};

pub struct SeenUrls {
    current: HashSet<u128>,
    previous: HashSet<u128>,
    capacity: usize,
}

/// 128 bits of a URL: two hashes of it under different prefixes.
pub fn fingerprint(url: &str) -> u128 {
    let half = |salt: u8| {
        let mut h = DefaultHasher::new();
        salt.hash(&mut h);
        url.hash(&mut h);
        h.finish()
    };
    (u128::from(half(0)) << 64) | u128::from(half(1))
}

impl SeenUrls {
    /// Remembers between `capacity` and 2 × `capacity` URLs (at least 1).
    pub fn new(capacity: usize) -> SeenUrls {
        SeenUrls {
            current: HashSet::new(),
            previous: HashSet::new(),
            capacity: capacity.max(1),
        }
    }

    /// Whether `url` was inserted (and not forgotten since).
    pub fn contains(&self, url: &str) -> bool {
        self.contains_fingerprint(fingerprint(url))
    }

    /// Whether the URL of [`fingerprint`] `fp` was inserted.
    pub fn contains_fingerprint(&self, fp: u128) -> bool {
        self.current.contains(&fp) || self.previous.contains(&fp)
    }

    /// Remember `url` (call only once it is committed to the frontier).
    pub fn insert(&mut self, url: &str) {
        self.insert_fingerprint(fingerprint(url));
    }

    /// Remember the URL of [`fingerprint`] `fp` (once committed).
    pub fn insert_fingerprint(&mut self, fp: u128) {
        if self.previous.contains(&fp) {
            return;
        }
        if self.current.len() >= self.capacity {
            self.previous = std::mem::take(&mut self.current);
        }
        self.current.insert(fp);
    }

    /// URLs remembered right now.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.current.len() + self.previous.len()
    }
}

/// The writer's [`SeenUrls`], shared with page processing (cheap to clone).
/// Only the writer inserts, and only URLs whose insert committed, so a page
/// that leaves out a URL this set holds leaves the frontier as it would be:
/// the store would have ignored it (`INSERT OR IGNORE` keeps the first
/// depth, priority and kind).
#[derive(Clone)]
pub struct CommittedUrls {
    seen: Arc<Mutex<SeenUrls>>,
}

impl CommittedUrls {
    /// Remembers between `capacity` and 2 × `capacity` URLs (at least 1).
    pub fn new(capacity: usize) -> CommittedUrls {
        CommittedUrls {
            seen: Arc::new(Mutex::new(SeenUrls::new(capacity))),
        }
    }

    /// Run `f` on the set under its lock; a poisoned lock (a panic while
    /// it was held) is a set that may be half-updated, which costs at most
    /// a URL sent to the store again: still used.
    pub fn with<T>(&self, f: impl FnOnce(&mut SeenUrls) -> T) -> T {
        let mut guard = self
            .seen
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        f(&mut guard)
    }

    /// For each fingerprint, whether its URL is certainly in the frontier
    /// (one lock for all of them).
    pub fn known(&self, fingerprints: &[u128]) -> Vec<bool> {
        self.with(|s| {
            fingerprints
                .iter()
                .map(|fp| s.contains_fingerprint(*fp))
                .collect()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_url_is_known_once_inserted_and_others_are_not() {
        let mut seen = SeenUrls::new(100);
        let urls: Vec<String> = (0..100).map(|i| format!("http://e.test/a/{i}")).collect();
        for u in &urls {
            assert!(!seen.contains(u), "{u} before insert");
            seen.insert(u);
        }
        assert!(urls.iter().all(|u| seen.contains(u)));
        // Near misses are new: a trailing slash, another port, a query.
        for other in [
            "http://e.test/a/1/",
            "http://e.test:81/a/1",
            "http://e.test/a/1?x",
        ] {
            assert!(!seen.contains(other), "{other}");
        }
    }

    #[test]
    fn memory_is_bounded_and_only_the_oldest_generation_is_forgotten() {
        let mut seen = SeenUrls::new(10);
        for i in 0..35 {
            seen.insert(&format!("http://e.test/{i}"));
            assert!(seen.len() <= 20, "{} after {i}", seen.len());
        }
        // The last generation and the one before are still known.
        for i in 20..35 {
            assert!(seen.contains(&format!("http://e.test/{i}")), "{i}");
        }
        // Forgotten ones are just new again (the store ignores them).
        assert!(!seen.contains("http://e.test/0"));
    }
}
