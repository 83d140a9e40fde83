//! The world: one engine, its producers and workers, the ledger and the metrics, on one virtual
//! clock. Everything random draws from the world's seed.
//!
//! The clock loop ([`World::advance_to`]) takes, one at a time, the earliest of: the engine's
//! next deadline, a world timer (a worker's next poll, job step or heartbeat; a producer's next
//! send) and a scheduled scenario step. At equal times the engine goes first (a visibility
//! timeout that ends at 12:00:30 makes the message receivable by a poll at 12:00:30), then
//! timers, then scenario steps — the order a user action at that instant would see, which is
//! what makes replaying the log give the same world.

use crate::command::{LoggedStep, SimAction, Step};
use crate::lane::{Lane, Life};
use crate::ledger::Ledger;
use crate::metrics::Metrics;
use crate::narrate::{self, Labels};
use crate::producer::Producer;
use crate::scenario::{self, Scenario, StepKind};
use crate::tail::Tail;
use crate::timers::{Timer, Timers};
use crate::worker::WorkerView;
use rustc_hash::FxHashMap;
use serde::Deserialize;
use serde_json::Value;
use sqs_engine::api::{
    MessageId, Output, QueueUrl, ReceiveMessageOutput, Response, SendMessageBatchInput, ToJson,
};
use sqs_engine::event::VisibleReason;
use sqs_engine::script::{error_json, Bindings};
use sqs_engine::{Engine, Event, EventKind, Millis, Namespace, PollId, Reply, Request};
use std::cell::Cell;
use std::collections::VecDeque;
use std::sync::Arc;

/// How many undrained events the world narrates one by one (the default of
/// [`World::set_event_buffer`]). A UI drains them every frame, far below this; when more happen
/// before the next [`World::drain_events`] (a fast-forward), the rest are still counted in the
/// metrics and applied to the state, but not narrated: the drain ends with one event saying how
/// many were left out. At about 250 bytes an event, the buffer holds at most ~1.3 MB.
pub const EVENT_BUFFER: usize = 5_000;

/// How many lane positions [`World::lane_pos`] remembers: lanes added one after the other
/// get consecutive ids, so up to this many never share a hint.
pub(crate) const LANE_HINTS: usize = 64;

/// Who caused an event: `"Sqs"`, `{"Worker": "Worker A"}`, `{"Producer": "P"}`, `"User"`,
/// `{"Client": "report-job"}`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub enum Actor {
    /// SQS itself (a timer: visibility expiry, delay end, retention, ...).
    Sqs,
    /// A worker, by name.
    Worker(String),
    /// A producer, by name.
    Producer(String),
    /// The user, by hand (a UI action or a scenario step).
    User,
    /// A client of its own that has no lane (it never received): a process talking to
    /// `sqs-sim serve` ([`SimAction::Call`](crate::SimAction::Call)).
    Client(String),
}

/// Something that happened, for the event log, the animations and the live region.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct WorldEvent {
    /// When.
    pub at: Millis,
    /// Who.
    pub actor: Actor,
    /// The SQS action behind it, if any ("ChangeMessageVisibility").
    pub action: Option<String>,
    /// The engine's event, if it is one.
    pub engine: Option<EventKind>,
    /// The MessageId it concerns, if any.
    pub message_id: Option<String>,
    /// Plain words: "Worker 2 called ChangeMessageVisibility: hidden for 30 s more".
    pub text: String,
}

impl ToJson for Actor {
    fn to_json(&self) -> Value {
        let (kind, name) = match self {
            Actor::Sqs => return "Sqs".into(),
            Actor::User => return "User".into(),
            Actor::Worker(name) => ("Worker", name),
            Actor::Producer(name) => ("Producer", name),
            Actor::Client(name) => ("Client", name),
        };
        let mut out = Output::default();
        out.field(kind, name);
        out.into()
    }
}

sqs_engine::write_by_hand!(Actor);

sqs_engine::writers! {
    WorldEvent {
        at: field("at"),
        actor: field("actor"),
        action: field("action"),
        engine: field("engine"),
        message_id: field("message_id"),
        text: field("text"),
    }
}

/// Who acts, as the world tracks it: a copyable id, named (an [`Actor`]) only for the events
/// that are narrated, so that the calls of a fast-forward do not copy names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Who {
    Sqs,
    User,
    /// A worker lane, by id.
    Lane(u64),
    /// A producer, by id.
    Producer(u64),
    /// A client without a lane, by its place in [`World::clients`].
    Client(usize),
}

/// The lane holding a message in flight, and the message's ApproximateReceiveCount at that
/// delivery, read from the Received event: a worker that asked SQS for the attribute would make
/// it build a map of strings for every message received.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Holder {
    pub(crate) lane: u64,
    pub(crate) receive_count: u32,
}

/// Who is waiting on a long poll.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PollOwner {
    pub(crate) lane: u64,
    pub(crate) epoch: u64,
}

/// What comes next on the clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Next {
    Engine,
    Timer,
    Step,
}

