//! Actions on received messages by receipt handle: DeleteMessage, ChangeMessageVisibility and
//! their batches (semantics §5, §6).

use crate::api::*;
use crate::engine::Engine;
use crate::error::SqsError;
use crate::event::{EventKind, VisibleReason};
use crate::message::State;
use crate::receipt::Receipt;
use crate::Millis;

/// The visibility of one receive can never reach past 12 hours after that receive (§6).
const MAX_VISIBILITY: Millis = 43_200_000;

fn expired_handle(handle: &AnyReceiptHandle) -> SqsError {
    SqsError::invalid_value("ReceiptHandle", handle, "The receipt handle has expired.")
}

impl Engine {
    pub(crate) fn delete_message(
        &mut self,
        input: DeleteMessageInput,
    ) -> Result<Response, SqsError> {
        let uid = self.resolve(&input.queue_url)?;
        self.delete_one(uid, &input.receipt_handle)?;
        Ok(Response::Empty(Empty {}))
    }

    pub(crate) fn delete_message_batch(
        &mut self,
        input: DeleteMessageBatchInput,
    ) -> Result<Response, SqsError> {
        let uid = self.resolve(&input.queue_url)?;
        let entries = &input.entries;
        crate::validate::batch_ids(
            entries.iter().map(|e| e.id.as_str()),
            "DeleteMessageBatchRequestEntry",
        )?;
        Ok(self.batch(input.entries.into_iter().map(|e| {
            (e.id, move |engine: &mut Engine| {
                engine.delete_one(uid, &e.receipt_handle)
            })
        })))
    }

    pub(crate) fn change_message_visibility(
        &mut self,
        input: ChangeMessageVisibilityInput,
    ) -> Result<Response, SqsError> {
        let uid = self.resolve(&input.queue_url)?;
        self.change_visibility_one(uid, &input.receipt_handle, input.visibility_timeout)?;
        Ok(Response::Empty(Empty {}))
    }

    pub(crate) fn change_message_visibility_batch(
        &mut self,
        input: ChangeMessageVisibilityBatchInput,
    ) -> Result<Response, SqsError> {
        let uid = self.resolve(&input.queue_url)?;
        let entries = &input.entries;
        crate::validate::batch_ids(
            entries.iter().map(|e| e.id.as_str()),
            "ChangeMessageVisibilityBatchRequestEntry",
        )?;
        Ok(self.batch(input.entries.into_iter().map(|e| {
            (e.id, move |engine: &mut Engine| {
                let timeout = e
                    .visibility_timeout
                    .ok_or_else(|| SqsError::missing("VisibilityTimeout"))?;
                engine.change_visibility_one(uid, &e.receipt_handle, timeout)
            })
        })))
    }

    /// Runs each entry; failures go to `Failed` with HTTP 200 overall (§5, §6).
    fn batch<F>(&mut self, entries: impl ExactSizeIterator<Item = (String, F)>) -> Response
    where
        F: FnOnce(&mut Engine) -> Result<(), SqsError>,
    {
        let mut out = BatchOutput {
            successful: crate::buffers::reuse(&mut self.spare.done, entries.len()),
            failed: Vec::new(),
        };
        for (id, run) in entries {
            match run(self) {
                Ok(()) => out.successful.push(BatchResultEntry { id }),
                Err(err) => out.failed.push(BatchResultErrorEntry {
                    id,
                    sender_fault: true,
                    code: err.code.query_code().into(),
                    message: Some(err.message),
                }),
            }
        }
        Response::Batch(out)
    }

    /// The handle if this engine issued it for this queue, with the receipt it points to
    /// (the keyed check runs on every use); otherwise ReceiptHandleIsInvalid.
    fn receipt(
        &self,
        uid: u32,
        given: &AnyReceiptHandle,
    ) -> Result<(ReceiptHandle, Receipt), SqsError> {
        match given {
            AnyReceiptHandle::Issued(handle) => handle
                .receipt(self.secret)
                .filter(|r| r.queue == uid)
                .map(|r| (*handle, r)),
            AnyReceiptHandle::Other(_) => None,
        }
        .ok_or_else(|| SqsError::bad_handle(given))
    }

    /// DeleteMessage rules (§5): standard accepts any handle ever issued for the message and
    /// succeeds for a message already gone; FIFO only the latest handle while in flight (a
    /// message already gone has none: its handles have expired).
    fn delete_one(&mut self, uid: u32, text: &AnyReceiptHandle) -> Result<(), SqsError> {
        let (handle, r) = self.receipt(uid, text)?;
        let q = self.q(uid);
        let Some(m) = q.lookup(r.slot, r.slot_gen) else {
            if q.fifo() {
                return Err(expired_handle(text));
            }
            self.emit_with(|e| EventKind::StaleDelete {
                queue: e.q(uid).name,
                receipt_handle: handle,
            });
            return Ok(());
        };
        let in_flight = matches!(m.state, State::InFlight { .. });
        if q.fifo() && !(in_flight && m.receipt_gen == r.receipt_gen) {
            return Err(expired_handle(text));
        }
        let fifo = q.fifo();
        let message_id = self.q_mut(uid).delete(r.slot);
        self.emit_with(|e| EventKind::Deleted {
            queue: e.q(uid).name,
            message_id,
            receipt_handle: handle,
        });
        if fifo {
            // The next message of the group may now be receivable (§4.5).
            self.wake(uid);
        }
        Ok(())
    }

    /// ChangeMessageVisibility rules (§6): counted from the call, capped at 12 h after the
    /// receive, a no-op on a message that is already visible again.
    fn change_visibility_one(
        &mut self,
        uid: u32,
        text: &AnyReceiptHandle,
        timeout: i64,
    ) -> Result<(), SqsError> {
        crate::validate::visibility_timeout(timeout)?;
        let (handle, r) = self.receipt(uid, text)?;
        let q = self.q(uid);
        let m = q.lookup(r.slot, r.slot_gen).ok_or_else(|| {
            SqsError::invalid_value(
                "ReceiptHandle",
                text,
                "Message does not exist or is not available for visibility timeout change.",
            )
        })?;
        if q.fifo() && m.receipt_gen != r.receipt_gen {
            return Err(expired_handle(text));
        }
        let State::InFlight { received_at, .. } = m.state else {
            return Ok(());
        };
        let now = self.now();
        let timeout_ms = timeout as Millis * 1000;
        if now - received_at + timeout_ms > MAX_VISIBILITY {
            return Err(SqsError::invalid_value(
                "VisibilityTimeout",
                &timeout,
                "Total VisibilityTimeout for the message is beyond the limit [43200 seconds]",
            ));
        }
        let until = now + timeout_ms;
        let (queue, message_id) = (q.name, m.id);
        self.emit(EventKind::VisibilityChanged {
            queue,
            message_id,
            receipt_handle: handle,
            visible_at: until,
        });
        self.q_mut(uid).modify(r.slot, |m| {
            m.visibility_changes += 1;
            m.state = State::InFlight { until, received_at };
        });
        if timeout == 0 {
            self.reveal(uid, r.slot, VisibleReason::VisibilityTerminated);
        } else {
            self.schedule_reveal(uid, r.slot, until);
        }
        Ok(())
    }
}
