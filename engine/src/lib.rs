//! # sqs-engine
//!
//! A deterministic, sans-IO state machine that behaves like Amazon SQS.
//!
//! * **Time is an argument.** The engine never reads a clock. [`Engine::advance_to`] moves virtual
//!   time (milliseconds, [`Millis`]) forward and does all the work due by then (visibility expiries,
//!   delays ending, long polls timing out, retention, dedup windows, move tasks);
//!   [`Engine::next_deadline`] tells the caller when the next such work is due.
//! * **Commands in**: [`Engine::call`] takes one SQS action ([`Request`], AWS's JSON member names)
//!   and answers with AWS's response shape or AWS's error ([`SqsError`]). A long poll that cannot be
//!   answered at once stays pending ([`Reply::Pending`]) and is answered later through
//!   [`Engine::take_completed_polls`]. Queues live per account and region ([`Namespace`]):
//!   [`Engine::call`] acts in the default one, [`Engine::call_in`] in the caller's.
//! * **Events out, as data**: every state change is recorded as an [`Event`] with its time;
//!   [`Engine::drain_events`] hands them over, in order.
//! * **Seeded**: message ids, receipt handles and the optional realism knobs draw from a seed the
//!   engine holds, so the same inputs give the same outputs, byte for byte.
//!
//! The semantics follow `shared/reference/sqs-semantics.md`; where AWS is random or silent, its
//! section 13 fixes the choice.
//!
//! Layout: `engine` (the [`Engine`]: its parts, the public calls and the dispatcher) with
//! `engine/actions/` (one module per family of SQS actions, each an `impl Engine`). The parts,
//! each owning its data behind its methods: `registry` (the queues by uid and ARN), `timers`
//! (the clock and everything scheduled), `polls` (the long-poll table), `move_task` (redrive
//! tasks), `event_log` (the events not yet drained). Below them: `queue` (a queue's message
//! slab and indexes), `order` (the orderings behind those indexes), `fifo` (message groups),
//! `message` (a stored message and its received form), `attributes` (queue attributes),
//! `namespace` (accounts and regions), `validate` (input rules), `receipt` (receipt handles),
//! `reply` (a call's answer), `snapshot` (an engine's state as data), `window` (5-minute dedup
//! and attempt-id memory), `hash` / `rng` (digests and the seeded PRNG), `buffers` (answer
//! buffers reused), `deliver` (the playground's hand delivery).
#![warn(missing_docs)]

pub mod api;
mod attributes;
#[cfg(feature = "bench")]
pub mod bench;
mod buffers;
mod deliver;
mod engine;
pub mod error;
pub mod event;
mod event_log;
mod fifo;
mod fixed_text;
mod hash;
pub mod inspect;
mod message;
mod move_task;
pub mod namespace;
mod order;
mod polls;
mod queue;
mod receipt;
mod registry;
mod reply;
mod rng;
#[cfg(feature = "script")]
pub mod script;
pub mod snapshot;
mod timers;
mod validate;
pub mod view;
mod window;

pub use api::{Request, Response};
pub use engine::{Engine, Knobs};
pub use error::{ErrorCode, SqsError};
pub use event::{Event, EventKind, QueueName};
pub use move_task::DEFAULT_MOVE_TASK_RATE;
pub use namespace::Namespace;
pub use receipt::{AnyReceiptHandle, NotAReceiptHandle, ReceiptHandle};
pub use reply::{PollId, Reply};
pub use snapshot::SNAPSHOT_VERSION;

/// Virtual time: milliseconds since the simulation started.
pub type Millis = u64;

/// Virtual time 0 as epoch milliseconds (2026-01-01T12:00:00Z): SentTimestamp and the other
/// timestamps SQS reports are `EPOCH_MS + virtual time`, and the UI shows 0 as 12:00:00.
pub const EPOCH_MS: u64 = 1_767_268_800_000;
