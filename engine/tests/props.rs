//! Property tests: random sequences of SQS actions and clock advances against a standard and a
//! FIFO queue (each with a dead-letter queue), checking the engine's invariants after every step:
//!
//! * every sent message is in exactly one state (delayed, visible, in flight, deleted,
//!   dead-lettered, expired, purged), tracked from the events, and the stored ones are exactly the
//!   ones the `messages()` views show, in the same state and with the same receive count: none is
//!   lost or invented;
//! * no message is delivered while it is hidden (knobs off);
//! * FIFO: a receive returns, per group, the group's visible prefix in send order, so a group
//!   with a message in flight delivers nothing after it;
//! * ApproximateReceiveCount rises by exactly one per delivery;
//! * a failed call changes nothing (views, attributes, deadline, no events);
//! * the same seed and actions give the same replies and events, also when the engine is
//!   written out and read back (a snapshot) at any step.

use proptest::prelude::*;
use sqs_engine::api::{
    AnyReceiptHandle, ChangeMessageVisibilityInput, CreateQueueInput, DeleteMessageInput, Message,
    QueueUrl, QueueUrlInput, ReceiptHandle, ReceiveMessageInput, ReceiveMessageOutput,
    SendMessageInput,
};
use sqs_engine::event::EventKind;
use sqs_engine::view::MessageState;
use sqs_engine::{Engine, Millis, Reply, Request, Response};
use std::collections::BTreeMap;

const STANDARD: &str = "std";
const FIFO: &str = "q.fifo";
const QUEUES: [&str; 4] = ["std-dlq", "q-dlq.fifo", STANDARD, FIFO];

/// Which receipt handle a delete or visibility change uses.
#[derive(Clone, Debug)]
enum Pick {
    /// The latest handle of the n-th message ever received from the queue.
    Latest(usize),
    /// The n-th handle ever issued by the queue (often an old one).
    Any(usize),
    /// A handle SQS never issued.
    Garbage,
}

#[derive(Clone, Debug)]
enum Action {
    Send {
        fifo: bool,
        group: u8,
        delay: i64,
        repeat_body: bool,
    },
    Receive {
        fifo: bool,
        max: i64,
        visibility: Option<i64>,
        wait: i64,
    },
    Delete {
        fifo: bool,
        pick: Pick,
    },
    ChangeVisibility {
        fifo: bool,
        pick: Pick,
        timeout: i64,
    },
    Purge {
        fifo: bool,
    },
    Advance {
        ms: Millis,
    },
    /// A call that must fail: out-of-range parameters, an empty body.
    Invalid {
        fifo: bool,
        kind: u8,
    },
}

fn pick() -> impl Strategy<Value = Pick> {
    prop_oneof![
        3 => (0..20usize).prop_map(Pick::Latest),
        2 => (0..40usize).prop_map(Pick::Any),
        1 => Just(Pick::Garbage),
    ]
}

fn action() -> impl Strategy<Value = Action> {
    prop_oneof![
        4 => (any::<bool>(), 0..3u8, prop_oneof![3 => Just(0i64), 1 => 1..4i64], prop::bool::weighted(0.15))
            .prop_map(|(fifo, group, delay, repeat_body)| Action::Send { fifo, group, delay, repeat_body }),
        4 => (any::<bool>(), 1..=10i64, prop::option::of(0..=12i64), prop_oneof![3 => Just(0i64), 1 => 1..=4i64])
            .prop_map(|(fifo, max, visibility, wait)| Action::Receive { fifo, max, visibility, wait }),
        2 => (any::<bool>(), pick()).prop_map(|(fifo, pick)| Action::Delete { fifo, pick }),
        2 => (any::<bool>(), pick(), 0..=12i64)
            .prop_map(|(fifo, pick, timeout)| Action::ChangeVisibility { fifo, pick, timeout }),
        1 => any::<bool>().prop_map(|fifo| Action::Purge { fifo }),
        3 => (0..40_000u64).prop_map(|ms| Action::Advance { ms }),
        1 => (any::<bool>(), 0..4u8).prop_map(|(fifo, kind)| Action::Invalid { fifo, kind }),
    ]
}

/// Where a sent message is, as the events tell it.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Tracked {
    Delayed(Millis),
    Visible,
    InFlight(Millis),
    Deleted,
    DeadLettered,
    Expired,
    Purged,
}

impl Tracked {
    /// Still stored by a queue.
    fn is_stored(self) -> bool {
        matches!(
            self,
            Tracked::Delayed(_) | Tracked::Visible | Tracked::InFlight(_) | Tracked::DeadLettered
        )
    }

