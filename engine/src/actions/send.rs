//! SendMessage and SendMessageBatch (semantics §3).

use crate::api::*;
use crate::engine::Engine;
use crate::error::SqsError;
use crate::event::{EventKind, VisibleReason};
use crate::hash;
use crate::message::{self, Extras, Message, State};
use crate::validate;

/// One message to send, borrowed from a SendMessage input or a batch entry.
struct Outgoing<'a> {
    body: &'a str,
    delay: Option<i64>,
    attributes: Option<&'a MessageAttributes>,
    system: Option<&'a MessageAttributes>,
    dedup_id: Option<&'a str>,
    group_id: Option<&'a str>,
}

impl<'a> From<&'a SendMessageBatchEntry> for Outgoing<'a> {
    fn from(e: &'a SendMessageBatchEntry) -> Self {
        Outgoing {
            body: &e.message_body,
            delay: e.delay_seconds,
            attributes: e.message_attributes.as_ref(),
            system: e.message_system_attributes.as_ref(),
            dedup_id: e.message_deduplication_id.as_deref(),
            group_id: e.message_group_id.as_deref(),
        }
    }
}

impl Outgoing<'_> {
    /// Bytes counted against MaximumMessageSize (system attributes excluded, §3.1).
    fn size(&self) -> usize {
        self.body.len() + validate::attributes_size(self.attributes)
    }
}

const NO_DEDUP_ID: &str = "The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly";

