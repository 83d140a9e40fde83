//! The workers' seeded generators (`rand_xoshiro`'s SplitMix64, the engine's generator too): each
//! worker draws from its own stream, derived from the world's seed and the worker's name, so
//! changing one lane in a what-if does not reshuffle the draws of the others, and the same seed
//! and log always give the same world.

use rand_core::{RngCore, SeedableRng};
use rand_xoshiro::SplitMix64;

/// A deterministic stream of pseudo-random numbers.
#[derive(Clone, Debug)]
pub(crate) struct Rng(SplitMix64);

impl Rng {
    /// The stream for `name` under `seed`.
    pub(crate) fn for_name(seed: u64, name: &str) -> Self {
        // FNV-1a over the name, mixed with the seed.
        let hash = name.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
        Rng(SplitMix64::seed_from_u64(seed ^ hash))
    }

    /// Uniform in [0, 1).
    pub(crate) fn unit(&mut self) -> f64 {
        (self.0.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

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
