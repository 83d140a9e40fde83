//! The world: one engine, its producers and workers, the ledger and the metrics, on one virtual
//! clock. Everything random draws from the world's seed.
//!
//! The clock loop ([`World::advance_to`]) takes, one at a time, the earliest of: the engine's
//! next deadline, a world timer (a worker's next poll, job step or heartbeat; a producer's next
//! send) and a scheduled scenario step. At equal times the engine goes first (a visibility
//! timeout that ends at 12:00:30 makes the message receivable by a poll at 12:00:30), then
//! timers, then scenario steps — the order a user action at that instant would see, which is
//! what makes replaying the log give the same world.
//!
//! The world holds parts that own their state behind private fields: the engine, the
//! [`Scheduler`] (timers and scenario steps), the [`Lanes`], the [`Producers`], the
//! [`Metrics`], the [`Ledger`] and the [`Narration`] (the presentation side: events in plain
//! words, which nothing else reads). This module's children are the world's work on them:
//! `consume` (workers polling and processing), `manual` (the user's own hands), `faults`,
//! `producing`, `client` (calls of clients without a lane), `gauges` (samples and summary)
//! and `driver` (the `sqs-sim run` driver).

use crate::actor::{Actor, Who};
use crate::command::{LoggedStep, SimAction, Step};
use crate::lane::{Lane, Lanes, Life};
use crate::ledger::Ledger;
use crate::metrics::Metrics;
use crate::narrate;
use crate::narration::{Narration, WorldEvent};
use crate::producer::Producers;
use crate::scenario::{self, Scenario, StepKind};
use crate::scheduler::Scheduler;
use crate::timers::Timer;
use crate::worker::WorkerView;
use rustc_hash::FxHashMap;
use serde_json::Value;
use sqs_engine::api::{
    MessageId, Output, ReceiveMessageOutput, Response, SendMessageBatchInput, ToJson,
};
use sqs_engine::event::VisibleReason;
use sqs_engine::script::{error_json, Bindings};
use sqs_engine::{Engine, Event, EventKind, Millis, Namespace, PollId, Reply, Request};

mod client;
mod consume;
mod driver;
mod faults;
mod gauges;
mod manual;
mod producing;
mod resume;

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
    seed: u64,
    engine: Engine,
    lanes: Lanes,
    /// Ids for lanes, jobs and producers.
    next_id: u64,
    /// MessageId -> who received it last, while it is in flight.
    holders: FxHashMap<MessageId, Holder>,
    producers: Producers,
    /// The clients of their own that have called without being consumers, by first call
    /// ([`SimAction::Call`](crate::SimAction::Call)).
    clients: Vec<String>,
    scheduler: Scheduler,
    /// Named results of scenario steps (`as`), for `${NAME.path}`.
    bindings: Bindings,
    polls: FxHashMap<PollId, PollOwner>,
    /// The user's long polls answered and not yet taken (by the script runner).
    user_polls: Vec<(PollId, ReceiveMessageOutput)>,
    ledger: Ledger,
    metrics: Metrics,
    log: Vec<LoggedStep>,
    actions: Vec<LoggedStep>,
    narration: Narration,
    /// The dead-letter queues' names, cached for the samples (cleared when a queue is created,
    /// deleted or changes its attributes).
    dead_letter_cache: Option<Vec<String>>,
    /// The buffer the engine's events are drained into (empty between two calls).
    drained: Vec<Event>,
    /// The buffer the engine's answered long polls are taken into (empty between two calls).
    answered: Vec<(PollId, ReceiveMessageOutput)>,
    /// Whether a lane has ever held messages by hand (manual mode): until one has, a message
    /// leaving the queue has no manual job to leave.
    held_by_hand: bool,
    /// The account and region whose queues the world shows and counts ([`World::focus`]).
    focus: Namespace,
}

impl World {
    /// An empty world at time 0.
    pub fn new(seed: u64) -> Self {
        World::with_engine(seed, Engine::new(seed))
    }

