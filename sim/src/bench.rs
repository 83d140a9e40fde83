//! The fast-forward benchmark behind `sqs-sim bench day`, shared by the native and the wasm build.
//!
//! [`day_scenario`] is the day: a standard queue `orders` (VisibilityTimeout 30 s) with a
//! dead-letter queue `orders-dlq` (maxReceiveCount 3); a producer sending one message every
//! 0.1 s (10 per second) for 86,400 s, 1 body in 100 poison (`tag-0`); 20 automatic workers
//! that long-poll (20 s) up to 10 messages, process each in Uniform 0.5–2.5 s (mean 1.5 s:
//! 20 workers keep up with 10 messages a second at 75 % utilisation; the 2–8 s of the first
//! draft would need 50 workers), perform one idempotent side effect ("ship the order") and
//! heartbeat every 10 s (VisibilityTimeout 30 s more) while a batch lasts.
//!
//! [`run_day`] runs a [`World`] through it to t = 1 day in chunks of [`CHUNK`] (480 virtual seconds), draining
//! the events after each chunk as the frame loop of a fast-forward does, and reports the time taken, the
//! summary and what the world retains at the end (the memory bounds). Like a seek in the page, it
//! narrates only the last chunk: the charts and counters come from the metrics, and the texts of
//! the earlier events would scroll out of the event log unread. [`DayResult::problems`]
//! lists what does not add up (every message sent is deleted, dead-lettered or still queued).
//!
//! The crate never reads a clock: the caller passes one (seconds from any origin).

use crate::metrics::Summary;
use crate::{Scenario, World, EVENT_BUFFER};
use serde_json::json;
use sqs_engine::Millis;
use std::fmt;

/// One simulated day.
pub const DAY: Millis = 86_400_000;
/// Messages the producer sends in a day (10 a second).
pub const DAY_MESSAGES: u64 = 864_000;
/// The chunk of virtual time [`run_day`] advances between two drains of the events: one frame
/// of a day fast-forwarded in 3 s at 60 frames a second (28,800x: 480 virtual seconds a frame).
pub const CHUNK: Millis = 480_000;

/// The day as a scenario (see the module documentation).
pub fn day_scenario(seed: u64) -> Scenario {
    let mut steps = vec![
        json!({"call": "CreateQueue", "input": {"QueueName": "orders-dlq"}, "as": "DLQ"}),
        json!({"call": "GetQueueAttributes",
               "input": {"QueueUrl": "${DLQ.QueueUrl}", "AttributeNames": ["QueueArn"]},
               "as": "DLQA"}),
        json!({"call": "CreateQueue", "input": {"QueueName": "orders", "Attributes": {
            "VisibilityTimeout": "30",
            "RedrivePolicy": "{\"deadLetterTargetArn\":\"${DLQA.Attributes.QueueArn}\",\"maxReceiveCount\":\"3\"}"
        }}}),
    ];
    for n in 1..=20 {
        steps.push(json!({"sim": "AddWorker", "input": {
            "name": format!("Worker {n}"),
            "policy": {
                "queue": "orders",
                "wait_time_seconds": 20,
                "max_messages": 10,
                "processing": {"kind": "Uniform", "min": 0.5, "max": 2.5},
                "heartbeat": {"every": 10, "extend_by": 30},
                "effects": [{"name": "ship the order", "idempotent": true}],
                "poison_marker": "tag-0"
            }
        }}));
    }
    steps.push(json!({"sim": "AddProducer", "input": {
        "name": "Orders", "queue": "orders", "every": 0.1, "count": DAY_MESSAGES,
        "body": "order-{n} tag-{n%100}"
    }}));
    steps.push(json!({"advance": DAY / 1000}));
    Scenario {
        id: "bench-day".into(),
        title: "One day: 10 messages a second, 20 workers, 1% poison".into(),
        narrative: String::new(),
        watch: Vec::new(),
        seed,
        steps,
        expect: None,
        questions: Default::default(),
        start: None,
    }
}

/// What the world holds at the end of a run: the sizes of everything that could grow.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Retained {
    /// Events recorded and not drained yet.
    pub events: usize,
    /// Message labels remembered.
    pub labels: usize,
    /// Holder entries (messages in flight at a worker).
    pub holders: usize,
    /// Ledger entries kept in detail.
    pub ledger_entries: usize,
    /// Idempotency keys the ledger remembers.
    pub ledger_keys: usize,
    /// World timers scheduled.
    pub timers: usize,
    /// Depth samples.
    pub samples: usize,
    /// Steps in the command log.
    pub log: usize,
}

