//! The engine the server shares between its connections: one [`Engine`] with the [`Clock`] that
//! drives it and the long polls it has left pending, behind one lock. The engine is fast (a call
//! takes microseconds), so each request holds the lock only for its call; a long poll waits
//! outside it, on a channel its answer arrives by.
//!
//! Every change goes through [`State`]'s methods: [`State::call`] (a client's, the page's and the
//! declared queues' calls), [`State::change_clock`] and [`State::reset`]. With a data directory
//! ([`Store`]), each accepted call is appended to the journal there, under the lock (so in the
//! engine's order), and its answer is sent once the record is durable: every [`Outcome`]
//! carries that wait.

use crate::clock::Clock;
use crate::declared::Declared;
use crate::journal::{Caller, Journal};
use crate::store::commit::Durable;
use crate::store::journal::Entry;
use crate::store::snapshot::Snapshot;
use crate::store::{Fsync, Store, StoreError};
use crate::wire::WireError;
use sqs_engine::api::ReceiveMessageOutput;
use sqs_engine::{Engine, Millis, Namespace, PollId, Reply, Request, Response, SqsError};
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};
use tokio::sync::{oneshot, Notify};

/// With a data directory, virtual time is recorded at least this often (in virtual ms) while it
/// runs, so a restart resumes the clock about where it stopped even when nothing was called.
const TICK_EVERY: Millis = 1_000;

/// How often the timer task looks at the clock when a data directory records it.
const TICK_WALL: Duration = Duration::from_secs(1);

/// What a call answers: now, or later (a long poll that found nothing yet); either way once
/// what it depends on is durable (`None`: no data directory).
pub enum Outcome {
    /// Answered now.
    Done(Result<Response, SqsError>, Option<Durable>),
    /// A long poll: its answer arrives on this channel when a message becomes receivable or its
    /// wait ends (in virtual time). A reset drops the sender.
    Waiting(oneshot::Receiver<(ReceiveMessageOutput, Option<Durable>)>),
}

impl Outcome {
    /// The answer, once it may be sent. A data directory that cannot be written answers
    /// `InternalFailure` (the call may or may not have taken effect, as SQS says of a 500).
    pub async fn answer(self) -> Result<Result<Response, SqsError>, WireError> {
        let (result, durable) = match self {
            Outcome::Done(result, durable) => (result, durable),
            // A reset while waiting answers with no messages.
            Outcome::Waiting(answer) => {
                let (output, durable) = answer.await.unwrap_or_default();
                (Ok(Response::ReceiveMessage(output)), durable)
            }
        };
        if let Some(durable) = durable {
            durable.wait().await.map_err(|reason| {
                WireError::internal(format!("The data directory could not be written: {reason}"))
            })?;
        }
        Ok(result)
    }
}

/// The engine, its clock, the long polls waiting for an answer and the record of the calls.
pub struct State {
    engine: Engine,
    journal: Journal,
    clock: Clock,
    waiting: HashMap<PollId, oneshot::Sender<(ReceiveMessageOutput, Option<Durable>)>>,
    /// Set by a clock change or a reset: the timer task must recompute its wake-up.
    clock_changed: bool,
    /// Seeds the next engine (each reset draws a new one, so no receipt handle of before the
    /// reset is valid after it).
    seed: u64,
    /// The calls that create the declared queues ([`crate::declared`]), made again by a reset.
    declared: Option<(Caller, Vec<Request>)>,
    /// The data directory, if the server has one.
    store: Option<Store>,
}

impl State {
    fn new(seed: u64, clock: Clock) -> Self {
        State {
            engine: fresh_engine(seed),
            journal: Journal::new(None),
            clock,
            waiting: HashMap::new(),
            clock_changed: false,
            seed,
            declared: None,
            store: None,
        }
    }

    /// Creates the queues `declared` names, now and after every reset; on a refusal, what was
    /// refused (the engine is then left as it is: the server does not start).
    pub fn declare(&mut self, declared: &Declared) -> Result<(), String> {
        let calls = declared.apply(self)?;
        self.declared = Some((declared.caller(), calls));
        Ok(())
    }

