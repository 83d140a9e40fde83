//! FIFO message groups (semantics §4.5): each group's messages in sequence order, and the set of
//! groups whose head is receivable, ordered by the instant that head became receivable and then
//! by its sequence number. Receives, deletes and timers touch one group in O(log n).

use crate::order::OrderKey;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap, VecDeque};

/// One message group.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub(crate) struct Group {
    /// (sequence, message slot), in sequence order.
    pub members: VecDeque<(u64, u32)>,
    /// The key under which the group sits in [`Groups::ready`], if it does.
    ready_key: Option<OrderKey>,
}

/// All groups of one FIFO queue.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub(crate) struct Groups {
    /// Each group's slot by name.
    by_name: HashMap<String, u32>,
    names: Vec<String>,
    table: Vec<Group>,
    free: Vec<u32>,
    /// Group slots by (head became receivable at, head sequence), packed as an [`OrderKey`]
    /// (unique: a sequence is one message's, the head of one group).
    pub ready: BTreeMap<OrderKey, u32>,
}

impl Groups {
    /// The slot of group `name`, created if needed.
    pub(crate) fn intern(&mut self, name: &str) -> u32 {
        if let Some(&slot) = self.by_name.get(name) {
            return slot;
        }
        let slot = match self.free.pop() {
            Some(slot) => {
                self.names[slot as usize] = name.into();
                slot
            }
            None => {
                self.names.push(name.into());
                self.table.push(Group::default());
                (self.table.len() - 1) as u32
            }
        };
        self.by_name.insert(name.into(), slot);
        slot
    }

    /// How many slots there are (every group's slot is below).
    pub(crate) fn slots(&self) -> usize {
        self.table.len()
    }

    pub(crate) fn get(&self, slot: u32) -> &Group {
        &self.table[slot as usize]
    }

    /// Appends a message (sequences only grow within a group, except for dead-letter arrivals,
    /// which are inserted in order).
    pub(crate) fn push(&mut self, slot: u32, seq: u64, message: u32) {
        let members = &mut self.table[slot as usize].members;
        match members.back() {
            Some(&(last, _)) if last > seq => {
                let at = members.partition_point(|&(s, _)| s < seq);
                members.insert(at, (seq, message));
            }
            _ => members.push_back((seq, message)),
        }
    }

    /// Removes a message; frees the group when it empties.
    pub(crate) fn remove(&mut self, slot: u32, seq: u64) {
        let group = &mut self.table[slot as usize];
        if let Ok(at) = group.members.binary_search_by_key(&seq, |&(s, _)| s) {
            group.members.remove(at);
        }
        if group.members.is_empty() {
            self.set_ready(slot, None);
            let name = std::mem::take(&mut self.names[slot as usize]);
            self.by_name.remove(&name);
            self.free.push(slot);
        }
    }

    /// Sets whether (and under which key, see [`Groups::ready`]) the group is ready.
    pub(crate) fn set_ready(&mut self, slot: u32, key: Option<OrderKey>) {
        let group = &mut self.table[slot as usize];
        if group.ready_key == key {
            return;
        }
        if let Some(old) = group.ready_key {
            self.ready.remove(&old);
        }
        if let Some(key) = key {
            self.ready.insert(key, slot);
        }
        group.ready_key = key;
    }

    /// Forgets every group (PurgeQueue).
    pub(crate) fn clear(&mut self) {
        *self = Groups::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_are_recycled_and_ordered() {
        let mut groups = Groups::default();
        let g = groups.intern("g1");
        groups.push(g, 5, 0);
        groups.push(g, 3, 1);
        assert_eq!(groups.get(g).members, [(3, 1), (5, 0)]);
        groups.set_ready(g, Some(crate::order::key(10, 3)));
        assert_eq!(groups.ready.len(), 1);
        groups.remove(g, 3);
        groups.remove(g, 5);
        assert!(groups.ready.is_empty());
        assert_eq!(groups.intern("g2"), g);
    }
}
