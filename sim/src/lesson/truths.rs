//! Whether a lesson's claims hold in a [`World`]: the facts a question's choices state, checked
//! against the engine, the lanes, the ledger and the summary.

use super::{Claim, MessageFacts, MessageStatus, PointsAt, Question, QueueFacts, WorkerFacts};
use crate::world::World;
use serde_json::Value;
use sqs_engine::view::{MessageState, MessageView};

impl Question {
    /// Which choices' claims hold in `world` (at `reveal_at`: only the correct one's).
    pub fn truths(&self, world: &World) -> Vec<bool> {
        let mut truths = Vec::with_capacity(self.choices.len());
        for choice in &self.choices {
            truths.push(choice.claim.holds(world));
        }
        truths
    }
}

impl Claim {
    /// Whether the world shows this fact now.
    pub fn holds(&self, world: &World) -> bool {
        match self {
            Claim::Message(facts) => facts.holds(world),
            Claim::Performed { effect, times } => world.ledger().performed_named(effect) == *times,
            Claim::Counter { counter, value } => {
                let summary = serde_json::to_value(world.summary()).unwrap_or_default();
                summary.get(counter).and_then(Value::as_u64) == Some(*value)
            }
            Claim::Worker(facts) => facts.holds(world),
            Claim::Queue(facts) => facts.holds(world),
            Claim::All(claims) => claims.iter().all(|c| c.holds(world)),
        }
    }
}

impl MessageFacts {
    fn holds(&self, world: &World) -> bool {
        let found = stored(world, &self.message, self.queue.as_deref());
        if self.state == Some(MessageStatus::Deleted) {
            return found.is_empty();
        }
        let dead_letter_queues = world.dead_letter_queues();
        found.iter().any(|(queue, m)| {
            let (status, ends) = match m.state {
                _ if dead_letter_queues.contains(queue) => (MessageStatus::DeadLettered, None),
                MessageState::Delayed { until } => (MessageStatus::Delayed, Some(until)),
                MessageState::Visible => (MessageStatus::Visible, None),
                MessageState::InFlight { until, .. } => (MessageStatus::InFlight, Some(until)),
            };
            self.state.is_none_or(|s| s == status)
                && self
                    .holder
                    .as_ref()
                    .is_none_or(|h| world.holder_of(&m.message_id) == Some(h.as_str()))
                && self.receive_count.is_none_or(|n| n == m.receive_count)
                && self.until.is_none_or(|t| ends == Some(t))
        })
    }
}

impl WorkerFacts {
    fn holds(&self, world: &World) -> bool {
        world.workers().iter().any(|view| {
            view.name == self.worker
                && self.status.as_ref().is_none_or(|s| *s == view.status)
                && self.deliveries.is_none_or(|n| n == view.deliveries)
                && self.holding.is_none_or(|n| n == view.holding.len() as u64)
                && self.api_calls.is_none_or(|n| n == view.api_calls)
                && self.empty_receives.is_none_or(|n| n == view.empty_receives)
        })
    }
}

impl QueueFacts {
    fn holds(&self, world: &World) -> bool {
        let depth = world.queue_depth(&self.queue);
        let counts = [
            ("visible", self.visible),
            ("in_flight", self.in_flight),
            ("delayed", self.delayed),
        ];
        counts
            .iter()
            .all(|(state, n)| n.is_none_or(|n| depth.get(*state) == Some(&n)))
    }
}

impl PointsAt {
    /// The MessageIds of the stored messages [`PointsAt::message`] names (in
    /// [`PointsAt::queue`], if given), for the stage to highlight: none when there is no message
    /// or it is gone (deleted).
    pub fn message_ids(&self, world: &World) -> Vec<String> {
        let Some(body) = &self.message else {
            return Vec::new();
        };
        let mut ids = Vec::new();
        for (_, message) in stored(world, body, self.queue.as_deref()) {
            ids.push(message.message_id);
        }
        ids
    }
}

/// The stored messages with this body, with their queue's name (only `queue`'s, if given).
fn stored(world: &World, body: &str, queue: Option<&str>) -> Vec<(String, MessageView)> {
    let mut found = Vec::new();
    for name in world.engine().queue_names() {
        if queue.is_some_and(|q| q != name) {
            continue;
        }
        for message in world.engine().messages(&name) {
            if message.body == body {
                found.push((name.clone(), message));
            }
        }
    }
    found
}
