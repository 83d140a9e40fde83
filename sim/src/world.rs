//! The world: one engine, its producers and workers, the ledger and the metrics, on one virtual
//! clock. Everything random draws from the world's seed.

use crate::command::{LoggedStep, Step};
use crate::ledger::Ledger;
use crate::metrics::{Metrics, Summary};
use crate::scenario::Scenario;
use crate::worker::WorkerView;
use serde::{Deserialize, Serialize};
use sqs_engine::{Engine, EventKind, Millis};

/// Who caused an event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Actor {
    /// SQS itself (a timer: visibility expiry, delay end, retention, ...).
    Sqs,
    /// A worker, by name.
    Worker(String),
    /// A producer, by name.
    Producer(String),
    /// The user, by hand (a UI action or a scenario step).
    User,
}

/// Something that happened, for the event log, the animations and the live region.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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

/// The simulated world. See the crate documentation for the contract.
pub struct World {
    engine: Engine,
}

impl World {
    /// An empty world at time 0.
    pub fn new(seed: u64) -> Self {
        World {
            engine: Engine::new(seed),
        }
    }

    /// A world built from a scenario: steps at time 0 run now, later steps are scheduled.
    pub fn load(scenario: &Scenario) -> Result<Self, String> {
        let _ = scenario;
        todo!()
    }

    /// The current virtual time.
    pub fn now(&self) -> Millis {
        self.engine.now()
    }

    /// Moves the clock to `t`, running engine timers, workers, producers and scheduled steps due
    /// by then, in time order.
    pub fn advance_to(&mut self, t: Millis) {
        let _ = t;
        todo!()
    }

    /// The earliest instant at which something will happen.
    pub fn next_deadline(&self) -> Option<Millis> {
        todo!()
    }

    /// Runs one user action now and appends it to the log. An error changes nothing.
    pub fn apply(&mut self, step: Step) -> Result<serde_json::Value, String> {
        let _ = step;
        todo!()
    }

    /// What happened since the last call, in order.
    pub fn drain_events(&mut self) -> Vec<WorldEvent> {
        todo!()
    }

    /// The engine, read-only (queues, messages, attributes).
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The worker lanes, in the order they were added.
    pub fn workers(&self) -> Vec<WorkerView> {
        todo!()
    }

    /// The worker holding this message, if any.
    pub fn holder_of(&self, message_id: &str) -> Option<&str> {
        let _ = message_id;
        todo!()
    }

    /// The ledger of side effects.
    pub fn ledger(&self) -> &Ledger {
        todo!()
    }

    /// Counters and samples.
    pub fn metrics(&self) -> &Metrics {
        todo!()
    }

    /// The end-of-run summary.
    pub fn summary(&self) -> Summary {
        todo!()
    }

    /// Every step run so far with its time (scenario steps and user actions).
    pub fn log(&self) -> &[LoggedStep] {
        todo!()
    }
}
