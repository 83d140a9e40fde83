//! The world's own timers (a worker's next poll, job step or heartbeat; a producer's next send),
//! in firing order, with an index by timer so that finding, moving or cancelling one does not
//! scan them all (the clock loop does that a few times per message).

use crate::rng::FastMap;
use sqs_engine::Millis;
use std::collections::BTreeMap;

/// Work the world has scheduled for itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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
    by_time: BTreeMap<(Millis, u64), Timer>,
    index: FastMap<Timer, (Millis, u64)>,
    seq: u64,
}

impl Timers {
    /// Schedules `timer` at `at`, after the timers already due then; a timer already scheduled
    /// moves there (as if cancelled and scheduled again).
    pub(crate) fn schedule(&mut self, at: Millis, timer: Timer) {
        self.cancel(timer);
        self.seq += 1;
        self.by_time.insert((at, self.seq), timer);
        self.index.insert(timer, (at, self.seq));
    }

    /// Whether this timer is scheduled.
    pub(crate) fn has(&self, timer: Timer) -> bool {
        self.index.contains_key(&timer)
    }

    /// Drops this timer if it is scheduled.
    pub(crate) fn cancel(&mut self, timer: Timer) {
        if let Some(key) = self.index.remove(&timer) {
            self.by_time.remove(&key);
        }
    }

    /// Drops the timers matching `drop`.
    pub(crate) fn cancel_where(&mut self, drop: impl Fn(&Timer) -> bool) {
        let index = &mut self.index;
        self.by_time.retain(|_, timer| {
            let keep = !drop(timer);
            if !keep {
                index.remove(timer);
            }
            keep
        });
    }

    /// When the first timer is due.
    pub(crate) fn first_at(&self) -> Option<Millis> {
        self.by_time.keys().next().map(|&(at, _)| at)
    }

    /// Takes the first timer.
    pub(crate) fn pop(&mut self) -> Option<Timer> {
        let (_, timer) = self.by_time.pop_first()?;
        self.index.remove(&timer);
        Some(timer)
    }

    /// How many are scheduled.
    pub(crate) fn len(&self) -> usize {
        self.by_time.len()
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
    }
}
