//! Queue management: CreateQueue, DeleteQueue, ListQueues, GetQueueUrl, Get/SetQueueAttributes,
//! PurgeQueue (semantics §2, §10).

use crate::api::*;
use crate::attributes::{self, DlqTarget, QueueConfig};
use crate::engine::Engine;
use crate::error::{ErrorCode, SqsError};
use crate::event::{EventKind, VisibleReason};
use crate::message::State;
use crate::namespace::Namespace;
use crate::queue::Queue;
use crate::Millis;

/// A deleted queue's name can be reused after this long (§2.1).
const NAME_REUSE_DELAY: Millis = 60_000;
/// PurgeQueue cool-down (§10).
const PURGE_COOLDOWN: Millis = 60_000;

impl Engine {
    /// Looks up RedrivePolicy targets for [`QueueConfig::apply`]: a dead-letter queue is in
    /// the source queue's account and region [DG:Using dead-letter queues in Amazon SQS], so
    /// one elsewhere does not exist for it.
    fn dlq_target(&self, own_arn: &str, arn: &str) -> Option<DlqTarget> {
        if own_arn.rsplit_once(':').map(|(ns, _)| ns) != arn.rsplit_once(':').map(|(ns, _)| ns) {
            return None;
        }
        let q = self.q(self.by_arn(arn)?);
        Some(DlqTarget {
            fifo: q.fifo(),
            allows_source: q
                .config
                .redrive_allow
                .as_ref()
                .is_none_or(|allow| allow.allows(own_arn)),
        })
    }

    pub(crate) fn create_queue(&mut self, input: CreateQueueInput) -> Result<Response, SqsError> {
        let name = input.queue_name.as_str();
        let requested = input.attributes.unwrap_or_default();
        let fifo = requested
            .get("FifoQueue")
            .is_some_and(|v| v.eq_ignore_ascii_case("true"));
        crate::validate::queue_name(name, fifo)?;
        let arn = self.context.queue_arn(name);
        let mut config = QueueConfig::new(fifo);
        config.apply(&requested, &arn, &|target| self.dlq_target(&arn, target))?;
        let tags = input.tags.unwrap_or_default();
        super::tags::check(&tags)?;
        super::tags::check_count(name, tags.len())?;
        if let Some(uid) = self.uid_named(name) {
            // Idempotent if every requested attribute equals the current value (§2.2).
            let (mut current, mut wanted) = (Attributes::new(), Attributes::new());
            self.q(uid).config.render(&mut current);
            config.render(&mut wanted);
            if let Some(diff) = requested.keys().find(|k| current.get(*k) != wanted.get(*k)) {
                return Err(SqsError::new(
                    ErrorCode::QueueNameExists,
                    format!("A queue already exists with the same name and a different value for attribute {diff}"),
                ));
            }
            return Ok(Response::CreateQueue(QueueUrlOutput {
                queue_url: self.q(uid).url.clone(),
            }));
        }
        if self
            .registry
            .deleted_at(&arn)
            .is_some_and(|t| self.now() < t + NAME_REUSE_DELAY)
        {
            return Err(SqsError::new(
                ErrorCode::QueueDeletedRecently,
                "You must wait 60 seconds after deleting a queue before you can create another with the same name.",
            ));
        }
        let uid = self
            .registry
            .create(&self.context, name, config, self.now());
        let url = self.q(uid).url.clone();
        self.emit(EventKind::QueueCreated {
            queue: name.into(),
            fifo,
        });
        if !tags.is_empty() {
            self.set_tags(uid, tags)?; // Checked above: cannot fail.
        }
        Ok(Response::CreateQueue(QueueUrlOutput { queue_url: url }))
    }

    pub(crate) fn delete_queue(&mut self, input: QueueUrlInput) -> Result<Response, SqsError> {
        let uid = self.resolve(&input.queue_url)?;
        let polls = self.q(uid).polls.to_vec();
        for poll in polls {
            self.time_out_poll(poll);
        }
        let queue = self.registry.delete(uid, self.now());
        self.emit(EventKind::QueueDeleted { queue: queue.name });
        Ok(Response::Empty(Empty {}))
    }

    pub(crate) fn list_queues(&mut self, input: ListQueuesInput) -> Result<Response, SqsError> {
        // The call's namespace's queues whose names start with the prefix, by name.
        let prefix = self
            .context
            .queue_arn(&input.queue_name_prefix.unwrap_or_default());
        let urls: Vec<String> = self
            .registry
            .starting_with(&prefix)
            .map(|(_, uid)| self.q(uid).url.to_string())
            .collect();
        let (urls, next_token) =
            super::paginate(urls, input.max_results, input.next_token.as_deref())?;
        Ok(Response::ListQueues(ListQueuesOutput {
            queue_urls: Some(urls).filter(|u| !u.is_empty()),
            next_token,
        }))
    }

