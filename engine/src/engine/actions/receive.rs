//! ReceiveMessage: short and long polls, standard and FIFO selection, attempt-id retries and the
//! dead-letter check on each candidate (semantics §4, §9, §13.3, §13.5).

use crate::api::*;
use crate::engine::Engine;
use crate::error::{ErrorCode, SqsError};
use crate::event::EventKind;
use crate::message::{self, Selection, State};
use crate::polls::{Poll, ReceiveParams};
use crate::queue::AttemptItem;
use crate::reply::{PollId, Reply};
use crate::timers::Timer;
use crate::Millis;

/// Most in-flight messages a queue may have (§11).
const IN_FLIGHT_LIMIT: usize = 120_000;

/// A standard queue's short poll is refused when the in-flight limit is reached, or when the
/// `taking` messages it would receive would exceed it (§11 SIM CHOICE); a long poll or a FIFO
/// queue just receives fewer.
fn over_limit(in_flight: usize, taking: usize) -> Option<SqsError> {
    let message = if in_flight >= IN_FLIGHT_LIMIT {
        format!("The maximum number of in flight messages ({IN_FLIGHT_LIMIT}) has been reached.")
    } else if in_flight + taking > IN_FLIGHT_LIMIT {
        format!(
            "Receiving {taking} messages would exceed the maximum number of in flight messages \
             ({IN_FLIGHT_LIMIT}): {in_flight} are in flight."
        )
    } else {
        return None;
    };
    Some(SqsError::new(ErrorCode::OverLimit, message))
}

impl Engine {
    pub(crate) fn receive_message(&mut self, input: ReceiveMessageInput) -> Reply {
        let (uid, params, wait) = match self.check_receive(input) {
            Ok(ok) => ok,
            Err(err) => return Reply::Done(Err(err)),
        };
        let q = self.q(uid);
        if params.short_poll && !q.fifo() {
            if let Some(err) = over_limit(q.counts.in_flight, params.max.min(q.counts.visible)) {
                return Reply::Done(Err(err));
            }
        }
        let messages = self.receive_now(uid, &params);
        if !messages.is_empty() || wait == 0 {
            return Reply::Done(Ok(Response::ReceiveMessage(output(messages))));
        }
        let until = self.now() + wait * 1000;
        let poll = self.polls.start(Poll { queue: uid, params });
        let q = self.q_mut(uid);
        q.polls.push(poll);
        self.clock.schedule(until, Timer::PollTimeout(poll));
        if self.events.implied() {
            self.emit_with(|e| EventKind::LongPollStarted {
                queue: e.q(uid).name,
                poll,
                until,
            });
        }
        Reply::Pending(poll)
    }

