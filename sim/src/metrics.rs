//! Metrics over time for the charts and counters, and the end-of-run summary.
//!
//! Counters are updated from the engine's events (so they count what SQS did, whoever asked) and
//! from the calls the world makes. Depth samples are taken every [`SAMPLE_EVERY`] of virtual time;
//! when [`MAX_SAMPLES`] are held, every other one is dropped and the interval doubles, so a long
//! session keeps at most 720 samples (about 100 KB) spread over its whole length.

use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};
use sqs_engine::api::MessageId;
use sqs_engine::{EventKind, Millis, Request};
use std::collections::BTreeMap;
use std::sync::Arc;

/// The first sampling interval (1 virtual second).
pub const SAMPLE_EVERY: Millis = 1000;
/// The most samples kept; older ones are folded into coarser intervals.
pub const MAX_SAMPLES: usize = 720;
/// How many SQS actions there are.
const ACTIONS: usize = Request::ACTIONS.len();
/// SQS's list price, USD per million requests (a batch is one request).
pub const USD_PER_MILLION_REQUESTS: f64 = 0.40;

/// Messages held, by worker name: [`Sample::held_by_worker`].
pub type Holders = Arc<[(Arc<str>, u64)]>;

/// The queue and the world at one instant.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Sample {
    /// When.
    pub at: Millis,
    /// ApproximateNumberOfMessages (all queues that are not dead-letter queues).
    pub visible: u64,
    /// ApproximateNumberOfMessagesNotVisible.
    pub in_flight: u64,
    /// ApproximateNumberOfMessagesDelayed.
    pub delayed: u64,
    /// Messages in dead-letter queues.
    pub dead_letter: u64,
    /// Messages each worker holds, in the order the workers were added (workers holding none
    /// are left out); written as a map (read back in the order of the names). Shared by the
    /// samples (and the copies of the world) it is the same for.
    #[serde(default, with = "holders")]
    pub held_by_worker: Holders,
    /// Deliveries so far.
    #[serde(default)]
    pub deliveries: u64,
    /// Redeliveries so far.
    #[serde(default)]
    pub redeliveries: u64,
    /// Duplicate side effects so far.
    #[serde(default)]
    pub duplicate_effects: u64,
    /// Dead-lettered messages so far.
    #[serde(default)]
    pub dead_lettered: u64,
    /// API requests so far.
    #[serde(default)]
    pub api_calls: u64,
}

/// Counters since the start, and samples for the depth chart.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Metrics {
    /// Messages stored (deduplicated sends excluded).
    pub sent: u64,
    /// Successful receives of a message (each delivery counts).
    pub deliveries: u64,
    /// Deliveries of a message received before.
    pub redeliveries: u64,
    /// Messages deleted.
    pub deleted: u64,
    /// Messages moved to a dead-letter queue.
    pub dead_lettered: u64,
    /// Side effects performed.
    pub effects: u64,
    /// The same logical side effect performed more than once.
    pub duplicate_effects: u64,
    /// Repeats the ledger stopped.
    pub prevented_effects: u64,
    /// SQS API requests made, by [`Request::action_index`] (a batch is one request); read
    /// through [`Metrics::api_calls`].
    #[serde(rename = "api_calls", with = "by_action")]
    calls: [u64; ACTIONS],
    /// ReceiveMessage calls that returned no message.
    pub empty_receives: u64,
    /// End-to-end latencies of the deleted messages: SendMessage to DeleteMessage.
    #[serde(default)]
    pub latencies: Latencies,
    /// The longest a message waited before it left its queue (deleted, moved to a dead-letter
    /// queue, expired or purged); [`Metrics::oldest_age`] adds the messages still stored.
    #[serde(default)]
    oldest_gone: Millis,
    /// When each stored message was sent (a redriven one keeps its first send): its latency
    /// and its age. Rebuilt by replay, so not written out.
    #[serde(skip)]
    sent_at: FxHashMap<MessageId, Millis>,
    /// Depth samples (bounded; older ones folded).
    pub samples: Vec<Sample>,
    /// The current sampling interval.
    #[serde(default)]
    sample_interval: Millis,
    /// When the next sample is due.
    #[serde(default)]
    next_sample: Millis,
}