    /// Brings the engine's time up to the clock's, answering whatever long polls that ends.
    /// With a data directory, time that delivered messages to long polls (or a second of it)
    /// is recorded first, so a replay delivers them too.
    fn sync(&mut self, at: Instant) {
        let now = self.clock.now(at);
        if now > self.engine.now() {
            self.engine.advance_to(now);
        }
        let answered = self.engine.take_completed_polls();
        if let Some(store) = &mut self.store {
            let delivered = answered
                .iter()
                .any(|(_, output)| output.messages.as_ref().is_some_and(|m| !m.is_empty()));
            if delivered || now >= store.last_at() + TICK_EVERY {
                store.append(&Entry::Tick {
                    at: self.engine.now(),
                });
            }
        }
        self.hand_over(answered);
    }

    /// Hands the long polls the engine answered to their waiting requests.
    fn deliver(&mut self) {
        let answered = self.engine.take_completed_polls();
        self.hand_over(answered);
    }

    /// Hands long polls' answers to their waiting requests, each to be sent once everything
    /// recorded so far is durable.
    fn hand_over(&mut self, answered: Vec<(PollId, ReceiveMessageOutput)>) {
        for (poll, output) in answered {
            if let Some(reply) = self.waiting.remove(&poll) {
                let durable = self.store.as_ref().map(Store::latest);
                // A client that hung up is gone; its messages stay in flight, as on AWS.
                let _ = reply.send((output, durable));
            }
        }
    }

    /// The wait for a call's answer: for its own record if it was accepted, else for what was
    /// recorded before it (the answer may depend on it).
    fn record(
        &mut self,
        caller: &Caller,
        at: Millis,
        (namespace, request): (&Namespace, &Request),
        accepted: bool,
    ) -> Option<Durable> {
        let store = self.store.as_mut()?;
        Some(if accepted {
            store.append_call(at, caller, namespace, request)
        } else {
            store.latest()
        })
    }

    /// Runs one SQS action at the current virtual time, for `caller`, and records it.
    pub fn call(&mut self, caller: &Caller, request: Request) -> Outcome {
        self.call_in(caller, &Namespace::DEFAULT, request)
    }

    /// [`State::call`] in the engine's `namespace` (an account and region).
    pub fn call_in(&mut self, caller: &Caller, namespace: &Namespace, request: Request) -> Outcome {
        self.sync(Instant::now());
        let (at, copy) = (self.engine.now(), request.clone());
        let reply = self.engine.call_in(namespace, request);
        let accepted = !matches!(reply, Reply::Done(Err(_)));
        let durable = self.record(caller, at, (namespace, &copy), accepted);
        self.journal.record(at, caller, (namespace, copy), accepted);
        let outcome = match reply {
            Reply::Done(result) => Outcome::Done(result, durable),
            Reply::Pending(poll) => {
                let (reply, answer) = oneshot::channel();
                self.waiting.insert(poll, reply);
                Outcome::Waiting(answer)
            }
        };
        self.deliver();
        if let Some(store) = self.store.as_mut().filter(|store| store.snapshot_due()) {
            store.snapshot(&self.engine, self.seed);
        }
        if self.journal.compact_due() {
            self.journal.compact(&self.engine);
        }
        outcome
    }

    /// The engine, synced to the clock, to read from.
    pub fn engine(&mut self) -> &Engine {
        self.sync(Instant::now());
        &self.engine
    }

    /// The live view's record of this run: a snapshot and the calls after it.
    pub fn journal(&self) -> &Journal {
        &self.journal
    }

    /// The seed of this run's engine: a World on it (from the journal's snapshot, if it has
    /// one) that replays the journal is in the engine's state. A reset draws another one.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The clock.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// Changes the clock (pause, speed, advance) and does the engine's work due by its new time.
    pub fn change_clock(&mut self, change: impl FnOnce(&mut Clock, Instant)) {
        let at = Instant::now();
        self.sync(at);
        change(&mut self.clock, at);
        self.sync(at);
        self.clock_changed = true;
    }

    /// How many long polls wait.
    pub fn waiting_polls(&self) -> usize {
        self.waiting.len()
    }

