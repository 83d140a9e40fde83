//! Handing one chosen message to a consumer: the playground's "drag a message onto a worker".
//! Not an SQS action (SQS picks which messages a ReceiveMessage returns); it applies exactly the
//! rules of a ReceiveMessage that happened to return this message: it must be receivable now
//! (not delayed, not in flight, not behind an in-flight message of its FIFO group), the receive
//! count rises, a new receipt handle is issued, the visibility timeout starts, and a message past
//! maxReceiveCount moves to the dead-letter queue instead.

use crate::api::{QueueUrl, ReceiveMessageOutput};
use crate::error::SqsError;
use crate::message::State;
use crate::polls::ReceiveParams;
use crate::{Engine, Millis};

impl Engine {
    /// Receives the message `message_id` of the queue at `queue_url`, as a ReceiveMessage with
    /// `MessageSystemAttributeNames: ["All"]` and the given VisibilityTimeout (None: the queue's)
    /// that returned it. Errors (InvalidParameterValue with a reason naming why the message cannot
    /// be taken: delayed, in flight, blocked by its group, unknown) change nothing. A message past
    /// maxReceiveCount is moved to the dead-letter queue and the answer is `{}`.
    pub fn receive_specific(
        &mut self,
        queue_url: &QueueUrl,
        message_id: &str,
        visibility_timeout: Option<i64>,
    ) -> Result<ReceiveMessageOutput, SqsError> {
        let uid = self.resolve(queue_url)?;
        let q = self.q(uid);
        let visibility = visibility_timeout.unwrap_or(q.config.visibility_timeout() as i64);
        crate::validate::visibility_timeout(visibility)?;
        let refuse = |reason: &str| SqsError::invalid_value("MessageId", &message_id, reason);
        let (slot, msg) = q
            .iter()
            .find(|(_, m)| *m.id == *message_id)
            .ok_or_else(|| refuse("The message does not exist in this queue."))?;
        match msg.state {
            State::Delayed { .. } => return Err(refuse("The message is delayed.")),
            State::InFlight { .. } if !msg.duplicate => {
                return Err(refuse("The message is in flight."))
            }
            _ => {}
        }
        if q.fifo() && !q.visible_prefix(msg.group_slot).any(|s| s == slot) {
            return Err(refuse(
                "The message waits behind an in-flight message of its message group.",
            ));
        }
        let dead = q
            .config
            .redrive
            .as_ref()
            .is_some_and(|r| msg.receive_count >= r.max_receive_count);
        let answer = match self.dead_letter_queue(uid).filter(|_| dead) {
            Some(dlq) => {
                self.move_to_dead_letter_queue(uid, slot, dlq);
                ReceiveMessageOutput::default()
            }
            None => {
                let params = ReceiveParams::hand_delivery(visibility as Millis * 1000);
                let mut messages = Vec::with_capacity(1);
                self.deliver(uid, slot, &params, &mut messages);
                ReceiveMessageOutput {
                    messages: Some(messages),
                }
            }
        };
        self.advance_to(self.now());
        Ok(answer)
    }
}
