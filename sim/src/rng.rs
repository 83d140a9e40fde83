//! A small seeded generator (SplitMix64): each worker draws from its own stream, derived from the
//! world's seed and the worker's name, so changing one lane in a what-if does not reshuffle the
//! draws of the others, and the same seed and log always give the same world.

/// A deterministic stream of pseudo-random numbers.
#[derive(Clone, Debug)]
pub(crate) struct Rng(u64);

impl Rng {
    /// The stream for `name` under `seed`.
    pub(crate) fn for_name(seed: u64, name: &str) -> Self {
        // FNV-1a over the name, mixed with the seed.
        let hash = name.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
        Rng(seed ^ hash)
    }

    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    pub(crate) fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// A fast, deterministic hasher for the world's internal maps (MessageIds, receipt handles,
/// poll ids): a multiply-rotate over 8-byte words, as rustc's FxHash. Not DoS-resistant, which
/// a simulation running its own data does not need; SipHash was 6% of a fast-forward.
#[derive(Clone, Copy, Default)]
pub(crate) struct FxHasher(u64);

const FX_SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FxHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(FX_SEED);
    }
}

impl std::hash::Hasher for FxHasher {
    /// Text of 8 bytes or more is hashed by its first and last 8: the world's maps hash
    /// MessageIds, UUIDs that are random from end to end (their equality is still checked in
    /// full), and reading the 36 bytes word by word was most of each lookup.
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        match bytes.len().checked_sub(8) {
            Some(last) => {
                let word =
                    |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
                self.add(word(0));
                self.add(word(last));
            }
            None => self.add(bytes.iter().fold(0, |word, &b| word << 8 | u64::from(b))),
        }
    }

    #[inline]
    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
    }

    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }

    #[inline]
    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

/// A HashMap with [`FxHasher`].
pub(crate) type FastMap<K, V> =
    std::collections::HashMap<K, V, std::hash::BuildHasherDefault<FxHasher>>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_and_name_give_the_same_stream() {
        let mut a = Rng::for_name(7, "Worker A");
        let mut b = Rng::for_name(7, "Worker A");
        let mut c = Rng::for_name(7, "Worker B");
        let draws: Vec<f64> = (0..5).map(|_| a.unit()).collect();
        assert_eq!(draws, (0..5).map(|_| b.unit()).collect::<Vec<_>>());
        assert_ne!(draws, (0..5).map(|_| c.unit()).collect::<Vec<_>>());
        assert!(draws.iter().all(|u| (0.0..1.0).contains(u)));
    }
}
