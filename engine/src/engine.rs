//! The engine: queues, messages and timers, driven by SQS actions and virtual time.
//!
//! CONTRACT (other crates build against these signatures; keep them):
//! * `Engine::new(seed)` / `Engine::with_knobs(seed, knobs)`.
//! * `now()`, `advance_to(t)` (t >= now; does all work due at or before t, in time order),
//!   `next_deadline()` (earliest instant at which `advance_to` would do work; `None` if nothing is
//!   scheduled). It may change after any `call` or `advance_to`.
//! * `call(request) -> Reply` at the current time, in the default namespace; `call_in(namespace,
//!   request)` in another account and region. A failed call changes nothing.
//! * `take_completed_polls()`: long polls answered since the last call of it, in answer order.
//! * `drain_events()` (or `drain_events_into(buffer)`): events since the last drain, in order.
//! * serde `Serialize` / `Deserialize`: the whole state (a snapshot, [`crate::snapshot`]);
//!   `end_polls()` ends the waiting long polls (a driver starting again on a snapshot).
//! * read-only inspection: `queue_names()`, `queue_url(name)`, `queue_arn(name)`,
//!   `messages(name)`, `attributes(name)` (what GetQueueAttributes(All) would answer).
//!
//! The engine is made of parts that own their data (quinn-proto's `Connection` is the model):
//! the [`Registry`] of queues, the [`Clock`] and its timers, the long-poll table ([`Polls`]), the
//! [`MoveTasks`] and the [`EventLog`]. This file holds the engine's public calls, the dispatcher
//! and the work that spans parts (reveals, retention, firing timers); the actions live in
//! `actions/`, one module per family, children of this one.

use crate::api::{Attributes, MessageId, QueueUrl, ReceiveMessageOutput, Request, Response};
use crate::buffers::{keep, Spare};
use crate::error::SqsError;
use crate::event::{Event, EventKind, VisibleReason};
use crate::event_log::EventLog;
use crate::message::State;
use crate::move_task::MoveTasks;
use crate::namespace::Namespace;
use crate::polls::Polls;
use crate::queue::Queue;
use crate::receipt::{Receipt, ReceiptHandle};
use crate::registry::Registry;
use crate::reply::{PollId, Reply};
use crate::rng::Rng;
use crate::timers::{deadline, Clock, Timer, TimerKey};
use crate::view::{MessageState, MessageView};
use crate::Millis;
use serde::{Deserialize, Serialize};

mod actions;

/// Realism knobs. All off by default, which is the strict, documented behaviour of the semantics
/// reference (section 13); turning one on makes the engine show what AWS may do.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Knobs {
    /// Standard queues: probability (0..=1) that a received message is also left receivable,
    /// so a second consumer can get it while the first still holds it (at-least-once delivery).
    /// Each receipt handle stays valid; the message is deleted by whichever delete comes first.
    pub duplicate_delivery: f64,
    /// Standard queues: a short poll samples a subset of servers and may return fewer messages
    /// than are available, or none. Modelled as: each message a strict short poll would return
    /// is kept with probability 1/2.
    pub short_poll_sampling: bool,
    /// Standard queues: receive order is only best-effort. Modelled as: the messages returned
    /// are a seeded random choice among the 2×MaxNumberOfMessages oldest receivable ones.
    pub best_effort_ordering: bool,
}

/// The SQS model. See the crate documentation.
///
/// It serialises (serde) as its whole state, seed and clock included: an engine read back
/// answers the same next calls as the one written, byte for byte (see [`crate::snapshot`]).
/// Outputs not yet taken (events, answered long polls) are not state and are not written:
/// take them before writing.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Engine {
    /// Virtual time and everything scheduled.
    clock: Clock,
    /// The queues.
    registry: Registry,
    /// Waiting long polls and their answers.
    polls: Polls,
    /// Message move tasks.
    tasks: MoveTasks,
    /// The events recorded, not yet drained.
    events: EventLog,
    rng: Rng,
    knobs: Knobs,
    /// Keys receipt-handle checks; drawn from the seed.
    secret: u64,
    /// The namespace of the call being run ([`Engine::call_in`]).
    context: Namespace,
    /// Global send order, shared by all queues.
    next_seq: u64,
    /// Answer buffers handed back by [`Engine::recycle`].
    #[serde(skip)]
    spare: Spare,
    /// The slots a receive picks, kept between receives (taken out while in use).
    #[serde(skip)]
    picked: Vec<u32>,
}

