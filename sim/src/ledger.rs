//! The durable ledger of side effects: every effect performed, with its message, attempt and
//! idempotency key, and the two numbers the seeds care about — duplicates (the same logical
//! effect done twice) and repeats the ledger prevented.

use serde::{Deserialize, Serialize};
use sqs_engine::Millis;

/// One side effect performed (or prevented).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Effect {
    /// When.
    pub at: Millis,
    /// Which worker.
    pub worker: String,
    /// The effect's name ("send staff notice").
    pub name: String,
    /// The message it was for.
    pub message_id: String,
    /// The logical key: message body (the business id) + effect name.
    pub key: String,
    /// Which delivery of the message this was (its ApproximateReceiveCount).
    pub attempt: u32,
    /// The ledger already had this key, so the effect was skipped.
    pub prevented: bool,
    /// It had been done before: a duplicate.
    pub duplicate: bool,
}

/// All effects, in order, with running counts.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Ledger {
    /// Every effect performed or prevented, in order.
    pub effects: Vec<Effect>,
}
