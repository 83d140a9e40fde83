//! SendMessage and SendMessageBatch (semantics §3).

use crate::api::*;
use crate::engine::Engine;
use crate::error::SqsError;
use crate::event::{EventKind, VisibleReason};
use crate::hash;
use crate::message::{self, Extras, Message, State};
use crate::validate;

/// One message to send, taken from a SendMessage input or a batch entry (owned, so the body
/// and attributes move into the stored message without a copy).
struct Outgoing {
    body: Body,
    delay: Option<i64>,
    /// MessageAttributes, MessageSystemAttributes and MessageDeduplicationId, seldom set: boxed
    /// as a batch entry keeps them, so that an entry becomes an `Outgoing` by moving ~70 bytes
    /// (unboxed, each send built ~150).
    extras: Option<Box<SendMessageBatchEntryExtras>>,
    group_id: Option<String>,
}

impl Outgoing {
    fn attributes(&self) -> Option<&MessageAttributes> {
        self.extras.as_ref()?.message_attributes.as_ref()
    }

    fn system(&self) -> Option<&MessageAttributes> {
        self.extras.as_ref()?.message_system_attributes.as_ref()
    }

    fn dedup_id(&self) -> Option<&str> {
        self.extras.as_ref()?.message_deduplication_id.as_deref()
    }
}

impl From<SendMessageInput> for Outgoing {
    fn from(i: SendMessageInput) -> Self {
        let extras = match (
            i.message_attributes,
            i.message_system_attributes,
            i.message_deduplication_id,
        ) {
            (None, None, None) => None,
            (message_attributes, message_system_attributes, message_deduplication_id) => {
                Some(Box::new(SendMessageBatchEntryExtras {
                    message_attributes,
                    message_system_attributes,
                    message_deduplication_id,
                }))
            }
        };
        Outgoing {
            body: i.message_body,
            delay: i.delay_seconds,
            extras,
            group_id: i.message_group_id,
        }
    }
}

impl From<SendMessageBatchEntry> for Outgoing {
    fn from(e: SendMessageBatchEntry) -> Self {
        Outgoing {
            body: e.message_body,
            delay: e.delay_seconds,
            extras: e.extras,
            group_id: e.message_group_id,
        }
    }
}

/// Bytes counted against MaximumMessageSize (system attributes excluded, §3.1).
#[inline]
fn size(body: &Body, attributes: Option<&MessageAttributes>) -> usize {
    body.len() + validate::attributes_size(attributes)
}

const NO_DEDUP_ID: &str = "The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly";

impl Engine {
    pub(crate) fn send_message(&mut self, input: SendMessageInput) -> Result<Response, SqsError> {
        let uid = self.resolve(&input.queue_url)?;
        let out = Outgoing::from(input);
        self.check_send(uid, &out, false)?;
        let sent = self.enqueue(uid, out);
        Ok(Response::SendMessage(SendMessageOutput {
            message_id: sent.message_id,
            md5_of_message_body: sent.md5_of_message_body,
            md5_of_message_attributes: sent.md5_of_message_attributes,
            md5_of_message_system_attributes: sent.md5_of_message_system_attributes,
            sequence_number: sent.sequence_number,
        }))
    }

    pub(crate) fn send_message_batch(
        &mut self,
        input: SendMessageBatchInput,
    ) -> Result<Response, SqsError> {
        let uid = self.resolve(&input.queue_url)?;
        let entries = &input.entries;
        validate::batch_ids(
            entries.iter().map(|e| e.id.as_str()),
            "SendMessageBatchRequestEntry",
        )?;
        let total: usize = entries
            .iter()
            .map(|e| size(&e.message_body, e.message_attributes()))
            .sum();
        if total > validate::MAX_BATCH_BYTES {
            return Err(SqsError::new(
                crate::error::ErrorCode::BatchRequestTooLong,
                format!("Batch requests cannot be longer than 1048576 bytes. You have sent {total} bytes."),
            ));
        }
        let q = self.q(uid);
        if q.fifo() {
            // Whole-request failures on FIFO (§3.4).
            if entries.iter().any(|e| e.message_group_id.is_none()) {
                return Err(SqsError::invalid(
                    "The request must contain the parameter MessageGroupId.",
                ));
            }
            if !q.config.content_based_dedup
                && entries
                    .iter()
                    .any(|e| e.message_deduplication_id().is_none())
            {
                return Err(SqsError::invalid(NO_DEDUP_ID));
            }
        }
        let mut output = SendMessageBatchOutput {
            successful: crate::buffers::reuse(&mut self.spare.sent, entries.len()),
            failed: Vec::new(),
        };
        for mut entry in input.entries {
            let id = std::mem::take(&mut entry.id);
            let out = Outgoing::from(entry);
            match self.check_send(uid, &out, true) {
                Ok(()) => {
                    let mut sent = self.enqueue(uid, out);
                    sent.id = id;
                    output.successful.push(sent);
                }
                Err(err) => output.failed.push(BatchResultErrorEntry {
                    id,
                    sender_fault: true,
                    code: err.code.query_code().into(),
                    message: Some(err.message),
                }),
            }
        }
        Ok(Response::SendMessageBatch(output))
    }

