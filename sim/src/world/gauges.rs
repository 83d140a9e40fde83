//! What the world measures: queue depth by state (SQS's Approximate* attributes), the depth
//! samples for the charts, and the end-of-run summary.

use super::World;
use crate::bench::Retained;
use crate::metrics::{Holders, Sample, Summary};
use serde_json::Value;
use sqs_engine::Millis;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Messages per state: in the queues that are not dead-letter queues, and in those that are.
#[derive(Clone, Copy, Debug, Default)]
struct Depths {
    visible: u64,
    in_flight: u64,
    delayed: u64,
    dead_letter: u64,
}

impl World {
    /// Messages left per state, over every queue the world shows ([`World::focus`]): "visible",
    /// "in_flight", "delayed" (queues that are not dead-letter queues) and "dead_letter" (all
    /// messages in dead-letter queues).
    pub fn by_state(&self) -> BTreeMap<String, u64> {
        let d = self.depths();
        let mut by_state = BTreeMap::new();
        by_state.extend(
            [
                ("visible", d.visible),
                ("in_flight", d.in_flight),
                ("delayed", d.delayed),
                ("dead_letter", d.dead_letter),
            ]
            .map(|(k, n)| (k.to_string(), n)),
        );
        by_state
    }

    fn depths(&self) -> Depths {
        match &self.dead_letter_cache {
            Some(dead_letter_queues) => self.depths_with(dead_letter_queues),
            None => self.depths_with(&self.dead_letter_queues()),
        }
    }

    fn depths_with(&self, dead_letter_queues: &[String]) -> Depths {
        let mut depths = Depths::default();
        for (name, [visible, in_flight, delayed]) in self.engine.depths_in(&self.focus) {
            if dead_letter_queues.iter().any(|q| q == name) {
                depths.dead_letter += visible + in_flight + delayed;
            } else {
                depths.visible += visible;
                depths.in_flight += in_flight;
                depths.delayed += delayed;
            }
        }
        depths
    }

    /// One queue's messages per state ("visible", "in_flight", "delayed"), as
    /// GetQueueAttributes counts them (all 0 for a queue that does not exist), in the namespace
    /// the world shows ([`World::focus`]).
    pub fn queue_depth(&self, queue: &str) -> BTreeMap<String, u64> {
        let [visible, in_flight, delayed] =
            self.engine.depth_in(&self.focus, queue).unwrap_or([0; 3]);
        let mut depth = BTreeMap::new();
        depth.extend(
            [
                ("visible", visible),
                ("in_flight", in_flight),
                ("delayed", delayed),
            ]
            .map(|(k, n)| (k.to_string(), n)),
        );
        depth
    }

    /// Names of the queues some queue's RedrivePolicy points at, in the namespace the world
    /// shows (lists: a few queues).
    pub(crate) fn dead_letter_queues(&self) -> Vec<String> {
        let names = self.engine.queue_names_in(&self.focus);
        let targets: Vec<String> = names
            .iter()
            .filter_map(|name| {
                self.engine
                    .attributes_in(&self.focus, name)?
                    .get("RedrivePolicy")
                    .cloned()
            })
            .filter_map(|policy| {
                let policy: Value = serde_json::from_str(&policy).ok()?;
                Some(policy.get("deadLetterTargetArn")?.as_str()?.to_string())
            })
            .collect();
        names
            .into_iter()
            .filter(|name| targets.contains(&self.focus.queue_arn(name)))
            .collect()
    }

    /// Takes the depth samples due before `before` (the state has not changed since the last
    /// event, so one snapshot serves them all).
    #[inline]
    pub(crate) fn sample_before(&mut self, before: Millis) {
        // The clock loop asks before every step of every message; a sample is due about once
        // a virtual second.
        if self.metrics.sample_due(before) {
            self.take_samples(before);
        }
    }

    /// [`World::sample_before`] when a sample is due.
    #[inline(never)]
    fn take_samples(&mut self, before: Millis) {
        if self.dead_letter_cache.is_none() {
            self.dead_letter_cache = Some(self.dead_letter_queues());
        }
        let depths = self.depths();
        let m = &self.metrics;
        let snapshot = Sample {
            at: 0,
            visible: depths.visible,
            in_flight: depths.in_flight,
            delayed: depths.delayed,
            dead_letter: depths.dead_letter,
            held_by_worker: self.held_by_worker(),
            deliveries: m.deliveries,
            redeliveries: m.redeliveries,
            duplicate_effects: self.ledger.duplicates(),
            dead_lettered: m.dead_lettered,
            api_calls: m.api_calls_total(),
        };
        self.metrics.sample_until(before, snapshot);
    }

    /// Messages each worker holds now (those holding none left out), by the lanes' shared
    /// names: the last sample's list when it is the same, so that a steady world's samples
    /// share one.
    fn held_by_worker(&self) -> Holders {
        let held: Vec<_> = self
            .lanes
            .iter()
            .map(|l| (Arc::clone(&l.name), l.held() as u64))
            .filter(|&(_, n)| n > 0)
            .collect();
        match self.metrics.samples.last() {
            Some(last) if *last.held_by_worker == *held => Arc::clone(&last.held_by_worker),
            _ => held.into(),
        }
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

impl World {
    /// The sizes of what the world keeps (for the memory figures of the benchmarks).
    pub fn retained(&self) -> Retained {
        Retained {
            events: self.events_len(),
            labels: self.narration.labels().len(),
            holders: self.holders.len(),
            ledger_entries: self.ledger.effects.len(),
            ledger_keys: self.ledger.keys(),
            timers: self.timers_len(),
            samples: self.metrics.samples.len(),
            log: self.log().len(),
        }
    }
}