impl Engine {
    /// An engine at time 0 with no queues, the knobs off, drawing randomness from `seed`.
    pub fn new(seed: u64) -> Self {
        Self::with_knobs(seed, Knobs::default())
    }

    /// An engine with realism knobs.
    pub fn with_knobs(seed: u64, knobs: Knobs) -> Self {
        let mut rng = Rng::new(seed);
        let secret = rng.next_u64();
        Engine {
            rng,
            knobs,
            secret,
            registry: Registry::default(),
            context: Namespace::DEFAULT,
            clock: Clock::default(),
            next_seq: 0,
            polls: Polls::default(),
            events: EventLog::default(),
            tasks: MoveTasks::default(),
            spare: Spare::default(),
            picked: Vec::new(),
        }
    }

    /// The current virtual time.
    pub fn now(&self) -> Millis {
        self.clock.now()
    }

    /// Moves the clock to `t`, doing all work due at or before `t` in time order. Each event
    /// carries the instant its work was due.
    pub fn advance_to(&mut self, t: Millis) {
        while let Some((at, _)) = self.clock.peek() {
            if at > t {
                break;
            }
            self.clock.advance(at);
            self.run_due();
        }
        self.clock.advance(t);
        // Nothing is due by `t`. A long poll may still wait to be served when it was woken
        // outside a call: a hand delivery (`receive_specific`) moving a message to its DLQ.
        if self.polls.any_woken() {
            self.run_due();
        }
    }

    /// The earliest instant at which [`Engine::advance_to`] has work to do.
    pub fn next_deadline(&self) -> Option<Millis> {
        self.clock.peek().map(|(at, _)| at)
    }

    /// Runs one SQS action at the current time, in the default namespace (account
    /// `000000000000`, `us-east-1`).
    pub fn call(&mut self, request: Request) -> Reply {
        if self.context != Namespace::DEFAULT {
            self.context = Namespace::DEFAULT;
        }
        self.run_call(request)
    }

    /// Runs one SQS action at the current time for a caller in `namespace`: CreateQueue,
    /// GetQueueUrl and ListQueues act there, and a queue URL on a host that names no region is
    /// read in its region.
    pub fn call_in(&mut self, namespace: &Namespace, request: Request) -> Reply {
        if self.context != *namespace {
            self.context = namespace.clone();
        }
        self.run_call(request)
    }

    fn run_call(&mut self, request: Request) -> Reply {
        let done = |r: Result<Response, SqsError>| Reply::Done(r);
        let reply = match request {
            Request::CreateQueue(i) => done(self.create_queue(i)),
            Request::DeleteQueue(i) => done(self.delete_queue(i)),
            Request::ListQueues(i) => done(self.list_queues(i)),
            Request::GetQueueUrl(i) => done(self.get_queue_url(i)),
            Request::GetQueueAttributes(i) => done(self.get_queue_attributes(i)),
            Request::SetQueueAttributes(i) => done(self.set_queue_attributes(i)),
            Request::PurgeQueue(i) => done(self.purge_queue(i)),
            Request::SendMessage(i) => done(self.send_message(i)),
            Request::SendMessageBatch(i) => done(self.send_message_batch(i)),
            Request::ReceiveMessage(i) => self.receive_message(i),
            Request::DeleteMessage(i) => done(self.delete_message(i)),
            Request::DeleteMessageBatch(i) => done(self.delete_message_batch(i)),
            Request::ChangeMessageVisibility(i) => done(self.change_message_visibility(i)),
            Request::ChangeMessageVisibilityBatch(i) => {
                done(self.change_message_visibility_batch(i))
            }
            Request::ListDeadLetterSourceQueues(i) => done(self.list_dead_letter_source_queues(i)),
            Request::StartMessageMoveTask(i) => done(self.start_message_move_task(i)),
            Request::ListMessageMoveTasks(i) => done(self.list_message_move_tasks(i)),
            Request::CancelMessageMoveTask(i) => done(self.cancel_message_move_task(i)),
            Request::TagQueue(i) => done(self.tag_queue(i)),
            Request::UntagQueue(i) => done(self.untag_queue(i)),
            Request::ListQueueTags(i) => done(self.list_queue_tags(i)),
            Request::AddPermission(i) => done(self.add_permission(i)),
            Request::RemovePermission(i) => done(self.remove_permission(i)),
        };
        self.run_due();
        reply
    }

