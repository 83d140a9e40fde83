//! The world's own timers (a worker's next poll, job step or heartbeat; a producer's next send),
//! in firing order. The clock loop schedules, moves and cancels a few per message: a binary heap
//! with an index of the live entries makes each of those O(log n) with no scan, a moved or
//! cancelled timer's old entry being dropped when it reaches the top.

use crate::rng::FastMap;
use sqs_engine::Millis;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Work the world has scheduled for itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Timer {
    /// A worker's next ReceiveMessage.
    Poll { lane: u64 },
    /// A job's next step (effect, end of a message's processing, failure, function timeout).
    Job { lane: u64, job: u64 },
    /// A job's next ChangeMessageVisibility.
    Heartbeat { lane: u64, job: u64 },
    /// A producer's next send.
    Produce { producer: u64 },
}

impl Timer {
    pub(crate) fn lane(&self) -> Option<u64> {
        match *self {
            Timer::Poll { lane } | Timer::Job { lane, .. } | Timer::Heartbeat { lane, .. } => {
                Some(lane)
            }
            Timer::Produce { .. } => None,
        }
    }
}

/// Timers by (time, order of scheduling); each timer is scheduled at most once.
#[derive(Clone, Debug, Default)]
pub(crate) struct Timers {
    /// (time, order of scheduling, timer), earliest first; an entry whose order is not the
    /// timer's in `live` was moved or cancelled. The first entry is always live.
    heap: BinaryHeap<Reverse<(Millis, u64, Timer)>>,
    /// The order of scheduling of each scheduled timer.
    live: FastMap<Timer, u64>,
    seq: u64,
}

impl Timers {
    /// Schedules `timer` at `at`, after the timers already due then; a timer already scheduled
    /// moves there (as if cancelled and scheduled again).
    pub(crate) fn schedule(&mut self, at: Millis, timer: Timer) {
        let order = self.reserve();
        self.schedule_as(at, order, timer);
    }

    /// Takes the next place in the order of scheduling, for a timer that [`Timers::schedule_as`]
    /// adds later exactly as if [`Timers::schedule`] had added it now.
    pub(crate) fn reserve(&mut self) -> u64 {
        self.seq += 1;
        self.seq
    }

    /// Schedules `timer` at `at` in a place [`Timers::reserve`] took.
    pub(crate) fn schedule_as(&mut self, at: Millis, order: u64, timer: Timer) {
        let moved = self.live.insert(timer, order).is_some();
        self.heap.push(Reverse((at, order, timer)));
        // Only a moved timer leaves a stale entry, which may be the first.
        if moved {
            self.drop_stale();
        }
    }

    /// Whether this timer is scheduled.
    pub(crate) fn has(&self, timer: Timer) -> bool {
        self.live.contains_key(&timer)
    }

    /// Drops this timer if it is scheduled.
    pub(crate) fn cancel(&mut self, timer: Timer) {
        if self.live.remove(&timer).is_some() {
            self.drop_stale();
        }
    }

    /// Drops the timers matching `drop`.
    pub(crate) fn cancel_where(&mut self, drop: impl Fn(&Timer) -> bool) {
        self.live.retain(|timer, _| !drop(timer));
        self.drop_stale();
    }

    /// When the first timer is due.
    pub(crate) fn first_at(&self) -> Option<Millis> {
        self.heap.peek().map(|Reverse((at, ..))| *at)
    }

    /// Takes the first timer.
    pub(crate) fn pop(&mut self) -> Option<Timer> {
        let Reverse((_, _, timer)) = self.heap.pop()?;
        self.live.remove(&timer);
        self.drop_stale();
        Some(timer)
    }

    /// How many are scheduled.
    pub(crate) fn len(&self) -> usize {
        self.live.len()
    }

    /// Pops moved or cancelled entries off the top, so that the first entry is a live one.
    fn drop_stale(&mut self) {
        while let Some(Reverse((_, seq, timer))) = self.heap.peek() {
            if self.live.get(timer) == Some(seq) {
                break;
            }
            self.heap.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timers_fire_in_time_then_scheduling_order_and_move_when_rescheduled() {
        let mut timers = Timers::default();
        let (a, b, c) = (
            Timer::Poll { lane: 1 },
            Timer::Job { lane: 1, job: 2 },
            Timer::Produce { producer: 3 },
        );
        timers.schedule(20, a);
        timers.schedule(10, b);
        timers.schedule(10, c);
        timers.schedule(5, a);
        assert_eq!(timers.len(), 3);
        assert!(timers.has(a));
        assert_eq!(timers.first_at(), Some(5));
        timers.cancel(b);
        timers.cancel(b);
        assert!(!timers.has(b));
        assert_eq!(timers.pop(), Some(a));
        assert_eq!(timers.pop(), Some(c));
        assert_eq!(timers.pop(), None);
        timers.schedule(1, a);
        timers.schedule(2, b);
        timers.schedule(3, c);
        timers.cancel_where(|t| t.lane() == Some(1));
        assert_eq!(
            (timers.len(), timers.has(a), timers.has(c)),
            (1, false, true)
        );
        // A reserved place fires as if scheduled when it was reserved: after c (at 3 already),
        // before a (scheduled at 3 after the reservation).
        let early = timers.reserve();
        timers.schedule(3, a);
        timers.schedule_as(3, early, b);
        let order = [timers.pop(), timers.pop(), timers.pop()];
        assert_eq!(order, [Some(c), Some(b), Some(a)]);
    }
}
