//! The command log: every step of a session as data. A scenario's steps plus the user's actions,
//! each with its virtual time, replayed with the same seed, rebuild the same world — which is
//! what rewind, share-by-link and fork stand on.

use crate::worker::WorkerPolicy;
use serde::{Deserialize, Serialize};
use sqs_engine::{Millis, Request};

/// One action: an SQS call the user makes by hand (as a producer, say), or a simulation action.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Step {
    /// `{"call": "SendMessage", "input": {...}}`: exactly the `sqs-sim run` call step.
    Call(Request),
    /// `{"sim": "AddWorker", "input": {...}}`.
    Sim(SimAction),
}

/// What the simulation adds to SQS's own actions. Workers are named by their `name`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "sim", content = "input")]
pub enum SimAction {
    /// A new worker lane.
    AddWorker {
        /// Unique name, e.g. "Worker 1" or "Worker A".
        name: String,
        /// How it polls, processes, heartbeats.
        policy: WorkerPolicy,
    },
    /// Removes a lane (what it holds simply times out).
    RemoveWorker {
        /// Which worker.
        worker: String,
    },
    /// Changes a worker's policy from its next job on.
    SetPolicy {
        /// Which worker.
        worker: String,
        /// The new policy.
        policy: WorkerPolicy,
    },
    /// Crash now: in-flight messages simply wait for their visibility timeout.
    Kill {
        /// Which worker.
        worker: String,
    },
    /// A killed or hung worker starts polling again (it has forgotten what it held).
    Restart {
        /// Which worker.
        worker: String,
    },
    /// Stops working and stops heartbeating, but stays "alive".
    Hang {
        /// Which worker.
        worker: String,
    },
    /// The current or next job crashes after its side effects are committed, before DeleteMessage.
    CrashAfterCommit {
        /// Which worker.
        worker: String,
    },
    /// The next DeleteMessage happens at SQS but the worker sees it fail.
    LoseDeleteResponse {
        /// Which worker.
        worker: String,
    },
    /// The current or next job fails: no delete; the message comes back after its timeout.
    FailJob {
        /// Which worker.
        worker: String,
    },
    /// Drag a message onto a worker lane: that worker receives that message now (FIFO rules
    /// apply: a message behind an in-flight one of its group cannot be taken).
    Deliver {
        /// Which worker.
        worker: String,
        /// The MessageId to hand over.
        message_id: String,
    },
    /// ReceiveMessage by hand (manual mode), with the worker's policy (batch size, wait,
    /// VisibilityTimeout); the messages wait in its lane for Delete or Extend.
    Receive {
        /// Which worker.
        worker: String,
    },
    /// DeleteMessage by hand with the receipt handle the worker holds (manual mode).
    Delete {
        /// Which worker.
        worker: String,
        /// The MessageId it holds.
        message_id: String,
    },
    /// ChangeMessageVisibility by hand with the receipt handle the worker holds (any mode).
    Extend {
        /// Which worker.
        worker: String,
        /// The MessageId it holds.
        message_id: String,
        /// The new VisibilityTimeout in seconds, counted from now (0: visible at once).
        visibility_timeout: u32,
    },
    /// A steady producer.
    AddProducer(crate::worker::ProducerSpec),
    /// Stops a producer.
    RemoveProducer {
        /// Which producer.
        producer: String,
    },
}

/// A step with the virtual time at which it ran.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LoggedStep {
    /// When (virtual milliseconds).
    pub at: Millis,
    /// What.
    pub step: Step,
}
