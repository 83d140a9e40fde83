//! A set of slab slots kept in key order, built for keys that mostly arrive in increasing order:
//! a queue's messages by enqueue time, where each new message is the newest. A key larger than
//! every key in the run is appended to a doubly linked run in O(1); any other key (a message
//! becoming receivable again after its visibility timeout, or moved into a dead-letter queue
//! with its old enqueue time) goes to a B-tree. Removal is O(1) from the run and O(log n) from
//! the tree, and iteration merges the two. Each slot's links and key are stored here, so the set
//! needs nothing from its owner.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// An ordering key (see `queue::order_key`).
pub(crate) type OrderKey = u128;

/// The key of (`major`, `minor`), ordered by `major`, then by `minor`.
pub(crate) fn key(major: u64, minor: u64) -> OrderKey {
    u128::from(major) << 64 | u128::from(minor)
}

/// No slot: the end of the run.
const NIL: u32 = u32::MAX;

/// Where a slot is in the set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum Place {
    Absent,
    Run,
    Tree,
}

#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
struct Link {
    key: OrderKey,
    prev: u32,
    next: u32,
    place: Place,
}

const ABSENT: Link = Link {
    key: 0,
    prev: NIL,
    next: NIL,
    place: Place::Absent,
};

/// Slots in increasing key order (keys are unique).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Ordered {
    /// By slot.
    links: Vec<Link>,
    head: u32,
    tail: u32,
    /// Members whose key was not the largest when they were inserted.
    tree: BTreeMap<OrderKey, u32>,
}

impl Default for Ordered {
    fn default() -> Self {
        Ordered {
            links: Vec::new(),
            head: NIL,
            tail: NIL,
            tree: BTreeMap::new(),
        }
    }
}

impl Ordered {
    /// Adds `slot` (which must be absent) under `key`.
    ///
    /// Inlined, as is [`Ordered::remove`]: every lifecycle makes several of each, and the run's
    /// path is a few stores, cheaper than a call; the B-tree's paths stay out of line.
    #[inline]
    pub(crate) fn insert(&mut self, slot: u32, key: OrderKey) {
        let i = slot as usize;
        if self.links.len() <= i {
            self.grow(i);
        }
        debug_assert_eq!(
            self.links[i].place,
            Place::Absent,
            "slot {slot} inserted twice"
        );
        let tail = self.tail;
        if tail == NIL || self.links[tail as usize].key < key {
            self.links[i] = Link {
                key,
                prev: tail,
                next: NIL,
                place: Place::Run,
            };
            match tail {
                NIL => self.head = slot,
                _ => self.links[tail as usize].next = slot,
            }
            self.tail = slot;
        } else {
            self.insert_in_tree(slot, key);
        }
    }

    // The rare paths of `insert` and `remove`, out of line so that those stay small enough to
    // inline into every send, receive and delete.
    #[inline(never)]
    fn grow(&mut self, i: usize) {
        self.links.resize(i + 1, ABSENT);
    }

    #[inline(never)]
    fn insert_in_tree(&mut self, slot: u32, key: OrderKey) {
        self.links[slot as usize] = Link {
            place: Place::Tree,
            key,
            ..ABSENT
        };
        self.tree.insert(key, slot);
    }

    /// Removes `slot` if it is a member; says whether it was.
    #[inline]
    pub(crate) fn remove(&mut self, slot: u32) -> bool {
        let Some(&link) = self.links.get(slot as usize) else {
            return false;
        };
        match link.place {
            Place::Absent => return false,
            Place::Tree => self.remove_from_tree(slot, link.key),
            Place::Run => {
                match link.prev {
                    NIL => self.head = link.next,
                    prev => self.links[prev as usize].next = link.next,
                }
                match link.next {
                    NIL => self.tail = link.prev,
                    next => self.links[next as usize].prev = link.prev,
                }
                self.links[slot as usize] = ABSENT;
            }
        }
        true
    }

    #[inline(never)]
    fn remove_from_tree(&mut self, slot: u32, key: OrderKey) {
        self.tree.remove(&key);
        self.links[slot as usize] = ABSENT;
    }