    /// Parameter rules (§4.1); returns the queue, the parameters and the wait in seconds.
    fn check_receive(
        &self,
        input: ReceiveMessageInput,
    ) -> Result<(u32, ReceiveParams, Millis), SqsError> {
        let uid = self.resolve(&input.queue_url)?;
        let q = self.q(uid);
        let max = input.max_number_of_messages.unwrap_or(1);
        if !(1..=10).contains(&max) {
            return Err(SqsError::invalid_value(
                "MaxNumberOfMessages",
                &max,
                "Must be between 1 and 10, if provided.",
            ));
        }
        let wait = input
            .wait_time_seconds
            .unwrap_or(q.config.wait_seconds() as i64);
        if !(0..=20).contains(&wait) {
            return Err(SqsError::invalid_value(
                "WaitTimeSeconds",
                &wait,
                "Must be >= 0 and <= 20, if provided.",
            ));
        }
        if let Some(visibility) = input.visibility_timeout {
            crate::validate::visibility_timeout(visibility)?;
        }
        // Attempt ids apply to FIFO queues only: a standard queue ignores them, unchecked (§4.1).
        let attempt_id = input.receive_request_attempt_id.filter(|_| q.fifo());
        if let Some(id) = &attempt_id {
            let legal = (1..=128).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_graphic());
            if !legal {
                return Err(SqsError::invalid_value(
                    "ReceiveRequestAttemptId",
                    id,
                    "ReceiveRequestAttemptId can only include alphanumeric and punctuation characters. 1 to 128 in length.",
                ));
            }
        }
        let mut system = input.attribute_names.unwrap_or_default();
        system.extend(input.message_system_attribute_names.unwrap_or_default());
        let params = ReceiveParams {
            max: max as usize,
            visibility: input.visibility_timeout.map(|v| v as Millis * 1000),
            selection: Selection::new(system, input.message_attribute_names.unwrap_or_default()),
            attempt_id,
            short_poll: wait == 0,
        };
        Ok((uid, params, wait as Millis))
    }

    /// Receives what is receivable right now (possibly nothing).
    fn receive_now(&mut self, uid: u32, params: &ReceiveParams) -> Vec<Message> {
        if let Some(id) = &params.attempt_id {
            if let Some(retry) = self.retry_attempt(uid, id, params) {
                return retry;
            }
        }
        if !self.q(uid).any_receivable() {
            // Nothing to pick, nor to dead-letter: the common answer of a woken or empty poll.
            return Vec::new();
        }
        let limit = params
            .max
            .min(IN_FLIGHT_LIMIT.saturating_sub(self.q(uid).counts.in_flight));
        let (take, dead) = self.pick(uid, limit, params.short_poll);
        if !dead.is_empty() {
            let dlq = self
                .dead_letter_queue(uid)
                .expect("dead only with a target");
            for slot in dead {
                self.move_to_dead_letter_queue(uid, slot, dlq);
            }
        }
        if take.is_empty() {
            self.picked = take;
            return Vec::new();
        }
        let mut messages = crate::buffers::reuse(&mut self.spare.messages, take.len());
        for &slot in &take {
            self.deliver(uid, slot, params, &mut messages);
        }
        if let Some(id) = params.attempt_id.clone() {
            let q = self.q(uid);
            let items: Vec<AttemptItem> = take
                .iter()
                .map(|&slot| (slot, q.slot_gen(slot), q.msg(slot).receipt_gen, 0))
                .collect();
            let now = self.now();
            self.q_mut(uid).attempts.insert(id, items, now);
        }
        self.picked = take;
        messages
    }

    /// Chooses up to `limit` messages in delivery order, and separately the candidates met on the
    /// way that exceeded maxReceiveCount (moved instead of returned, scan continues, §9). The
    /// chosen ones come in `self.picked`'s buffer, for the caller to put back.
    fn pick(&mut self, uid: u32, limit: usize, short_poll: bool) -> (Vec<u32>, Vec<u32>) {
        let mut take = std::mem::take(&mut self.picked);
        take.clear();
        let q = self.q(uid);
        let max_receives = q
            .config
            .redrive
            .as_ref()
            .map_or(u32::MAX, |r| r.max_receive_count);
        // The target is looked up (by ARN) only for a message that reached maxReceiveCount: a
        // policy whose target does not exist moves nothing.
        let mut target_exists = None;
        let mut is_dead = |slot: u32| {
            q.msg(slot).receive_count >= max_receives
                && *target_exists.get_or_insert_with(|| self.dead_letter_queue(uid).is_some())
        };
        let shuffle = !q.fifo() && self.knobs.best_effort_ordering;
        let want = if shuffle { limit * 2 } else { limit };
        let mut dead = Vec::new();
        if q.fifo() {
            // Groups by the instant their head became receivable; each gives its visible prefix.
            let slots = q.groups.ready.iter();
            let slots = slots.flat_map(|(_, &group)| q.visible_prefix(group));
            sort_candidates(slots, want, &mut take, &mut dead, &mut is_dead);
        } else {
            let slots = q.ready.iter().map(|(_, slot)| slot);
            sort_candidates(slots, want, &mut take, &mut dead, &mut is_dead);
        }
        if shuffle {
            for i in (1..take.len()).rev() {
                take.swap(i, self.rng.below(i + 1));
            }
            take.truncate(limit);
        }
        if short_poll && !self.q(uid).fifo() && self.knobs.short_poll_sampling {
            take.retain(|_| self.rng.chance(0.5));
        }
        (take, dead)
    }

    /// Hands out one message: new receipt handle, receive count + 1, hidden for the visibility
    /// timeout counted from now (§4.2). Its answer goes to the end of `out`.
    pub(crate) fn deliver(
        &mut self,
        uid: u32,
        slot: u32,
        params: &ReceiveParams,
        out: &mut Vec<Message>,
    ) {
        let now = self.now();
        let until = now + params.visibility_in(self.q(uid));
        let nonce = self.rng.next_u64();
        let duplicate = !self.q(uid).fifo() && self.rng.chance(self.knobs.duplicate_delivery);
        let q = self.q_mut(uid);
        q.receive(slot, |m| {
            m.receive_count += 1;
            m.first_receive.get_or_insert(now);
            m.receipt_gen = m.receipt_gen.wrapping_add(1);
            m.receipt_nonce = nonce;
            m.visibility_changes = 0;
            m.state = State::InFlight {
                until,
                received_at: now,
            };
            m.duplicate = duplicate;
        });
        self.schedule_reveal(uid, slot, until);
        self.received_event(uid, slot, params, out);
    }

    /// Emits Received and adds the answer for a message just (re)hidden to `out` (pushed where
    /// it is built: an answer is 200 bytes, and returning it would copy it once more).
    fn received_event(
        &mut self,
        uid: u32,
        slot: u32,
        params: &ReceiveParams,
        out: &mut Vec<Message>,
    ) {
        let q = self.q(uid);
        let handle = self.handle_of(q, slot);
        out.push(message::received(q.msg(slot), handle, &params.selection));
        self.emit_with(|e| {
            let m = e.q(uid).msg(slot);
            EventKind::Received {
                queue: e.q(uid).name,
                message_id: m.id,
                receipt_handle: handle,
                receive_count: m.receive_count,
                visible_at: match m.state {
                    State::InFlight { until, .. } => until,
                    _ => e.now(),
                },
            }
        });
    }

    /// A FIFO retry with a ReceiveRequestAttemptId seen in the last 5 minutes: if none of its
    /// messages was deleted, re-received or had its visibility changed, the same messages and
    /// handles come back with a fresh visibility timeout (§4.1). Otherwise `None`.
    fn retry_attempt(
        &mut self,
        uid: u32,
        id: &str,
        params: &ReceiveParams,
    ) -> Option<Vec<Message>> {
        let q = self.q(uid);
        let items = q.attempts.get(id, self.now())?.clone();
        let unchanged = items.iter().all(|&(slot, slot_gen, receipt_gen, changes)| {
            q.lookup(slot, slot_gen)
                .is_some_and(|m| m.receipt_gen == receipt_gen && m.visibility_changes == changes)
        });
        if !unchanged {
            return None;
        }
        let now = self.now();
        let until = now + params.visibility_in(q);
        let mut messages = Vec::new();
        for (slot, ..) in items {
            self.q_mut(uid).modify(slot, |m| {
                let received_at = match m.state {
                    State::InFlight { received_at, .. } => received_at,
                    _ => now,
                };
                m.state = State::InFlight { until, received_at };
            });
            self.schedule_reveal(uid, slot, until);
            self.received_event(uid, slot, params, &mut messages);
        }
        Some(messages)
    }

    /// Answers waiting long polls of queues where something became receivable, in arrival
    /// order, while there is something to give (§4.3). Returns early, the queue still woken,
    /// when an answer made work due now (a VisibilityTimeout 0 reveals its messages at once):
    /// [`Engine::do_due`] does it before the next poll is served (§13.2, §13.3).
    pub(crate) fn serve_woken(&mut self) {
        while let Some(uid) = self.polls.first_woken() {
            while let Some(&poll) = self.q_opt(uid).and_then(|q| q.polls.first()) {
                // Taken out while it receives (receiving never reads `self.polls`), put back if
                // nothing came: no copy of its parameters per answer.
                if !self.q(uid).any_receivable() {
                    break;
                }
                let waiting = self.polls.take(poll).expect("a queued poll is registered");
                let messages = self.receive_now(uid, &waiting.params);
                if messages.is_empty() {
                    self.polls.put_back(poll, waiting);
                    break;
                }
                self.q_mut(uid).polls.remove(0);
                let (queue, count) = (self.q(uid).name, messages.len());
                self.polls.answer(poll, output(messages));
                self.emit(EventKind::LongPollAnswered { queue, poll, count });
                if self.timer_due() {
                    return;
                }
            }
            self.polls.served_first();
        }
    }

    /// Ends a long poll with `{}` (its wait ran out, or its queue was deleted).
    pub(crate) fn time_out_poll(&mut self, poll: PollId) {
        let Some(Poll { queue: uid, .. }) = self.polls.take(poll) else {
            return;
        };
        let q = self.q_mut(uid);
        q.polls.retain(|&p| p != poll);
        let queue = q.name;
        self.polls.answer(poll, ReceiveMessageOutput::default());
        self.emit(EventKind::LongPollTimedOut { queue, poll });
    }
}

/// Sorts `candidates`, in order, into `take` until it holds `want`, and into `dead` those that
/// `is_dead` says exceeded maxReceiveCount (they do not count towards `want`). One copy per kind
/// of queue, each with its own loop: every receive runs it for each message it returns.
fn sort_candidates(
    candidates: impl Iterator<Item = u32>,
    want: usize,
    take: &mut Vec<u32>,
    dead: &mut Vec<u32>,
    mut is_dead: impl FnMut(u32) -> bool,
) {
    for slot in candidates {
        if take.len() >= want {
            break;
        }
        if is_dead(slot) {
            dead.push(slot);
        } else {
            take.push(slot);
        }
    }
}

/// `{"Messages": [...]}`, or `{}` when there are none (§4.2).
fn output(messages: Vec<Message>) -> ReceiveMessageOutput {
    ReceiveMessageOutput {
        messages: Some(messages).filter(|m| !m.is_empty()),
    }
}
