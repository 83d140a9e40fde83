//! The engine's only source of randomness: a seeded SplitMix64 (`rand_xoshiro`'s), so the same
//! seed and inputs give the same MessageIds, receipt handles and knob decisions.

use crate::api::MessageId;
use rand_core::{RngCore, SeedableRng};
use rand_xoshiro::SplitMix64;
use serde::{Deserialize, Serialize};

/// SplitMix64 (Steele, Lea, Flood 2014): tiny state, good enough statistics for ids and knobs.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Rng(SplitMix64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Self {
        Rng(SplitMix64::seed_from_u64(seed))
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// True with probability `p` (clamped to 0..=1); draws nothing when `p <= 0`, so a knob that
    /// is off leaves the random stream untouched.
    pub(crate) fn chance(&mut self, p: f64) -> bool {
        if p <= 0.0 {
            return false;
        }
        ((self.next_u64() >> 11) as f64 / (1u64 << 53) as f64) < p
    }

    /// A number in `0..n` (`n > 0`).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// A random version-4 UUID, as AWS formats MessageIds. Inlined into its callers (every
    /// send makes one).
    #[inline(always)]
    pub(crate) fn uuid(&mut self) -> MessageId {
        let hi = (self.next_u64() & !0xF000) | 0x4000;
        let lo = (self.next_u64() & !(0xC << 60)) | (0x8 << 60);
        // The 32 hex digits of hi then lo, 8 at a time, grouped 8-4-4-4-12.
        let hex = |word: u64| crate::hash::hex_u32(word as u32);
        let digits = [hex(hi >> 32), hex(hi), hex(lo >> 32), hex(lo)];
        let mut id = [b'-'; 36];
        id[..8].copy_from_slice(&digits[0]);
        id[9..13].copy_from_slice(&digits[1][..4]);
        id[14..18].copy_from_slice(&digits[1][4..]);
        id[19..23].copy_from_slice(&digits[2][..4]);
        id[24..28].copy_from_slice(&digits[2][4..]);
        id[28..].copy_from_slice(&digits[3]);
        MessageId::from_uuid(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream() {
        let (mut a, mut b) = (Rng::new(7), Rng::new(7));
        assert_eq!(a.uuid(), b.uuid());
        assert_ne!(a.next_u64(), Rng::new(8).next_u64());
    }

    #[test]
    fn uuid_is_version_4() {
        let id = Rng::new(1).uuid();
        // Pinned: MessageIds of a seed must not change between versions.
        assert_eq!(&*id, "910a2dec-8902-4cc1-beeb-8da1658eec67");
        assert_eq!(id.len(), 36);
        assert_eq!(&id[14..15], "4");
        assert!(matches!(&id[19..20], "8" | "9" | "a" | "b"));
    }
}
