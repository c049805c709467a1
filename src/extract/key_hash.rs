//! A fast hasher for a table whose keys the binary itself fixes (the
//! language profiles' trigrams): one folded 128-bit multiply per eight
//! bytes. A page's words are only looked up in it. A table that a page's
//! own strings go *into* (class names, ids) keeps a hasher keyed at random
//! per table (`ahash::RandomState`): with a fixed, unkeyed hash a hostile
//! page could choose names that collide and make every insert walk all the
//! others.

use std::hash::{BuildHasher, Hasher};

#[derive(Clone, Copy, Default)]
pub(crate) struct KeyHash;

impl BuildHasher for KeyHash {
    type Hasher = KeyHasher;
    fn build_hasher(&self) -> KeyHasher {
        KeyHasher(0)
    }
}

pub(crate) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            let mut word = [0u8; 8];
            word.copy_from_slice(w);
            self.write_u64(u64::from_le_bytes(word));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    fn write_u8(&mut self, byte: u8) {
        self.write_u64(u64::from(byte));
    }

    fn write_u64(&mut self, key: u64) {
        let product = u128::from(self.0 ^ key) * 0x9E37_79B9_7F4A_7C15_u128;
        self.0 = (product as u64) ^ ((product >> 64) as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}