/// The simulated world. See the crate documentation for the contract. Cloning it forks the
/// session: both copies go on independently and deterministically.
#[derive(Clone)]
pub struct World {
    pub(crate) seed: u64,
    pub(crate) engine: Engine,
    pub(crate) lanes: Vec<Lane>,
    /// Where each lane was found last, by its id modulo [`LANE_HINTS`] ([`World::lane_pos`]):
    /// a message's steps look up its lane again and again, and the steps of 20 lanes'
    /// messages interleave (one hint for the lane found last missed twice per message).
    pub(crate) lane_hints: [Cell<usize>; LANE_HINTS],
    /// Ids for lanes, jobs and producers.
    pub(crate) next_id: u64,
    /// MessageId -> who received it last, while it is in flight.
    pub(crate) holders: FxHashMap<MessageId, Holder>,
    pub(crate) producers: Vec<Producer>,
    /// The clients of their own that have called without being consumers, by first call
    /// ([`SimAction::Call`](crate::SimAction::Call)).
    pub(crate) clients: Vec<String>,
    pub(crate) timers: Timers,
    /// The scenario's later steps, with their times (fixed once loaded: shared by the copies),
    /// and how many of them have run.
    scheduled: Arc<[(Millis, Value)]>,
    steps_run: usize,
    /// Named results of scenario steps (`as`), for `${NAME.path}`.
    bindings: Bindings,
    pub(crate) polls: FxHashMap<PollId, PollOwner>,
    /// The user's long polls answered and not yet taken (by the script runner).
    user_polls: Vec<(PollId, ReceiveMessageOutput)>,
    pub(crate) ledger: Ledger,
    pub(crate) metrics: Metrics,
    log: Vec<LoggedStep>,
    actions: Vec<LoggedStep>,
    events: Vec<WorldEvent>,
    /// The most undrained events narrated ([`EVENT_BUFFER`] by default).
    event_buffer: usize,
    /// Events left out since the last drain because the buffer was full.
    events_skipped: u64,
    /// The events the drains so far took out, narrated or left out (their notes of what was
    /// left out not counted).
    events_drained: u64,
    /// Where the latest events began ([`World::narration_start`]).
    tail: Tail,
    pub(crate) labels: Labels,
    /// The dead-letter queues' names, cached for the samples (cleared when a queue is created,
    /// deleted or changes its attributes).
    pub(crate) dead_letter_cache: Option<Vec<String>>,
    /// The buffer the engine's events are drained into (empty between two calls).
    drained: Vec<Event>,
    /// The buffer the engine's answered long polls are taken into (empty between two calls).
    answered: Vec<(PollId, ReceiveMessageOutput)>,
    /// Whether a lane has ever held messages by hand (manual mode): until one has, a message
    /// leaving the queue has no manual job to leave.
    pub(crate) held_by_hand: bool,
    /// Whether the clock loop is firing a timer ([`World::fire_now`]).
    firing: bool,
    /// The job whose timer is firing, if a job's: that timer is no longer scheduled, so the
    /// job's end has none to cancel (a job's step schedules its next one only as it returns).
    pub(crate) firing_job: Option<u64>,
    /// Polls asked for at the current instant while a timer fired, as (order of scheduling,
    /// lane): timers in all but name (see [`World::fire_now`]); empty between two timers.
    /// In order, taken from the front.
    pub(crate) due_polls: VecDeque<(u64, u64)>,
}

impl World {
    /// An empty world at time 0.
    pub fn new(seed: u64) -> Self {
        let mut engine = Engine::new(seed);
        // The world counts, narrates and tracks holders from the engine's events.
        engine.record_events(true);
        World {
            seed,
            engine,
            lanes: Vec::new(),
            lane_hints: std::array::from_fn(|_| Cell::new(0)),
            next_id: 1,
            holders: FxHashMap::default(),
            producers: Vec::new(),
            clients: Vec::new(),
            timers: Timers::default(),
            scheduled: Arc::new([]),
            steps_run: 0,
            bindings: Bindings::default(),
            polls: FxHashMap::default(),
            user_polls: Vec::new(),
            ledger: Ledger::default(),
            metrics: Metrics::new(),
            log: Vec::new(),
            actions: Vec::new(),
            events: Vec::new(),
            event_buffer: EVENT_BUFFER,
            events_skipped: 0,
            events_drained: 0,
            tail: Tail::default(),
            labels: Labels::default(),
            dead_letter_cache: None,
            drained: Vec::new(),
            answered: Vec::new(),
            held_by_hand: false,
            firing: false,
            firing_job: None,
            due_polls: VecDeque::new(),
        }
    }

    /// A world built from a scenario: steps at time 0 run now, later steps are scheduled.
    /// `await` steps are skipped (the world's clock is driven from outside).
    ///
    /// Every step, now or later, runs after the work due at its instant (as a user action
    /// would): a worker added at 0 has polled before the next step at 0 runs.
    pub fn load(scenario: &Scenario) -> Result<Self, String> {
        let mut world = World::start(scenario);
        let mut at: Millis = 0;
        let mut later = Vec::new();
        for (index, step) in scenario.steps.iter().enumerate() {
            match scenario::step_kind(step).map_err(|e| format!("step {index}: {e}"))? {
                StepKind::Advance(by) => at += by,
                StepKind::Await => {}
                StepKind::Call | StepKind::Sim if at == 0 => {
                    world.advance_to(0);
                    world
                        .run_scenario_step(step)
                        .map_err(|e| format!("step {index}: {e}"))?
                }
                StepKind::Call | StepKind::Sim => later.push((at, step.clone())),
            }
        }
        world.scheduled = later.into();
        Ok(world)
    }

