//! The durable ledger of side effects: every effect performed, with its message, attempt and
//! idempotency key, and the two numbers the seeds care about — duplicates (the same logical
//! effect done twice) and repeats the ledger prevented.
//!
//! The ledger is "durable": it survives worker crashes and restarts, as an application database
//! would. A worker whose effect step is idempotent checks the key here before acting; the check
//! and the record are one atomic step (the ideal the second seed asks for).
//!
//! Bounded detail: [`Ledger::effects`] keeps the most recent entries only — at least
//! [`LEDGER_DETAIL`] once that many were recorded, never more than twice that (about 200 bytes
//! each, so under 0.5 MB); older entries are folded into the counts, which stay exact
//! ([`Ledger::recorded`] counts every entry ever written). The idempotency check remembers the
//! keys performed as 64-bit fingerprints: the most recent [`REMEMBERED_KEYS`] of them (29 hours at
//! 10 effects a second), like an application's idempotency table whose entries expire. A key is
//! forgotten that many keys after it was first performed, even if repeated since: a repeat after
//! that is performed again and not counted as a duplicate (no library scenario repeats a key that
//! late; a message without a dead-letter queue that keeps failing could). Copies of the
//! ledger (the world's checkpoints) share the remembered keys: a copy costs the newest 4,096 only
//! (`Remembered`), so 64 checkpoints of a long session hold one set of keys, not 64.

use crate::fingerprints::Fingerprints;
use serde::{Deserialize, Serialize};
use sqs_engine::api::{Body, MessageId};
use sqs_engine::Millis;
use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

/// The fewest entries [`Ledger::effects`] keeps in detail once that many were recorded.
pub const LEDGER_DETAIL: usize = 1_000;

/// One side effect performed (or prevented).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Effect {
    /// When.
    pub at: Millis,
    /// Which worker.
    pub worker: Arc<str>,
    /// The effect's name ("send staff notice").
    pub name: Arc<str>,
    /// The message it was for.
    pub message_id: MessageId,
    /// The message's body (the business id): with the effect's name, the logical key
    /// ([`Effect::key`]), shared with the message rather than written out for every effect.
    pub body: Body,
    /// Which delivery of the message this was (its ApproximateReceiveCount).
    pub attempt: u32,
    /// The ledger already had this key, so the effect was skipped.
    pub prevented: bool,
    /// It had been done before: a duplicate.
    pub duplicate: bool,
}

impl Effect {
    /// The logical key: the message body, "/", the effect name ("R-022/send staff notice").
    pub fn key(&self) -> String {
        [&*self.body, "/", &*self.name].concat()
    }
}

/// The effects, in order (the most recent ones: see the module documentation), with running
/// counts over all of them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Ledger {
    /// The most recent effects performed or prevented, in order (between [`LEDGER_DETAIL`] and
    /// twice that once that many were recorded; older ones are folded into the counts).
    pub effects: Vec<Effect>,
    /// Entries dropped from the front of `effects`.
    folded: u64,
    /// The fingerprints of the keys performed (the idempotency check reads this; whether a key
    /// was performed before is all it and the duplicate count need).
    done: Remembered,
    /// Performed effects by name, in the order first performed: a world has a few names, and an
    /// effect finds its own by the shared text of its lane's step before comparing text (a map
    /// compared the name's text at every level, for every effect).
    by_name: Vec<(Arc<str>, u64)>,
    /// Performed effects in all (the sum of `by_name`, which the world reads after each one).
    performed: u64,
    duplicates: u64,
    prevented: u64,
}

/// What a worker is about to do: one effect of one job.
pub(crate) struct Attempt {
    pub(crate) at: Millis,
    pub(crate) worker: Arc<str>,
    pub(crate) name: Arc<str>,
    pub(crate) message_id: MessageId,
    pub(crate) body: Body,
    pub(crate) attempt: u32,
    /// Check the key first (the effect step's `idempotent`).
    pub(crate) check: bool,
}