impl Engine {
    pub(crate) fn send_message(&mut self, input: SendMessageInput) -> Result<Response, SqsError> {
        let uid = self.resolve(&input.queue_url)?;
        let out = Outgoing {
            body: &input.message_body,
            delay: input.delay_seconds,
            attributes: input.message_attributes.as_ref(),
            system: input.message_system_attributes.as_ref(),
            dedup_id: input.message_deduplication_id.as_deref(),
            group_id: input.message_group_id.as_deref(),
        };
        self.check_send(uid, &out, false)?;
        let sent = self.enqueue(uid, &out);
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
        let total: usize = entries.iter().map(|e| Outgoing::from(e).size()).sum();
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
                && entries.iter().any(|e| e.message_deduplication_id.is_none())
            {
                return Err(SqsError::invalid(NO_DEDUP_ID));
            }
        }
        let mut output = SendMessageBatchOutput::default();
        for entry in entries {
            let out = Outgoing::from(entry);
            match self.check_send(uid, &out, true) {
                Ok(()) => {
                    let mut sent = self.enqueue(uid, &out);
                    sent.id = entry.id.clone();
                    output.successful.push(sent);
                }
                Err(err) => output.failed.push(BatchResultErrorEntry {
                    id: entry.id.clone(),
                    sender_fault: true,
                    code: err.code.query_code().into(),
                    message: Some(err.message),
                }),
            }
        }
        Ok(Response::SendMessageBatch(output))
    }

    /// Every per-message rule (§3.2–§3.5); `batch` words the size error as batches do.
    fn check_send(&self, uid: u32, out: &Outgoing, batch: bool) -> Result<(), SqsError> {
        let q = self.q(uid);
        validate::body(out.body)?;
        if let Some(delay) = out.delay {
            validate::delay_seconds(delay)?;
            if q.fifo() && delay > 0 {
                return Err(SqsError::invalid_value(
                    "DelaySeconds",
                    delay,
                    "The request include parameter that is not valid for this queue type.",
                ));
            }
        }
        if let Some(attributes) = out.attributes {
            validate::message_attributes(attributes)?;
        }
        if let Some(system) = out.system {
            validate::system_attributes(system)?;
        }
        let max = q.config.maximum_message_size();
        if out.size() > max as usize {
            let verb = if batch { "cannot be validated" } else { "are invalid" };
            return Err(SqsError::invalid(format!(
                "One or more parameters {verb}. Reason: Message must be shorter than {max} bytes."
            )));
        }
        match out.group_id {
            Some(group) => validate::group_or_dedup_id("MessageGroupId", group)?,
            None if q.fifo() => return Err(SqsError::missing("MessageGroupId")),
            None => {}
        }
        match out.dedup_id {
            Some(id) if !q.fifo() => {
                return Err(SqsError::invalid_value(
                    "MessageDeduplicationId",
                    id,
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
    fn enqueue(&mut self, uid: u32, out: &Outgoing) -> SendMessageBatchResultEntry {
        let now = self.now;
        let md5_of_message_body = hash::md5_hex(out.body.as_bytes());
        let md5_of_message_attributes = out.attributes.and_then(hash::md5_of_attributes);
        let md5_of_message_system_attributes = out.system.and_then(hash::md5_of_attributes);
        let answer = |message_id: String, seq: Option<u64>| SendMessageBatchResultEntry {
            id: String::new(),
            message_id,
            md5_of_message_body: md5_of_message_body.clone(),
            md5_of_message_attributes: md5_of_message_attributes.clone(),
            md5_of_message_system_attributes: md5_of_message_system_attributes.clone(),
            sequence_number: seq.map(message::sequence_number),
        };
        let q = self.q(uid);
        let fifo = q.fifo();
        let dedup = fifo.then(|| {
            let id = out
                .dedup_id
                .map_or_else(|| hash::sha256_hex(out.body.as_bytes()), String::from);
            let key = match (q.dedup_per_group, out.group_id) {
                (true, Some(group)) => format!("{group}\u{0}{id}"),
                _ => id.clone(),
            };
            (id, key)
        });
        if let Some((dedup_id, key)) = &dedup {
            if let Some((message_id, seq)) = q.dedup.get(key, now).cloned() {
                let queue = q.name.clone();
                self.emit(EventKind::Deduplicated {
                    queue,
                    message_id: message_id.clone(),
                    deduplication_id: dedup_id.clone(),
                });
                return answer(message_id, Some(seq));
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
        let extras = Extras {
            attributes: out.attributes.cloned().unwrap_or_default(),
            trace_header: out
                .system
                .and_then(|s| s.get("AWSTraceHeader"))
                .and_then(|v| v.string_value.clone()),
            dedup_id: dedup.as_ref().map(|(id, _)| id.clone()),
            dlq_source_arn: None,
        };
        let has_extras = !extras.attributes.is_empty()
            || extras.trace_header.is_some()
            || extras.dedup_id.is_some();
        let msg = Message {
            id: id.clone(),
            body: out.body.into(),
            md5_of_body: md5_of_message_body.clone(),
            extras: has_extras.then(|| Box::new(extras)),
            group: out.group_id.map(String::from),
            seq,
            sent_at: now,
            enqueued_at: now,
            state,
            receive_count: 0,
            first_receive: None,
            receipt_gen: 0,
            receipt_nonce: 0,
            timer_gen: 0,
            visibility_changes: 0,
            duplicate: false,
            group_slot: 0,
        };
        let q = self.q_mut(uid);
        let slot = q.insert(msg);
        if let Some((_, key)) = dedup {
            q.dedup.insert(key, (id.clone(), seq), now);
        }
        let visible_at = match state {
            State::Delayed { until } => until,
            _ => now,
        };
        self.emit_with(|e| EventKind::Sent {
            queue: e.q(uid).name.clone(),
            message_id: id.clone(),
            group_id: out.group_id.map(String::from),
            visible_at,
        });
        match state {
            State::Delayed { until } => self.schedule_reveal(uid, slot, until),
            _ => {
                self.emit_with(|e| EventKind::BecameVisible {
                    queue: e.q(uid).name.clone(),
                    message_id: id.clone(),
                    reason: VisibleReason::Sent,
                });
                self.wake(uid);
            }
        }
        self.schedule_retention(uid);
        answer(id, fifo.then_some(seq))
    }
}