    /// Receivable at `now` (a hiding deadline that has passed counts as receivable).
    fn receivable_at(self, now: Millis) -> bool {
        match self {
            Tracked::Visible => true,
            Tracked::Delayed(until) | Tracked::InFlight(until) => until <= now,
            _ => false,
        }
    }
}

#[derive(Clone, Debug)]
struct Tracker {
    queue: String,
    state: Tracked,
    receive_count: u32,
    group: Option<String>,
    /// Send order across the run.
    seq: usize,
}

/// The engine under test plus everything the invariants need.
struct Harness {
    engine: Engine,
    urls: BTreeMap<&'static str, QueueUrl>,
    messages: BTreeMap<String, Tracker>,
    /// Every handle issued, per queue, with its message.
    handles: BTreeMap<&'static str, Vec<(String, ReceiptHandle)>>,
    sent: usize,
    bodies: usize,
    /// Everything the engine answered and emitted, for the determinism check.
    transcript: Vec<String>,
}

fn done(reply: Reply) -> Result<Response, sqs_engine::SqsError> {
    match reply {
        Reply::Done(result) => result,
        Reply::Pending(_) => panic!("unexpected pending reply"),
    }
}

impl Harness {
    fn new(seed: u64) -> Self {
        let mut harness = Harness {
            engine: Engine::new(seed),
            urls: BTreeMap::new(),
            messages: BTreeMap::new(),
            handles: BTreeMap::new(),
            sent: 0,
            bodies: 0,
            transcript: Vec::new(),
        };
        let redrive = |engine: &Engine, dlq: &str, max: u32| {
            let arn = engine.queue_arn(dlq).expect("dead-letter queue ARN");
            format!(r#"{{"deadLetterTargetArn":"{arn}","maxReceiveCount":{max}}}"#)
        };
        for name in QUEUES {
            let mut attributes: BTreeMap<String, String> = BTreeMap::new();
            if name.ends_with(".fifo") {
                attributes.insert("FifoQueue".into(), "true".into());
                attributes.insert("ContentBasedDeduplication".into(), "true".into());
            }
            if name == STANDARD || name == FIFO {
                attributes.insert("VisibilityTimeout".into(), "5".into());
                attributes.insert("MessageRetentionPeriod".into(), "60".into());
            }
            if name == STANDARD {
                attributes.insert(
                    "RedrivePolicy".into(),
                    redrive(&harness.engine, "std-dlq", 3),
                );
            }
            if name == FIFO {
                attributes.insert(
                    "RedrivePolicy".into(),
                    redrive(&harness.engine, "q-dlq.fifo", 2),
                );
            }
            let request = Request::CreateQueue(CreateQueueInput {
                queue_name: name.into(),
                attributes: Some(attributes),
                tags: None,
            });
            let Ok(Response::CreateQueue(out)) = done(harness.engine.call(request)) else {
                panic!("CreateQueue {name} failed");
            };
            harness.urls.insert(name, out.queue_url);
        }
        harness.absorb_events();
        harness
    }

    fn queue(fifo: bool) -> &'static str {
        if fifo {
            FIFO
        } else {
            STANDARD
        }
    }

    fn url(&self, fifo: bool) -> QueueUrl {
        self.urls[Self::queue(fifo)].clone()
    }

    fn handle(&self, fifo: bool, pick: &Pick) -> AnyReceiptHandle {
        let issued = self
            .handles
            .get(Self::queue(fifo))
            .map(Vec::as_slice)
            .unwrap_or_default();
        match pick {
            Pick::Garbage => "garbage".into(),
            _ if issued.is_empty() => "garbage".into(),
            Pick::Any(n) => issued[n % issued.len()].1.into(),
            Pick::Latest(n) => {
                let id = &issued[n % issued.len()].0;
                issued
                    .iter()
                    .rev()
                    .find(|(m, _)| m == id)
                    .expect("issued")
                    .1
                    .into()
            }
        }
    }