    /// Whether the set has no member.
    pub(crate) fn is_empty(&self) -> bool {
        self.head == NIL && self.tree.is_empty()
    }

    /// Whether `slot` is a member under `key`: one read, where [`Ordered::first`] also looks
    /// into the tree.
    #[inline]
    pub(crate) fn holds(&self, slot: u32, key: OrderKey) -> bool {
        self.links
            .get(slot as usize)
            .is_some_and(|link| link.place != Place::Absent && link.key == key)
    }

    /// The member with the smallest key.
    pub(crate) fn first(&self) -> Option<(OrderKey, u32)> {
        let run = (self.head != NIL).then(|| (self.links[self.head as usize].key, self.head));
        let tree = self.tree.first_key_value().map(|(&key, &slot)| (key, slot));
        match (run, tree) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// The members in key order.
    pub(crate) fn iter(&self) -> Iter<'_> {
        Iter {
            set: self,
            run: self.head,
            tree: self.tree.iter().peekable(),
        }
    }
}

/// [`Ordered::iter`]: the run and the tree merged. Every receive walks it, and the tree is
/// mostly empty: each step reads the run's next link and, only if the tree has a member left,
/// compares with it.
pub(crate) struct Iter<'a> {
    set: &'a Ordered,
    /// The run's next member.
    run: u32,
    tree: std::iter::Peekable<std::collections::btree_map::Iter<'a, OrderKey, u32>>,
}

impl Iterator for Iter<'_> {
    type Item = (OrderKey, u32);

    #[inline]
    fn next(&mut self) -> Option<(OrderKey, u32)> {
        let tree = self.tree.peek().map(|(&key, &slot)| (key, slot));
        if self.run == NIL {
            self.tree.next();
            return tree;
        }
        let link = &self.set.links[self.run as usize];
        if let Some(tree) = tree.filter(|&(key, _)| key < link.key) {
            self.tree.next();
            return Some(tree);
        }
        let slot = self.run;
        self.run = link.next;
        Some((link.key, slot))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(set: &Ordered) -> Vec<(OrderKey, u32)> {
        set.iter().collect()
    }

    #[test]
    fn in_order_and_out_of_order_keys_merge_into_one_order() {
        let mut set = Ordered::default();
        set.insert(0, 10);
        set.insert(1, 20);
        set.insert(2, 30);
        // Smaller than the last: kept aside, still iterated in order.
        set.insert(3, 15);
        set.insert(4, 5);
        assert_eq!(keys(&set), [(5, 4), (10, 0), (15, 3), (20, 1), (30, 2)]);
        assert!(!set.is_empty());
        assert_eq!(set.first(), Some((5, 4)));
        assert!(
            set.holds(4, 5) && set.holds(0, 10),
            "in the tree and in the run"
        );
        assert!(
            !set.holds(4, 10) && !set.holds(5, 0),
            "another key, an absent slot"
        );
        // Removal from the middle, both ends of the run and the tree.
        assert!(set.remove(1));
        assert!(set.remove(4));
        assert!(set.remove(0));
        assert!(!set.remove(0), "already removed");
        assert!(!set.remove(99), "never a member");
        assert!(!set.holds(4, 5) && !set.holds(0, 10) && !set.holds(99, 0));
        assert_eq!(keys(&set), [(15, 3), (30, 2)]);
        assert_eq!(set.first(), Some((15, 3)));
        assert!(set.remove(2));
        assert_eq!(set.first(), Some((15, 3)));
        assert!(!set.is_empty(), "the run is empty, the tree is not");
        // The run is empty again: the next key starts it, whatever the tree holds.
        set.insert(2, 40);
        set.insert(0, 1);
        assert_eq!(keys(&set), [(1, 0), (15, 3), (40, 2)]);
        assert!(set.remove(3) && set.remove(2) && set.remove(0));
        assert_eq!(set.first(), None);
        assert!(set.is_empty());
        assert_eq!(keys(&set), []);
    }
}
