//! Plain words for what happened: the texts the UI shows verbatim in the event log and the live
//! region. Short sentences, SQS's own words (ReceiveMessage, receipt handle, receive count).

use crate::actor::Actor;
use rustc_hash::FxHashMap;
use sqs_engine::api::MessageId;
use sqs_engine::event::VisibleReason;
use sqs_engine::{EventKind, Millis, EPOCH_MS};

/// Short, readable names for messages: the body when it is short (`R-022`, `M`), else the
/// start of the MessageId. They serve the narration only: while it is off (a fast-forward) they
/// lapse, and [`Labels::rebuild`] names the stored messages again when it resumes.
#[derive(Clone, Debug, Default)]
pub(crate) struct Labels {
    /// The stored messages' labels (empty while lapsed).
    known: FxHashMap<MessageId, String>,
    /// Each stored redriven message's label should its body be too long to name it: the label
    /// of the message it was (kept while lapsed too: it cannot be told from the body).
    redriven: FxHashMap<MessageId, String>,
    /// Whether sends went unlabelled since the last rebuild.
    lapsed: bool,
}

/// Bodies up to this length name their message.
const MAX_BODY_LABEL: usize = 24;

impl Labels {
    /// Remembers the label of a message stored with this body.
    pub(crate) fn learn(&mut self, message_id: MessageId, body: &str) {
        self.learn_label(message_id, body_label(body));
    }

    /// Remembers the label of a message stored with a body whose [`body_label`] this is.
    pub(crate) fn learn_label(&mut self, message_id: MessageId, label: Option<String>) {
        let label = label.unwrap_or_else(|| short_id(&message_id));
        self.known.insert(message_id, label);
    }

    /// Stops labelling (a message was sent unnarrated) until [`Labels::rebuild`].
    pub(crate) fn lapse(&mut self) {
        if !self.lapsed {
            self.lapsed = true;
            self.known = FxHashMap::default();
        }
    }

    /// Whether [`Labels::rebuild`] is due before the next narrated event.
    pub(crate) fn lapsed(&self) -> bool {
        self.lapsed
    }

    /// Labels the stored messages, (MessageId, body) each, as if they had been labelled all along.
    pub(crate) fn rebuild<'a>(&mut self, stored: impl Iterator<Item = (MessageId, &'a str)>) {
        let redriven = &self.redriven;
        let label = |id: &MessageId, body: &str| {
            body_label(body)
                .or_else(|| redriven.get(id).cloned())
                .unwrap_or_else(|| short_id(id))
        };
        self.known = stored.map(|(id, body)| (id, label(&id, body))).collect();
        self.lapsed = false;
    }

    /// Forgets a message that no longer exists (the maps hold only live messages: bounded).
    #[inline]
    pub(crate) fn forget(&mut self, message_id: MessageId) {
        if !self.lapsed {
            self.known.remove(&message_id);
        }
        if !self.redriven.is_empty() {
            self.redriven.remove(&message_id);
        }
    }

    /// The remembered label, if any.
    pub(crate) fn known(&self, message_id: &str) -> Option<&str> {
        self.known
            .get(&MessageId::new(message_id)?)
            .map(String::as_str)
    }

    /// A redriven message keeps the label of the message it was.
    pub(crate) fn alias(&mut self, new_id: MessageId, old_id: &MessageId) {
        let old = self.redriven.remove(old_id);
        if !self.lapsed {
            let label = self.get(old_id);
            self.known.insert(new_id, label);
            // A move task removes the old message without a Deleted event: forget it here.
            self.known.remove(old_id);
        }
        let long = old.unwrap_or_else(|| short_id(old_id));
        self.redriven.insert(new_id, long);
    }

    /// How many labels are remembered.
    pub(crate) fn len(&self) -> usize {
        self.known.len()
    }

    /// The message's label.
    pub(crate) fn get(&self, message_id: &str) -> String {
        self.known(message_id)
            .map_or_else(|| short_id(message_id), str::to_string)
    }
}

/// The label of a message stored with this body.
pub(crate) fn label_for(message_id: &str, body: &str) -> String {
    body_label(body).unwrap_or_else(|| short_id(message_id))
}

/// The body as a label, when it is short enough to name its message.
pub(crate) fn body_label(body: &str) -> Option<String> {
    // A body of at most MAX_BODY_LABEL bytes has at most that many characters: not counted.
    let short = body.len() <= MAX_BODY_LABEL || body.chars().count() <= MAX_BODY_LABEL;
    (short && !body.trim().is_empty()).then(|| body.to_string())
}

pub(crate) fn short_id(message_id: &str) -> String {
    message_id.chars().take(8).collect()
}