    /// A new engine at virtual time 0 with only the declared queues, and a new record; waiting
    /// long polls are answered with no messages. With a data directory, its files start again
    /// from the empty engine: the wait returns once they have (and the declared queues are
    /// recorded).
    pub fn reset(&mut self) -> Option<Durable> {
        self.seed = self.seed.wrapping_add(1);
        self.engine = fresh_engine(self.seed);
        self.journal = Journal::new(None);
        self.waiting.clear();
        self.clock.reset(Instant::now());
        self.clock_changed = true;
        if let Some(store) = &mut self.store {
            // Its own wait is covered by the one below: records are durable in order.
            let _ = store.reset(&self.engine, self.seed);
        }
        if let Some((caller, calls)) = self.declared.clone() {
            for request in calls {
                // Accepted at the start, so accepted again by an engine in the same state.
                self.call(&caller, request);
            }
        }
        self.store.as_ref().map(Store::latest)
    }

    /// The data directory, if there is one.
    pub fn store(&self) -> Option<&Store> {
        self.store.as_ref()
    }

    /// When the engine next has work to do, as a wall instant (`None`: nothing scheduled, or
    /// the clock is paused).
    fn next_wake(&self) -> Option<Instant> {
        let due: Millis = self.engine.next_deadline()?;
        self.clock.wall_at(due)
    }
}

fn fresh_engine(seed: u64) -> Engine {
    let mut engine = Engine::new(seed);
    // Nobody reads the events here: recording them would only grow memory.
    engine.record_events(false);
    engine
}

/// The [`State`] shared by all connections, and the signal that wakes the timer task when a
/// call or a clock change may have moved the engine's next deadline.
pub struct Shared {
    state: Mutex<State>,
    changed: Notify,
}

impl Shared {
    /// An empty engine seeded with `seed`, its clock starting now at `speed`.
    pub fn new(seed: u64, speed: f64) -> Self {
        Shared {
            state: Mutex::new(State::new(seed, Clock::new(speed, Instant::now()))),
            changed: Notify::new(),
        }
    }

    /// The engine kept in data directory `dir`: recovered from it (the clock resuming at the
    /// virtual time where it stopped), or, for a new directory, an empty one seeded with `seed`;
    /// with what it found, to print.
    pub fn open(
        dir: &Path,
        fsync: Fsync,
        seed: u64,
        speed: f64,
    ) -> Result<(Self, String), StoreError> {
        let new = Snapshot {
            seed,
            engine: fresh_engine(seed),
        };
        let (store, mut recovered) = Store::open(dir, fsync, new)?;
        let report = crate::store::report(dir, fsync, &recovered);
        for note in &recovered.notes {
            tracing::warn!("data directory: {note}");
        }
        let engine = std::mem::replace(&mut recovered.engine, Engine::new(0));
        let at = Instant::now();
        let mut clock = Clock::new(speed, at);
        clock.advance(engine.now(), at);
        let mut state = State::new(recovered.seed, clock);
        // The page's copy starts from the engine as recovered, not from an empty one.
        state.journal = Journal::new(Some(&engine));
        state.engine = engine;
        state.store = Some(store);
        let shared = Shared {
            state: Mutex::new(state),
            changed: Notify::new(),
        };
        Ok((shared, report))
    }

    /// Runs `f` on the state, then wakes the timer task if the engine's next deadline came
    /// sooner or the clock changed (most calls move neither).
    pub fn with<T>(&self, f: impl FnOnce(&mut State) -> T) -> T {
        let mut state = self.lock();
        let before = state.engine.next_deadline();
        let result = f(&mut state);
        let after = state.engine.next_deadline();
        let sooner = after.is_some_and(|after| before.is_none_or(|before| after < before));
        if sooner || std::mem::take(&mut state.clock_changed) {
            self.changed.notify_one();
        }
        result
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock leaves a consistent engine (a failed call changes
        // nothing), so a poisoned lock is taken as it is.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The timer task: moves the engine along with the clock, waking at each deadline (visibility
    /// and delay ends, long-poll timeouts, move-task ticks) or when something changed. Runs
    /// forever.
    pub async fn drive_clock(&self) {
        loop {
            let wake = {
                let mut state = self.lock();
                state.sync(Instant::now());
                let next = state.next_wake();
                if state.store.is_some() && !state.clock.paused() {
                    // A data directory records the clock's progress ([`TICK_EVERY`]).
                    let tick = Instant::now() + TICK_WALL;
                    Some(next.map_or(tick, |next| next.min(tick)))
                } else {
                    next
                }
            };
            match wake {
                Some(at) => {
                    tokio::select! {
                        _ = tokio::time::sleep_until(at.into()) => {}
                        _ = self.changed.notified() => {}
                    }
                }
                None => self.changed.notified().await,
            }
        }
    }
}
