//! The world's own timers (a worker's next poll, job step or heartbeat; a producer's next send),
//! in firing order. The clock loop schedules, moves and cancels a few per message, and a world
//! has a few dozen at a time: a list sorted by firing order, the next one last (taken by a pop,
//! found by binary search to insert or remove), with an index of where each timer is, costs
//! less per timer than a binary heap, and holds no stale entries. (A deque with the next one
//! first cost more: its binary search and its insertion handle the wrap-around.)

use rustc_hash::FxHashMap;
use sqs_engine::Millis;

/// Work the world has scheduled for itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

    /// The timer as one number, for the index: its kind in the top bits and the id of what it
    /// is for below (lane, job and producer ids come from one counter, so a job's id alone
    /// names it). A map keyed by a number hashes and compares it in a few instructions.
    fn key(&self) -> u64 {
        let (kind, id) = match *self {
            Timer::Poll { lane } => (0, lane),
            Timer::Job { job, .. } => (1, job),
            Timer::Heartbeat { job, .. } => (2, job),
            Timer::Produce { producer } => (3, producer),
        };
        debug_assert!(id >> 60 == 0, "id {id} too large for a timer key");
        kind << 60 | id
    }
}

/// Timers by (time, order of scheduling); each timer is scheduled at most once.
#[derive(Clone, Debug, Default)]
pub(crate) struct Timers {
    /// (time, order of scheduling, timer) of every scheduled timer, earliest last.
    queue: Vec<(Millis, u64, Timer)>,
    /// The (time, order of scheduling) of each scheduled timer ([`Timer::key`]): its place in
    /// `queue`.
    live: FxHashMap<u64, (Millis, u64)>,
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
        if let Some(old) = self.live.insert(timer.key(), (at, order)) {
            self.unqueue(old);
        }
        // A poll now goes first, at the end: no search.
        let entry = (at, order, timer);
        match self.queue.last() {
            Some(&(a, o, _)) if (a, o) < (at, order) => {
                let place = self.place(at, order);
                self.queue.insert(place, entry);
            }
            _ => self.queue.push(entry),
        }
    }

    /// Whether this timer is scheduled.
    pub(crate) fn has(&self, timer: Timer) -> bool {
        self.live.contains_key(&timer.key())
    }

    /// Drops this timer if it is scheduled.
    pub(crate) fn cancel(&mut self, timer: Timer) {
        if let Some(old) = self.live.remove(&timer.key()) {
            self.unqueue(old);
        }
    }

    /// Drops the timers matching `drop`.
    pub(crate) fn cancel_where(&mut self, drop: impl Fn(&Timer) -> bool) {
        for (_, _, timer) in self.queue.iter().filter(|(_, _, timer)| drop(timer)) {
            self.live.remove(&timer.key());
        }
        self.queue.retain(|(_, _, timer)| !drop(timer));
    }

    /// When the first timer is due.
    pub(crate) fn first_at(&self) -> Option<Millis> {
        self.queue.last().map(|&(at, ..)| at)
    }

    /// Takes the first timer.
    pub(crate) fn pop(&mut self) -> Option<Timer> {
        let (_, _, timer) = self.queue.pop()?;
        self.live.remove(&timer.key());
        Some(timer)
    }

    /// How many are scheduled.
    pub(crate) fn len(&self) -> usize {
        self.live.len()
    }

    /// Where the entry (at, order) is, or goes, in `queue`.
    fn place(&self, at: Millis, order: u64) -> usize {
        self.queue
            .partition_point(|&(a, o, _)| (a, o) > (at, order))
    }

    /// Removes the entry of a timer that was at (at, order).
    fn unqueue(&mut self, (at, order): (Millis, u64)) {
        let place = self.place(at, order);
        debug_assert_eq!(self.queue.get(place).map(|e| (e.0, e.1)), Some((at, order)));
        self.queue.remove(place);
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

    #[test]
    fn timers_of_different_kinds_for_the_same_id_are_different_timers() {
        let mut timers = Timers::default();
        let same = [
            Timer::Poll { lane: 7 },
            Timer::Job { lane: 1, job: 7 },
            Timer::Heartbeat { lane: 1, job: 7 },
            Timer::Produce { producer: 7 },
        ];
        for (at, timer) in same.into_iter().enumerate() {
            timers.schedule(at as Millis, timer);
        }
        assert_eq!(timers.len(), 4);
        timers.cancel(same[1]);
        assert!(!timers.has(same[1]) && timers.has(same[2]));
        let left = [timers.pop(), timers.pop(), timers.pop(), timers.pop()];
        assert_eq!(left, [Some(same[0]), Some(same[2]), Some(same[3]), None]);
    }
}
