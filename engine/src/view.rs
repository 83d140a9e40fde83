//! Read-only views of the engine's state, for drawing. They never change anything and hold no
//! SQS rule: whatever a view shows was decided by the engine.

use crate::Millis;
use serde::{Deserialize, Serialize};

/// Where a stored message is in its lifecycle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MessageState {
    /// Hidden by a delay until `until`.
    Delayed {
        /// When the delay ends.
        until: Millis,
    },
    /// Receivable (on FIFO it may still wait behind an in-flight message of its group).
    Visible,
    /// Received and hidden until `until` under `receipt_handle`.
    InFlight {
        /// When the visibility timeout runs out.
        until: Millis,
        /// The latest receipt handle.
        receipt_handle: String,
    },
}

/// One stored message as the UI draws it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MessageView {
    /// Its MessageId.
    pub message_id: String,
    /// Its body.
    pub body: String,
    /// Its state.
    pub state: MessageState,
    /// ApproximateReceiveCount.
    pub receive_count: u32,
    /// MessageGroupId, if any.
    pub group_id: Option<String>,
    /// When it was sent (or redriven, or moved to a FIFO DLQ).
    pub sent_at: Millis,
    /// FIFO only: it is visible but its group is blocked by an in-flight message before it.
    pub blocked_by_group: bool,
}