impl Ledger {
    /// Performs the effect, or skips it when it is checked and its key is already recorded.
    /// Returns the entry written.
    pub(crate) fn record(&mut self, attempt: Attempt) -> &Effect {
        let fingerprint = fingerprint(&[&attempt.body, "/", &attempt.name]);
        let before = !self.done.insert(fingerprint);
        let prevented = attempt.check && before;
        let duplicate = !prevented && before;
        if prevented {
            self.prevented += 1;
        } else {
            let name = &attempt.name;
            let same =
                |(known, _): &&mut (Arc<str>, u64)| Arc::ptr_eq(known, name) || known == name;
            match self.by_name.iter_mut().find(same) {
                Some((_, n)) => *n += 1,
                None => self.by_name.push((Arc::clone(name), 1)),
            }
            self.duplicates += u64::from(duplicate);
            self.performed += 1;
        }
        self.effects.push(Effect {
            at: attempt.at,
            worker: attempt.worker,
            name: attempt.name,
            message_id: attempt.message_id,
            body: attempt.body,
            attempt: attempt.attempt,
            prevented,
            duplicate,
        });
        if self.effects.len() >= 2 * LEDGER_DETAIL {
            self.effects.drain(..LEDGER_DETAIL);
            self.folded += LEDGER_DETAIL as u64;
        }
        self.effects.last().expect("just pushed")
    }

    /// Entries ever recorded (performed or prevented), including those folded out of
    /// [`Ledger::effects`]: grows by one per entry, so a UI can tell that something was added.
    pub fn recorded(&self) -> u64 {
        self.folded + self.effects.len() as u64
    }

    /// Effects performed (prevented ones excluded).
    pub fn performed(&self) -> u64 {
        self.performed
    }

    /// How many times an effect of this name was performed ("send staff notice": 2).
    pub fn performed_named(&self, name: &str) -> u64 {
        let count = self.by_name.iter().find(|(known, _)| **known == *name);
        count.map_or(0, |&(_, n)| n)
    }

    /// Performed effects by name.
    pub fn performed_by_name(&self) -> BTreeMap<String, u64> {
        let mut by_name = BTreeMap::new();
        by_name.extend(self.by_name.iter().map(|(name, n)| (name.to_string(), *n)));
        by_name
    }

    /// Effects performed although their key had been performed before.
    pub fn duplicates(&self) -> u64 {
        self.duplicates
    }

    /// How many distinct idempotency keys the check remembers (at most [`REMEMBERED_KEYS`] plus
    /// 4,095).
    pub(crate) fn keys(&self) -> usize {
        self.done.len()
    }

    /// Repeats the idempotency check stopped.
    pub fn prevented(&self) -> u64 {
        self.prevented
    }
}

/// The fewest idempotency keys the ledger remembers: older ones are forgotten (see the module
/// documentation). 8 MB of fingerprints, plus the live set's 16 MB or so.
pub const REMEMBERED_KEYS: usize = 1 << 20;

/// Fingerprints per shared chunk of [`Remembered`].
const CHUNK: usize = 4_096;

/// The fingerprints of the keys performed, oldest first: in full chunks of [`CHUNK`], shared by
/// the copies of the ledger, then the newest ones, which a copy copies. Each fingerprint appears
/// once (a key is recorded only when it is not remembered). A set of them answers the check; a
/// copy starts without it and builds it from the chunks when it first records something, since
/// most copies (checkpoints) never do.
#[derive(Debug, Default)]
struct Remembered {
    chunks: VecDeque<Arc<[u64]>>,
    newest: Vec<u64>,
    index: Option<Fingerprints>,
}

impl Remembered {
    #[cfg(test)]
    fn contains(&mut self, fingerprint: u64) -> bool {
        self.index().contains(fingerprint)
    }

    /// Remembers a fingerprint; false if it was remembered already (one lookup for the check
    /// and the record). Forgets the oldest chunk when more than [`REMEMBERED_KEYS`] are.
    fn insert(&mut self, fingerprint: u64) -> bool {
        if !self.index().insert(fingerprint) {
            return false;
        }
        self.newest.push(fingerprint);
        if self.newest.len() < CHUNK {
            return true;
        }
        self.chunks
            .push_back(std::mem::take(&mut self.newest).into());
        if self.chunks.len() * CHUNK > REMEMBERED_KEYS {
            let oldest = self.chunks.pop_front().expect("more than one chunk");
            let index = self.index();
            for fingerprint in oldest.iter() {
                index.remove(*fingerprint);
            }
        }
        true
    }

    fn index(&mut self) -> &mut Fingerprints {
        let (chunks, newest) = (&self.chunks, &self.newest);
        self.index.get_or_insert_with(|| {
            let mut index = Fingerprints::with_capacity(chunks.len() * CHUNK + newest.len());
            index.extend(
                chunks
                    .iter()
                    .flat_map(|chunk| chunk.iter())
                    .chain(newest)
                    .copied(),
            );
            index
        })
    }

