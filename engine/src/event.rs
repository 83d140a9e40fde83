//! What happened, as data: every state change the engine makes, with its virtual time. The UI
//! animates and narrates these; the per-message history is built from them.

use crate::api::{MessageId, Output, ToJson};
use crate::{Millis, ReceiptHandle};
use serde::Deserialize;
use serde_json::Value;
use std::cell::RefCell;
use std::collections::BTreeSet;
use std::fmt;

/// A queue name as events carry it: the text interned once per distinct name (a process keeps
/// each name a queue was ever given, a few bytes each), so an event copies a pointer where a
/// shared `Arc<str>` counted a reference up when built and down when dropped (atomic operations,
/// ~9 per message lifecycle). It reads, compares, displays and serialises as its text.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct QueueName(&'static str);

thread_local! {
    /// Every name interned so far.
    static NAMES: RefCell<BTreeSet<&'static str>> = const { RefCell::new(BTreeSet::new()) };
}

impl QueueName {
    /// `name`, interned.
    pub fn new(name: &str) -> Self {
        NAMES.with_borrow_mut(|names| match names.get(name) {
            Some(&known) => QueueName(known),
            None => {
                let leaked: &'static str = Box::leak(Box::from(name));
                names.insert(leaked);
                QueueName(leaked)
            }
        })
    }

    /// The text.
    pub fn as_str(&self) -> &'static str {
        self.0
    }
}

impl From<&str> for QueueName {
    fn from(name: &str) -> Self {
        QueueName::new(name)
    }
}

impl std::ops::Deref for QueueName {
    type Target = str;

    fn deref(&self) -> &str {
        self.0
    }
}

impl PartialEq<&str> for QueueName {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl fmt::Display for QueueName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl fmt::Debug for QueueName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.0, f)
    }
}

impl serde::Serialize for QueueName {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.0)
    }
}

impl<'de> Deserialize<'de> for QueueName {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        Ok(QueueName::new(&text))
    }
}

impl ToJson for QueueName {
    fn to_json(&self) -> Value {
        self.0.into()
    }
}

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

/// The kinds of state change. Queues are named by [`QueueName`] and messages by [`MessageId`],
/// both `Copy` values: recording an event allocates nothing, and dropping one frees nothing.
/// Written as `{"event": "Sent", "queue": ..., ...}`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(tag = "event")]
#[allow(missing_docs)]
pub enum EventKind {
    QueueCreated {
        queue: QueueName,
        fifo: bool,
    },
    QueueDeleted {
        queue: QueueName,
    },
    /// SetQueueAttributes changed these attributes.
    QueueAttributesChanged {
        queue: QueueName,
        names: Vec<String>,
    },
    /// TagQueue (or CreateQueue's `tags`) set these tag keys.
    QueueTagged {
        queue: QueueName,
        keys: Vec<String>,
    },
    /// UntagQueue removed these tag keys (those the queue had).
    QueueUntagged {
        queue: QueueName,
        keys: Vec<String>,
    },
    /// AddPermission added the statement `label` to the queue's Policy.
    PermissionAdded {
        queue: QueueName,
        label: String,
    },
    /// RemovePermission removed the statement `label` from the queue's Policy.
    PermissionRemoved {
        queue: QueueName,
        label: String,
    },
    /// A new message was stored. `visible_at` is later than `at` when it is delayed.
    Sent {
        queue: QueueName,
        message_id: MessageId,
        group_id: Option<String>,
        visible_at: Millis,
    },
    /// A FIFO send inside the 5-minute deduplication window: accepted, not stored.
    Deduplicated {
        queue: QueueName,
        message_id: MessageId,
        deduplication_id: String,
    },
    /// A message can now be received.
    BecameVisible {
        queue: QueueName,
        message_id: MessageId,
        reason: VisibleReason,
    },
    /// ReceiveMessage returned the message; it is hidden until `visible_at`.
    Received {
        queue: QueueName,
        message_id: MessageId,
        receipt_handle: ReceiptHandle,
        receive_count: u32,
        visible_at: Millis,
    },
    /// ChangeMessageVisibility: hidden until `visible_at` (counted from the call).
    VisibilityChanged {
        queue: QueueName,
        message_id: MessageId,
        receipt_handle: ReceiptHandle,
        visible_at: Millis,
    },
    /// DeleteMessage removed the message.
    Deleted {
        queue: QueueName,
        message_id: MessageId,
        receipt_handle: ReceiptHandle,
    },
    /// DeleteMessage succeeded but the message was already gone (deleted, expired or moved).
    StaleDelete {
        queue: QueueName,
        receipt_handle: ReceiptHandle,
    },
    /// maxReceiveCount was exceeded: the message moved to the dead-letter queue.
    MovedToDeadLetterQueue {
        queue: QueueName,
        dead_letter_queue: QueueName,
        message_id: MessageId,
        receive_count: u32,
    },
    /// A message move task moved a message from a dead-letter queue back (as a new message).
    Redriven {
        from: QueueName,
        to: QueueName,
        old_message_id: MessageId,
        message_id: MessageId,
    },
    /// MessageRetentionPeriod ran out: SQS deleted the message.
    RetentionExpired {
        queue: QueueName,
        message_id: MessageId,
    },
    /// PurgeQueue deleted these messages.
    Purged {
        queue: QueueName,
        message_ids: Vec<MessageId>,
    },
    /// A ReceiveMessage with WaitTimeSeconds > 0 found nothing and is waiting until `until`.
    LongPollStarted {
        queue: QueueName,
        poll: u64,
        until: Millis,
    },
    /// A waiting long poll got messages.
    LongPollAnswered {
        queue: QueueName,
        poll: u64,
        count: usize,
    },
    /// A waiting long poll ran out of time and answered with no messages.
    LongPollTimedOut {
        queue: QueueName,
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
            QueueTagged { queue, keys },
            QueueUntagged { queue, keys },
            PermissionAdded { queue, label },
            PermissionRemoved { queue, label },
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

    #[test]
    fn queue_names_are_interned_and_read_as_their_text() {
        let (a, b) = (
            QueueName::new("orders"),
            QueueName::from(String::from("orders").as_str()),
        );
        assert!(std::ptr::eq(a.as_str(), b.as_str()), "one copy of the text");
        assert_ne!(a, QueueName::new("orders-dlq"));
        assert_eq!(
            (a.to_string(), format!("{a:?}")),
            ("orders".into(), "\"orders\"".into())
        );
        assert_eq!(a.to_json(), "orders");
        assert_eq!(serde_json::from_str::<QueueName>("\"orders\"").unwrap(), a);
    }

    /// The kinds no library scenario makes (sim/tests/library.rs round-trips the others),
    /// written by `ToJson` and read back by serde's derived reader.
    #[test]
    fn the_rarer_kinds_read_back_what_they_write() {
        let queue = QueueName::new("q");
        let id = MessageId::from("m-1");
        let kinds = [
            EventKind::QueueDeleted { queue },
            EventKind::QueueAttributesChanged {
                queue,
                names: vec!["DelaySeconds".into()],
            },
            EventKind::QueueTagged {
                queue,
                keys: vec!["team".into()],
            },
            EventKind::QueueUntagged {
                queue,
                keys: vec!["team".into()],
            },
            EventKind::PermissionAdded {
                queue,
                label: "l".into(),
            },
            EventKind::PermissionRemoved {
                queue,
                label: "l".into(),
            },
            EventKind::Deduplicated {
                queue,
                message_id: id,
                deduplication_id: "d".into(),
            },
            EventKind::RetentionExpired {
                queue,
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
