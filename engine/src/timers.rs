//! The clock, and everything scheduled for later in one min-heap ordered by (deadline,
//! insertion order).
//! Entries are never removed early: the engine checks on firing whether an entry is still live
//! (the queue's armed reveal, the scheduled instant), which keeps every reschedule O(log n).
//! Hidden messages are not here one by one: each queue orders its own (`Queue::hidden`) and
//! arms one [`Timer::Reveal`] for the earliest, so the heap stays as small as the number of
//! queues, polls and tasks.

use crate::reply::PollId;
use crate::Millis;
use serde::{Deserialize, Serialize};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// What is due.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Timer {
    /// The earliest hidden message of a queue becomes visible: its delay or visibility timeout
    /// ends. Live while the entry's key is the queue's armed reveal and `Queue::hidden` holds
    /// `slot` under that key (then that message is still the earliest: nothing hidden is
    /// earlier than the armed reveal), a check with no search. The key is the entry's, not
    /// repeated here: an entry is 32 bytes, which the heap moves around on every push and pop.
    Reveal { queue: u32, slot: u32 },
    /// The oldest message of a queue reaches its retention period.
    Retention { queue: u32 },
    /// A long poll's wait ends.
    PollTimeout(PollId),
    /// A message move task moves its next message.
    MoveTick(usize),
}

/// A deadline and an insertion number, packed in one number that orders timers.
pub(crate) type TimerKey = u128;

/// The deadline in a [`TimerKey`].
pub(crate) fn deadline(key: TimerKey) -> Millis {
    (key >> 64) as Millis
}

#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
struct Entry {
    key: TimerKey,
    timer: Timer,
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

/// Virtual time and the timers: time moves only forward, and only by [`Clock::advance`].
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub(crate) struct Clock {
    now: Millis,
    heap: BinaryHeap<Reverse<Entry>>,
    seq: u64,
}

impl Clock {
    /// The current virtual time.
    #[inline]
    pub(crate) fn now(&self) -> Millis {
        self.now
    }

    /// Moves the clock to `t`, if it is later.
    pub(crate) fn advance(&mut self, t: Millis) {
        self.now = self.now.max(t);
    }

    /// Whether a timer is due now.
    pub(crate) fn due(&self) -> bool {
        self.peek().is_some_and(|(at, _)| at <= self.now)
    }

    pub(crate) fn schedule(&mut self, at: Millis, timer: Timer) {
        let key = self.key(at);
        self.push(key, timer);
    }

    /// A key for `at`, after every key made so far for the same instant.
    pub(crate) fn key(&mut self, at: Millis) -> TimerKey {
        self.seq += 1;
        TimerKey::from(at) << 64 | TimerKey::from(self.seq)
    }

    /// Schedules `timer` under a key from [`Clock::key`].
    pub(crate) fn push(&mut self, key: TimerKey, timer: Timer) {
        self.heap.push(Reverse(Entry { key, timer }));
    }

    /// The earliest deadline, live or not.
    pub(crate) fn peek(&self) -> Option<(Millis, Timer)> {
        self.peek_key().map(|(key, timer)| (deadline(key), timer))
    }

    /// The earliest entry, live or not, with its key.
    pub(crate) fn peek_key(&self) -> Option<(TimerKey, Timer)> {
        self.heap
            .peek()
            .map(|Reverse(entry)| (entry.key, entry.timer))
    }

    /// Removes and returns the earliest entry, with its key, if it is due now.
    pub(crate) fn pop_due(&mut self) -> Option<(TimerKey, Timer)> {
        let (at, _) = self.peek()?;
        if at > self.now {
            return None;
        }
        self.heap
            .pop()
            .map(|Reverse(entry)| (entry.key, entry.timer))
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
        let mut timers = Clock::default();
        timers.schedule(20, Timer::PollTimeout(1));
        timers.schedule(10, Timer::PollTimeout(2));
        timers.schedule(10, Timer::PollTimeout(3));
        assert_eq!(timers.peek(), Some((10, Timer::PollTimeout(2))));
        timers.advance(9);
        assert_eq!(timers.pop_due(), None);
        let mut pop_due = |now| {
            timers.advance(now);
            timers.pop_due().map(|(key, timer)| (deadline(key), timer))
        };
        assert_eq!(pop_due(10), Some((10, Timer::PollTimeout(2))));
        assert_eq!(pop_due(10), Some((10, Timer::PollTimeout(3))));
        assert_eq!(pop_due(15), None);
        timers.discard_first();
        assert_eq!(timers.peek(), None);
    }

    #[test]
    fn an_entry_is_its_key_and_two_words() {
        assert_eq!(std::mem::size_of::<Entry>(), 32);
    }
}