    fn iter(&self) -> impl Iterator<Item = &u64> {
        self.chunks
            .iter()
            .flat_map(|chunk| chunk.iter())
            .chain(&self.newest)
    }

    fn len(&self) -> usize {
        self.chunks.len() * CHUNK + self.newest.len()
    }
}

/// Shares the chunks; the copy builds its set when it first needs it.
impl Clone for Remembered {
    fn clone(&self) -> Self {
        Remembered {
            chunks: self.chunks.clone(),
            newest: self.newest.clone(),
            index: None,
        }
    }
}

/// The same fingerprints in the same order (the set is derived from them).
impl PartialEq for Remembered {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

/// A 64-bit fingerprint of the idempotency key that is the concatenation of `parts`, put
/// together on the stack when it fits (a key of an effect is one per message: no allocation).
fn fingerprint(parts: &[&str]) -> u64 {
    let len: usize = parts.iter().map(|part| part.len()).sum();
    let mut buffer = [0u8; 128];
    if len > buffer.len() {
        return fingerprint_bytes(parts.concat().as_bytes());
    }
    let mut at = 0;
    for part in parts {
        buffer[at..at + part.len()].copy_from_slice(part.as_bytes());
        at += part.len();
    }
    fingerprint_bytes(&buffer[..len])
}

/// A 64-bit fingerprint of a key, the same in every run and on every platform: 8 bytes at a
/// time, each step a bijection of the state (so keys of one length that differ in one word never
/// collide), then SplitMix64's finaliser. Two distinct keys collide with probability about
/// n²/2⁶⁵ for n keys: about 3 in 100 million for a million keys. (SipHash, before, cost more
/// than the rest of recording an effect.)
fn fingerprint_bytes(key: &[u8]) -> u64 {
    let mut state = 0x9e37_79b9_7f4a_7c15 ^ key.len() as u64;
    let mut step = |word: u64| {
        state = (state ^ word)
            .wrapping_mul(0xbf58_476d_1ce4_e5b9)
            .rotate_left(31);
    };
    let mut words = key.chunks_exact(8);
    for word in &mut words {
        step(u64::from_le_bytes(word.try_into().expect("8 bytes")));
    }
    let rest = words.remainder();
    if !rest.is_empty() {
        let mut word = [0u8; 8];
        word[..rest.len()].copy_from_slice(rest);
        step(u64::from_le_bytes(word));
    }
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attempt(body: &str, check: bool) -> Attempt {
        Attempt {
            at: 0,
            worker: "A".into(),
            name: "send staff notice".into(),
            message_id: "m".into(),
            body: body.into(),
            attempt: 1,
            check,
        }
    }

    #[test]
    fn unchecked_repeats_are_duplicates_and_checked_ones_are_prevented() {
        let mut ledger = Ledger::default();
        assert!(!ledger.record(attempt("R-022", false)).duplicate);
        assert!(ledger.record(attempt("R-022", false)).duplicate);
        assert!(ledger.record(attempt("R-022", true)).prevented);
        assert!(!ledger.record(attempt("R-023", true)).prevented);
        assert_eq!(ledger.performed(), 3);
        assert_eq!(ledger.performed_named("send staff notice"), 3);
        assert_eq!((ledger.duplicates(), ledger.prevented()), (1, 1));
    }

    #[test]
    fn effects_count_by_name_whether_the_name_is_shared_or_spelled_again() {
        let mut ledger = Ledger::default();
        let shared = attempt("R-1", false);
        let name = Arc::clone(&shared.name);
        ledger.record(shared);
        ledger.record(Attempt {
            name: Arc::clone(&name),
            ..attempt("R-2", false)
        });
        ledger.record(attempt("R-3", false));
        ledger.record(Attempt {
            name: "archive".into(),
            ..attempt("R-1", true)
        });
        let expected = BTreeMap::from([
            ("archive".to_string(), 1),
            ("send staff notice".to_string(), 3),
        ]);
        assert_eq!(ledger.performed_by_name(), expected);
        assert_eq!(ledger.performed_named("archive"), 1);
        assert_eq!(ledger.performed_named("nothing"), 0);
    }

    #[test]
    fn fingerprints_of_distinct_keys_differ() {
        let keys = (0..200_000).map(|n| format!("order-{n} tag-{}/ship the order", n % 100));
        let mut seen: std::collections::HashSet<u64> =
            keys.map(|key| fingerprint(&[&key])).collect();
        assert_eq!(seen.len(), 200_000);
        // Zero padding of the last word does not hide a length difference.
        for key in ["", "a", "a\0", "a\0\0\0\0\0\0\0", "abcdefgh", "abcdefgh\0"] {
            assert!(seen.insert(fingerprint(&[key])), "{key:?}");
        }
    }

    #[test]
    fn a_key_in_parts_has_the_fingerprint_of_the_whole() {
        let whole = "order-12345 tag-45/ship the order";
        for parts in [
            &["order-12345 tag-45", "/", "ship the order"][..],
            &["order-12", "345 tag-45/ship the order"],
            &["o", "rder-12345 tag-4", "", "5/ship the ord", "er"],
            &[whole, ""],
        ] {
            assert_eq!(fingerprint(parts), fingerprint(&[whole]), "{parts:?}");
        }
        assert_ne!(fingerprint(&["ab", "c"]), fingerprint(&["ab", "d"]));
        // Past the stack buffer, the same.
        let long = "x".repeat(300);
        assert_eq!(
            fingerprint(&[&long[..100], &long[100..]]),
            fingerprint(&[&long])
        );
        assert_ne!(fingerprint(&[&long]), fingerprint(&[&long[1..]]));
    }

    #[test]
    fn copies_share_the_older_fingerprints_and_check_them_all() {
        let mut ledger = Ledger::default();
        let key = |n: usize| format!("R-{n}");
        for n in 0..3 * CHUNK + 10 {
            ledger.record(attempt(&key(n), true));
        }
        let copy = ledger.clone();
        assert!(Arc::ptr_eq(&copy.done.chunks[2], &ledger.done.chunks[2]));
        assert_eq!(
            (copy.done.newest.len(), copy.done.index.is_none()),
            (10, true)
        );
        assert_eq!(copy, ledger);
        for n in 3 * CHUNK + 10..6 * CHUNK {
            ledger.record(attempt(&key(n), true));
        }
        // The copy keeps what it had.
        assert_eq!((copy.keys(), ledger.keys()), (3 * CHUNK + 10, 6 * CHUNK));
        assert_ne!(copy, ledger);
        for n in [0, CHUNK, 3 * CHUNK - 1, 3 * CHUNK + 10, 6 * CHUNK - 1] {
            assert!(ledger.record(attempt(&key(n), true)).prevented, "{n}");
        }
        // A copy builds its check from the shared chunks: it knows the old keys, not the new.
        let mut copy = copy.clone();
        assert!(copy.record(attempt(&key(CHUNK + 1), true)).prevented);
        assert!(!copy.record(attempt(&key(3 * CHUNK + 10), true)).prevented);
    }

    #[test]
    fn the_check_forgets_the_oldest_keys_past_its_bound() {
        let mut remembered = Remembered::default();
        let total = REMEMBERED_KEYS + CHUNK + 5;
        for n in 0..total as u64 {
            assert!(remembered.insert(n), "{n} is new");
            assert!(!remembered.insert(n), "{n} is remembered");
        }
        // The oldest chunk went; everything after it is still known, in order.
        assert_eq!(remembered.len(), REMEMBERED_KEYS + 5);
        assert!((0..CHUNK as u64).all(|n| !remembered.contains(n)));
        assert!(remembered.contains(CHUNK as u64) && remembered.contains(total as u64 - 1));
        assert_eq!(remembered.index().len(), remembered.len());
        assert!(remembered.iter().copied().eq(CHUNK as u64..total as u64));
        // A copy's check, built from the chunks, agrees.
        let mut copy = remembered.clone();
        assert!(!copy.contains(CHUNK as u64 - 1) && copy.contains(CHUNK as u64));
    }

    #[test]
    fn detail_is_bounded_and_counts_stay_exact() {
        let mut ledger = Ledger::default();
        for n in 0..5 * LEDGER_DETAIL {
            ledger.record(attempt(&format!("R-{n}"), true));
            ledger.record(attempt(&format!("R-{n}"), true));
        }
        assert!((LEDGER_DETAIL..2 * LEDGER_DETAIL).contains(&ledger.effects.len()));
        assert_eq!(ledger.recorded(), 10 * LEDGER_DETAIL as u64);
        assert_eq!(ledger.performed(), 5 * LEDGER_DETAIL as u64);
        assert_eq!(ledger.prevented(), 5 * LEDGER_DETAIL as u64);
        let last = ledger.effects.last().unwrap();
        let key = format!("R-{}/send staff notice", 5 * LEDGER_DETAIL - 1);
        assert_eq!(last.key(), key);
        assert!(last.prevented);
    }
}