    /// The world a whole [`World::log`] gives at time `until`, from a fresh world with `seed`:
    /// each step runs at its time, after the work due by then.
    pub fn from_log(seed: u64, log: &[LoggedStep], until: Millis) -> Result<Self, String> {
        let mut world = World::new(seed);
        world.apply_all(log, until)?;
        Ok(world)
    }

    /// Applies `steps` (dated, in time order, none before now) up to `until`, then advances to
    /// `until`: how a checkpoint goes on to a later moment ([`crate::checkpoints`]).
    pub(crate) fn replay_from(
        &mut self,
        steps: &[LoggedStep],
        until: Millis,
    ) -> Result<(), String> {
        self.apply_all(steps, until)
    }

    /// Applies `steps` (dated, in time order) up to `until`, then advances to `until`.
    fn apply_all(&mut self, steps: &[LoggedStep], until: Millis) -> Result<(), String> {
        for (i, step) in steps.iter().take_while(|s| s.at <= until).enumerate() {
            if step.at < self.now() {
                return Err(format!("step {} is dated before the one before it", i + 1));
            }
            self.advance_to(step.at);
            self.apply(step.step.clone())
                .map_err(|e| format!("step {} cannot be replayed: {e}", i + 1))?;
        }
        self.advance_to(until.max(self.now()));
        Ok(())
    }

    /// The world `scenario` and the user's `actions` (as [`World::actions`] lists them) give at
    /// time `until`: rewind, share-by-link and fork stand on this.
    pub fn replay(
        scenario: &Scenario,
        actions: &[LoggedStep],
        until: Millis,
    ) -> Result<Self, String> {
        let mut world = World::load(scenario)?;
        world.apply_all(actions, until)?;
        Ok(world)
    }

    /// The seed everything draws from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The current virtual time.
    pub fn now(&self) -> Millis {
        self.engine.now()
    }

    /// Moves the clock to `t`, running engine timers, workers, producers and scheduled steps due
    /// by then, in time order.
    pub fn advance_to(&mut self, t: Millis) {
        while let Some((at, next)) = self.next_item().filter(|&(at, _)| at <= t) {
            self.sample_before(at);
            self.advance_engine(at);
            match next {
                Next::Engine => {
                    if self.engine.next_deadline().is_some_and(|d| d <= at) {
                        debug_assert!(false, "the engine left work due at {at}");
                        break;
                    }
                }
                Next::Timer => {
                    if let Some(timer) = self.timers.pop() {
                        self.fire_now(timer);
                    }
                }
                Next::Step => {
                    let scheduled = Arc::clone(&self.scheduled);
                    if let Some((_, step)) = scheduled.get(self.steps_run) {
                        self.steps_run += 1;
                        if let Err(e) = self.run_scenario_step(step) {
                            self.say(Actor::User, None, format!("A scenario step failed: {e}"));
                        }
                    }
                }
            }
        }
        if t > self.engine.now() {
            self.advance_engine(t);
        }
        self.sample_before(t);
    }

    /// The earliest instant at which something will happen.
    pub fn next_deadline(&self) -> Option<Millis> {
        self.next_item().map(|(at, _)| at)
    }

    #[inline]
    fn next_item(&self) -> Option<(Millis, Next)> {
        // Written out, not as the min of an iterator over the three: the clock loop asks
        // before every step of every message. At equal times the first kind considered wins.
        let now = self.now();
        let mut next = None;
        let mut consider = |at: Option<Millis>, kind: Next| {
            let Some(at) = at.map(|at| at.max(now)) else {
                return;
            };
            if next.is_none_or(|(first, _)| at < first) {
                next = Some((at, kind));
            }
        };
        consider(self.engine.next_deadline(), Next::Engine);
        consider(self.timers.first_at(), Next::Timer);
        consider(
            self.scheduled.get(self.steps_run).map(|&(at, _)| at),
            Next::Step,
        );
        next
    }

    /// Runs one user action now and appends it to the log. An error changes nothing.
    pub fn apply(&mut self, step: Step) -> Result<Value, String> {
        self.sample_before(self.now());
        let result = self.run(&step)?;
        self.record(LoggedStep {
            at: self.now(),
            step,
        });
        Ok(result)
    }

    /// Appends a user action to the log.
    pub(crate) fn record(&mut self, logged: LoggedStep) {
        self.log.push(logged.clone());
        self.actions.push(logged);
    }

    /// Runs a step as the user.
    fn run(&mut self, step: &Step) -> Result<Value, String> {
        match step {
            Step::Call(request) => match self.call(Who::User, request.clone()) {
                Reply::Done(Ok(response)) => Ok(response_json(&response)),
                Reply::Done(Err(error)) => Err(error.to_string()),
                Reply::Pending(poll) => Ok(pending(poll)),
            },
            Step::Sim(action) => self.sim(action),
        }
    }