    pub(crate) fn get_queue_url(&mut self, input: GetQueueUrlInput) -> Result<Response, SqsError> {
        // Another account's queue, in the call's region, when the caller names its owner.
        let owner = input.queue_owner_a_w_s_account_id;
        let namespace = owner.map(|account| Namespace::new(&account, &self.context.region));
        let namespace = namespace.as_ref().unwrap_or(&self.context);
        let uid = self
            .by_arn(&namespace.queue_arn(&input.queue_name))
            .ok_or_else(SqsError::no_queue)?;
        Ok(Response::GetQueueUrl(QueueUrlOutput {
            queue_url: self.q(uid).url.clone(),
        }))
    }

    /// GetQueueAttributes(All) for `q` (§2.3, §2.4).
    pub(crate) fn all_attributes(&self, q: &Queue) -> Attributes {
        let mut out = Attributes::new();
        q.config.render(&mut out);
        let counts = [
            ("ApproximateNumberOfMessages", q.counts.visible),
            ("ApproximateNumberOfMessagesNotVisible", q.counts.in_flight),
            ("ApproximateNumberOfMessagesDelayed", q.counts.delayed),
        ];
        for (name, count) in counts {
            out.insert(name.into(), count.to_string());
        }
        let seconds = |t: Millis| ((crate::EPOCH_MS + t) / 1000).to_string();
        out.insert("CreatedTimestamp".into(), seconds(q.created_at));
        out.insert("LastModifiedTimestamp".into(), seconds(q.modified_at));
        out.insert("QueueArn".into(), q.arn.clone());
        out
    }

    pub(crate) fn get_queue_attributes(
        &mut self,
        input: GetQueueAttributesInput,
    ) -> Result<Response, SqsError> {
        let uid = self.resolve(&input.queue_url)?;
        let names = input.attribute_names.unwrap_or_default();
        if let Some(bad) = names.iter().find(|n| !attributes::is_known_name(n)) {
            return Err(SqsError::unknown_attribute(bad));
        }
        let mut all = self.all_attributes(self.q(uid));
        if !names.iter().any(|n| n == "All") {
            all.retain(|k, _| names.contains(k));
        }
        Ok(Response::GetQueueAttributes(GetQueueAttributesOutput {
            attributes: Some(all).filter(|a| !a.is_empty()),
        }))
    }

    pub(crate) fn set_queue_attributes(
        &mut self,
        input: SetQueueAttributesInput,
    ) -> Result<Response, SqsError> {
        let uid = self.resolve(&input.queue_url)?;
        let q = self.q(uid);
        let mut config = q.config.clone();
        let arn = q.arn.clone();
        config.apply(&input.attributes, &arn, &|target| {
            self.dlq_target(&arn, target)
        })?;
        let (old_delay, now) = (q.config.delay_seconds(), self.now());
        let q = self.q_mut(uid);
        q.config = config;
        q.modified_at = now;
        let names = input.attributes.keys().cloned().collect();
        let name = q.name;
        self.emit(EventKind::QueueAttributesChanged { queue: name, names });
        if self.q(uid).fifo() && self.q(uid).config.delay_seconds() != old_delay {
            self.redelay_fifo(uid);
        }
        // A shorter retention may expire messages now (§8).
        self.schedule_retention(uid);
        Ok(Response::Empty(Empty {}))
    }

    /// FIFO queue delay is retroactive: delayed messages become visible at enqueue time + the
    /// current queue delay (§7).
    fn redelay_fifo(&mut self, uid: u32) {
        let q = self.q(uid);
        let delay = q.config.delay_seconds() as Millis * 1000;
        let delayed: Vec<(u32, Millis)> = q
            .iter()
            .filter(|(_, m)| matches!(m.state, State::Delayed { .. }))
            .map(|(slot, m)| (slot, m.enqueued_at + delay))
            .collect();
        for (slot, until) in delayed {
            if until <= self.now() {
                self.reveal_since(uid, slot, VisibleReason::DelayEnded, until);
            } else {
                self.q_mut(uid).modify(slot, |m| {
                    m.state = State::Delayed { until };
                });
                self.schedule_reveal(uid, slot, until);
            }
        }
    }

    pub(crate) fn purge_queue(&mut self, input: QueueUrlInput) -> Result<Response, SqsError> {
        let uid = self.resolve(&input.queue_url)?;
        let now = self.now();
        let q = self.q_mut(uid);
        if q.last_purge.is_some_and(|t| now < t + PURGE_COOLDOWN) {
            return Err(SqsError::new(
                ErrorCode::PurgeQueueInProgress,
                format!(
                    "Only one PurgeQueue operation on {} is allowed every 60 seconds.",
                    q.name
                ),
            ));
        }
        q.last_purge = Some(now);
        let message_ids = q.purge();
        let queue = q.name;
        self.emit(EventKind::Purged { queue, message_ids });
        Ok(Response::Empty(Empty {}))
    }
}
