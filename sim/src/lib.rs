//! # sqs-sim
//!
//! The world around the queue, as deterministic Rust on top of `sqs-engine`: producers, workers
//! (each talking to the engine only through the SQS actions a real worker calls), side effects
//! and their ledger, injected faults, metrics, and the scenario files that drive it all.
//!
//! CONTRACT for the UI (keep these signatures; add freely):
//! * [`World::new`], [`World::load`] (a [`Scenario`]: its steps at time 0 run at once, later
//!   steps are scheduled and run when the clock reaches them); [`World::replay`] (scenario + the
//!   user's [`World::actions`] up to a time: rewind, share-by-link) and [`World::from_log`] (a
//!   whole [`World::log`] into a fresh world); `World: Clone` (fork);
//!   [`checkpoints::Checkpoints`]: rewind from periodic copies instead of from time 0.
//! * [`World::now`], [`World::advance_to`], [`World::next_deadline`]: the same clock contract as
//!   the engine; the UI's frame loop calls `advance_to(now + wall_dt * speed)`.
//! * [`World::apply`]: one user action ([`Step`]) at the current time, appended to the command
//!   log. Errors are SQS's own (or a plain message for simulation-level mistakes) and change
//!   nothing.
//! * [`World::drain_events`]: what happened, narrated ([`WorldEvent::text`]), with the actor; at
//!   most [`EVENT_BUFFER`] undrained events are narrated one by one ([`World::set_event_buffer`]).
//!   [`World::narration_start`]: how far back a fast-forward must narrate to tell the latest
//!   [`NARRATED_TAIL`] events as a run narrated all along told them.
//! * Read-only: [`World::engine`], [`World::workers`], [`World::holder_of`], [`World::ledger`],
//!   [`World::metrics`], [`World::summary`], [`World::log`], [`World::actions`].
//! * [`scenario::LIBRARY`]: the scenario library's ids and titles; [`scenario::library`]: its
//!   scenarios (the `library` feature, on by default); [`Scenario::run`] runs one to its
//!   end and [`Scenario::check`] lists the checked outcomes it misses.
//! * `World` is the `sqs-sim run` driver (`sqs_engine::script::Driver`).
#![warn(missing_docs)]

mod actor;
pub mod bench;
pub mod checkpoints;
pub mod command;
pub mod compare;
mod fingerprints;
mod lane;
pub mod ledger;
pub mod lesson;
pub mod metrics;
mod narrate;
mod narration;
mod producer;
mod queue_url;
mod resume;
mod rng;
mod runner;
pub mod scenario;
mod scheduler;
mod tail;
mod timers;
pub mod worker;
mod world;

pub use actor::Actor;
pub use command::{LoggedStep, SimAction, Step};
pub use ledger::{Effect, Ledger};
pub use lesson::{
    Choice, Claim, MessageFacts, MessageStatus, PointsAt, Question, Questions, QueueFacts,
    WorkerFacts,
};
pub use metrics::{Metrics, Sample, Summary};
pub use narrate::clock;
pub use narration::{WorldEvent, EVENT_BUFFER};
pub use resume::Start;
pub use scenario::Scenario;
pub use tail::NARRATED_TAIL;
pub use worker::{WorkerPolicy, WorkerStatus, WorkerView};
pub use world::World;