    /// Runs one scenario step (call, sim; after `${...}` substitution) and logs it.
    fn run_scenario_step(&mut self, raw: &Value) -> Result<(), String> {
        let value = self.bindings.substitute(raw)?;
        let name = value.get("as").and_then(Value::as_str).map(str::to_string);
        let (step, result) = match scenario::step_kind(&value)? {
            StepKind::Call => {
                let request = scenario::call_request(&value)?;
                match self.call(Who::User, request.clone()) {
                    Reply::Done(Ok(response)) => {
                        (Some(Step::Call(request)), response_json(&response))
                    }
                    Reply::Done(Err(error)) => {
                        let mut failed = Output::default();
                        failed.value("error", error_json(&error));
                        (None, failed.into())
                    }
                    Reply::Pending(poll) => (Some(Step::Call(request)), pending(poll)),
                }
            }
            StepKind::Sim => {
                let action = scenario::sim_action(value)?;
                let result = self.sim(&action)?;
                (Some(Step::Sim(action)), result)
            }
            StepKind::Advance(_) | StepKind::Await => return Ok(()),
        };
        if let Some(name) = name {
            self.bindings.insert(name, result);
        }
        // A failed call changes nothing, so the log leaves it out (as `apply` does).
        if let Some(step) = step {
            self.log.push(LoggedStep {
                at: self.now(),
                step,
            });
        }
        Ok(())
    }

    /// Runs a `{"sim": ..., "input": ...}` step (the script runner's extra kind).
    pub(crate) fn run_sim_value(&mut self, value: &Value) -> Result<Value, String> {
        let step = Step::Sim(scenario::sim_action(value.clone())?);
        self.apply(step)
    }

    /// Runs one simulation action now.
    fn sim(&mut self, action: &SimAction) -> Result<Value, String> {
        match action {
            SimAction::AddWorker { name, policy } => self.add_worker(name, policy.clone()),
            SimAction::RemoveWorker { worker } => self.remove_worker(worker),
            SimAction::SetPolicy { worker, policy } => self.set_policy(worker, policy.clone()),
            SimAction::Kill { worker } => self.stop(worker, Life::Dead),
            SimAction::Hang { worker } => self.stop(worker, Life::Hung),
            SimAction::Restart { worker } => self.restart(worker),
            SimAction::CrashAfterCommit { worker } => {
                self.arm(worker, "CrashAfterCommit", |a| &mut a.crash_after_commit)
            }
            SimAction::LoseDeleteResponse { worker } => {
                self.arm(worker, "LoseDeleteResponse", |a| {
                    &mut a.lose_delete_response
                })
            }
            SimAction::FailJob { worker } => self.fail_job(worker),
            SimAction::BadItemIdentifier { worker } => self.bad_item_identifier(worker),
            SimAction::Deliver { worker, message_id } => self.deliver(worker, message_id),
            SimAction::Receive { worker } => self.manual_receive(worker),
            SimAction::Delete { worker, message_id } => self.manual_delete(worker, message_id),
            SimAction::Extend {
                worker,
                message_id,
                visibility_timeout,
            } => self.extend(worker, message_id, *visibility_timeout),
            SimAction::AddProducer(spec) => self.add_producer(spec.clone()),
            SimAction::RemoveProducer { producer } => self.remove_producer(producer),
            SimAction::Call {
                by,
                namespace,
                request,
            } => self.client_call(by, namespace, request.clone()),
        }
    }

    /// One SQS call on someone's behalf: counted, made, and its events narrated. A user's call
    /// that fails is not counted (a failed user action changes nothing).
    pub(crate) fn call(&mut self, who: Who, request: Request) -> Reply {
        self.call_in(who, &Namespace::DEFAULT, request)
    }

    /// [`World::call`] in `namespace`: a client's account and region.
    pub(crate) fn call_in(&mut self, who: Who, namespace: &Namespace, request: Request) -> Reply {
        let (action, action_index) = (request.action(), request.action_index());
        // Labels serve the narration only: a send nobody narrates lets them lapse.
        let labelled = self.narrating();
        if !labelled
            && matches!(
                request,
                Request::SendMessage(_) | Request::SendMessageBatch(_)
            )
        {
            self.labels.lapse();
        }
        // SendMessage (the hot path): the label is taken from the request without a map.
        let (single, bodies) = match &request {
            _ if !labelled => (None, None),
            Request::SendMessage(input) => (Some(narrate::body_label(&input.message_body)), None),
            Request::SendMessageBatch(input) => (None, Some(sent_bodies(input))),
            _ => (None, None),
        };
        // The events a call implies only for a call made while narrating; skip_implied counts
        // the others.
        self.engine.record_implied_events(labelled);
        let reply = self.engine.call_in(namespace, request);
        if !labelled && matches!(reply, Reply::Pending(_)) {
            // Its LongPollStarted, left out.
            self.events_skipped += 1;
        }
        let failed = matches!(reply, Reply::Done(Err(_)));
        if !(failed && who == Who::User) {
            self.metrics.count_call(action_index);
            if let Some(lane) = self.lane_of_mut(who) {
                lane.api_calls += 1;
            }
        }
        if let Reply::Done(Ok(response)) = &reply {
            match (single, &bodies, response) {
                (Some(label), _, Response::SendMessage(output)) => {
                    self.labels.learn_label(output.message_id, label);
                }
                (_, Some(bodies), Response::SendMessageBatch(output)) => {
                    for stored in &output.successful {
                        // The last entry with the Id, as a map collected from the entries
                        // would hold.
                        if let Some((_, body)) =
                            bodies.iter().rev().find(|(id, _)| *id == stored.id)
                        {
                            self.labels.learn(stored.message_id, body);
                        }
                    }
                }
                _ => {}
            }
        }
        self.settle(who, Some(action));
        if let Reply::Done(Err(error)) = &reply {
            if who != Who::User {
                let actor = self.actor_of(who);
                let text = format!("{} called {action}: {error}", narrate::who(&actor));
                self.push(actor, Some(action), None, None, text);
            }
        }
        reply
    }

