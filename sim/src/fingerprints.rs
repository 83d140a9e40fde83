//! A set of 64-bit fingerprints for the ledger's idempotency check: open addressing with linear
//! probing over one array of the fingerprints themselves.
//!
//! Why not a `HashSet<u64>`: by the end of a simulated day the set holds ~855,000 fingerprints
//! (6.8 MB of them in a table of 2^21 slots, 16 MB), far more than most caches, and every effect
//! inserts one. hashbrown keeps its control bytes and its slots in two arrays, so an insert
//! misses the cache twice; here the probe reads the fingerprints themselves, one miss. In the browser the set's inserts were 7% of the day.

/// The set. Slot value 0 means empty, so the fingerprint 0 is held by a flag of its own.
#[derive(Debug, Default)]
pub(crate) struct Fingerprints {
    /// A power of two long (or empty), at most [`MAX_LOAD`] full.
    slots: Vec<u64>,
    /// Non-zero fingerprints held.
    len: usize,
    zero: bool,
}

/// The fullest a table gets, as numerator / denominator: at 3/4 a probe for an absent
/// fingerprint reads ~8.5 slots on average, about one cache line.
const MAX_LOAD: (usize, usize) = (3, 4);

impl Fingerprints {
    /// An empty set with room for `n` fingerprints before it grows.
    pub(crate) fn with_capacity(n: usize) -> Self {
        let mut set = Fingerprints::default();
        set.resize(n);
        set
    }

    /// Fingerprints held.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.len + usize::from(self.zero)
    }

    #[cfg(test)]
    pub(crate) fn contains(&self, fingerprint: u64) -> bool {
        if fingerprint == 0 {
            return self.zero;
        }
        self.find(fingerprint).is_ok()
    }

    /// Adds `fingerprint`; false if it was held already.
    pub(crate) fn insert(&mut self, fingerprint: u64) -> bool {
        if fingerprint == 0 {
            return !std::mem::replace(&mut self.zero, true);
        }
        if (self.len + 1) * MAX_LOAD.1 > self.slots.len() * MAX_LOAD.0 {
            self.resize(self.len + 1);
        }
        match self.find(fingerprint) {
            Ok(_) => false,
            Err(empty) => {
                self.slots[empty] = fingerprint;
                self.len += 1;
                true
            }
        }
    }

    /// Takes `fingerprint` out, if held. The entries after it that probed past its slot move
    /// back (backward-shift deletion), so no probe ever stops short of what it looks for.
    pub(crate) fn remove(&mut self, fingerprint: u64) {
        if fingerprint == 0 {
            self.zero = false;
            return;
        }
        let Ok(mut hole) = self.find(fingerprint) else {
            return;
        };
        let mask = self.slots.len() - 1;
        let mut next = (hole + 1) & mask;
        while self.slots[next] != 0 {
            let home = self.home(self.slots[next]);
            // Movable into the hole when its home is not after the hole (cyclically).
            if next.wrapping_sub(home) & mask >= next.wrapping_sub(hole) & mask {
                self.slots[hole] = self.slots[next];
                hole = next;
            }
            next = (next + 1) & mask;
        }
        self.slots[hole] = 0;
        self.len -= 1;
    }

    /// The slot holding non-zero `fingerprint` (Ok), or the empty slot where it would go (Err).
    fn find(&self, fingerprint: u64) -> Result<usize, usize> {
        if self.slots.is_empty() {
            return Err(0);
        }
        let mask = self.slots.len() - 1;
        let mut at = self.home(fingerprint);
        loop {
            match self.slots[at] {
                0 => return Err(at),
                held if held == fingerprint => return Ok(at),
                _ => at = (at + 1) & mask,
            }
        }
    }

    /// Where a probe for `fingerprint` starts: its low bits (fingerprints are well mixed).
    fn home(&self, fingerprint: u64) -> usize {
        fingerprint as usize & (self.slots.len() - 1)
    }

    /// Rebuilds the table with room for at least `n` fingerprints.
    fn resize(&mut self, n: usize) {
        let size = (n * MAX_LOAD.1 / MAX_LOAD.0 + 1)
            .next_power_of_two()
            .max(64);
        let old = std::mem::replace(&mut self.slots, vec![0; size]);
        for fingerprint in old.into_iter().filter(|&f| f != 0) {
            let Err(empty) = self.find(fingerprint) else {
                unreachable!("each fingerprint is held once")
            };
            self.slots[empty] = fingerprint;
        }
    }
}

impl Extend<u64> for Fingerprints {
    fn extend<I: IntoIterator<Item = u64>>(&mut self, fingerprints: I) {
        for fingerprint in fingerprints {
            self.insert(fingerprint);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn answers_as_a_hash_set_does_through_inserts_removals_and_growth() {
        let mut set = Fingerprints::default();
        let mut model = HashSet::new();
        // 679 values crowded into 7 homes (low bits shared), 6 of them at the table's end, so
        // probe runs are long and wrap around; 0 is among them.
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for step in 0..60_000u64 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let value = (state % 97) << 40 ^ (state % 7).wrapping_neg();
            if step % 3 == 2 {
                set.remove(value);
                model.remove(&value);
            } else {
                assert_eq!(set.insert(value), model.insert(value), "step {step}");
            }
            assert_eq!(set.len(), model.len(), "step {step}");
        }
        for value in
            (0..97u64).flat_map(|high| (0..7u64).map(move |k| high << 40 ^ k.wrapping_neg()))
        {
            assert_eq!(set.contains(value), model.contains(&value), "{value:#x}");
        }
    }

    #[test]
    fn stays_within_its_load_and_starts_small() {
        let mut set = Fingerprints::with_capacity(0);
        assert_eq!(set.slots.len(), 64);
        set.extend((1..=100_000u64).map(|n| n.wrapping_mul(0x9e37_79b9_7f4a_7c15)));
        assert_eq!(set.len(), 100_000);
        assert!(set.len() * 4 <= set.slots.len() * 3);
        assert!(!set.contains(0) && set.insert(0) && !set.insert(0) && set.contains(0));
    }
}