    /// The request for an action (`None` for a clock advance).
    fn request(&mut self, action: &Action) -> Option<Request> {
        Some(match action {
            Action::Send {
                fifo,
                group,
                delay,
                repeat_body,
            } => {
                if !repeat_body || self.bodies == 0 {
                    self.bodies += 1;
                }
                Request::SendMessage(SendMessageInput {
                    queue_url: self.url(*fifo),
                    message_body: format!("body-{}", self.bodies).into(),
                    delay_seconds: (!fifo && *delay > 0).then_some(*delay),
                    message_group_id: fifo.then(|| format!("g{group}")),
                    ..Default::default()
                })
            }
            Action::Receive {
                fifo,
                max,
                visibility,
                wait,
            } => Request::ReceiveMessage(ReceiveMessageInput {
                queue_url: self.url(*fifo),
                max_number_of_messages: Some(*max),
                visibility_timeout: *visibility,
                wait_time_seconds: Some(*wait),
                ..Default::default()
            }),
            Action::Delete { fifo, pick } => Request::DeleteMessage(DeleteMessageInput {
                queue_url: self.url(*fifo),
                receipt_handle: self.handle(*fifo, pick),
            }),
            Action::ChangeVisibility {
                fifo,
                pick,
                timeout,
            } => Request::ChangeMessageVisibility(ChangeMessageVisibilityInput {
                queue_url: self.url(*fifo),
                receipt_handle: self.handle(*fifo, pick),
                visibility_timeout: *timeout,
            }),
            Action::Purge { fifo } => Request::PurgeQueue(QueueUrlInput {
                queue_url: self.url(*fifo),
            }),
            Action::Advance { .. } => return None,
            Action::Invalid { fifo, kind } => {
                let queue_url = self.url(*fifo);
                match kind {
                    0 => Request::ReceiveMessage(ReceiveMessageInput {
                        queue_url,
                        max_number_of_messages: Some(11),
                        ..Default::default()
                    }),
                    1 => Request::ChangeMessageVisibility(ChangeMessageVisibilityInput {
                        queue_url,
                        receipt_handle: self.handle(*fifo, &Pick::Latest(0)),
                        visibility_timeout: 43_201,
                    }),
                    2 => Request::SendMessage(SendMessageInput {
                        queue_url,
                        message_body: "".into(),
                        message_group_id: Some("g0".into()),
                        ..Default::default()
                    }),
                    _ => Request::SendMessage(SendMessageInput {
                        queue_url,
                        message_body: "late".into(),
                        delay_seconds: Some(if *fifo { 5 } else { 901 }),
                        message_group_id: fifo.then(|| "g0".to_string()),
                        ..Default::default()
                    }),
                }
            }
        })
    }

    /// Everything a failed call must leave alone.
    fn snapshot(&self) -> String {
        let mut out = format!("deadline {:?}\n", self.engine.next_deadline());
        for queue in QUEUES {
            out += &format!(
                "{:?}\n{:?}\n",
                self.engine.messages(queue),
                self.engine.attributes(queue)
            );
        }
        out
    }

    fn step(&mut self, action: &Action) {
        let Some(request) = self.request(action) else {
            let Action::Advance { ms } = action else {
                unreachable!()
            };
            let target = self.engine.now() + ms;
            self.engine.advance_to(target);
            self.absorb_events();
            self.absorb_polls();
            return;
        };
        let before = self.snapshot();
        let before_messages = self.messages.clone();
        let reply = self.engine.call(request);
        self.transcript.push(format!("{action:?} -> {reply:?}"));
        match reply {
            Reply::Done(Err(error)) => {
                let events = self.engine.drain_events();
                assert!(
                    events.is_empty(),
                    "failed call {action:?} ({error}) emitted {events:?}"
                );
                assert_eq!(
                    before,
                    self.snapshot(),
                    "failed call {action:?} ({error}) changed state"
                );
                // Sends are always valid here (a purge may hit its cooldown, a handle be stale).
                assert!(
                    !matches!(action, Action::Send { .. }),
                    "{action:?} failed: {error}"
                );
            }
            Reply::Done(Ok(response)) => {
                assert!(
                    !matches!(action, Action::Invalid { .. }),
                    "{action:?} succeeded: {response:?}"
                );
                let events = self.absorb_events();
                if let (Response::ReceiveMessage(out), Action::Receive { fifo, .. }) =
                    (&response, action)
                {
                    let moved: Vec<String> = events
                        .iter()
                        .filter_map(|kind| match kind {
                            EventKind::MovedToDeadLetterQueue { message_id, .. } => {
                                Some(message_id.to_string())
                            }
                            _ => None,
                        })
                        .collect();
                    if *fifo {
                        self.check_fifo_prefix(&before_messages, &moved, out);
                    }
                    self.note_handles(Self::queue(*fifo), out);
                }
            }
            Reply::Pending(_) => {
                self.absorb_events();
            }
        }
        self.absorb_polls();
    }

    fn note_handles(&mut self, queue: &'static str, out: &ReceiveMessageOutput) {
        for Message {
            message_id,
            receipt_handle,
            ..
        } in out.messages.iter().flatten()
        {
            self.handles
                .entry(queue)
                .or_default()
                .push((message_id.to_string(), *receipt_handle));
        }
    }