    /// A world around `engine`, its queues and messages as they are, with no lanes, producers
    /// or scenario steps yet; everything random draws from `seed`.
    pub(crate) fn with_engine(seed: u64, mut engine: Engine) -> Self {
        // The world counts, narrates and tracks holders from the engine's events.
        engine.record_events(true);
        World {
            seed,
            engine,
            lanes: Lanes::default(),
            next_id: 1,
            holders: FxHashMap::default(),
            producers: Producers::default(),
            clients: Vec::new(),
            scheduler: Scheduler::default(),
            bindings: Bindings::default(),
            polls: FxHashMap::default(),
            user_polls: Vec::new(),
            ledger: Ledger::default(),
            metrics: Metrics::new(),
            log: Vec::new(),
            actions: Vec::new(),
            narration: Narration::default(),
            dead_letter_cache: None,
            drained: Vec::new(),
            answered: Vec::new(),
            held_by_hand: false,
            focus: Namespace::DEFAULT,
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
        world.scheduler.set_steps(later);
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
                    if let Some(timer) = self.scheduler.pop() {
                        self.fire_now(timer);
                    }
                }
                Next::Step => {
                    if let Some(step) = self.scheduler.take_step() {
                        if let Err(e) = self.run_scenario_step(step.value()) {
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
        consider(self.scheduler.first_at(), Next::Timer);
        consider(self.scheduler.next_step_at(), Next::Step);
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
            self.narration.labels_mut().lapse();
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
            self.narration.skip(1);
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
                    self.narration
                        .labels_mut()
                        .learn_label(output.message_id, label);
                }
                (_, Some(bodies), Response::SendMessageBatch(output)) => {
                    for stored in &output.successful {
                        // The last entry with the Id, as a map collected from the entries
                        // would hold.
                        if let Some((_, body)) =
                            bodies.iter().rev().find(|(id, _)| *id == stored.id)
                        {
                            self.narration.labels_mut().learn(stored.message_id, body);
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
            self.narration.leave(self.now());
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
                .name_of(id)
                .map_or(Actor::User, |name| Actor::Producer(name.to_string())),
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
                self.narration.skip(1 + self.skip_implied(event));
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
        let labels = self.narration.labels();
        let text = narrate::engine_event(&actor, action, event.at, &event.kind, labels);
        self.narration.tell(WorldEvent {
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
                self.narration.labels_mut().forget(*message_id);
            }
            // Still stored (in the dead-letter queue) under the same MessageId: keeps its label.
            EventKind::MovedToDeadLetterQueue { message_id, .. } => self.gone(*message_id),
            EventKind::Purged { message_ids, .. } => {
                for &id in message_ids {
                    self.gone(id);
                    self.narration.labels_mut().forget(id);
                }
            }
            EventKind::Redriven {
                old_message_id,
                message_id,
                ..
            } => self
                .narration
                .labels_mut()
                .alias(*message_id, old_message_id),
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
        self.producers.forget_queue_urls();
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
        self.scheduler.schedule(at.max(self.now()), timer);
    }

    /// Drops a timer if it is scheduled.
    pub(crate) fn cancel(&mut self, timer: Timer) {
        self.scheduler.cancel(timer);
    }

    /// Drops every timer of a lane.
    pub(crate) fn cancel_lane(&mut self, lane: u64) {
        self.scheduler.cancel_lane(lane);
    }

    /// Fires a timer, then the polls it asked for at this instant ([`Scheduler::next_due_poll`]). A
    /// worker that finishes a job polls again at once: as a timer scheduled now, the poll would
    /// wait for everything due by now (the engine's work, timers scheduled before it), and run
    /// next when nothing is. So it runs here, without a timer, when nothing else is due by now;
    /// else it becomes the timer it would have been, in the place it took when asked for.
    fn fire_now(&mut self, timer: Timer) {
        self.scheduler.start_firing(timer);
        self.fire(timer);
        self.scheduler.fired();
        while let Some((order, lane)) = self.scheduler.next_due_poll() {
            let now = self.now();
            if self.next_item().is_some_and(|(at, _)| at <= now) {
                self.scheduler.schedule_as(now, order, Timer::Poll { lane });
            } else {
                self.poll(lane);
            }
        }
        self.scheduler.stop_firing();
    }

    /// Schedules a poll of `lane` now: in [`Scheduler::next_due_poll`] while a timer fires.
    pub(crate) fn poll_now(&mut self, lane: u64) {
        self.scheduler.poll_now(self.now(), lane);
    }

    /// Whether a poll of `lane` is scheduled (as a timer or due now).
    pub(crate) fn has_poll(&self, lane: u64) -> bool {
        self.scheduler.has_poll(lane)
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
        if let Some(label) = self.narration.labels().known(message_id) {
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
        self.narration.narrating()
    }

    /// Counts an event left out because the buffer is full.
    pub(crate) fn skip(&mut self) {
        self.narration.skip(1);
    }

    /// How many undrained events are narrated one by one ([`EVENT_BUFFER`](crate::EVENT_BUFFER) by default; 0: none,
    /// for a replay nobody watches). Past it, until the next [`World::drain_events`], events are
    /// counted, not narrated. The state, the metrics and the ledger never depend on it.
    pub fn set_event_buffer(&mut self, events: usize) {
        self.narration.set_buffer(events);
        self.relabel();
    }

    /// Names the stored messages again if their labels lapsed and the narration resumes (it
    /// resumes only here and on a drain).
    fn relabel(&mut self) {
        if !self.narration.labels().lapsed() || !self.narrating() {
            return;
        }
        let stored = self.engine.stored_bodies();
        self.narration.labels_mut().rebuild(stored);
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
        self.narration.tell(WorldEvent {
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
        self.narration.len()
    }

    /// World timers scheduled.
    pub(crate) fn timers_len(&self) -> usize {
        self.scheduler.len()
    }

    /// What happened since the last call, in order.
    /// When more than the event buffer ([`World::set_event_buffer`]) happened, the last one
    /// says how many more were counted but not narrated.
    pub fn drain_events(&mut self) -> Vec<WorldEvent> {
        let events = self.narration.drain(self.now());
        self.relabel();
        events
    }

    /// The instant through which a fast-forward to now may run without narrating (see
    /// [`World::set_event_buffer`]), and still narrate after it what a run narrated from time 0
    /// last told: the latest [`NARRATED_TAIL`](crate::NARRATED_TAIL) events, and everything since
    /// the latest receive of each message in flight (what hides it, and why). None: narrate from
    /// time 0, a replay of the scenario as it loads.
    pub fn narration_start(&self) -> Option<Millis> {
        let tail = self.narration.tail_start()?;
        match self.engine.earliest_receive_in_flight() {
            Some(received) if received <= tail => received.checked_sub(1),
            _ => Some(tail),
        }
    }

    /// The engine, read-only (queues, messages, attributes).
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The account and region whose queues the world shows (the stage, the depth samples, the
    /// counts by state): the engine's default namespace, where scenarios and the page's own
    /// controls create their queues, while it holds a queue. Clients of `sqs-sim serve` call in
    /// the region they sign for: when the namespace shown holds no queue, the world shows the
    /// default namespace if it holds one, else the namespace of the client that has just
    /// called if it holds one (`World::follow`), so that an application set to another region
    /// than the server's shows its queues.
    pub fn focus(&self) -> &Namespace {
        &self.focus
    }

    /// Moves [`World::focus`] to the default namespace or to `namespace` (a client's, or the
    /// first that holds queues in a state resumed) when it holds no queue and one of them does.
    pub(crate) fn follow(&mut self, namespace: &Namespace) {
        let holds = |n: &Namespace| self.engine.has_queues_in(n);
        if holds(&self.focus) {
            return;
        }
        let shown = [&Namespace::DEFAULT, namespace]
            .into_iter()
            .find(|n| holds(n));
        if let Some(shown) = shown {
            self.focus = shown.clone();
            self.dead_letter_cache = None;
        }
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