    /// Ends every waiting long poll with no messages, as if its wait had run out: what a server
    /// does when it starts again on a saved engine, whose long polls have no client any more.
    /// Their answers come from [`Engine::take_completed_polls`], in the order the polls were made.
    pub fn end_polls(&mut self) {
        for poll in self.polls.ids() {
            self.time_out_poll(poll);
        }
    }

    /// Long polls answered since the last call, in the order they were answered.
    pub fn take_completed_polls(&mut self) -> Vec<(PollId, ReceiveMessageOutput)> {
        self.polls.take_answers()
    }

    /// Moves the long polls answered since the last take to the end of `out`, in answer order:
    /// a driver that takes them after every call reuses one buffer (as with
    /// [`Engine::drain_events_into`]) instead of freeing one per answer.
    pub fn take_completed_polls_into(&mut self, out: &mut Vec<(PollId, ReceiveMessageOutput)>) {
        self.polls.take_answers_into(out);
    }

    /// Events since the last call, in order.
    pub fn drain_events(&mut self) -> Vec<Event> {
        self.events.drain()
    }

    /// Moves the events since the last drain to the end of `out`, in order: a driver that
    /// drains after every call reuses one buffer, and the engine keeps its own.
    #[inline]
    pub fn drain_events_into(&mut self, out: &mut Vec<Event>) {
        self.events.drain_into(out);
    }

    /// Takes back an answer the caller is done with: its list of messages or of batch results
    /// (emptied) serves the next answer of the same kind instead of a new allocation. A driver
    /// calling in a loop moves out what it keeps (`drain`) and hands the answer back. Inlined
    /// (always: the hint was declined, and a caller that builds the answer it hands back, as
    /// the benchmark's buffer of received messages, then skips the match).
    #[inline(always)]
    pub fn recycle(&mut self, response: Response) {
        match response {
            Response::ReceiveMessage(ReceiveMessageOutput {
                messages: Some(messages),
            }) => keep(&mut self.spare.messages, messages),
            Response::SendMessageBatch(out) => keep(&mut self.spare.sent, out.successful),
            Response::Batch(out) => keep(&mut self.spare.done, out.successful),
            // The answers of SendMessage and DeleteMessage, moved out of `response` (a named
            // binding moves, `_` does not) and dropped by kind: they own little (SendMessage's
            // optional digests and sequence) or nothing, where an answer left in `response` is
            // dropped by a call to the whole answer's drop glue.
            Response::SendMessage(_sent) => {}
            Response::Empty(_empty) => {}
            _ => {}
        }
    }

    /// Turns event recording on (the default) or off. With it off, [`Engine::drain_events`]
    /// returns nothing and the engine skips building events: for benchmarks and bulk runs that
    /// nobody watches. Replies, views and attributes are unaffected.
    pub fn record_events(&mut self, on: bool) {
        self.events.set_recording(on);
    }

    /// Turns on (the default) or off the events that say nothing another event or the reply does
    /// not: BecameVisible for a message sent without delay (its Sent has `visible_at == at`) and
    /// LongPollStarted (the reply is [`Reply::Pending`]). A driver that counts events but tells
    /// them only now and then leaves them out while it does not.
    pub fn record_implied_events(&mut self, on: bool) {
        self.events.set_implied(on);
    }