/// The `{"summary": {...}}` line of `sqs-sim run`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Messages stored.
    pub sent: u64,
    /// Deliveries.
    pub deliveries: u64,
    /// Redeliveries.
    pub redeliveries: u64,
    /// Deleted.
    pub deleted: u64,
    /// Dead-lettered.
    pub dead_lettered: u64,
    /// Side effects performed.
    pub effects: u64,
    /// Duplicated side effects.
    pub duplicate_effects: u64,
    /// Prevented repeats.
    pub prevented_effects: u64,
    /// API requests in all.
    pub api_calls: u64,
    /// ReceiveMessage calls that returned no message.
    #[serde(default)]
    pub empty_receives: u64,
    /// What it cost at SQS's list price (USD 0.40 per million requests).
    pub cost_usd: f64,
    /// Messages left per state ("visible", "in_flight", "delayed", "dead_letter").
    pub by_state: BTreeMap<String, u64>,
}

impl Metrics {
    /// Empty counters, sampling every [`SAMPLE_EVERY`] from time 0.
    pub fn new() -> Self {
        Metrics {
            sample_interval: SAMPLE_EVERY,
            ..Metrics::default()
        }
    }

    /// SQS API requests made, by action (a batch is one request); actions never called are
    /// left out.
    pub fn api_calls(&self) -> BTreeMap<String, u64> {
        let mut calls = BTreeMap::new();
        let made = Request::ACTIONS
            .iter()
            .zip(self.calls)
            .filter(|&(_, n)| n > 0);
        calls.extend(made.map(|(&action, n)| (action.to_string(), n)));
        calls
    }

    /// API requests in all.
    pub fn api_calls_total(&self) -> u64 {
        self.calls.iter().sum()
    }

    /// The requests' cost at SQS's list price (rounded to a billionth of a dollar, so that it
    /// prints without float noise).
    pub fn cost_usd(&self) -> f64 {
        let usd = self.api_calls_total() as f64 * USD_PER_MILLION_REQUESTS / 1e6;
        (usd * 1e9).round() / 1e9
    }

    /// The current sampling interval (it doubles each time the samples are folded).
    pub fn sample_interval(&self) -> Millis {
        self.sample_interval
    }

    /// Counts one API request, by its [`Request::action_index`].
    pub(crate) fn count_call(&mut self, action_index: usize) {
        self.calls[action_index] += 1;
    }

    /// Counts what SQS did at `at`.
    pub(crate) fn count_event(&mut self, at: Millis, kind: &EventKind) {
        match kind {
            EventKind::Sent { message_id, .. } => {
                self.sent += 1;
                self.sent_at.insert(*message_id, at);
            }
            EventKind::Redriven {
                old_message_id,
                message_id,
                ..
            } => {
                self.sent += 1;
                let first = self.sent_at.remove(old_message_id).unwrap_or(at);
                self.sent_at.insert(*message_id, first);
            }
            EventKind::Received { receive_count, .. } => {
                self.deliveries += 1;
                self.redeliveries += u64::from(*receive_count > 1);
            }
            EventKind::Deleted { message_id, .. } => {
                self.deleted += 1;
                if let Some(age) = self.gone(at, message_id) {
                    self.latencies.record(age);
                }
            }
            EventKind::MovedToDeadLetterQueue { message_id, .. } => {
                self.dead_lettered += 1;
                // Its wait in the queue it was sent to ends; in the dead-letter queue it is
                // kept until redriven (with its first send's time) or gone.
                if let Some(&sent) = self.sent_at.get(message_id) {
                    self.oldest_gone = self.oldest_gone.max(at.saturating_sub(sent));
                }
            }
            EventKind::RetentionExpired { message_id, .. } => {
                self.gone(at, message_id);
            }
            EventKind::Purged { message_ids, .. } => {
                for id in message_ids {
                    self.gone(at, id);
                }
            }
            _ => {}
        }
    }

    /// Forgets a message that left its queue at `at`; returns how long it had waited.
    fn gone(&mut self, at: Millis, message_id: &MessageId) -> Option<Millis> {
        let age = at.saturating_sub(self.sent_at.remove(message_id)?);
        self.oldest_gone = self.oldest_gone.max(age);
        Some(age)
    }