    /// Moves the engine's clock to `t`, doing the work due by then.
    #[inline]
    fn advance_engine(&mut self, t: Millis) {
        if t > self.now() {
            self.tail.leave(self.now(), self.events_total());
        }
        // The engine settles after every call and advance: with nothing due by `t` it only
        // moves its clock (nothing at all at its own time), and has nothing to settle.
        let due = self.engine.next_deadline().is_some_and(|d| d <= t);
        if due {
            self.engine.advance_to(t);
            self.settle(Who::Sqs, None);
        } else if t > self.engine.now() {
            self.engine.advance_to(t);
        }
    }

    /// Narrates what the engine did for `who`'s `action` (None: its timers) and hands the long
    /// polls it answered meanwhile (a send answers a waiting poll at once) to their owners.
    pub(crate) fn settle(&mut self, who: Who, action: Option<&str>) {
        // One buffer for every take, taken out only while answers are handed over (most
        // calls answer no poll).
        self.engine.take_completed_polls_into(&mut self.answered);
        let matched = self.absorb(who, action);
        let delivered = self
            .answered
            .iter()
            .flat_map(|(_, output)| output.messages.iter().flatten());
        debug_assert_eq!(
            matched,
            delivered.count(),
            "Received events matched to long polls"
        );
        if self.answered.is_empty() {
            return;
        }
        let mut answered = std::mem::take(&mut self.answered);
        for (poll, output) in answered.drain(..) {
            match self.polls.remove(&poll) {
                Some(owner) => self.poll_answered(owner, output),
                None => self.user_polls.push((poll, output)),
            }
        }
        put_back(&mut self.answered, answered);
    }

    /// Who made a long poll (the user when it is not a live lane's).
    fn poll_who(&self, poll: PollId) -> Who {
        self.polls
            .get(&poll)
            .filter(|owner| self.lane_pos(owner.lane).is_some())
            .map_or(Who::User, |owner| Who::Lane(owner.lane))
    }

    /// The lane acting, if a lane acts.
    #[inline]
    fn lane_of_mut(&mut self, who: Who) -> Option<&mut Lane> {
        match who {
            Who::Lane(id) => {
                let i = self.lane_pos(id)?;
                Some(&mut self.lanes[i])
            }
            _ => None,
        }
    }

    /// The actor as events name it.
    pub(crate) fn actor_of(&self, who: Who) -> Actor {
        match who {
            Who::Sqs => Actor::Sqs,
            Who::User => Actor::User,
            Who::Lane(id) => self.lane_pos(id).map_or(Actor::User, |i| {
                Actor::Worker(self.lanes[i].name.to_string())
            }),
            Who::Producer(id) => self
                .producers
                .iter()
                .find(|p| p.id == id)
                .map_or(Actor::User, |p| Actor::Producer(p.spec.name.clone())),
            Who::Client(i) => Actor::Client(self.clients[i].clone()),
        }
    }

    /// Takes the engine's events: counts them, tracks who holds what, narrates them. A Received
    /// event that answered a long poll is the poll's maker's; returns how many did.
    fn absorb(&mut self, who: Who, action: Option<&str>) -> usize {
        let mut matched = 0;
        // One buffer for every drain (taken out while its events are read).
        let mut events = std::mem::take(&mut self.drained);
        self.engine.drain_events_into(&mut events);
        // The run of Received events being read: where it ends, and the poll its tail answered.
        let (mut run_end, mut run_poll) = (0, None);
        for (i, event) in events.iter().enumerate() {
            let (who, action) = match &event.kind {
                EventKind::Received { .. } => {
                    if i >= run_end {
                        let (len, poll) = received_run(&events[i..]);
                        (run_end, run_poll) = (i + len, poll);
                    }
                    match run_poll.filter(|&(_, count)| run_end - i <= count) {
                        Some((poll, _)) => {
                            matched += 1;
                            (self.poll_who(poll), Some("ReceiveMessage"))
                        }
                        None => (who, action),
                    }
                }
                // Named only for the narration (`track` does not read who ends a poll).
                EventKind::LongPollAnswered { poll, .. }
                | EventKind::LongPollTimedOut { poll, .. }
                    if self.narrating() =>
                {
                    (self.poll_who(*poll), Some("ReceiveMessage"))
                }
                _ => (who, action),
            };
            self.metrics.count_event(event.at, &event.kind);
            // Narrated before `track`, which forgets the label of a message that is gone.
            if self.narrating() {
                self.narrate_engine_event(who, action, event);
            } else {
                self.events_skipped += 1 + self.skip_implied(event);
            }
            self.track(who, &event.kind);
        }
        events.clear();
        put_back(&mut self.drained, events);
        matched
    }

    /// How many events the engine left out that `event` implies
    /// ([`Engine::record_implied_events`]): the BecameVisible of a message sent without delay.
    fn skip_implied(&self, event: &Event) -> u64 {
        let sent_visible =
            matches!(event.kind, EventKind::Sent { visible_at, .. } if visible_at == event.at);
        u64::from(!self.engine.records_implied_events() && sent_visible)
    }