    /// Whether the implied events are recorded ([`Engine::record_implied_events`]).
    pub fn records_implied_events(&self) -> bool {
        self.events.implied()
    }

    /// Names of the existing queues of the default namespace, sorted.
    pub fn queue_names(&self) -> Vec<String> {
        self.queue_names_in(&Namespace::DEFAULT)
    }

    /// [`Engine::queue_names`] of `namespace`.
    pub fn queue_names_in(&self, namespace: &Namespace) -> Vec<String> {
        self.registry
            .starting_with(&namespace.arn_prefix())
            .map(|(name, _)| name.to_string())
            .collect()
    }

    /// The queues of the default namespace ([`Engine::call`]'s) by name, sorted.
    fn default_queues(&self) -> impl Iterator<Item = (&str, u32)> + '_ {
        const PREFIX: &str = "arn:aws:sqs:us-east-1:000000000000:";
        debug_assert_eq!(PREFIX, Namespace::DEFAULT.arn_prefix());
        self.registry.starting_with(PREFIX)
    }

    /// The URL of a queue by name (a clone of the queue's own: actions find the queue by it
    /// without reading the text).
    pub fn queue_url(&self, name: &str) -> Option<QueueUrl> {
        self.queue_url_in(&Namespace::DEFAULT, name)
    }

    /// [`Engine::queue_url`] of the queue `name` in `namespace`. The URL names the queue's
    /// region and account, so a call from any namespace reaches it.
    pub fn queue_url_in(&self, namespace: &Namespace, name: &str) -> Option<QueueUrl> {
        Some(self.named_in(namespace, name)?.url.clone())
    }

    /// The ARN of a queue by name.
    pub fn queue_arn(&self, name: &str) -> Option<String> {
        Some(self.named(name)?.arn.clone())
    }

    /// The stored messages of a queue (delayed, visible and in flight), oldest first.
    pub fn messages(&self, name: &str) -> Vec<MessageView> {
        self.messages_in(&Namespace::DEFAULT, name)
    }

    /// [`Engine::messages`] of the queue `name` in `namespace`.
    pub fn messages_in(&self, namespace: &Namespace, name: &str) -> Vec<MessageView> {
        let Some(q) = self.named_in(namespace, name) else {
            return Vec::new();
        };
        // FIFO: the sequence of each group's first message that is not visible (§4.5).
        // By group slot (a list: the slots are dense).
        let mut first_blocker: Vec<Option<Option<u64>>> = vec![None; q.groups.slots()];
        // Oldest first, as the retention index keeps them.
        q.oldest_first()
            .map(|(slot, m)| {
                let blocked_by_group = q.fifo()
                    && matches!(m.state, State::Visible { .. })
                    && first_blocker[m.group_slot as usize]
                        .get_or_insert_with(|| {
                            q.groups
                                .get(m.group_slot)
                                .members
                                .iter()
                                .find(|&&(_, s)| !matches!(q.msg(s).state, State::Visible { .. }))
                                .map(|&(seq, _)| seq)
                        })
                        .is_some_and(|blocker| blocker < m.seq);
                let state = match m.state {
                    State::Delayed { until } => MessageState::Delayed { until },
                    State::Visible { .. } => MessageState::Visible,
                    State::InFlight { until, .. } => MessageState::InFlight {
                        until,
                        receipt_handle: self.handle_of(q, slot).to_text(),
                    },
                };
                MessageView {
                    message_id: m.id.to_string(),
                    body: m.body.to_string(),
                    state,
                    receive_count: m.receive_count,
                    group_id: m.group.clone(),
                    sent_at: m.enqueued_at,
                    blocked_by_group,
                }
            })
            .collect()
    }

    /// How many queues there are, in every namespace.
    pub fn queue_count(&self) -> usize {
        self.registry.live().count()
    }

    /// Whether `namespace` holds a queue (its first one in the ARN index, not a list of them).
    pub fn has_queues_in(&self, namespace: &Namespace) -> bool {
        self.registry
            .starting_with(&namespace.arn_prefix())
            .next()
            .is_some()
    }

    /// How many messages every queue of every namespace holds (delayed, visible and in flight).
    pub fn stored_messages(&self) -> u64 {
        self.registry.live().flat_map(depth_of).sum()
    }

    /// Every stored message's id and body, in every queue of every namespace: what a narration
    /// needs to name the messages again.
    pub fn stored_bodies(&self) -> impl Iterator<Item = (MessageId, &str)> + '_ {
        self.registry
            .live()
            .flat_map(|q| q.iter())
            .map(|(_, m)| (m.id, m.body.as_str()))
    }

    /// The earliest of the latest receives of the messages in flight, in every queue (None:
    /// nothing is in flight): what has hidden each of them since, happened after it.
    pub fn earliest_receive_in_flight(&self) -> Option<Millis> {
        self.registry
            .live()
            .flat_map(|q| q.iter())
            .filter_map(|(_, m)| match m.state {
                State::InFlight { received_at, .. } => Some(received_at),
                _ => None,
            })
            .min()
    }

    /// What GetQueueAttributes with `All` answers now.
    pub fn attributes(&self, name: &str) -> Option<Attributes> {
        self.attributes_in(&Namespace::DEFAULT, name)
    }

    /// [`Engine::attributes`] of the queue `name` in `namespace`.
    pub fn attributes_in(&self, namespace: &Namespace, name: &str) -> Option<Attributes> {
        Some(self.all_attributes(self.named_in(namespace, name)?))
    }

    /// The namespaces that hold queues, in ARN order (by region, then account).
    pub fn namespaces(&self) -> Vec<Namespace> {
        let mut namespaces: Vec<Namespace> = self
            .registry
            .by_name()
            .filter_map(|q| Namespace::of_arn(&q.arn))
            .collect();
        // A namespace's queues are neighbours in ARN order.
        namespaces.dedup();
        namespaces
    }

    /// [`Engine::depths`] of the queues in `namespace`.
    pub fn depths_in(&self, namespace: &Namespace) -> Vec<(&str, [u64; 3])> {
        self.registry
            .starting_with(&namespace.arn_prefix())
            .filter_map(|(name, uid)| Some((name, depth_of(self.q_opt(uid)?))))
            .collect()
    }

    /// Each queue's ApproximateNumberOfMessages, …NotVisible and …Delayed, by name (sorted),
    /// without building attribute maps: a simulation samples them every virtual second.
    pub fn depths(&self) -> impl Iterator<Item = (&str, [u64; 3])> + '_ {
        self.default_queues()
            .filter_map(|(name, uid)| Some((name, depth_of(self.q_opt(uid)?))))
    }

    /// One queue's [`Engine::depths`] entry (None: no such queue).
    pub fn depth(&self, name: &str) -> Option<[u64; 3]> {
        self.depth_in(&Namespace::DEFAULT, name)
    }

    /// [`Engine::depth`] of the queue `name` in `namespace`.
    pub fn depth_in(&self, namespace: &Namespace, name: &str) -> Option<[u64; 3]> {
        self.named_in(namespace, name).map(depth_of)
    }

    // ----- shared helpers for the action modules -----

    /// The default namespace's queue named `name`.
    fn named(&self, name: &str) -> Option<&Queue> {
        self.named_in(&Namespace::DEFAULT, name)
    }

    /// The queue named `name` in `namespace`.
    pub(crate) fn named_in(&self, namespace: &Namespace, name: &str) -> Option<&Queue> {
        self.q_opt(self.by_arn(&namespace.queue_arn(name))?)
    }

    /// The uid of the live queue named `name` in the call's namespace.
    pub(crate) fn uid_named(&self, name: &str) -> Option<u32> {
        self.by_arn(&self.context.queue_arn(name))
    }

    pub(crate) fn q_opt(&self, uid: u32) -> Option<&Queue> {
        self.registry.get(uid)
    }

    pub(crate) fn q(&self, uid: u32) -> &Queue {
        self.q_opt(uid).expect("live queue")
    }

    pub(crate) fn q_mut(&mut self, uid: u32) -> &mut Queue {
        self.registry.get_mut(uid).expect("live queue")
    }

    /// The uid of the queue a QueueUrl names (`…/<account>/<name>`), or QueueDoesNotExist.
    /// A URL this engine handed out names its queue without its text being read.
    #[inline]
    pub(crate) fn resolve(&self, url: &QueueUrl) -> Result<u32, SqsError> {
        let own = self.q_opt(url.queue()).map(|q| &q.url);
        match url.issued_by(own) {
            Some(uid) => Ok(uid),
            None => self.resolve_text(url),
        }
    }

    /// [`Engine::resolve`] by the text alone (its region from an AWS host, else the call's).
    /// Out of line: most calls carry a URL the engine issued, and `resolve` stays small enough
    /// to inline.
    #[inline(never)]
    fn resolve_text(&self, url: &str) -> Result<u32, SqsError> {
        self.context
            .arn_of_url(url)
            .and_then(|arn| self.by_arn(&arn))
            .ok_or_else(SqsError::no_queue)
    }

    /// The uid of the queue with this ARN.
    pub(crate) fn by_arn(&self, arn: &str) -> Option<u32> {
        self.registry.by_arn(arn)
    }

    pub(crate) fn emit(&mut self, kind: EventKind) {
        self.emit_with(|_| kind);
    }

    /// Records the event `build` makes, building it only while recording (hot paths use this
    /// so that an unwatched engine does not pay for the strings).
    pub(crate) fn emit_with(&mut self, build: impl FnOnce(&Engine) -> EventKind) {
        if self.events.recording() {
            let kind = build(self);
            self.events.push(Event {
                at: self.now(),
                kind,
            });
        }
    }

    pub(crate) fn next_seq(&mut self) -> u64 {
        self.next_seq += 1;
        self.next_seq
    }

    /// The latest receipt handle of the message in `slot`. Inlined: every receive makes one.
    #[inline(always)]
    pub(crate) fn handle_of(&self, q: &Queue, slot: u32) -> ReceiptHandle {
        let m = q.msg(slot);
        let receipt = Receipt {
            queue: q.uid,
            slot,
            slot_gen: q.slot_gen(slot),
            receipt_gen: m.receipt_gen,
        };
        ReceiptHandle::issue(self.secret, receipt, m.receipt_nonce)
    }

    /// Notes that a message became receivable in `uid`: waiting long polls get a chance.
    /// Inlined (always: the hint was declined), as every send wakes its queue.
    #[inline(always)]
    pub(crate) fn wake(&mut self, uid: u32) {
        if !self.q(uid).polls.is_empty() {
            self.polls.wake(uid);
        }
    }

    /// Marks a message receivable now and says why.
    pub(crate) fn reveal(&mut self, uid: u32, slot: u32, reason: VisibleReason) {
        self.reveal_since(uid, slot, reason, self.now());
    }

    /// [`Engine::reveal`], visible since `since` (no later than now): a FIFO message whose
    /// shortened delay ended in the past takes its place among the groups from then (§13.1).
    pub(crate) fn reveal_since(
        &mut self,
        uid: u32,
        slot: u32,
        reason: VisibleReason,
        since: Millis,
    ) {
        let q = self.q_mut(uid);
        q.hidden.remove(slot);
        q.modify(slot, |m| {
            m.state = State::Visible { since };
        });
        self.emit_with(|e| {
            let q = e.q(uid);
            EventKind::BecameVisible {
                queue: q.name,
                message_id: q.msg(slot).id,
                reason,
            }
        });
        self.wake(uid);
    }

    /// Schedules the reveal of the message in `slot` at `at` (its delay or visibility end),
    /// replacing the one it had. Inlined: every receive schedules one.
    #[inline(always)]
    pub(crate) fn schedule_reveal(&mut self, uid: u32, slot: u32, at: Millis) {
        let key = self.clock.key(at);
        let q = self.q_mut(uid);
        q.hidden.remove(slot);
        q.hidden.insert(slot, key);
        // The armed reveal, if any, fires no later than every hidden message but this one
        // (`arm_reveal` keeps it so): only a key before it is the new earliest and needs arming.
        // Keys grow with time, so a receive mostly arms nothing and reads no `first`.
        self.arm_reveal_at(uid, slot, key);
    }

    /// Makes sure the queue's armed reveal fires no later than its earliest hidden message. An
    /// armed reveal that fires earlier (its message was deleted or revealed since) re-arms when
    /// it comes up: a delete costs no timer work.
    #[inline]
    fn arm_reveal(&mut self, uid: u32) {
        if let Some((key, slot)) = self.q(uid).hidden.first() {
            self.arm_reveal_at(uid, slot, key);
        }
    }

    /// Arms the queue's reveal at `key`, the earliest hidden message's (in `slot`), unless the
    /// armed one fires no later. Inlined, as [`Engine::schedule_reveal`].
    #[inline(always)]
    fn arm_reveal_at(&mut self, uid: u32, slot: u32, key: TimerKey) {
        let q = self.q_mut(uid);
        if q.reveal_timer.is_none_or(|armed| key < armed) {
            debug_assert_eq!(q.hidden.first(), Some((key, slot)));
            q.reveal_timer = Some(key);
            self.clock.push(key, Timer::Reveal { queue: uid, slot });
        }
    }

    /// A queue's armed reveal came up (due, or at the top of the heap): reveals the earliest
    /// hidden message if it is this entry's and `due`, and arms the next. Returns `false` if
    /// the entry was not the queue's armed reveal (nothing to do).
    fn come_up_reveal(&mut self, uid: u32, slot: u32, key: TimerKey, due: bool) -> bool {
        let Some(q) = self.registry.get_mut(uid) else {
            return false;
        };
        if q.reveal_timer != Some(key) {
            return false;
        }
        q.reveal_timer = None;
        if due && q.hidden.holds(slot, key) {
            debug_assert_eq!(q.hidden.first(), Some((key, slot)));
            let reason = match q.msg(slot).state {
                State::Delayed { .. } => VisibleReason::DelayEnded,
                _ => VisibleReason::VisibilityExpired,
            };
            self.reveal(uid, slot, reason);
        }
        self.arm_reveal(uid);
        true
    }

    /// Makes sure a retention timer is set for the queue's oldest message (§8).
    #[inline]
    pub(crate) fn schedule_retention(&mut self, uid: u32) {
        let q = self.q_mut(uid);
        if let Some(at) = q.next_expiry() {
            if q.retention_timer.is_none_or(|t| at < t) {
                q.retention_timer = Some(at);
                self.clock.schedule(at, Timer::Retention { queue: uid });
            }
        }
    }

    // ----- time -----

    /// Does everything due at or before `now`: timers, then waiting long polls, then long-poll
    /// timeouts (a message and a timeout at the same instant: the message wins, §4.3).
    fn run_due(&mut self) {
        if self.polls.any_woken() {
            self.do_due();
        }
        // After most calls nothing is due and the top timer is live: one look at it tells both.
        while let Some((key, timer)) = self.clock.peek_key() {
            if deadline(key) <= self.now() {
                self.do_due();
            } else if self.settled(key, timer) {
                break;
            }
        }
    }

    /// [`Engine::run_due`]'s work, kept out of its common path (nothing due). Everything due
    /// now happens before the next long poll is served: a poll answered with VisibilityTimeout 0
    /// makes its messages receivable again in this instant (§13.2), and the next poll gets the
    /// oldest receivable ones (§13.3). Long polls whose wait ends now time out last, when no
    /// message is left for them (§4.3).
    #[inline(never)]
    fn do_due(&mut self) {
        let mut timeouts = Vec::new();
        while self.polls.any_woken() || self.timer_due() {
            while let Some((key, timer)) = self.clock.pop_due() {
                match timer {
                    Timer::PollTimeout(poll) => timeouts.push(poll),
                    _ => self.fire(key, timer),
                }
            }
            self.serve_woken();
            if !self.polls.any_woken() {
                for poll in timeouts.drain(..) {
                    self.time_out_poll(poll);
                }
            }
        }
    }

    /// Whether a timer is due now (work [`Engine::do_due`] must do before serving more polls).
    pub(crate) fn timer_due(&self) -> bool {
        self.clock.due()
    }

    /// Whether the top timer, not due, is live; if not, drops it (re-aiming a queue's reveal
    /// or retention timer at its next message), so that `next_deadline` is exact once the top
    /// is live.
    fn settled(&mut self, key: TimerKey, timer: Timer) -> bool {
        let at = deadline(key);
        if let Timer::Reveal { queue, slot } = timer {
            let armed = self.q_opt(queue).filter(|q| q.reveal_timer == Some(key));
            match armed.map(|q| q.hidden.holds(slot, key)) {
                // Live: its message is still the earliest hidden one.
                Some(true) => return true,
                // Armed for a message deleted or revealed since: re-aim at the earliest one.
                Some(false) => {
                    self.clock.discard_first();
                    self.come_up_reveal(queue, slot, key, false);
                }
                // Not the queue's armed reveal (or no queue): dead.
                None => self.clock.discard_first(),
            }
            return false;
        }
        if let Timer::Retention { queue } = timer {
            // Set for a message deleted since: re-aim at the oldest remaining one.
            let early = self.q_opt(queue).is_some_and(|q| {
                q.retention_timer == Some(at) && q.next_expiry().is_none_or(|e| e > at)
            });
            if early {
                self.clock.discard_first();
                self.q_mut(queue).retention_timer = None;
                self.schedule_retention(queue);
                return false;
            }
        }
        if self.is_live(at, timer) {
            return true;
        }
        self.clock.discard_first();
        false
    }

    fn fire(&mut self, key: TimerKey, timer: Timer) {
        let at = deadline(key);
        if let Timer::Reveal { queue, slot } = timer {
            self.come_up_reveal(queue, slot, key, true);
            return;
        }
        if !self.is_live(at, timer) {
            return;
        }
        match timer {
            Timer::Reveal { .. } => unreachable!("reveals come up above"),
            Timer::Retention { queue } => self.expire(queue),
            Timer::MoveTick(task) => self.move_tick(task),
            Timer::PollTimeout(_) => unreachable!("poll timeouts are handled by run_due"),
        }
    }

    /// Whether a scheduled entry other than a reveal still has work to do.
    fn is_live(&self, at: Millis, timer: Timer) -> bool {
        match timer {
            Timer::Reveal { .. } => unreachable!("reveals are checked where they come up"),
            Timer::Retention { queue } => self
                .q_opt(queue)
                .is_some_and(|q| q.retention_timer == Some(at)),
            Timer::PollTimeout(poll) => self.polls.contains(poll),
            Timer::MoveTick(task) => self.tasks.ticks_at(task, at),
        }
    }

    /// Deletes the messages whose retention has ended (§8), in flight too.
    fn expire(&mut self, uid: u32) {
        let now = self.now();
        let q = self.q_mut(uid);
        q.retention_timer = None;
        let expired = q.expired(now);
        for slot in &expired {
            let q = self.q_mut(uid);
            let (queue, message_id) = (q.name, q.delete(*slot));
            self.emit(EventKind::RetentionExpired { queue, message_id });
        }
        if !expired.is_empty() && self.q(uid).fifo() {
            // A removed group head can unblock the rest of its group.
            self.wake(uid);
        }
        self.schedule_retention(uid);
    }
}

/// A queue's visible, in-flight and delayed counts.
fn depth_of(q: &Queue) -> [u64; 3] {
    let c = q.counts;
    [c.visible, c.in_flight, c.delayed].map(|n| n as u64)
}