/// Virtual time as the clock on the wall of the seeds' timeline: 0 is 12:00:00.
pub fn clock(t: Millis) -> String {
    let ms = (EPOCH_MS + t) % 86_400_000;
    let (h, m, s, frac) = (ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000);
    if frac == 0 {
        format!("{h:02}:{m:02}:{s:02}")
    } else {
        format!("{h:02}:{m:02}:{s:02}.{:03}", frac)
            .trim_end_matches('0')
            .to_string()
    }
}

/// A duration in seconds, as people say it (`30 s`, `1.5 s`): the digits `ms as f64 / 1000.0`
/// prints, from integers.
pub(crate) fn secs(ms: Millis) -> String {
    if ms % 1000 == 0 {
        format!("{} s", ms / 1000)
    } else {
        let fraction = format!("{:03}", ms % 1000);
        format!("{}.{} s", ms / 1000, fraction.trim_end_matches('0'))
    }
}

/// The actor as the subject of a sentence.
pub(crate) fn who(actor: &Actor) -> &str {
    match actor {
        Actor::Sqs => "SQS",
        Actor::User => "You",
        Actor::Worker(name) | Actor::Producer(name) | Actor::Client(name) => name,
    }
}

/// The sentence for one engine event caused by `actor` through `action` (None: a timer).
pub(crate) fn engine_event(
    actor: &Actor,
    action: Option<&str>,
    at: Millis,
    kind: &EventKind,
    labels: &Labels,
) -> String {
    let who = who(actor);
    match sentence(who, at, kind, labels) {
        (Some(fallback), rest) => format!("{who} called {}{rest}", action.unwrap_or(fallback)),
        (None, sentence) => sentence,
    }
}