    /// The oldest message's age at its worst so far (SQS's ApproximateAgeOfOldestMessage at
    /// its peak): the longest any message waited before it left its queue, or has waited by
    /// `now`.
    pub fn oldest_age(&self, now: Millis) -> Millis {
        let stored = self.sent_at.values().map(|&sent| now.saturating_sub(sent));
        stored.fold(self.oldest_gone, Millis::max)
    }

    /// Takes the first sample at `at` (a world that starts there: [`crate::World::resume`]).
    pub(crate) fn start_at(&mut self, at: Millis) {
        self.next_sample = at.div_ceil(self.sample_interval) * self.sample_interval;
    }

    /// Whether a sample is due before `before`.
    pub(crate) fn sample_due(&self, before: Millis) -> bool {
        self.next_sample < before
    }

    /// Records `snapshot` (the state now, unchanged since the last event) at every sampling
    /// instant before `before`, folding when full.
    pub(crate) fn sample_until(&mut self, before: Millis, snapshot: Sample) {
        while self.next_sample < before {
            if self.samples.len() >= MAX_SAMPLES {
                self.fold();
                continue;
            }
            self.samples.push(Sample {
                at: self.next_sample,
                ..snapshot.clone()
            });
            self.next_sample += self.sample_interval;
        }
    }

    /// Keeps every other sample and doubles the interval.
    fn fold(&mut self) {
        let coarser = self.sample_interval * 2;
        self.samples.retain(|s| s.at % coarser == 0);
        self.sample_interval = coarser;
        self.next_sample = self.next_sample.div_ceil(coarser) * coarser;
    }
}

/// Latencies as a sparse histogram: exact up to 9,999 ms, above that rounded down to four
/// significant digits (at most 0.1% low; 90 s stays 90 s), so that a day of millions of messages
/// keeps at most a few thousand buckets.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Latencies {
    /// Latencies recorded, by bucket (its lowest value).
    buckets: BTreeMap<Millis, u64>,
    /// How many.
    count: u64,
}

impl Latencies {
    /// Counts one latency.
    pub fn record(&mut self, ms: Millis) {
        let mut step = 1;
        while ms / step >= 10_000 {
            step *= 10;
        }
        *self.buckets.entry(ms / step * step).or_default() += 1;
        self.count += 1;
    }

    /// How many latencies were recorded.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The `q` quantile (0.5: the median) by nearest rank: the smallest latency that at least
    /// `q` of all are at or below. None before the first.
    pub fn percentile(&self, q: f64) -> Option<Millis> {
        let rank = ((q * self.count as f64).ceil() as u64).clamp(1, self.count.max(1));
        let mut seen = 0;
        self.buckets.iter().find_map(|(&at, &n)| {
            seen += n;
            (seen >= rank).then_some(at)
        })
    }
}

/// (De)serializes the counts per action as a map from action name to count, zeros left out.
mod by_action {
    use super::ACTIONS;
    use serde::{de, Deserialize, Deserializer, Serializer};
    use sqs_engine::Request;
    use std::collections::BTreeMap;

    pub fn serialize<S: Serializer>(calls: &[u64; ACTIONS], s: S) -> Result<S::Ok, S::Error> {
        let named = Request::ACTIONS.iter().zip(calls).filter(|(_, &n)| n > 0);
        s.collect_map(named.collect::<BTreeMap<_, _>>())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<[u64; ACTIONS], D::Error> {
        let mut calls = [0; ACTIONS];
        for (action, n) in BTreeMap::<String, u64>::deserialize(d)? {
            let i = Request::ACTIONS
                .iter()
                .position(|a| *a == action)
                .ok_or_else(|| de::Error::unknown_variant(&action, Request::ACTIONS))?;
            calls[i] = n;
        }
        Ok(calls)
    }
}

/// (De)serializes the messages each worker holds as a map from worker name to count.
mod holders {
    use serde::{Deserialize, Deserializer, Serializer};
    use std::collections::BTreeMap;
    use std::sync::Arc;

