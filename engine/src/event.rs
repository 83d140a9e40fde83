//! What happened, as data: every state change the engine makes, with its virtual time. The UI
//! animates and narrates these; the per-message history is built from them.

use crate::Millis;
use serde::{Deserialize, Serialize};

/// One state change at one instant.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Event {
    /// When it happened.
    pub at: Millis,
    /// What happened.
    #[serde(flatten)]
    pub kind: EventKind,
}

/// Why a hidden message became receivable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum VisibleReason {
    /// It was sent without a delay.
    Sent,
    /// Its delay (queue DelaySeconds or message timer) ended.
    DelayEnded,
    /// Its visibility timeout ran out before anyone deleted it.
    VisibilityExpired,
    /// ChangeMessageVisibility with VisibilityTimeout 0.
    VisibilityTerminated,
    /// A message move task put it back into a source queue.
    Redriven,
    /// It exceeded maxReceiveCount in its source queue and landed in this dead-letter queue.
    DeadLettered,
}

/// The kinds of state change. Queues are named by queue name, messages by MessageId.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event")]
#[allow(missing_docs)]
pub enum EventKind {
    QueueCreated {
        queue: String,
        fifo: bool,
    },
    QueueDeleted {
        queue: String,
    },
    /// SetQueueAttributes changed these attributes.
    QueueAttributesChanged {
        queue: String,
        names: Vec<String>,
    },
    /// A new message was stored. `visible_at` is later than `at` when it is delayed.
    Sent {
        queue: String,
        message_id: String,
        group_id: Option<String>,
        visible_at: Millis,
    },
    /// A FIFO send inside the 5-minute deduplication window: accepted, not stored.
    Deduplicated {
        queue: String,
        message_id: String,
        deduplication_id: String,
    },
    /// A message can now be received.
    BecameVisible {
        queue: String,
        message_id: String,
        reason: VisibleReason,
    },
    /// ReceiveMessage returned the message; it is hidden until `visible_at`.
    Received {
        queue: String,
        message_id: String,
        receipt_handle: String,
        receive_count: u32,
        visible_at: Millis,
    },
    /// ChangeMessageVisibility: hidden until `visible_at` (counted from the call).
    VisibilityChanged {
        queue: String,
        message_id: String,
        receipt_handle: String,
        visible_at: Millis,
    },
    /// DeleteMessage removed the message.
    Deleted {
        queue: String,
        message_id: String,
        receipt_handle: String,
    },
    /// DeleteMessage succeeded but the message was already gone (deleted, expired or moved).
    StaleDelete {
        queue: String,
        receipt_handle: String,
    },
    /// maxReceiveCount was exceeded: the message moved to the dead-letter queue.
    MovedToDeadLetterQueue {
        queue: String,
        dead_letter_queue: String,
        message_id: String,
        receive_count: u32,
    },
    /// A message move task moved a message from a dead-letter queue back (as a new message).
    Redriven {
        from: String,
        to: String,
        old_message_id: String,
        message_id: String,
    },
    /// MessageRetentionPeriod ran out: SQS deleted the message.
    RetentionExpired {
        queue: String,
        message_id: String,
    },
    /// PurgeQueue deleted these messages.
    Purged {
        queue: String,
        message_ids: Vec<String>,
    },
    /// A ReceiveMessage with WaitTimeSeconds > 0 found nothing and is waiting until `until`.
    LongPollStarted {
        queue: String,
        poll: u64,
        until: Millis,
    },
    /// A waiting long poll got messages.
    LongPollAnswered {
        queue: String,
        poll: u64,
        count: usize,
    },
    /// A waiting long poll ran out of time and answered with no messages.
    LongPollTimedOut {
        queue: String,
        poll: u64,
    },
    MoveTaskStarted {
        source: String,
        task_handle: String,
    },
    MoveTaskFinished {
        source: String,
        task_handle: String,
        status: String,
        moved: u64,
    },
}
