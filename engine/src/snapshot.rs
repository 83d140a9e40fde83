//! An engine's state as data. [`crate::Engine`] implements serde's `Serialize` and `Deserialize`
//! over all of its state (queues, messages, timers, FIFO groups, dedup windows, move tasks, long
//! polls waiting, the random generator), so that an engine written and read back is the same
//! machine: the same next calls get the same answers, message ids and receipt handles included.
//!
//! What a reader must check itself: [`SNAPSHOT_VERSION`], the layout's version, written next to
//! the state by whoever stores it (the server's data directory does). A change to any stored
//! field's meaning or shape bumps it, and a state of another version is refused, never read.
//!
//! Long polls waiting when the state was written are part of it: a driver that starts again
//! on a written state, whose clients are gone, ends them with [`crate::Engine::end_polls`] (and
//! a replay of what it did must do the same at the same point).

/// The version of the layout the engine's state serialises to.
pub const SNAPSHOT_VERSION: u32 = 2;
