//! The engine: queues, messages and timers, driven by SQS actions and virtual time.
//!
//! CONTRACT (other crates build against these signatures; keep them):
//! * `Engine::new(seed)` / `Engine::with_knobs(seed, knobs)`.
//! * `now()`, `advance_to(t)` (t >= now; does all work due at or before t, in time order),
//!   `next_deadline()` (earliest instant at which `advance_to` would do work; `None` if nothing is
//!   scheduled). It may change after any `call` or `advance_to`.
//! * `call(request) -> Reply` at the current time. A failed call changes nothing.
//! * `take_completed_polls()`: long polls answered since the last call of it, in answer order.
//! * `drain_events()`: events since the last call of it, in order.
//! * read-only inspection: `queue_names()`, `queue_url(name)`, `queue_arn(name)`,
//!   `messages(name)`, `attributes(name)` (what GetQueueAttributes(All) would answer).

use crate::api::{Attributes, ReceiveMessageOutput, Request, Response};
use crate::error::SqsError;
use crate::event::Event;
use crate::view::MessageView;
use crate::Millis;
use serde::{Deserialize, Serialize};

/// Identifies a long poll left pending by [`Engine::call`].
pub type PollId = u64;

/// The answer to [`Engine::call`].
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// Answered now.
    Done(Result<Response, SqsError>),
    /// A ReceiveMessage with a wait found nothing yet; its answer comes from
    /// [`Engine::take_completed_polls`] when a message becomes receivable or the wait ends.
    Pending(PollId),
}

/// Realism knobs. All off by default, which is the strict, documented behaviour of the semantics
/// reference (section 13); turning one on makes the engine show what AWS may do.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Knobs {
    /// Standard queues: probability (0..=1) that a received message is also left receivable,
    /// so a second consumer can get it while the first still holds it (at-least-once delivery).
    pub duplicate_delivery: f64,
    /// Standard queues: a short poll samples a subset of servers and may return fewer messages
    /// than are available, or none.
    pub short_poll_sampling: bool,
    /// Standard queues: receive order is only best-effort (shuffled by the seed).
    pub best_effort_ordering: bool,
}

/// The SQS model. See the crate documentation.
#[derive(Clone, Debug)]
pub struct Engine {
    now: Millis,
}

impl Engine {
    /// An engine at time 0 with no queues, the knobs off, drawing randomness from `seed`.
    pub fn new(seed: u64) -> Self {
        Self::with_knobs(seed, Knobs::default())
    }

    /// An engine with realism knobs.
    pub fn with_knobs(_seed: u64, _knobs: Knobs) -> Self {
        Engine { now: 0 }
    }

    /// The current virtual time.
    pub fn now(&self) -> Millis {
        self.now
    }

    /// Moves the clock to `t`, doing all work due at or before `t` in time order.
    pub fn advance_to(&mut self, t: Millis) {
        self.now = self.now.max(t);
    }

    /// The earliest instant at which [`Engine::advance_to`] has work to do.
    pub fn next_deadline(&self) -> Option<Millis> {
        None
    }

    /// Runs one SQS action at the current time.
    pub fn call(&mut self, _request: Request) -> Reply {
        todo!("engine not implemented yet")
    }

    /// Long polls answered since the last call, in the order they were answered.
    pub fn take_completed_polls(&mut self) -> Vec<(PollId, ReceiveMessageOutput)> {
        Vec::new()
    }

    /// Events since the last call, in order.
    pub fn drain_events(&mut self) -> Vec<Event> {
        Vec::new()
    }

    /// Names of the existing queues, sorted.
    pub fn queue_names(&self) -> Vec<String> {
        Vec::new()
    }

    /// The URL of a queue by name.
    pub fn queue_url(&self, _name: &str) -> Option<String> {
        None
    }

    /// The ARN of a queue by name.
    pub fn queue_arn(&self, _name: &str) -> Option<String> {
        None
    }

    /// The stored messages of a queue (delayed, visible and in flight), oldest first.
    pub fn messages(&self, _name: &str) -> Vec<MessageView> {
        Vec::new()
    }

    /// What GetQueueAttributes with `All` answers now.
    pub fn attributes(&self, _name: &str) -> Option<Attributes> {
        None
    }
}
