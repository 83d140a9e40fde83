//! Everything scheduled for later, in one min-heap ordered by (deadline, insertion order).
//! Entries are never removed early: the engine checks on firing whether an entry is still live
//! (message generation, scheduled instant), which keeps every reschedule O(log n).

use crate::engine::PollId;
use crate::Millis;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// What is due.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Timer {
    /// A delay or visibility timeout ends (live while the message's timer generation matches).
    Reveal {
        queue: u32,
        slot: u32,
        slot_gen: u32,
        timer_gen: u32,
    },
    /// The oldest message of a queue reaches its retention period.
    Retention { queue: u32 },
    /// A long poll's wait ends.
    PollTimeout(PollId),
    /// A message move task moves its next message.
    MoveTick(usize),
}

/// A scheduled timer, ordered by its deadline and then its insertion order, both packed in one
/// number (every receive schedules one, so the heap compares these often).
#[derive(Clone, Copy, Debug)]
struct Entry {
    key: u128,
    timer: Timer,
}

impl Entry {
    fn at(&self) -> Millis {
        (self.key >> 64) as Millis
    }
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}

impl Eq for Entry {}

impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Entry {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.key.cmp(&other.key)
    }
}

#[derive(Clone, Debug, Default)]
pub(crate) struct Timers {
    heap: BinaryHeap<Reverse<Entry>>,
    seq: u64,
}

impl Timers {
    pub(crate) fn schedule(&mut self, at: Millis, timer: Timer) {
        self.seq += 1;
        let key = u128::from(at) << 64 | u128::from(self.seq);
        self.heap.push(Reverse(Entry { key, timer }));
    }

    /// The earliest deadline, live or not.
    pub(crate) fn peek(&self) -> Option<(Millis, Timer)> {
        self.heap
            .peek()
            .map(|Reverse(entry)| (entry.at(), entry.timer))
    }

    /// Removes and returns the earliest entry if it is due at `now`.
    pub(crate) fn pop_due(&mut self, now: Millis) -> Option<(Millis, Timer)> {
        let (at, _) = self.peek()?;
        if at > now {
            return None;
        }
        self.heap
            .pop()
            .map(|Reverse(entry)| (entry.at(), entry.timer))
    }

    /// Drops the earliest entry (used to discard dead entries).
    pub(crate) fn discard_first(&mut self) {
        self.heap.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn due_entries_come_out_by_deadline_then_insertion() {
        let mut timers = Timers::default();
        timers.schedule(20, Timer::PollTimeout(1));
        timers.schedule(10, Timer::PollTimeout(2));
        timers.schedule(10, Timer::PollTimeout(3));
        assert_eq!(timers.peek(), Some((10, Timer::PollTimeout(2))));
        assert_eq!(timers.pop_due(9), None);
        assert_eq!(timers.pop_due(10), Some((10, Timer::PollTimeout(2))));
        assert_eq!(timers.pop_due(10), Some((10, Timer::PollTimeout(3))));
        assert_eq!(timers.pop_due(15), None);
        timers.discard_first();
        assert_eq!(timers.peek(), None);
    }
}
