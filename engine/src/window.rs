//! A map whose entries expire a fixed time after insertion: the FIFO deduplication window and the
//! ReceiveRequestAttemptId cache (semantics §3.4, §4.1). Expired entries are pruned from the
//! front of an insertion-ordered queue, so memory stays bounded by the window.

use crate::Millis;
use std::collections::{HashMap, VecDeque};

#[derive(Clone, Debug)]
pub(crate) struct Window<V> {
    ttl: Millis,
    entries: HashMap<String, (Millis, V)>,
    order: VecDeque<(Millis, String)>,
}

impl<V> Window<V> {
    pub(crate) fn new(ttl: Millis) -> Self {
        Window {
            ttl,
            entries: HashMap::new(),
            order: VecDeque::new(),
        }
    }

    /// The live entry for `key` at `now` (live iff `now < inserted + ttl`).
    pub(crate) fn get(&self, key: &str, now: Millis) -> Option<&V> {
        self.entries
            .get(key)
            .filter(|(at, _)| now < at + self.ttl)
            .map(|(_, v)| v)
    }

    /// Inserts (or replaces) `key`, first dropping entries that have expired.
    pub(crate) fn insert(&mut self, key: String, value: V, now: Millis) {
        while let Some((at, _)) = self.order.front() {
            if now < at + self.ttl {
                break;
            }
            let (at, old) = self.order.pop_front().expect("front exists");
            if self.entries.get(&old).is_some_and(|(t, _)| *t == at) {
                self.entries.remove(&old);
            }
        }
        self.order.push_back((now, key.clone()));
        self.entries.insert(key, (now, value));
    }

    pub(crate) fn clear(&mut self) {
        self.entries.clear();
        self.order.clear();
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
}