    pub fn serialize<S: Serializer>(held: &[(Arc<str>, u64)], s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(held.iter().map(|(name, n)| (name, n)))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<super::Holders, D::Error> {
        let held = BTreeMap::<String, u64>::deserialize(d)?;
        Ok(held.into_iter().map(|(name, n)| (name.into(), n)).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sample_reads_and_writes_its_holders_as_a_plain_map() {
        let sample = Sample {
            at: 1000,
            held_by_worker: Arc::new([("Worker A".into(), 2)]),
            ..Sample::default()
        };
        let json = serde_json::to_value(&sample).unwrap();
        assert_eq!(json["held_by_worker"], serde_json::json!({"Worker A": 2}));
        assert_eq!(serde_json::from_value::<Sample>(json).unwrap(), sample);
    }

    #[test]
    fn calls_count_by_action_and_read_and_write_as_a_map_of_names() {
        let mut metrics = Metrics::new();
        let receive = Request::ReceiveMessage(Default::default()).action_index();
        let delete = Request::DeleteMessage(Default::default()).action_index();
        metrics.count_call(receive);
        metrics.count_call(delete);
        metrics.count_call(receive);
        let expected = BTreeMap::from([("DeleteMessage".into(), 1), ("ReceiveMessage".into(), 2)]);
        assert_eq!(metrics.api_calls(), expected);
        assert_eq!(metrics.api_calls_total(), 3);
        let json = serde_json::to_value(&metrics).unwrap();
        assert_eq!(
            json["api_calls"],
            serde_json::json!({"DeleteMessage": 1, "ReceiveMessage": 2})
        );
        assert_eq!(serde_json::from_value::<Metrics>(json).unwrap(), metrics);
        let mut unknown = serde_json::to_value(&metrics).unwrap();
        unknown["api_calls"] = serde_json::json!({"Nope": 1});
        let error = serde_json::from_value::<Metrics>(unknown).unwrap_err();
        assert!(error.to_string().contains("Nope"), "{error}");
    }

    #[test]
    fn latency_percentiles_are_nearest_ranks_to_four_digits() {
        let mut latencies = Latencies::default();
        assert_eq!(latencies.percentile(0.5), None);
        for ms in [90_000, 500, 1_000, 40_037] {
            latencies.record(ms);
        }
        assert_eq!(latencies.count(), 4);
        assert_eq!(latencies.percentile(0.5), Some(1_000));
        assert_eq!(latencies.percentile(0.75), Some(40_030));
        assert_eq!(latencies.percentile(0.95), Some(90_000));
        assert_eq!(latencies.percentile(0.0), Some(500));
        let mut big = Latencies::default();
        (1..=10_000).for_each(|s| big.record(s * 1_000));
        let p95 = big.percentile(0.95).unwrap();
        assert_eq!(p95, 9_500_000);
    }

    #[test]
    fn a_deleted_message_gives_its_latency_and_a_waiting_one_its_age() {
        let id = |s| MessageId::new(s).unwrap();
        let mut metrics = Metrics::new();
        let sent = |message_id| EventKind::Sent {
            queue: "q".into(),
            message_id,
            group_id: None,
            visible_at: 0,
        };
        metrics.count_event(1_000, &sent(id("a")));
        metrics.count_event(2_000, &sent(id("b")));
        let deleted = EventKind::Deleted {
            queue: "q".into(),
            message_id: id("a"),
            receipt_handle: Default::default(),
        };
        metrics.count_event(31_000, &deleted);
        assert_eq!(metrics.latencies.percentile(0.5), Some(30_000));
        assert_eq!(metrics.oldest_age(31_000), 30_000);
        assert_eq!(metrics.oldest_age(50_000), 48_000);
    }

    #[test]
    fn samples_stay_bounded_and_cover_the_whole_run() {
        let mut metrics = Metrics::new();
        metrics.sample_until(3_600_000, Sample::default());
        assert!(metrics.samples.len() <= MAX_SAMPLES);
        assert_eq!(metrics.samples[0].at, 0);
        let last = metrics.samples.last().unwrap().at;
        assert!(
            last + metrics.sample_interval() >= 3_600_000,
            "last sample at {last}"
        );
        assert!(metrics
            .samples
            .windows(2)
            .all(|w| w[1].at - w[0].at == metrics.sample_interval()));
    }
}