    /// Every per-message rule (§3.2–§3.5); `batch` words the size error as batches do.
    /// Inlined into its two callers: every send checks.
    #[inline(always)]
    fn check_send(&self, uid: u32, out: &Outgoing, batch: bool) -> Result<(), SqsError> {
        let q = self.q(uid);
        validate::body(&out.body)?;
        if let Some(delay) = out.delay {
            validate::delay_seconds(delay)?;
            if q.fifo() && delay > 0 {
                return Err(SqsError::invalid_value(
                    "DelaySeconds",
                    &delay,
                    "The request include parameter that is not valid for this queue type.",
                ));
            }
        }
        if let Some(attributes) = out.attributes() {
            validate::message_attributes(attributes)?;
        }
        if let Some(system) = out.system() {
            validate::system_attributes(system)?;
        }
        let max = q.config.maximum_message_size();
        if size(&out.body, out.attributes()) > max as usize {
            let verb = if batch {
                "cannot be validated"
            } else {
                "are invalid"
            };
            return Err(SqsError::invalid(format!(
                "One or more parameters {verb}. Reason: Message must be shorter than {max} bytes."
            )));
        }
        match out.group_id.as_deref() {
            Some(group) => validate::group_or_dedup_id("MessageGroupId", group)?,
            None if q.fifo() => return Err(SqsError::missing("MessageGroupId")),
            None => {}
        }
        match out.dedup_id() {
            Some(id) if !q.fifo() => {
                return Err(SqsError::invalid_value(
                    "MessageDeduplicationId",
                    &id,
                    "The request includes a parameter that is not valid for this queue type.",
                ))
            }
            Some(id) => validate::group_or_dedup_id("MessageDeduplicationId", id)?,
            None if q.fifo() && !q.config.content_based_dedup => {
                return Err(SqsError::invalid(NO_DEDUP_ID))
            }
            None => {}
        }
        Ok(())
    }

    /// Stores a checked message (or recognises a FIFO duplicate, §3.4) and answers as AWS does.
    fn enqueue(&mut self, uid: u32, out: Outgoing) -> SendMessageBatchResultEntry {
        let md5_of_body = Md5(hash::md5(out.body.as_bytes()));
        let md5_of_message_attributes = out.attributes().and_then(message::md5_of_attributes);
        let md5_of_message_system_attributes = out.system().and_then(message::md5_of_attributes);
        let (message_id, seq) = self.store(uid, out, md5_of_body);
        SendMessageBatchResultEntry {
            id: String::new(),
            message_id,
            md5_of_message_body: md5_of_body,
            md5_of_message_attributes,
            md5_of_message_system_attributes,
            sequence_number: seq.map(message::sequence_number),
        }
    }

    /// [`Engine::enqueue`]'s work: stores the message, or finds the one a FIFO duplicate
    /// repeats. Answers its MessageId and, on a FIFO queue, its sequence.
    fn store(&mut self, uid: u32, out: Outgoing, md5_of_body: Md5) -> (MessageId, Option<u64>) {
        let now = self.now();
        let q = self.q(uid);
        let fifo = q.fifo();
        let dedup = fifo.then(|| {
            let id = out
                .dedup_id()
                .map_or_else(|| hash::sha256_hex(out.body.as_bytes()), String::from);
            let key = match (q.dedup_per_group, &out.group_id) {
                (true, Some(group)) => format!("{group}\u{0}{id}"),
                _ => id.clone(),
            };
            (id, key)
        });
        if let Some((dedup_id, key)) = &dedup {
            if let Some((message_id, seq)) = q.dedup.get(key, now).cloned() {
                let queue = q.name;
                self.emit(EventKind::Deduplicated {
                    queue,
                    message_id,
                    deduplication_id: dedup_id.clone(),
                });
                return (message_id, Some(seq));
            }
        }
        let delay_s = match out.delay {
            Some(d) if !fifo => d as u64,
            _ => q.config.delay_seconds() as u64,
        };
        let state = match delay_s * 1000 {
            0 => State::Visible { since: now },
            delay => State::Delayed { until: now + delay },
        };
        let id = self.rng.uuid();
        let seq = self.next_seq();
        let (dedup_id, dedup_key) = dedup.unzip();
        let (attributes, system) = match out.extras {
            Some(extras) => (extras.message_attributes, extras.message_system_attributes),
            None => (None, None),
        };
        let trace_header = system.and_then(|s| s.get("AWSTraceHeader")?.string_value.clone());
        let has_attributes = attributes.as_ref().is_some_and(|a| !a.is_empty());
        let has_extras = has_attributes || trace_header.is_some() || dedup_id.is_some();
        let extras = has_extras.then(|| {
            Box::new(Extras {
                attributes: attributes.unwrap_or_default(),
                trace_header,
                dedup_id,
                dlq_source_arn: None,
            })
        });
        let (body, group_id) = (out.body, out.group_id);
        let q = self.q_mut(uid);
        let slot = q.insert_with(|| Message {
            extras,
            ..Message::new(id, body, md5_of_body, group_id, seq, now, state)
        });
        if let Some(key) = dedup_key {
            q.dedup.insert(key, (id, seq), now);
        }
        let visible_at = match state {
            State::Delayed { until } => until,
            _ => now,
        };
        self.emit_with(|e| EventKind::Sent {
            queue: e.q(uid).name,
            message_id: id,
            group_id: e.q(uid).msg(slot).group.clone(),
            visible_at,
        });
        match state {
            State::Delayed { until } => self.schedule_reveal(uid, slot, until),
            _ => {
                if self.events.implied() {
                    self.emit_with(|e| EventKind::BecameVisible {
                        queue: e.q(uid).name,
                        message_id: id,
                        reason: VisibleReason::Sent,
                    });
                }
                self.wake(uid);
            }
        }
        // A message sent now expires no earlier than the queue's oldest one: only a queue
        // without a retention timer needs one.
        if self.q(uid).retention_timer.is_none() {
            self.schedule_retention(uid);
        }
        (id, fifo.then_some(seq))
    }
}
