//! What happened, as data: every state change the engine makes, with its virtual time. The UI
//! animates and narrates these; the per-message history is built from them.

use crate::api::{MessageId, Output, ToJson};
use crate::{Millis, ReceiptHandle};
use serde::Deserialize;
use serde_json::Value;
use std::sync::Arc;

/// One state change at one instant: `{"at": 30000, "event": "Received", ...}`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Event {
    /// When it happened.
    pub at: Millis,
    /// What happened.
    #[serde(flatten)]
    pub kind: EventKind,
}

/// Why a hidden message became receivable; written as its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
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
/// Written as `{"event": "Sent", "queue": ..., ...}`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
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

impl ToJson for Event {
    fn to_json(&self) -> Value {
        let mut json = self.kind.to_json();
        json["at"] = self.at.into();
        json
    }
}

impl ToJson for VisibleReason {
    fn to_json(&self) -> Value {
        format!("{self:?}").into()
    }
}

/// The variant's name as `event`, then each field under its own name.
impl ToJson for EventKind {
    fn to_json(&self) -> Value {
        let mut out = Output::default();
        let name = crate::variants_to_json!(self, EventKind, out;
            QueueCreated { queue, fifo },
            QueueDeleted { queue },
            QueueAttributesChanged { queue, names },
            Sent { queue, message_id, group_id, visible_at },
            Deduplicated { queue, message_id, deduplication_id },
            BecameVisible { queue, message_id, reason },
            Received { queue, message_id, receipt_handle, receive_count, visible_at },
            VisibilityChanged { queue, message_id, receipt_handle, visible_at },
            Deleted { queue, message_id, receipt_handle },
            StaleDelete { queue, receipt_handle },
            MovedToDeadLetterQueue { queue, dead_letter_queue, message_id, receive_count },
            Redriven { from, to, old_message_id, message_id },
            RetentionExpired { queue, message_id },
            Purged { queue, message_ids },
            LongPollStarted { queue, poll, until },
            LongPollAnswered { queue, poll, count },
            LongPollTimedOut { queue, poll },
            MoveTaskStarted { source, task_handle },
            MoveTaskFinished { source, task_handle, status, moved },
        );
        out.field("event", name);
        out.into()
    }
}

crate::write_by_hand!(Event, VisibleReason, EventKind);

#[cfg(test)]
mod tests {
    use super::*;

    /// The kinds no library scenario makes (sim/tests/library.rs round-trips the others),
    /// written by hand and read back by serde's derived reader.
    #[test]
    fn the_rarer_kinds_read_back_what_they_write() {
        let queue: Arc<str> = Arc::from("q");
        let id = MessageId::from("m-1");
        let kinds = [
            EventKind::QueueDeleted {
                queue: queue.clone(),
            },
            EventKind::QueueAttributesChanged {
                queue: queue.clone(),
                names: vec!["DelaySeconds".into()],
            },
            EventKind::Deduplicated {
                queue: queue.clone(),
                message_id: id,
                deduplication_id: "d".into(),
            },
            EventKind::RetentionExpired {
                queue: queue.clone(),
                message_id: id,
            },
            EventKind::Purged {
                queue,
                message_ids: vec![id],
            },
        ];
        for kind in kinds {
            let event = Event { at: 5, kind };
            let json = event.to_json();
            assert_eq!(json["at"], 5);
            assert_eq!(serde_json::from_value::<Event>(json).unwrap(), event);
        }
    }
}