/// What [`run_day`] measured.
#[derive(Clone, Debug)]
pub struct DayResult {
    /// Wall time of the whole run (loading the scenario included), in seconds.
    pub secs: f64,
    /// The world's summary at the end.
    pub summary: Summary,
    /// Events drained over the run.
    pub events: u64,
    /// What the world holds at the end.
    pub retained: Retained,
    /// Messages still in `orders-dlq` at the end.
    pub dead_letter_left: u64,
}

impl DayResult {
    /// What does not add up, if anything (an empty list: the run is consistent).
    pub fn problems(&self) -> Vec<String> {
        let s = &self.summary;
        let state = |k: &str| s.by_state.get(k).copied().unwrap_or(0);
        let mut problems = Vec::new();
        if s.sent != DAY_MESSAGES {
            problems.push(format!("sent {} messages, not {DAY_MESSAGES}", s.sent));
        }
        let left = state("visible") + state("in_flight") + state("delayed");
        if s.deleted + s.dead_lettered + left != s.sent {
            problems.push(format!(
                "deleted {} + dead-lettered {} + left {left} != sent {}",
                s.deleted, s.dead_lettered, s.sent
            ));
        }
        if state("dead_letter") != s.dead_lettered {
            problems.push(format!(
                "the dead-letter queue holds {}, {} were dead-lettered",
                state("dead_letter"),
                s.dead_lettered
            ));
        }
        // 1 message in 100 is poison; the last ones may not have made their 4 receives yet.
        let poison = DAY_MESSAGES / 100;
        if !(poison - 10..=poison).contains(&s.dead_lettered) {
            problems.push(format!(
                "dead-lettered {}, expected about {poison}",
                s.dead_lettered
            ));
        }
        if s.effects != s.deleted {
            problems.push(format!(
                "{} effects for {} messages deleted",
                s.effects, s.deleted
            ));
        }
        if left > 100 {
            problems.push(format!("{left} messages left: the workers fell behind"));
        }
        problems
    }
}

impl fmt::Display for DayResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = &self.summary;
        let r = &self.retained;
        let state = |k: &str| s.by_state.get(k).copied().unwrap_or(0);
        write!(
            f,
            "fast_forward_day_ms={:.0} sent={} deliveries={} redeliveries={} deleted={} dead_lettered={} \
             effects={} duplicate_effects={} prevented_effects={} api_calls={} empty_receives={} cost_usd={} \
             left_visible={} left_in_flight={} left_dead_letter={} events={} \
             retained_events={} retained_labels={} retained_holders={} retained_ledger_entries={} \
             retained_ledger_keys={} retained_timers={} retained_samples={}",
            self.secs * 1000.0,
            s.sent,
            s.deliveries,
            s.redeliveries,
            s.deleted,
            s.dead_lettered,
            s.effects,
            s.duplicate_effects,
            s.prevented_effects,
            s.api_calls,
            s.empty_receives,
            s.cost_usd,
            state("visible"),
            state("in_flight"),
            self.dead_letter_left,
            self.events,
            r.events,
            r.labels,
            r.holders,
            r.ledger_entries,
            r.ledger_keys,
            r.timers,
            r.samples,
        )
    }
}

/// Runs [`day_scenario`] to `until` (normally [`DAY`]), draining events every [`CHUNK`].
/// `clock` returns seconds from any fixed origin.
pub fn run_day(seed: u64, until: Millis, clock: impl Fn() -> f64) -> DayResult {
    let start = clock();
    let mut run = DayRun::new(seed, until);
    while run.step() {}
    run.finish(clock() - start)
}

/// [`run_day`] one chunk at a time, for a caller that must yield between chunks (a browser's
/// event loop).
pub struct DayRun {
    world: World,
    until: Millis,
    events: u64,
}

impl DayRun {
    /// The day's world at time 0, to run to `until`.
    pub fn new(seed: u64, until: Millis) -> Self {
        DayRun {
            world: World::load(&day_scenario(seed)).expect("the day scenario loads"),
            until,
            events: 0,
        }
    }

    /// Advances one [`CHUNK`] and drains the events; false once `until` is reached.
    pub fn step(&mut self) -> bool {
        let now = self.world.now();
        if now >= self.until {
            return false;
        }
        let last = now + CHUNK >= self.until;
        self.world
            .set_event_buffer(if last { EVENT_BUFFER } else { 0 });
        self.world.advance_to((now + CHUNK).min(self.until));
        self.events += self.world.drain_events().len() as u64;
        self.world.now() < self.until
    }

