//! # sqs-server
//!
//! `sqs-sim serve`: the engine behind SQS's wire protocols on loopback, so that unmodified SDKs
//! and the AWS CLI can talk to it (`endpoint_url=http://127.0.0.1:9324`), with a virtual clock
//! that runs at wall time, faster, or is driven by hand (the control API, [`control`]).
//!
//! The engine stays free of I/O: this crate owns the sockets (an axum [`serve::router`] on
//! tokio), the clock that drives the engine's virtual time from wall time ([`clock`], [`state`]),
//! and the translation between HTTP and the engine's requests ([`sqs`], [`json_protocol`],
//! [`query_protocol`], [`addressing`], [`wire`]). A long poll is a task waiting on a channel, not
//! a thread. Queues a file declares are created before it listens ([`declared`]); browsers are
//! kept to the allowed origins and loopback names ([`guard`]); the control API is [`control`].
//! With a data directory, every call the engine accepted is in its journal before the call is
//! answered, with snapshots of the engine's state now and then, so a restart resumes where the
//! server stopped ([`store`]).
//!
//! It also serves the playground ([`ui`]) in live mode: every call that reaches the engine is
//! recorded with its time and its client ([`journal`], [`identity`]) and streamed to the page
//! ([`live`]), which replays it on a World of its own on the same seed.
//!
//! It is an unauthenticated development endpoint: signatures are not checked. One log line per
//! call goes through `tracing` ([`log`]).

pub mod addressing;
pub mod clock;
pub mod control;
pub mod declared;
pub mod guard;
pub mod identity;
pub mod journal;
pub mod json_protocol;
pub mod live;
pub mod load;
pub mod log;
pub mod query_protocol;
pub mod serve;
pub mod sqs;
pub mod state;
pub mod store;
pub mod ui;
pub mod wire;

pub use serve::{serve, Config};

/// The largest seed: the engine's seed is also the World's the live view replays on, so it stays
/// within the integers a JavaScript number holds exactly.
pub const MAX_SEED: u64 = (1 << 53) - 1;
