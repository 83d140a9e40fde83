//! Everything scheduled for later, in one min-heap ordered by (deadline, insertion order).
//! Entries are never removed early: the engine checks on firing whether an entry is still live
//! (message generation, scheduled instant), which keeps every reschedule O(log n).

use crate::engine::PollId;
use crate::Millis;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// What is due.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
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

#[derive(Clone, Debug, Default)]
pub(crate) struct Timers {
    heap: BinaryHeap<Reverse<(Millis, u64, Timer)>>,
    seq: u64,
}

impl Timers {
    pub(crate) fn schedule(&mut self, at: Millis, timer: Timer) {
        self.seq += 1;
        self.heap.push(Reverse((at, self.seq, timer)));
    }

    /// The earliest deadline, live or not.
    pub(crate) fn peek(&self) -> Option<(Millis, Timer)> {
        self.heap
            .peek()
            .map(|Reverse((at, _, timer))| (*at, *timer))
    }

    /// Removes and returns the earliest entry if it is due at `now`.
    pub(crate) fn pop_due(&mut self, now: Millis) -> Option<(Millis, Timer)> {
        let (at, _) = self.peek()?;
        if at > now {
            return None;
        }
        self.heap.pop().map(|Reverse((at, _, timer))| (at, timer))
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