    fn absorb_polls(&mut self) {
        for (poll, out) in self.engine.take_completed_polls() {
            self.transcript.push(format!("poll {poll} -> {out:?}"));
            // A poll's queue is the queue of its messages.
            if let Some(first) = out.messages.as_ref().and_then(|m| m.first()) {
                let queue = if self.messages[&*first.message_id].queue == FIFO {
                    FIFO
                } else {
                    STANDARD
                };
                self.note_handles(queue, &out);
            }
            self.absorb_events();
        }
    }

    /// FIFO: per group, the returned messages are the group's first stored messages in send
    /// order, all receivable when the call was made (the ones it dead-lettered aside).
    fn check_fifo_prefix(
        &self,
        before: &BTreeMap<String, Tracker>,
        moved: &[String],
        out: &ReceiveMessageOutput,
    ) {
        let now = self.engine.now();
        let returned: Vec<&str> = out
            .messages
            .iter()
            .flatten()
            .map(|m| &*m.message_id)
            .collect();
        let mut groups: BTreeMap<&str, Vec<(usize, &str)>> = BTreeMap::new();
        for (id, tracker) in before {
            if tracker.queue == FIFO && tracker.state.is_stored() && !moved.contains(id) {
                groups
                    .entry(tracker.group.as_deref().unwrap_or_default())
                    .or_default()
                    .push((tracker.seq, id));
            }
        }
        for (group, mut members) in groups {
            members.sort();
            let got: Vec<&str> = returned
                .iter()
                .copied()
                .filter(|id| members.iter().any(|(_, m)| m == id))
                .collect();
            let prefix: Vec<&str> = members.iter().take(got.len()).map(|(_, id)| *id).collect();
            assert_eq!(got, prefix, "group {group}: not its prefix in send order");
            for id in got {
                assert!(
                    before[id].state.receivable_at(now),
                    "group {group}: {id} returned while hidden"
                );
            }
        }
    }

    /// Applies the drained events to the trackers, checking each transition.
    fn absorb_events(&mut self) -> Vec<EventKind> {
        let events = self.engine.drain_events();
        // The messages one receive returned so far (a long poll's answer ends its batch).
        let mut batch: Vec<String> = Vec::new();
        for event in &events {
            self.transcript.push(format!("{event:?}"));
            let at = event.at;
            match &event.kind {
                EventKind::LongPollAnswered { .. } => batch.clear(),
                EventKind::Sent {
                    queue,
                    message_id,
                    group_id,
                    visible_at,
                } => {
                    let state = if *visible_at > at {
                        Tracked::Delayed(*visible_at)
                    } else {
                        Tracked::Visible
                    };
                    let tracker = Tracker {
                        queue: queue.to_string(),
                        state,
                        receive_count: 0,
                        group: group_id.clone(),
                        seq: self.sent,
                    };
                    self.sent += 1;
                    assert!(
                        self.messages
                            .insert(message_id.to_string(), tracker)
                            .is_none(),
                        "{message_id} reused"
                    );
                }
                EventKind::BecameVisible { message_id, .. } => {
                    let tracker = self.messages.get_mut(&**message_id).expect("known message");
                    // A message moved to a dead-letter queue becomes visible there.
                    if tracker.state != Tracked::DeadLettered {
                        assert!(
                            tracker.state.receivable_at(at),
                            "{message_id} became visible early: {tracker:?} at {at}"
                        );
                        tracker.state = Tracked::Visible;
                    }
                }
                EventKind::Received {
                    message_id,
                    receive_count,
                    visible_at,
                    ..
                } => {
                    self.check_group_order(message_id, &batch);
                    batch.push(message_id.to_string());
                    let tracker = self.messages.get_mut(&**message_id).expect("known message");
                    assert!(
                        tracker.state.receivable_at(at),
                        "{message_id} delivered while hidden: {tracker:?} at {at}"
                    );
                    assert_eq!(
                        *receive_count,
                        tracker.receive_count + 1,
                        "{message_id}: receive count"
                    );
                    tracker.receive_count = *receive_count;
                    tracker.state = Tracked::InFlight(*visible_at);
                }
                EventKind::VisibilityChanged {
                    message_id,
                    visible_at,
                    ..
                } => {
                    let tracker = self.messages.get_mut(&**message_id).expect("known message");
                    tracker.state = Tracked::InFlight(*visible_at);
                }
                EventKind::Deleted { message_id, .. } => self.end(message_id, Tracked::Deleted),
                EventKind::RetentionExpired { message_id, .. } => {
                    self.end(message_id, Tracked::Expired)
                }
                EventKind::Purged { message_ids, .. } => {
                    for id in message_ids {
                        self.end(id, Tracked::Purged);
                    }
                }
                EventKind::MovedToDeadLetterQueue {
                    dead_letter_queue,
                    message_id,
                    receive_count,
                    ..
                } => {
                    let tracker = self.messages.get_mut(&**message_id).expect("known message");
                    assert_eq!(
                        *receive_count, tracker.receive_count,
                        "the move does not count as a receive"
                    );
                    tracker.queue = dead_letter_queue.to_string();
                    self.end(message_id, Tracked::DeadLettered);
                }
                _ => {}
            }
        }
        self.check_views();
        events.into_iter().map(|event| event.kind).collect()
    }

