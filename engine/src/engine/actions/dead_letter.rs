//! Dead-letter queues: the move on a receive attempt past maxReceiveCount, and
//! ListDeadLetterSourceQueues (semantics §9).

use crate::api::*;
use crate::engine::Engine;
use crate::error::SqsError;
use crate::event::{EventKind, VisibleReason};
use crate::message::State;

impl Engine {
    /// The uid of the queue's dead-letter queue, if it has a RedrivePolicy whose target exists.
    /// Out of line: the receive path's `is_dead` check, called per candidate, rarely gets here
    /// and stays small enough to inline.
    #[inline(never)]
    pub(crate) fn dead_letter_queue(&self, uid: u32) -> Option<u32> {
        let policy = self.q(uid).config.redrive.as_ref()?;
        self.by_arn(&policy.dead_letter_target_arn)
    }

    /// Moves a message that exceeded maxReceiveCount to the dead-letter queue: same MessageId,
    /// body and attributes, receive count continues, DeadLetterQueueSourceArn added; a FIFO
    /// message gets a new enqueue time and its MessageId as deduplication id, a standard one
    /// keeps its enqueue time for retention (§9).
    pub(crate) fn move_to_dead_letter_queue(&mut self, uid: u32, slot: u32, dlq: u32) {
        let now = self.now();
        let seq = self.next_seq();
        let source = self.q_mut(uid);
        let mut msg = source.remove(slot);
        let (queue, source_arn) = (source.name, source.arn.clone());
        let extras = msg.extras_mut();
        extras.dlq_source_arn = Some(source_arn);
        if self.q(dlq).fifo() {
            msg.enqueued_at = now;
            let id = msg.id.to_string();
            msg.extras_mut().dedup_id = Some(id);
        }
        msg.seq = seq;
        msg.state = State::Visible { since: now };
        msg.duplicate = false;
        let (message_id, receive_count) = (msg.id, msg.receive_count);
        let target = self.q_mut(dlq);
        let dead_letter_queue = target.name;
        target.insert(msg);
        self.emit(EventKind::MovedToDeadLetterQueue {
            queue,
            dead_letter_queue,
            message_id,
            receive_count,
        });
        self.emit(EventKind::BecameVisible {
            queue: dead_letter_queue,
            message_id,
            reason: VisibleReason::DeadLettered,
        });
        self.wake(dlq);
        self.schedule_retention(dlq);
    }

    pub(crate) fn list_dead_letter_source_queues(
        &mut self,
        input: ListDeadLetterSourceQueuesInput,
    ) -> Result<Response, SqsError> {
        let uid = self.resolve(&input.queue_url)?;
        let arn = &self.q(uid).arn;
        let urls: Vec<String> = self
            .registry
            .by_name()
            .filter(|q| {
                q.config
                    .redrive
                    .as_ref()
                    .is_some_and(|r| &r.dead_letter_target_arn == arn)
            })
            .map(|q| q.url.to_string())
            .collect();
        let (queue_urls, next_token) =
            super::paginate(urls, input.max_results, input.next_token.as_deref())?;
        Ok(Response::ListDeadLetterSourceQueues(
            ListDeadLetterSourceQueuesOutput {
                queue_urls,
                next_token,
            },
        ))
    }
}
