//! The long-poll table ([`Polls`]), and the validated ReceiveMessage a waiting poll keeps
//! ([`ReceiveParams`]).

use crate::api::ReceiveMessageOutput;
use crate::message::Selection;
use crate::queue::Queue;
use crate::reply::PollId;
use crate::Millis;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// A validated ReceiveMessage.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct ReceiveParams {
    pub max: usize,
    /// The call's own VisibilityTimeout; `None`: the queue's, read when the call is answered (a
    /// SetQueueAttributes while a long poll waits applies to what it returns, §13.5).
    pub visibility: Option<Millis>,
    pub selection: Selection,
    pub attempt_id: Option<String>,
    pub short_poll: bool,
}

impl ReceiveParams {
    /// A one-message receive showing all system attributes (the playground's hand delivery).
    pub(crate) fn hand_delivery(visibility: Millis) -> Self {
        ReceiveParams {
            max: 1,
            visibility: Some(visibility),
            selection: Selection::new(vec!["All".into()], Vec::new()),
            attempt_id: None,
            short_poll: true,
        }
    }

    /// How long what this receive returns stays hidden: the call's own VisibilityTimeout, else
    /// the queue's as it is now (§4.1, §13.5).
    pub(crate) fn visibility_in(&self, q: &Queue) -> Millis {
        self.visibility
            .unwrap_or_else(|| Millis::from(q.config.visibility_timeout()) * 1000)
    }
}

/// A long poll waiting for a message.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Poll {
    pub queue: u32,
    pub params: ReceiveParams,
}

/// The long-poll table: waiting long polls by id, the queues where a message became receivable
/// while polls wait, and the answers not yet taken.
///
/// Ids are handed out one after another, so the waiting polls are kept in id order in a deque: a
/// new one goes to the back, a lookup is an index (its id less the front's), and an answered one
/// leaves its place empty until it reaches the front.
/// Each poll moves in and out once, where a B-tree of polls (over 100 bytes each) moved them
/// around its nodes on every insert and remove. Not a `slab`: a slab hands out its own keys and
/// reuses them, where a poll's id is the engine's public, ever-growing [`PollId`], and the
/// oldest-first order of the waiting polls is the order they are served in.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Polls {
    /// The id of the poll at the front.
    first: PollId,
    waiting: VecDeque<Option<Poll>>,
    /// The id the next poll gets.
    next: PollId,
    /// Queues where a message became receivable while long polls wait, in that order.
    woken: Vec<u32>,
    /// Polls answered since the driver last took them, in answer order.
    #[serde(skip)]
    answered: Vec<(PollId, ReceiveMessageOutput)>,
}

impl Default for Polls {
    fn default() -> Self {
        Polls {
            first: 0,
            waiting: VecDeque::new(),
            next: 1,
            woken: Vec::new(),
            answered: Vec::new(),
        }
    }
}

impl Polls {
    /// Adds a waiting poll under the next id, and returns that id.
    pub(crate) fn start(&mut self, poll: Poll) -> PollId {
        let id = self.next;
        self.next += 1;
        self.insert(id, poll);
        id
    }

    /// Adds poll `id`, the next id after every poll added before.
    fn insert(&mut self, id: PollId, poll: Poll) {
        while let Some(None) = self.waiting.front() {
            self.waiting.pop_front();
            self.first += 1;
        }
        if self.waiting.is_empty() {
            self.first = id;
        }
        debug_assert_eq!(self.first + self.waiting.len() as PollId, id);
        self.waiting.push_back(Some(poll));
    }

    fn place(&self, id: PollId) -> Option<usize> {
        let at = usize::try_from(id.checked_sub(self.first)?).ok()?;
        (at < self.waiting.len()).then_some(at)
    }

    /// Takes poll `id` out, if it waits.
    pub(crate) fn take(&mut self, id: PollId) -> Option<Poll> {
        let at = self.place(id)?;
        self.waiting[at].take()
    }

    /// Puts back a poll [`Polls::take`] took out.
    pub(crate) fn put_back(&mut self, id: PollId, poll: Poll) {
        let at = self.place(id).expect("taken from here");
        self.waiting[at] = Some(poll);
    }

    /// The ids of the waiting polls, oldest first.
    pub(crate) fn ids(&self) -> Vec<PollId> {
        (self.waiting.iter().zip(self.first..))
            .filter_map(|(poll, id)| poll.as_ref().map(|_| id))
            .collect()
    }

    /// Whether poll `id` waits.
    pub(crate) fn contains(&self, id: PollId) -> bool {
        self.place(id).is_some_and(|at| self.waiting[at].is_some())
    }

    /// Notes that queue `uid`, where long polls wait, has a message to give.
    #[inline]
    pub(crate) fn wake(&mut self, uid: u32) {
        if !self.woken.contains(&uid) {
            self.woken.push(uid);
        }
    }

    /// Whether a queue waits to serve its polls.
    #[inline]
    pub(crate) fn any_woken(&self) -> bool {
        !self.woken.is_empty()
    }

    /// The queue woken first, still to serve its polls.
    pub(crate) fn first_woken(&self) -> Option<u32> {
        self.woken.first().copied()
    }

    /// The first woken queue has served all it could.
    pub(crate) fn served_first(&mut self) {
        self.woken.remove(0);
    }

    /// Records the answer to poll `id` (it no longer waits).
    pub(crate) fn answer(&mut self, id: PollId, output: ReceiveMessageOutput) {
        self.answered.push((id, output));
    }

    /// The answers since the last take, in answer order.
    pub(crate) fn take_answers(&mut self) -> Vec<(PollId, ReceiveMessageOutput)> {
        std::mem::take(&mut self.answered)
    }

    /// Moves the answers since the last take to the end of `out`.
    pub(crate) fn take_answers_into(&mut self, out: &mut Vec<(PollId, ReceiveMessageOutput)>) {
        crate::buffers::move_into(out, &mut self.answered);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn poll() -> Poll {
        Poll {
            queue: 0,
            params: ReceiveParams::hand_delivery(0),
        }
    }

    #[test]
    fn polls_are_found_by_id_while_they_wait() {
        let mut polls = Polls::default();
        assert!(!polls.contains(1));
        for id in 1..=3 {
            assert_eq!(polls.start(poll()), id);
        }
        assert!((1..=3).all(|id| polls.contains(id)));
        assert!(!polls.contains(0) && !polls.contains(4));
        let taken = polls.take(1).expect("poll 1 waits");
        assert!(!polls.contains(1) && polls.take(1).is_none());
        polls.put_back(1, taken);
        assert!(polls.contains(1));
        // Answered at the front: its place goes with the next insert, the others keep theirs.
        assert!(polls.take(1).is_some() && polls.take(2).is_some());
        assert_eq!(polls.start(poll()), 4);
        assert!(!polls.contains(1) && !polls.contains(2));
        assert!(polls.contains(3) && polls.contains(4));
        // All answered: the next id starts the deque afresh.
        assert!(polls.take(3).is_some() && polls.take(4).is_some());
        assert_eq!(polls.start(poll()), 5);
        assert!(polls.contains(5) && !polls.contains(4));
    }
}
