//! Seeded random draws for the tests that generate or damage pages: a fixed
//! seed keeps a failure reproducible, and a knob in the environment runs a
//! longer or another search by hand.

/// A number from the environment (a longer or other search by hand), or
/// `default`.
pub(crate) fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Draws below `n` from a xorshift generator seeded with `seed` (the
/// crate has no random-number dependency).
pub(crate) fn draws(seed: u64) -> impl FnMut(usize) -> usize {
    let mut state = seed.max(1);
    move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    }
}
