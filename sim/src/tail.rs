//! Where the world's latest events began. A fast-forward that runs silently up to there and
//! narrates the rest tells the same latest events, in the same words, as a run narrated from
//! time 0: an event log that keeps [`NARRATED_TAIL`] lines shows the same lines either way
//! ([`World::narration_start`](crate::World::narration_start)).

use sqs_engine::Millis;
use std::collections::VecDeque;

/// How many of the latest events a fast-forward narrates one by one, at least.
pub const NARRATED_TAIL: usize = 300;

/// The instants at which something happened, each with how many events had happened since time
/// 0 by its end, from the latest instant before the last [`NARRATED_TAIL`] events on: at most
/// that many marks and one.
#[derive(Clone, Debug, Default)]
pub(crate) struct Tail {
    marks: VecDeque<(Millis, u64)>,
}

impl Tail {
    /// The clock leaves instant `at`, by whose end `total` events had happened.
    pub(crate) fn leave(&mut self, at: Millis, total: u64) {
        if total == self.marks.back().map_or(0, |&(_, seen)| seen) {
            return; // Nothing happened at `at`.
        }
        self.marks.push_back((at, total));
        // A later mark with the whole tail after it is as good a start, and costs less.
        while self
            .marks
            .get(1)
            .is_some_and(|&(_, seen)| total - seen >= tail())
        {
            self.marks.pop_front();
        }
    }

    /// The latest instant after which at least [`NARRATED_TAIL`] of the `total` events happened
    /// (None: they did not all happen after one of the instants marked, e.g. fewer happened).
    pub(crate) fn start(&self, total: u64) -> Option<Millis> {
        let &(at, seen) = self.marks.front()?;
        (total - seen >= tail()).then_some(at)
    }
}

fn tail() -> u64 {
    NARRATED_TAIL as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_is_the_latest_instant_with_the_whole_tail_after_it() {
        let mut tail = Tail::default();
        let each = NARRATED_TAIL as u64 / 4;
        let mut total = 0;
        // `each` events at each of the instants 0, 10, 20, 30: the events at 0 are in the tail.
        for at in [0, 10, 20, 30] {
            total += each;
            tail.leave(at, total);
        }
        assert_eq!(tail.start(total), None);
        total += each;
        tail.leave(40, total);
        assert_eq!(tail.start(total), Some(0));
        // Nothing happened at 50: it is not an instant to start from.
        tail.leave(50, total);
        for at in [60, 70, 80, 90, 100] {
            total += each;
            tail.leave(at, total);
        }
        assert_eq!(tail.start(total), Some(60));
        assert_eq!(tail.marks.len(), 5, "from 60 on");
    }
}