    /// The result, given the time the run took in seconds.
    pub fn finish(self, secs: f64) -> DayResult {
        let world = self.world;
        DayResult {
            secs,
            summary: world.summary(),
            events: self.events,
            retained: world.retained(),
            dead_letter_left: world
                .queue_depth("orders-dlq")
                .values()
                .copied()
                .sum::<u64>(),
        }
    }
}

/// What [`run_seek`] measured, in milliseconds.
#[derive(Clone, Debug)]
pub struct SeekResult {
    /// The slowest seek from the checkpoints.
    pub checkpoint_ms_max: f64,
    /// Each seek from the checkpoints, in the order of [`SEEK_TARGETS`].
    pub checkpoint_ms: Vec<f64>,
    /// Rebuilding the latest target by replay from time 0 ([`World::replay`]).
    pub from_start_ms: f64,
    /// Checkpoints kept after the hour.
    pub checkpoints: usize,
}

/// The moments [`run_seek`] seeks to within its hour (ms).
pub const SEEK_TARGETS: [Millis; 7] = [
    1_800_000, 600_000, 3_000_000, 100_000, 3_500_000, 0, 3_599_000,
];

impl fmt::Display for SeekResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let each: Vec<String> = self
            .checkpoint_ms
            .iter()
            .map(|ms| format!("{ms:.0}"))
            .collect();
        write!(
            f,
            "seek_ms_max={:.0} seeks_ms=[{}] replay_from_start_ms={:.0} checkpoints={}",
            self.checkpoint_ms_max,
            each.join(","),
            self.from_start_ms,
            self.checkpoints
        )
    }
}

/// Plays the first hour of [`day_scenario`] as the UI does at 1000x (a frame of 16.7 virtual
/// seconds, a checkpoint offered after each), then seeks to [`SEEK_TARGETS`] from the
/// checkpoints, and once from time 0 for comparison.
pub fn run_seek(seed: u64, clock: impl Fn() -> f64) -> SeekResult {
    use crate::checkpoints::Checkpoints;
    const HOUR: Millis = 3_600_000;
    let scenario = day_scenario(seed);
    let mut world = World::load(&scenario).expect("the day scenario loads");
    let mut checkpoints = Checkpoints::default();
    let mut t = 0;
    while t < HOUR {
        t = (t + 16_667).min(HOUR);
        world.advance_to(t);
        world.drain_events();
        checkpoints.offer(&world, 0);
    }
    let mut checkpoint_ms = Vec::new();
    for &target in &SEEK_TARGETS {
        let start = clock();
        let world = checkpoints.seek(&scenario, &[], target).expect("seek");
        checkpoint_ms.push((clock() - start) * 1000.0);
        assert_eq!(world.now(), target);
    }
    let start = clock();
    let replayed = World::replay(&scenario, &[], SEEK_TARGETS[6]).expect("replay");
    let from_start_ms = (clock() - start) * 1000.0;
    assert_eq!(replayed.now(), SEEK_TARGETS[6]);
    SeekResult {
        checkpoint_ms_max: checkpoint_ms.iter().copied().fold(0.0, f64::max),
        checkpoint_ms,
        from_start_ms,
        checkpoints: checkpoints.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ten_minutes_of_the_day_add_up() {
        let result = run_day(1, 600_000, || 0.0);
        let s = &result.summary;
        assert_eq!(s.sent, 6001, "one message at 0, then one every 0.1 s");
        let state = |k: &str| s.by_state.get(k).copied().unwrap_or(0);
        let left = state("visible") + state("in_flight") + state("delayed");
        assert_eq!(s.deleted + s.dead_lettered + left, s.sent);
        assert!(left < 100, "{left} left: the workers fall behind");
        assert!(s.dead_lettered > 40 && s.dead_lettered <= 60, "{s:?}");
        assert_eq!(s.duplicate_effects, 0);
        assert_eq!(result.retained.events, 0);
    }

    #[test]
    fn a_fast_forward_counts_every_event_it_does_not_narrate() {
        let run = |buffer: usize| {
            let mut world = World::load(&day_scenario(3)).unwrap();
            world.drain_events();
            world.set_event_buffer(buffer);
            world.advance_to(20_000);
            world.drain_events()
        };
        let narrated = run(EVENT_BUFFER);
        assert!(narrated.len() > 1000 && narrated.len() < EVENT_BUFFER);
        let counted = run(0);
        assert_eq!(counted.len(), 1);
        let said = format!("Fast-forward: {} more events happened", narrated.len());
        assert!(counted[0].text.starts_with(&said), "{}", counted[0].text);
    }
}