    /// Narrates one engine event: kept out of [`World::absorb`]'s loop, which a fast-forward
    /// runs unnarrated, so that the loop stays small.
    #[inline(never)]
    fn narrate_engine_event(&mut self, who: Who, action: Option<&str>, event: &Event) {
        let actor = self.actor_of(who);
        let text = narrate::engine_event(&actor, action, event.at, &event.kind, &self.labels);
        self.events.push(WorldEvent {
            at: event.at,
            actor,
            action: action.map(str::to_string),
            engine: Some(event.kind.clone()),
            message_id: event_message(&event.kind),
            text,
        });
    }

    /// Keeps the holder map, labels and lane warnings in step with what SQS did.
    fn track(&mut self, who: Who, kind: &EventKind) {
        match kind {
            EventKind::Received {
                message_id,
                receive_count,
                ..
            } => match who {
                Who::Lane(id) => {
                    let holder = Holder {
                        lane: id,
                        receive_count: *receive_count,
                    };
                    self.holders.insert(*message_id, holder);
                    if let Some(lane) = self.lane_of_mut(who) {
                        lane.deliveries += 1;
                    }
                }
                _ => {
                    self.holders.remove(message_id);
                }
            },
            // Only a message whose lease ended can have a holder: one just sent, delayed,
            // redriven (a new MessageId) or dead-lettered (let go of when it moved) has none.
            EventKind::BecameVisible {
                message_id,
                reason: VisibleReason::VisibilityExpired | VisibleReason::VisibilityTerminated,
                ..
            } => {
                if let Some(holder) = self.holders.remove(message_id) {
                    let lane = self.lane_of_mut(Who::Lane(holder.lane));
                    if let Some(task) = lane.and_then(|l| l.task_mut(message_id)) {
                        task.lease_expired = true;
                    }
                }
            }
            EventKind::Deleted { message_id, .. }
            | EventKind::RetentionExpired { message_id, .. } => {
                self.gone(*message_id);
                self.labels.forget(*message_id);
            }
            // Still stored (in the dead-letter queue) under the same MessageId: keeps its label.
            EventKind::MovedToDeadLetterQueue { message_id, .. } => self.gone(*message_id),
            EventKind::Purged { message_ids, .. } => {
                for &id in message_ids {
                    self.gone(id);
                    self.labels.forget(id);
                }
            }
            EventKind::Redriven {
                old_message_id,
                message_id,
                ..
            } => self.labels.alias(*message_id, old_message_id),
            EventKind::QueueCreated { queue, .. } => {
                self.dead_letter_cache = None;
                self.forget_queue_urls();
                self.refresh_warnings(queue)
            }
            EventKind::QueueAttributesChanged { queue, .. } => {
                self.dead_letter_cache = None;
                self.refresh_warnings(queue)
            }
            EventKind::QueueDeleted { .. } => {
                self.dead_letter_cache = None;
                self.forget_queue_urls();
            }
            _ => {}
        }
    }

    /// Drops the queue URLs the lanes and producers looked up: a queue of that name was deleted
    /// or created since.
    fn forget_queue_urls(&mut self) {
        self.lanes.iter_mut().for_each(|lane| lane.queue_url = None);
        self.producers.iter_mut().for_each(|p| p.queue_url = None);
    }

    /// A new id for a lane, job or producer.
    pub(crate) fn fresh_id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    /// A message left the queue: nobody holds it any more. A manual lane (the user, who sees the
    /// whole world) lets go of it too; an automatic worker keeps working, unaware.
    #[inline]
    fn gone(&mut self, message_id: MessageId) {
        self.holders.remove(&message_id);
        if !self.held_by_hand {
            return;
        }
        for lane in self.lanes.iter_mut().filter(|l| l.manual_jobs()) {
            lane.forget_manual(&message_id);
        }
    }

    /// Adds a world timer (not before now), or moves it if it is scheduled.
    pub(crate) fn schedule(&mut self, at: Millis, timer: Timer) {
        self.timers.schedule(at.max(self.now()), timer);
    }

    /// Whether this timer is scheduled.
    pub(crate) fn has_timer(&self, timer: Timer) -> bool {
        self.timers.has(timer)
    }

    /// Drops a timer if it is scheduled.
    pub(crate) fn cancel(&mut self, timer: Timer) {
        self.timers.cancel(timer);
    }

    /// Drops every timer of a lane.
    pub(crate) fn cancel_lane(&mut self, lane: u64) {
        self.timers.cancel_where(|t| t.lane() == Some(lane));
        self.due_polls.retain(|&(_, l)| l != lane);
    }

    /// Fires a timer, then the polls it asked for at this instant ([`World::due_polls`]). A
    /// worker that finishes a job polls again at once: as a timer scheduled now, the poll would
    /// wait for everything due by now (the engine's work, timers scheduled before it), and run
    /// next when nothing is. So it runs here, without a timer, when nothing else is due by now;
    /// else it becomes the timer it would have been, in the place it took when asked for.
    fn fire_now(&mut self, timer: Timer) {
        self.firing = true;
        if let Timer::Job { job, .. } = timer {
            self.firing_job = Some(job);
        }
        self.fire(timer);
        self.firing_job = None;
        while let Some((order, lane)) = self.due_polls.pop_front() {
            let now = self.now();
            if self.next_item().is_some_and(|(at, _)| at <= now) {
                self.timers.schedule_as(now, order, Timer::Poll { lane });
            } else {
                self.poll(lane);
            }
        }
        self.firing = false;
    }

