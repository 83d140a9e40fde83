//! A map whose entries expire a fixed time after insertion: the FIFO deduplication window and the
//! ReceiveRequestAttemptId cache (semantics §3.4, §4.1). Expired entries are pruned from the
//! front of an insertion-ordered queue, so memory stays bounded by the window.

use crate::Millis;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, VecDeque};

/// The values live in `order`, and `entries` maps each key to its latest entry's place there.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Window<V> {
    ttl: Millis,
    /// Each key's latest entry: its index (see `pruned`).
    entries: HashMap<String, u64>,
    /// Every entry not yet pruned, oldest first (a replaced entry stays until it expires).
    order: VecDeque<(Millis, String, V)>,
    /// How many entries were pruned from the front of `order`: the index of its first one.
    pruned: u64,
}

impl<V> Window<V> {
    pub(crate) fn new(ttl: Millis) -> Self {
        Window {
            ttl,
            entries: HashMap::new(),
            order: VecDeque::new(),
            pruned: 0,
        }
    }

    /// The live entry for `key` at `now` (live iff `now < inserted + ttl`).
    pub(crate) fn get(&self, key: &str, now: Millis) -> Option<&V> {
        let index = *self.entries.get(key)?;
        let (at, _, value) = &self.order[(index - self.pruned) as usize];
        (now < at + self.ttl).then_some(value)
    }

    /// Inserts (or replaces) `key`, first dropping entries that have expired.
    pub(crate) fn insert(&mut self, key: String, value: V, now: Millis) {
        while let Some((at, ..)) = self.order.front() {
            if now < at + self.ttl {
                break;
            }
            let (_, old, _) = self.order.pop_front().expect("front exists");
            if self.entries.get(&old) == Some(&self.pruned) {
                self.entries.remove(&old);
            }
            self.pruned += 1;
        }
        let index = self.pruned + self.order.len() as u64;
        self.order.push_back((now, key.clone(), value));
        self.entries.insert(key, index);
    }

    pub(crate) fn clear(&mut self) {
        self.entries.clear();
        self.order.clear();
        self.pruned = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_expire_after_ttl() {
        let mut w = Window::new(300_000);
        w.insert("a".into(), 1, 0);
        assert_eq!(w.get("a", 299_999), Some(&1));
        assert_eq!(w.get("a", 300_000), None);
        w.insert("b".into(), 2, 300_000);
        assert!(!w.entries.contains_key("a"));
    }

    #[test]
    fn a_replaced_key_lives_as_long_as_its_latest_entry() {
        let mut w = Window::new(300_000);
        w.insert("a".into(), 1, 0);
        w.insert("a".into(), 2, 10);
        assert_eq!(w.get("a", 5), Some(&2));
        // Pruning the first entry keeps the key, whose latest entry is still live.
        w.insert("b".into(), 3, 300_005);
        assert_eq!(w.get("a", 300_009), Some(&2));
        assert_eq!(w.get("a", 300_010), None);
        w.insert("c".into(), 4, 300_010);
        assert!(!w.entries.contains_key("a"));
        assert_eq!(
            (w.get("b", 300_010), w.get("c", 300_010)),
            (Some(&3), Some(&4))
        );
    }
}
