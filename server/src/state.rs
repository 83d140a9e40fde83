//! The engine the server shares between its connections: one [`Engine`] with the [`Clock`] that
//! drives it and the long polls it has left pending, behind one lock. The engine is fast (a call
//! takes microseconds), so each request holds the lock only for its call; a long poll waits
//! outside it, on a channel its answer arrives by.
//!
//! Every change goes through [`State`]'s methods: [`State::call`] (a client's, the page's and the
//! declared queues' calls), [`State::change_clock`] and [`State::reset`]. A store that keeps the
//! state across restarts hooks in there: each runs under the lock, before its answer is sent.

use crate::clock::Clock;
use crate::declared::Declared;
use crate::journal::{Caller, Journal};
use sqs_engine::api::ReceiveMessageOutput;
use sqs_engine::{Engine, Millis, PollId, Reply, Request, Response, SqsError};
use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};
use std::time::Instant;
use tokio::sync::{oneshot, Notify};

/// What a call answers: now, or later (a long poll that found nothing yet).
pub enum Outcome {
    /// Answered now.
    Done(Result<Response, SqsError>),
    /// A long poll: its answer arrives on this channel when a message becomes receivable or its
    /// wait ends (in virtual time). A reset drops the sender.
    Waiting(oneshot::Receiver<ReceiveMessageOutput>),
}

/// The engine, its clock, the long polls waiting for an answer and the record of the calls.
pub struct State {
    engine: Engine,
    journal: Journal,
    clock: Clock,
    waiting: HashMap<PollId, oneshot::Sender<ReceiveMessageOutput>>,
    /// Set by a clock change or a reset: the timer task must recompute its wake-up.
    clock_changed: bool,
    /// Seeds the next engine (each reset draws a new one, so no receipt handle of before the
    /// reset is valid after it).
    seed: u64,
    /// The calls that create the declared queues ([`crate::declared`]), made again by a reset.
    declared: Option<(Caller, Vec<Request>)>,
}

impl State {
    fn new(seed: u64, clock: Clock) -> Self {
        State {
            engine: fresh_engine(seed),
            journal: Journal::default(),
            clock,
            waiting: HashMap::new(),
            clock_changed: false,
            seed,
            declared: None,
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
    fn sync(&mut self, at: Instant) {
        let now = self.clock.now(at);
        if now > self.engine.now() {
            self.engine.advance_to(now);
        }
        self.deliver();
    }

    /// Hands the long polls the engine answered to their waiting requests.
    fn deliver(&mut self) {
        for (poll, output) in self.engine.take_completed_polls() {
            if let Some(reply) = self.waiting.remove(&poll) {
                // A client that hung up is gone; its messages stay in flight, as on AWS.
                let _ = reply.send(output);
            }
        }
    }

    /// Runs one SQS action at the current virtual time, for `caller`, and records it.
    pub fn call(&mut self, caller: &Caller, request: Request) -> Outcome {
        self.sync(Instant::now());
        let (at, copy) = (self.engine.now(), request.clone());
        let reply = self.engine.call(request);
        let accepted = !matches!(reply, Reply::Done(Err(_)));
        self.journal.record(at, caller, copy, accepted);
        let outcome = match reply {
            Reply::Done(result) => Outcome::Done(result),
            Reply::Pending(poll) => {
                let (reply, answer) = oneshot::channel();
                self.waiting.insert(poll, reply);
                Outcome::Waiting(answer)
            }
        };
        self.deliver();
        outcome
    }

    /// The engine, synced to the clock, to read from.
    pub fn engine(&mut self) -> &Engine {
        self.sync(Instant::now());
        &self.engine
    }

    /// The calls recorded in this run.
    pub fn journal(&self) -> &Journal {
        &self.journal
    }

    /// The seed of this run's engine: a World on it that replays the journal is in the
    /// engine's state. A new run (a reset, a restart) has another one.
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
    /// long polls are answered with no messages.
    pub fn reset(&mut self) {
        self.seed = self.seed.wrapping_add(1);
        self.engine = fresh_engine(self.seed);
        self.journal = Journal::default();
        self.waiting.clear();
        self.clock.reset(Instant::now());
        self.clock_changed = true;
        if let Some((caller, calls)) = self.declared.clone() {
            for request in calls {
                // Accepted at the start, so accepted again by an engine in the same state.
                self.call(&caller, request);
            }
        }
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
                state.next_wake()
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