    /// Schedules a poll of `lane` now: in [`World::due_polls`] while a timer fires.
    pub(crate) fn poll_now(&mut self, lane: u64) {
        if self.firing {
            let order = self.timers.reserve();
            self.due_polls.push_back((order, lane));
        } else {
            self.schedule(self.now(), Timer::Poll { lane });
        }
    }

    /// Whether a poll of `lane` is scheduled (as a timer or due now).
    pub(crate) fn has_poll(&self, lane: u64) -> bool {
        self.has_timer(Timer::Poll { lane }) || self.due_polls.iter().any(|&(_, l)| l == lane)
    }

    fn fire(&mut self, timer: Timer) {
        match timer {
            Timer::Poll { lane } => self.poll(lane),
            Timer::Job { lane, job } => self.job_due(lane, job),
            Timer::Heartbeat { lane, job } => self.heartbeat(lane, job),
            Timer::Produce { producer } => self.produce(producer),
        }
    }

    /// A message's short, readable name: its body when short, else the start of its MessageId.
    /// A message that is gone (deleted) is still named by its body while a worker works on it.
    pub(crate) fn label(&self, message_id: &str) -> String {
        if let Some(label) = self.labels.known(message_id) {
            return label.to_string();
        }
        self.lanes
            .iter()
            .flat_map(|lane| lane.jobs.iter().flat_map(|job| job.tasks.iter()))
            .find(|task| *task.message_id == *message_id)
            .map_or_else(
                || narrate::short_id(message_id),
                |task| narrate::label_for(message_id, &task.body),
            )
    }

    /// Whether events are narrated now (the buffer of undrained events has room). Callers that
    /// build a text for [`World::say`] check this first so that a fast-forward does not pay for
    /// texts nobody reads; [`World::skip`] counts the event instead.
    pub(crate) fn narrating(&self) -> bool {
        self.events.len() < self.event_buffer
    }

    /// Counts an event left out because the buffer is full.
    pub(crate) fn skip(&mut self) {
        self.events_skipped += 1;
    }

    /// How many undrained events are narrated one by one ([`EVENT_BUFFER`] by default; 0: none,
    /// for a replay nobody watches). Past it, until the next [`World::drain_events`], events are
    /// counted, not narrated. The state, the metrics and the ledger never depend on it.
    pub fn set_event_buffer(&mut self, events: usize) {
        self.event_buffer = events;
        self.relabel();
    }

    /// Names the stored messages again if their labels lapsed and the narration resumes (it
    /// resumes only here and on a drain).
    fn relabel(&mut self) {
        if !self.labels.lapsed() || !self.narrating() {
            return;
        }
        let engine = &self.engine;
        let views: Vec<_> = engine
            .queue_names()
            .iter()
            .flat_map(|queue| engine.messages(queue))
            .collect();
        let stored = views
            .iter()
            .filter_map(|m| Some((MessageId::new(&m.message_id)?, m.body.as_str())));
        self.labels.rebuild(stored);
    }

    /// Records a world event that is not an engine event.
    pub(crate) fn push(
        &mut self,
        actor: Actor,
        action: Option<&str>,
        engine: Option<EventKind>,
        message_id: Option<&str>,
        text: String,
    ) {
        if !self.narrating() {
            self.skip();
            return;
        }
        self.events.push(WorldEvent {
            at: self.now(),
            actor,
            action: action.map(str::to_string),
            engine,
            message_id: message_id.map(str::to_string),
            text,
        });
    }

    /// Records a worker-level (or producer-level) event.
    pub(crate) fn say(&mut self, actor: Actor, message_id: Option<&str>, text: String) {
        self.push(actor, None, None, message_id, text);
    }

    /// Events recorded and not drained yet.
    pub(crate) fn events_len(&self) -> usize {
        self.events.len()
    }

    /// World timers scheduled.
    pub(crate) fn timers_len(&self) -> usize {
        self.timers.len()
    }

    /// What happened since the last call, in order.
    /// When more than the event buffer ([`World::set_event_buffer`]) happened, the last one
    /// says how many more were counted but not narrated.
    pub fn drain_events(&mut self) -> Vec<WorldEvent> {
        self.events_drained = self.events_total();
        let skipped = std::mem::take(&mut self.events_skipped);
        if skipped > 0 {
            self.events.push(WorldEvent {
                at: self.now(),
                actor: Actor::Sqs,
                action: None,
                engine: None,
                message_id: None,
                text: format!(
                    "Fast-forward: {skipped} more events happened, counted in the charts and counters but not narrated one by one"
                ),
            });
        }
        let events = std::mem::take(&mut self.events);
        self.relabel();
        events
    }

    /// How many events have happened since time 0, narrated or not.
    fn events_total(&self) -> u64 {
        self.events_drained + self.events.len() as u64 + self.events_skipped
    }

