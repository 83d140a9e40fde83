//! Metrics over time for the charts and counters, and the end-of-run summary.

use serde::{Deserialize, Serialize};
use sqs_engine::Millis;
use std::collections::BTreeMap;

/// The queue and the world at one instant.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Sample {
    /// When.
    pub at: Millis,
    /// ApproximateNumberOfMessages (main queue).
    pub visible: u64,
    /// ApproximateNumberOfMessagesNotVisible.
    pub in_flight: u64,
    /// ApproximateNumberOfMessagesDelayed.
    pub delayed: u64,
    /// Messages in dead-letter queues.
    pub dead_letter: u64,
}

/// Counters since the start, and samples for the depth chart.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Metrics {
    /// Messages stored (deduplicated sends excluded).
    pub sent: u64,
    /// Successful receives of a message (each delivery counts).
    pub deliveries: u64,
    /// Deliveries of a message received before.
    pub redeliveries: u64,
    /// Messages deleted.
    pub deleted: u64,
    /// Messages moved to a dead-letter queue.
    pub dead_lettered: u64,
    /// Side effects performed.
    pub effects: u64,
    /// The same logical side effect performed more than once.
    pub duplicate_effects: u64,
    /// Repeats the ledger stopped.
    pub prevented_effects: u64,
    /// SQS API requests made, by action (a batch is one request).
    pub api_calls: BTreeMap<String, u64>,
    /// ReceiveMessage calls that returned no message.
    pub empty_receives: u64,
    /// Depth samples (bounded; older ones folded).
    pub samples: Vec<Sample>,
}

/// The `{"summary": {...}}` line of `sqs-sim run`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Messages stored.
    pub sent: u64,
    /// Deliveries.
    pub deliveries: u64,
    /// Redeliveries.
    pub redeliveries: u64,
    /// Deleted.
    pub deleted: u64,
    /// Dead-lettered.
    pub dead_lettered: u64,
    /// Side effects performed.
    pub effects: u64,
    /// Duplicated side effects.
    pub duplicate_effects: u64,
    /// Prevented repeats.
    pub prevented_effects: u64,
    /// API requests in all.
    pub api_calls: u64,
    /// What it cost at SQS's list price (USD 0.40 per million requests).
    pub cost_usd: f64,
    /// Messages left per state ("visible", "in_flight", "delayed", "dead_letter").
    pub by_state: BTreeMap<String, u64>,
}
