//! What happened, as data: every state change the engine makes, with its virtual time. The UI
//! animates and narrates these; the per-message history is built from them.

use crate::api::MessageId;
use crate::{Millis, ReceiptHandle};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

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

/// The kinds of state change. Queues are named by queue name, shared with the engine's own copy
/// (`Arc<str>`), and messages by [`MessageId`], a `Copy` value: recording an event allocates nothing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event")]
#[allow(missing_docs)]
pub enum EventKind {
    QueueCreated {
        queue: Arc<str>,
        fifo: bool,
    },
    QueueDeleted {
        queue: Arc<str>,
    },
    /// SetQueueAttributes changed these attributes.
    QueueAttributesChanged {
        queue: Arc<str>,
        names: Vec<String>,
    },
    /// A new message was stored. `visible_at` is later than `at` when it is delayed.
    Sent {
        queue: Arc<str>,
        message_id: MessageId,
        group_id: Option<String>,
        visible_at: Millis,
    },
    /// A FIFO send inside the 5-minute deduplication window: accepted, not stored.
    Deduplicated {
        queue: Arc<str>,
        message_id: MessageId,
        deduplication_id: String,
    },
    /// A message can now be received.
    BecameVisible {
        queue: Arc<str>,
        message_id: MessageId,
        reason: VisibleReason,
    },
    /// ReceiveMessage returned the message; it is hidden until `visible_at`.
    Received {
        queue: Arc<str>,
        message_id: MessageId,
        receipt_handle: ReceiptHandle,
        receive_count: u32,
        visible_at: Millis,
    },
    /// ChangeMessageVisibility: hidden until `visible_at` (counted from the call).
    VisibilityChanged {
        queue: Arc<str>,
        message_id: MessageId,
        receipt_handle: ReceiptHandle,
        visible_at: Millis,
    },
    /// DeleteMessage removed the message.
    Deleted {
        queue: Arc<str>,
        message_id: MessageId,
        receipt_handle: ReceiptHandle,
    },
    /// DeleteMessage succeeded but the message was already gone (deleted, expired or moved).
    StaleDelete {
        queue: Arc<str>,
        receipt_handle: ReceiptHandle,
    },
    /// maxReceiveCount was exceeded: the message moved to the dead-letter queue.
    MovedToDeadLetterQueue {
        queue: Arc<str>,
        dead_letter_queue: Arc<str>,
        message_id: MessageId,
        receive_count: u32,
    },
    /// A message move task moved a message from a dead-letter queue back (as a new message).
    Redriven {
        from: Arc<str>,
        to: Arc<str>,
        old_message_id: MessageId,
        message_id: MessageId,
    },
    /// MessageRetentionPeriod ran out: SQS deleted the message.
    RetentionExpired {
        queue: Arc<str>,
        message_id: MessageId,
    },
    /// PurgeQueue deleted these messages.
    Purged {
        queue: Arc<str>,
        message_ids: Vec<MessageId>,
    },
    /// A ReceiveMessage with WaitTimeSeconds > 0 found nothing and is waiting until `until`.
    LongPollStarted {
        queue: Arc<str>,
        poll: u64,
        until: Millis,
    },
    /// A waiting long poll got messages.
    LongPollAnswered {
        queue: Arc<str>,
        poll: u64,
        count: usize,
    },
    /// A waiting long poll ran out of time and answered with no messages.
    LongPollTimedOut {
        queue: Arc<str>,
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