    /// The instant through which a fast-forward to now may run without narrating (see
    /// [`World::set_event_buffer`]), and still narrate after it what a run narrated from time 0
    /// last told: the latest [`NARRATED_TAIL`](crate::NARRATED_TAIL) events, and everything since
    /// the latest receive of each message in flight (what hides it, and why). None: narrate from
    /// time 0, a replay of the scenario as it loads.
    pub fn narration_start(&self) -> Option<Millis> {
        let tail = self.tail.start(self.events_total())?;
        match self.engine.earliest_receive_in_flight() {
            Some(received) if received <= tail => received.checked_sub(1),
            _ => Some(tail),
        }
    }

    /// The engine, read-only (queues, messages, attributes).
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The engine, for the script runner's calls (see [`sqs_engine::script::Driver`]).
    pub(crate) fn engine_mut(&mut self) -> &mut Engine {
        &mut self.engine
    }

    /// The worker lanes, in the order they were added.
    pub fn workers(&self) -> Vec<WorkerView> {
        self.lanes.iter().map(Lane::view).collect()
    }

    /// The worker holding this message, if any.
    pub fn holder_of(&self, message_id: &str) -> Option<&str> {
        let holder = self.holders.get(&MessageId::new(message_id)?)?;
        let lane = &self.lanes[self.lane_pos(holder.lane)?];
        Some(&lane.name)
    }

    /// The ledger of side effects.
    pub fn ledger(&self) -> &Ledger {
        &self.ledger
    }

    /// Counters and samples.
    pub fn metrics(&self) -> &Metrics {
        &self.metrics
    }

    /// Every step run so far with its time (scenario steps and user actions).
    pub fn log(&self) -> &[LoggedStep] {
        &self.log
    }

    /// The user's actions only (what [`World::apply`] ran), for [`World::replay`].
    pub fn actions(&self) -> &[LoggedStep] {
        &self.actions
    }

    /// The user's long polls answered since the last call (the script runner awaits them).
    pub fn take_completed_polls(&mut self) -> Vec<(PollId, ReceiveMessageOutput)> {
        std::mem::take(&mut self.user_polls)
    }
}

/// The URL of queue `name`, looked up once and kept in `cache` (a lane's or a producer's) until
/// a queue is created or deleted ([`World::forget_queue_urls`]): each poll, job and send needs
/// it, and a lookup by name walks the engine's map of names.
#[inline]
pub(crate) fn cached_url(
    engine: &Engine,
    cache: &mut Option<QueueUrl>,
    name: &str,
) -> Option<QueueUrl> {
    if cache.is_none() {
        *cache = engine.queue_url(name);
    }
    cache.clone()
}

/// Puts a buffer taken out of `slot` (`mem::take`) back. The empty Vec left there owns no
/// memory and is forgotten rather than dropped. One a nested call put there instead is dropped,
/// as an assignment would.
fn put_back<T>(slot: &mut Vec<T>, buffer: Vec<T>) {
    if slot.capacity() == 0 {
        std::mem::forget(std::mem::replace(slot, buffer));
    } else {
        *slot = buffer;
    }
}

/// `{key: name}`, what a sim action answers (`{"worker": "Worker A"}`), for more members to be
/// added to.
pub(crate) fn named(key: &'static str, name: &str) -> Output {
    let mut out = Output::default();
    out.field(key, name);
    out
}

/// `{"pending": poll}`, what a call answers while its long poll waits.
pub(crate) fn pending(poll: PollId) -> Value {
    let mut out = Output::default();
    out.field("pending", &poll);
    out.into()
}

/// A response as the JSON AWS answers.
fn response_json(response: &Response) -> Value {
    response.to_json()
}

/// The bodies a SendMessageBatch stores, with their batch entry Id (SendMessage's label is taken
/// in [`World::call`] without them). A list, not a map: ten entries at most.
fn sent_bodies(input: &SendMessageBatchInput) -> Vec<(String, String)> {
    input
        .entries
        .iter()
        .map(|e| (e.id.clone(), e.message_body.to_string()))
        .collect()
}

/// The MessageId an engine event concerns.
fn event_message(kind: &EventKind) -> Option<String> {
    match kind {
        EventKind::Sent { message_id, .. }
        | EventKind::Deduplicated { message_id, .. }
        | EventKind::BecameVisible { message_id, .. }
        | EventKind::Received { message_id, .. }
        | EventKind::VisibilityChanged { message_id, .. }
        | EventKind::Deleted { message_id, .. }
        | EventKind::MovedToDeadLetterQueue { message_id, .. }
        | EventKind::Redriven { message_id, .. }
        | EventKind::RetentionExpired { message_id, .. } => Some(message_id.to_string()),
        _ => None,
    }
}

/// The run of Received events that starts `events`: its length, and the long poll (with its
/// count) whose LongPollAnswered follows it. The engine emits the Received events of a poll's
/// answer together, right before its LongPollAnswered: the run's last `count` events are that
/// poll's, any before them a direct receive's.
fn received_run(events: &[Event]) -> (usize, Option<(PollId, usize)>) {
    let len = events
        .iter()
        .position(|e| !matches!(e.kind, EventKind::Received { .. }))
        .unwrap_or(events.len());
    match events.get(len).map(|e| &e.kind) {
        Some(&EventKind::LongPollAnswered { poll, count, .. }) => (len, Some((poll, count))),
        _ => (len, None),
    }
}
