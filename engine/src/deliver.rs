//! Handing one chosen message to a consumer: the playground's "drag a message onto a worker".
//! Not an SQS action (SQS picks which messages a ReceiveMessage returns); it applies exactly the
//! rules of a ReceiveMessage that happened to return this message: it must be receivable now
//! (not delayed, not in flight, not behind an in-flight message of its FIFO group), the receive
//! count rises, a new receipt handle is issued, the visibility timeout starts, and a message past
//! maxReceiveCount moves to the dead-letter queue instead.

use crate::api::ReceiveMessageOutput;
use crate::error::SqsError;
use crate::Engine;

impl Engine {
    /// Receives the message `message_id` of the queue at `queue_url`, as a ReceiveMessage with
    /// `MessageSystemAttributeNames: ["All"]` and the given VisibilityTimeout (None: the queue's)
    /// that returned it. Errors (InvalidParameterValue with a reason naming why the message cannot
    /// be taken: delayed, in flight, blocked by its group, unknown) change nothing.
    pub fn receive_specific(
        &mut self,
        queue_url: &str,
        message_id: &str,
        visibility_timeout: Option<i64>,
    ) -> Result<ReceiveMessageOutput, SqsError> {
        let _ = (queue_url, message_id, visibility_timeout);
        todo!("receive_specific")
    }
}
