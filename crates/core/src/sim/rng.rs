//! The simulation's only source of randomness: a seeded xoshiro256** generator.
//!
//! Written out here (a dozen lines) rather than taken from a crate so the sequence can never
//! change under us with a dependency update: same seed ⇒ same names, uids and choices, forever.

/// Deterministic PRNG (xoshiro256**, seeded through SplitMix64 as its authors recommend).
#[derive(Clone, Debug)]
pub struct Rng {
    state: [u64; 4],
}

/// SplitMix64's next value from `state` (which it advances): how a seed becomes a generator's
/// state, and a hash's bits become a UUID's (`gpu/device.rs`).
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Rng {
    pub fn new(seed: u64) -> Self {
        let mut sm = seed;
        let mut next = || splitmix64(&mut sm);
        Rng { state: [next(), next(), next(), next()] }
    }

    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.state;
        let result = s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// Uniform in `0..bound` (bound > 0), by Lemire's multiply-shift with rejection.
    pub fn below(&mut self, bound: u64) -> u64 {
        debug_assert!(bound > 0);
        let bound = bound.max(1);
        loop {
            let product = u128::from(self.next_u64()) * u128::from(bound);
            let low = product as u64;
            if low >= bound.wrapping_neg() % bound {
                return (product >> 64) as u64;
            }
        }
    }

    /// `n` characters from upstream's `rand.String` alphabet (no vowels, no confusable digits),
    /// used for generateName suffixes such as `hello-6b85969876-rgpqn`.
    pub fn name_suffix(&mut self, n: usize) -> String {
        const ALPHANUMS: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
        (0..n).map(|_| ALPHANUMS[self.below(ALPHANUMS.len() as u64) as usize] as char).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_sequence() {
        let mut a = Rng::new(42);
        let mut b = Rng::new(42);
        let xs: Vec<u64> = (0..5).map(|_| a.next_u64()).collect();
        let ys: Vec<u64> = (0..5).map(|_| b.next_u64()).collect();
        assert_eq!(xs, ys);
        assert_ne!(Rng::new(43).next_u64(), xs[0]);
    }

    #[test]
    fn name_suffixes_use_the_upstream_alphabet() {
        let mut rng = Rng::new(1);
        let suffix = rng.name_suffix(5);
        assert_eq!(suffix.len(), 5);
        assert!(suffix.chars().all(|c| "bcdfghjklmnpqrstvwxz2456789".contains(c)));
        assert!((0..1000).all(|_| rng.below(7) < 7));
    }
}