    /// FIFO, for every delivery (long polls included): each stored message sent before it in
    /// its group was delivered by the same receive, so nothing passes an in-flight message and
    /// no visible one is skipped.
    fn check_group_order(&self, message_id: &str, batch: &[String]) {
        let tracker = &self.messages[message_id];
        if tracker.queue != FIFO {
            return;
        }
        for (id, earlier) in &self.messages {
            if earlier.queue == FIFO
                && earlier.group == tracker.group
                && earlier.seq < tracker.seq
                && earlier.state.is_stored()
            {
                assert!(
                    batch.contains(id),
                    "{message_id} delivered while {id} before it in its group is {:?}",
                    earlier.state
                );
            }
        }
    }

    fn end(&mut self, message_id: &str, state: Tracked) {
        let tracker = self.messages.get_mut(message_id).expect("known message");
        assert!(
            tracker.state.is_stored() && tracker.state != Tracked::DeadLettered,
            "{message_id}: {:?} after {:?}",
            state,
            tracker.state
        );
        tracker.state = state;
    }

    /// The views show exactly the stored messages, in the tracked state.
    fn check_views(&self) {
        let now = self.engine.now();
        let mut seen = 0;
        for queue in QUEUES {
            for view in self.engine.messages(queue) {
                seen += 1;
                let tracker = self.messages.get(&view.message_id).unwrap_or_else(|| {
                    panic!("{queue} shows {} that was never sent", view.message_id)
                });
                assert_eq!(
                    tracker.queue, queue,
                    "{}: in the wrong queue",
                    view.message_id
                );
                assert_eq!(
                    view.receive_count, tracker.receive_count,
                    "{}: receive count",
                    view.message_id
                );
                let agrees = match (tracker.state, &view.state) {
                    (Tracked::DeadLettered, _) => true,
                    (Tracked::Delayed(a), MessageState::Delayed { until }) => a == *until,
                    (Tracked::InFlight(a), MessageState::InFlight { until, .. }) => a == *until,
                    (state, MessageState::Visible) => state.receivable_at(now),
                    _ => false,
                };
                assert!(
                    agrees,
                    "{}: tracked {:?}, view {:?} at {now}",
                    view.message_id, tracker.state, view.state
                );
            }
        }
        let stored = self
            .messages
            .values()
            .filter(|t| t.state.is_stored())
            .count();
        assert_eq!(
            seen, stored,
            "views show {seen} messages, {stored} are stored"
        );
    }
}

fn run(seed: u64, actions: &[Action]) -> Vec<String> {
    let mut harness = Harness::new(seed);
    for action in actions {
        harness.step(action);
    }
    harness.transcript
}

/// The engine written out (serde) and read back, as a server's snapshot does.
fn round_trip(engine: &Engine) -> Engine {
    let written = serde_json::to_vec(engine).expect("an engine serialises");
    serde_json::from_slice(&written).expect("a written engine reads back")
}

/// [`run`], with the engine replaced by its snapshot's copy before action `split`.
fn run_restored_at(seed: u64, actions: &[Action], split: usize) -> Vec<String> {
    let mut harness = Harness::new(seed);
    for (i, action) in actions.iter().enumerate() {
        if i == split {
            harness.engine = round_trip(&harness.engine);
        }
        harness.step(action);
    }
    harness.transcript
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn invariants_hold_and_runs_are_deterministic(seed in 0..1000u64, actions in prop::collection::vec(action(), 1..80)) {
        let first = run(seed, &actions);
        let second = run(seed, &actions);
        prop_assert_eq!(first, second);
    }

    /// Answers (message ids, receipt handles, long polls), events and invariants after a
    /// snapshot round trip at any point are those of the run that was never written out.
    #[test]
    fn a_snapshot_round_trip_changes_nothing(seed in 0..1000u64, actions in prop::collection::vec(action(), 1..80), split in 0..80usize) {
        let whole = run(seed, &actions);
        let restored = run_restored_at(seed, &actions, split);
        prop_assert_eq!(whole, restored);
    }
}
