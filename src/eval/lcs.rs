//! The longest common subsequence of two token sequences.
//!
//! In: token id sequences (tokens from [`crate::words::tokenize`]). Out: the
//! LCS length, computed bit-parallel
//! (Allison–Dix / Hyyrö): O(n·⌈m/64⌉) word operations instead of an O(n·m)
//! table, so 20k-token pages score in milliseconds.

/// Length of the longest common subsequence of two id sequences
/// (bit-parallel; the shorter sequence is the bit dimension).
pub fn lcs_len(a: &[u32], b: &[u32]) -> usize {
    let (a, b) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    let m = a.len();
    if m == 0 {
        return 0;
    }
    let w = m.div_ceil(64);
    // Match masks only for symbols that occur in `a`; others never match.
    let max_id = a.iter().chain(b).copied().max().unwrap_or(0) as usize;
    let mut slot = vec![u32::MAX; max_id + 1];
    let mut masks: Vec<u64> = Vec::new();
    for (i, &t) in a.iter().enumerate() {
        let s = &mut slot[t as usize];
        if *s == u32::MAX {
            *s = (masks.len() / w) as u32;
            masks.resize(masks.len() + w, 0);
        }
        masks[*s as usize * w + i / 64] |= 1u64 << (i % 64);
    }
    let mut v = vec![u64::MAX; w];
    for &t in b {
        let s = slot[t as usize];
        if s == u32::MAX {
            continue; // no match: V stays as it is
        }
        let mk = &masks[s as usize * w..(s as usize + 1) * w];
        let mut carry = 0u64;
        for (vk, &mk) in v.iter_mut().zip(mk) {
            let x = *vk;
            let u = x & mk;
            let (s1, c1) = x.overflowing_add(u);
            let (s2, c2) = s1.overflowing_add(carry);
            carry = u64::from(c1 | c2);
            *vk = s2 | (x & !mk);
        }
    }
    // LCS = number of zero bits among the first m bits.
    let mut zeros = 0usize;
    for (k, &x) in v.iter().enumerate() {
        let bits = if k + 1 == w && m % 64 != 0 {
            m % 64
        } else {
            64
        };
        let mask = if bits == 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        };
        zeros += (!x & mask).count_ones() as usize;
    }
    zeros
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive_lcs(a: &[u32], b: &[u32]) -> usize {
        let mut dp = vec![vec![0usize; b.len() + 1]; a.len() + 1];
        for i in 1..=a.len() {
            for j in 1..=b.len() {
                dp[i][j] = if a[i - 1] == b[j - 1] {
                    dp[i - 1][j - 1] + 1
                } else {
                    dp[i - 1][j].max(dp[i][j - 1])
                };
            }
        }
        dp[a.len()][b.len()]
    }

    /// xorshift: deterministic pseudo-random inputs without a dependency.
    fn rng(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    #[test]
    fn lcs_matches_naive_dp_on_random_inputs() {
        let mut s = 0x9E37_79B9_7F4A_7C15u64;
        for round in 0..400 {
            let la = (rng(&mut s) % 150) as usize;
            let lb = (rng(&mut s) % 150) as usize;
            let alpha = 1 + rng(&mut s) % 12;
            let a: Vec<u32> = (0..la).map(|_| (rng(&mut s) % alpha) as u32).collect();
            let b: Vec<u32> = (0..lb).map(|_| (rng(&mut s) % alpha) as u32).collect();
            assert_eq!(
                lcs_len(&a, &b),
                naive_lcs(&a, &b),
                "round {round}: {a:?} {b:?}"
            );
        }
    }

    #[test]
    fn lcs_word_boundaries() {
        for n in [63usize, 64, 65, 127, 128, 129] {
            let a: Vec<u32> = (0..n as u32).collect();
            assert_eq!(lcs_len(&a, &a), n);
            let b: Vec<u32> = (0..n as u32).rev().collect();
            assert_eq!(lcs_len(&a, &b), 1);
        }
    }

    #[test]
    fn lcs_fast_on_20k_tokens() {
        // Correctness on a long input (speed is for benches): a 20k-token
        // text against itself with every 10th token changed.
        let a: Vec<u32> = (0..20_000u32).map(|i| i % 5000).collect();
        let b: Vec<u32> = a
            .iter()
            .enumerate()
            .map(|(i, &t)| if i % 10 == 0 { 9_999 } else { t })
            .collect();
        assert_eq!(lcs_len(&a, &b), 18_000);
    }
}