/// The sentence for an engine event, or, for an event of a call, the rest of the sentence
/// after "{who} called {action}" with the action named when the call's is not known: that
/// start is written in one place ([`engine_event`]) rather than in each sentence.
fn sentence(
    who: &str,
    at: Millis,
    kind: &EventKind,
    labels: &Labels,
) -> (Option<&'static str>, String) {
    let called = |action, rest| (Some(action), rest);
    let told = |sentence| (None, sentence);
    match kind {
        EventKind::QueueCreated { queue, fifo } => {
            let kind = if *fifo { "FIFO queue" } else { "queue" };
            called("CreateQueue", format!(": {kind} {queue} created"))
        }
        EventKind::QueueDeleted { queue } => called("DeleteQueue", format!(": {queue} deleted")),
        EventKind::QueueAttributesChanged { queue, names } => called(
            "SetQueueAttributes",
            format!(" on {queue}: {} changed", names.join(", ")),
        ),
        EventKind::QueueTagged { queue, keys } => called(
            "TagQueue",
            format!(" on {queue}: tags {} set", keys.join(", ")),
        ),
        EventKind::QueueUntagged { queue, keys } => called(
            "UntagQueue",
            format!(" on {queue}: tags {} removed", keys.join(", ")),
        ),
        EventKind::PermissionAdded { queue, label } => called(
            "AddPermission",
            format!(" on {queue}: statement {label} added to its Policy"),
        ),
        EventKind::PermissionRemoved { queue, label } => called(
            "RemovePermission",
            format!(" on {queue}: statement {label} removed from its Policy"),
        ),
        EventKind::Sent {
            queue,
            message_id,
            group_id,
            visible_at,
        } => {
            let mut text = format!(": {} stored in {queue}", labels.get(message_id));
            if let Some(group) = group_id {
                text.push_str(&format!(" (group {group})"));
            }
            if *visible_at > at {
                text.push_str(&format!(
                    ", delayed {} (until {})",
                    secs(visible_at - at),
                    clock(*visible_at)
                ));
            }
            called("SendMessage", text)
        }
        EventKind::Deduplicated {
            message_id,
            deduplication_id,
            ..
        } => called("SendMessage", format!(
            ": {} has MessageDeduplicationId {deduplication_id}, already seen in the last 5 minutes: accepted, not stored again",
            labels.get(message_id)
        )),
        EventKind::BecameVisible {
            message_id, reason, ..
        } => {
            let m = labels.get(message_id);
            told(match reason {
                VisibleReason::Sent => format!("{m} is visible"),
                VisibleReason::DelayEnded => format!("Delay of {m} ended: it is visible"),
                VisibleReason::VisibilityExpired => {
                    format!("Visibility timeout of {m} ran out: it is visible again")
                }
                VisibleReason::VisibilityTerminated => {
                    format!("{m} is visible again (its visibility timeout was set to 0)")
                }
                VisibleReason::Redriven => format!("{m} is visible again after the redrive"),
                VisibleReason::DeadLettered => format!("{m} is visible in the dead-letter queue"),
            })
        }
        EventKind::Received {
            message_id,
            receive_count,
            ..
        } => called(
            "ReceiveMessage",
            format!(
                ": got {} (receive count {receive_count})",
                labels.get(message_id)
            ),
        ),
        EventKind::VisibilityChanged {
            message_id,
            visible_at,
            ..
        } => {
            let m = labels.get(message_id);
            let rest = if *visible_at <= at {
                format!(": {m} is visible now")
            } else {
                format!(": {m} hidden for {} more", secs(visible_at - at))
            };
            called("ChangeMessageVisibility", rest)
        }
        EventKind::Deleted { message_id, .. } => {
            called("DeleteMessage", format!(": {} deleted", labels.get(message_id)))
        }
        EventKind::StaleDelete { .. } => called(
            "DeleteMessage",
            ": that message is already gone (SQS still answers 200)".to_string(),
        ),
        EventKind::MovedToDeadLetterQueue {
            dead_letter_queue,
            message_id,
            receive_count,
            ..
        } => told(format!(
            "{} was received {receive_count} times (maxReceiveCount reached): SQS moved it to {dead_letter_queue}",
            labels.get(message_id)
        )),
        EventKind::Redriven {
            from,
            to,
            old_message_id,
            ..
        } => told(format!(
            "Message move task: {} moved from {from} back to {to} as a new message",
            labels.get(old_message_id)
        )),
        EventKind::RetentionExpired { message_id, .. } => told(format!(
            "{} is older than the MessageRetentionPeriod: SQS deleted it",
            labels.get(message_id)
        )),
        EventKind::Purged { queue, message_ids } => called(
            "PurgeQueue",
            format!(": {} messages deleted from {queue}", message_ids.len()),
        ),
        EventKind::LongPollStarted { queue, until, .. } => called(
            "ReceiveMessage",
            format!(
                " on {queue}: nothing yet, waiting up to {} (long poll)",
                secs(until - at)
            ),
        ),
        EventKind::LongPollAnswered { queue, count, .. } => told(format!(
            "{who}'s long poll on {queue} answered with {count} message(s)"
        )),
        EventKind::LongPollTimedOut { queue, .. } => told(format!(
            "{who}'s long poll on {queue} ended empty: WaitTimeSeconds elapsed"
        )),
        EventKind::MoveTaskStarted { source, .. } => called(
            "StartMessageMoveTask",
            format!(": moving the messages of {source} back"),
        ),
        EventKind::MoveTaskFinished {
            source,
            status,
            moved,
            ..
        } => told(format!(
            "Message move task on {source}: {status}, {moved} moved"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_reads_like_the_seed_timeline() {
        assert_eq!(clock(0), "12:00:00");
        assert_eq!(clock(30_000), "12:00:30");
        assert_eq!(clock(3_723_500), "13:02:03.5");
        assert_eq!(secs(120_000), "120 s");
        assert_eq!(secs(1_500), "1.5 s");
        for ms in (0..20_000).chain([86_400_001, 1 << 40]) {
            let printed = format!("{} s", ms as f64 / 1000.0);
            assert_eq!(secs(ms), printed);
        }
    }

    #[test]
    fn narration_uses_sqs_words() {
        let mut labels = Labels::default();
        labels.learn("0123456789".into(), "M");
        let received = EventKind::Received {
            queue: "q".into(),
            message_id: "0123456789".into(),
            receipt_handle: Default::default(),
            receive_count: 2,
            visible_at: 60_000,
        };
        let actor = Actor::Worker("Worker B".into());
        assert_eq!(
            engine_event(&actor, Some("ReceiveMessage"), 30_000, &received, &labels),
            "Worker B called ReceiveMessage: got M (receive count 2)"
        );
        let extended = EventKind::VisibilityChanged {
            queue: "q".into(),
            message_id: "0123456789".into(),
            receipt_handle: Default::default(),
            visible_at: 300_000,
        };
        assert_eq!(
            engine_event(
                &Actor::Worker("Worker A".into()),
                Some("ChangeMessageVisibility"),
                180_000,
                &extended,
                &labels
            ),
            "Worker A called ChangeMessageVisibility: M hidden for 120 s more"
        );
        let granted = EventKind::PermissionAdded {
            queue: "q".into(),
            label: "ShareWithB".into(),
        };
        assert_eq!(
            engine_event(&Actor::User, None, 0, &granted, &labels),
            "You called AddPermission on q: statement ShareWithB added to its Policy"
        );
        let tagged = EventKind::QueueTagged {
            queue: "q".into(),
            keys: vec!["team".into(), "env".into()],
        };
        assert_eq!(
            engine_event(&Actor::User, Some("CreateQueue"), 0, &tagged, &labels),
            "You called CreateQueue on q: tags team, env set"
        );
    }
}
