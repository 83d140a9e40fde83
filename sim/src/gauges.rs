//! What the world measures: queue depth by state (SQS's Approximate* attributes), the depth
//! samples for the charts, and the end-of-run summary.

use crate::metrics::{Sample, Summary};
use crate::world::World;
use serde_json::Value;
use sqs_engine::Millis;
use std::collections::{BTreeMap, BTreeSet};

impl World {
    /// Messages left per state, over every queue: "visible", "in_flight", "delayed" (queues that
    /// are not dead-letter queues) and "dead_letter" (all messages in dead-letter queues).
    pub fn by_state(&self) -> BTreeMap<String, u64> {
        match &self.dead_letter_cache {
            Some(dead_letter_queues) => self.by_state_with(dead_letter_queues),
            None => self.by_state_with(&self.dead_letter_queues()),
        }
    }

    fn by_state_with(&self, dead_letter_queues: &BTreeSet<String>) -> BTreeMap<String, u64> {
        let mut by_state: BTreeMap<String, u64> =
            ["visible", "in_flight", "delayed", "dead_letter"]
                .into_iter()
                .map(|k| (k.to_string(), 0))
                .collect();
        for name in self.engine.queue_names() {
            let depth = self.queue_depth(&name);
            if dead_letter_queues.contains(&name) {
                *by_state.entry("dead_letter".into()).or_default() += depth.values().sum::<u64>();
            } else {
                for (state, n) in depth {
                    *by_state.entry(state).or_default() += n;
                }
            }
        }
        by_state
    }

    /// One queue's messages per state ("visible", "in_flight", "delayed").
    pub fn queue_depth(&self, queue: &str) -> BTreeMap<String, u64> {
        let attributes = self.engine.attributes(queue).unwrap_or_default();
        let count = |name: &str| {
            attributes
                .get(name)
                .and_then(|n| n.parse::<u64>().ok())
                .unwrap_or(0)
        };
        BTreeMap::from([
            ("visible".into(), count("ApproximateNumberOfMessages")),
            (
                "in_flight".into(),
                count("ApproximateNumberOfMessagesNotVisible"),
            ),
            (
                "delayed".into(),
                count("ApproximateNumberOfMessagesDelayed"),
            ),
        ])
    }

    /// Names of the queues some queue's RedrivePolicy points at.
    fn dead_letter_queues(&self) -> BTreeSet<String> {
        let names = self.engine.queue_names();
        let targets: BTreeSet<String> = names
            .iter()
            .filter_map(|name| self.engine.attributes(name)?.get("RedrivePolicy").cloned())
            .filter_map(|policy| {
                let policy: Value = serde_json::from_str(&policy).ok()?;
                Some(policy.get("deadLetterTargetArn")?.as_str()?.to_string())
            })
            .collect();
        names
            .into_iter()
            .filter(|name| {
                self.engine
                    .queue_arn(name)
                    .is_some_and(|arn| targets.contains(&arn))
            })
            .collect()
    }

    /// Takes the depth samples due before `before` (the state has not changed since the last
    /// event, so one snapshot serves them all).
    pub(crate) fn sample_before(&mut self, before: Millis) {
        if !self.metrics.sample_due(before) {
            return;
        }
        if self.dead_letter_cache.is_none() {
            self.dead_letter_cache = Some(self.dead_letter_queues());
        }
        let by_state = self.by_state();
        let state = |k: &str| by_state.get(k).copied().unwrap_or(0);
        let m = &self.metrics;
        let snapshot = Sample {
            at: 0,
            visible: state("visible"),
            in_flight: state("in_flight"),
            delayed: state("delayed"),
            dead_letter: state("dead_letter"),
            held_by_worker: self
                .lanes
                .iter()
                .map(|l| (l.name.clone(), l.held() as u64))
                .filter(|(_, n)| *n > 0)
                .collect(),
            deliveries: m.deliveries,
            redeliveries: m.redeliveries,
            duplicate_effects: self.ledger.duplicates(),
            dead_lettered: m.dead_lettered,
            api_calls: m.api_calls_total(),
        };
        self.metrics.sample_until(before, snapshot);
    }

    /// The end-of-run summary.
    pub fn summary(&self) -> Summary {
        let m = &self.metrics;
        Summary {
            sent: m.sent,
            deliveries: m.deliveries,
            redeliveries: m.redeliveries,
            deleted: m.deleted,
            dead_lettered: m.dead_lettered,
            effects: self.ledger.performed(),
            duplicate_effects: self.ledger.duplicates(),
            prevented_effects: self.ledger.prevented(),
            api_calls: m.api_calls_total(),
            empty_receives: m.empty_receives,
            cost_usd: m.cost_usd(),
            by_state: self.by_state(),
        }
    }
}
