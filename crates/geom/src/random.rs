//! A small deterministic pseudo-random generator, usable in `const` context to build hash
//! key tables at compile time and at run time for reproducible test playouts. Not for
//! anything that must be unpredictable (Banqi deals use a CSPRNG).

/// SplitMix64 (Steele, Lea, Flood 2014): one 64-bit state, full period, good enough mixing
/// for Zobrist keys and test move choices.
#[derive(Clone, Copy, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// Advances the state and returns the next value.
    pub const fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A value in `0..bound` (`bound > 0`), by multiply-shift; the tiny bias does not matter
    /// for test playouts.
    pub fn below(&mut self, bound: u64) -> u64 {
        ((self.next_u64() as u128 * bound as u128) >> 64) as u64
    }
}

/// `N` pseudo-random keys from `seed`, for Zobrist hashing tables built at compile time.
pub const fn keys<const N: usize>(seed: u64) -> [u64; N] {
    let mut rng = SplitMix64(seed);
    let mut out = [0u64; N];
    let mut i = 0;
    while i < N {
        out[i] = rng.next_u64();
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_reproducible() {
        const K: [u64; 64] = keys(7);
        let mut v = K.to_vec();
        v.sort_unstable();
        v.dedup();
        assert_eq!(v.len(), 64);
        assert_eq!(keys::<64>(7), K);
        let mut r = SplitMix64(1);
        assert!((0..1000).all(|_| r.below(10) < 10));
    }
}
