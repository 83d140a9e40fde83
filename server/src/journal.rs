//! What the live view follows: the server engine's state at a point of the run (a snapshot, or
//! none: an empty engine on the run's seed), then every call that reached the engine after it,
//! with its virtual time and its client, as the simulation's steps (`sqs_sim::LoggedStep`). The
//! engine is deterministic, so a World that starts from the snapshot (`World::resume`) and runs
//! these steps at their times is in the same state as the server's engine: the page's copy draws
//! the messages where they are, and "Save as scenario" writes the snapshot and the steps as a
//! scenario file.
//!
//! Memory stays bounded however long the server runs: once the steps since the snapshot
//! outweigh it (at least [`COMPACT_EVERY`] of them, or as many as its size in steps of
//! `STEP_BYTES`), the journal takes a new snapshot of the engine and drops them. A page that
//! connects gets the latest snapshot and at most that many steps, whatever the server's age.

use sqs_engine::{Engine, Millis, Namespace, Request};
use sqs_sim::{LoggedStep, SimAction, Start, Step};
use std::sync::Arc;

/// The fewest steps kept before a new snapshot replaces them.
pub const COMPACT_EVERY: usize = 10_000;

/// About the size of a step as the stream writes it (a client's SendMessage is 200 to 300
/// bytes): a snapshot of `n` bytes is taken again after `n / STEP_BYTES` steps, so that a page
/// that connects is sent at most about twice the snapshot's size.
const STEP_BYTES: usize = 250;

/// Who made a call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Caller {
    /// The playground page's own controls (`POST /_sqs-sim/call`): "You" in its event log.
    Page,
    /// A client: its access key id, or its address and User-Agent ([`crate::identity`]).
    Client(String),
}

/// One run's record: a run begins when the server starts and again at each reset.
#[derive(Debug)]
pub struct Journal {
    /// This run, as the stream's event ids name it: each start and reset draws another, so a
    /// page that reconnects to a server started again begins anew.
    run: u64,
    /// The snapshot the steps go on from, as the `start` member of a scenario file (JSON), or
    /// none: an empty engine on the run's seed.
    start: Option<Arc<str>>,
    /// The number, in the run, of the first step kept (the ones before are in `start`).
    base: usize,
    steps: Vec<LoggedStep>,
}

impl Journal {
    /// A new run's record, from `engine`'s state (none: an empty engine on the run's seed).
    pub fn new(start: Option<&Engine>) -> Self {
        let (run, _) = uuid::Uuid::new_v4().as_u64_pair();
        Journal {
            // Within JavaScript's exact integers: a page's script may read it.
            run: run >> 11,
            start: start.map(snapshot),
            base: 0,
            steps: Vec::new(),
        }
    }

    /// Records a call made at `at`. The page's calls are recorded only when SQS took them (a
    /// refused one changes nothing, and the page saw the refusal); a client's always, so that
    /// the event log shows its refusals too. The page calls in the engine's default namespace;
    /// a client in `namespace`.
    pub fn record(
        &mut self,
        at: Millis,
        caller: &Caller,
        (namespace, request): (&Namespace, Request),
        accepted: bool,
    ) {
        let step = match caller {
            Caller::Page if accepted => Step::Call(request),
            Caller::Page => return,
            Caller::Client(name) => Step::Sim(SimAction::Call {
                by: name.clone(),
                namespace: namespace.clone(),
                request,
            }),
        };
        self.steps.push(LoggedStep { at, step });
    }

    /// Whether the steps kept outweigh the snapshot (see the module documentation).
    pub fn compact_due(&self) -> bool {
        let snapshot = self.start.as_ref().map_or(0, |start| start.len());
        self.steps.len() >= COMPACT_EVERY.max(snapshot / STEP_BYTES)
    }

    /// Takes `engine`'s state, which every step recorded has reached, as the new snapshot, and
    /// drops the steps.
    pub fn compact(&mut self, engine: &Engine) {
        self.start = Some(snapshot(engine));
        self.base += self.steps.len();
        self.steps = Vec::new();
    }

    /// This run.
    pub fn run(&self) -> u64 {
        self.run
    }

    /// The snapshot the kept steps go on from (a scenario's `start` member, JSON), and the
    /// number of the first of them.
    pub fn start(&self) -> (Option<&Arc<str>>, usize) {
        (self.start.as_ref(), self.base)
    }

    /// The steps from number `from` on (none if `from` is before the snapshot or past the end).
    pub fn since(&self, from: usize) -> &[LoggedStep] {
        from.checked_sub(self.base)
            .and_then(|from| self.steps.get(from..))
            .unwrap_or_default()
    }

    /// Whether the steps from number `from` on are all kept (a stream can go on from there).
    pub fn holds(&self, from: usize) -> bool {
        (self.base..=self.len()).contains(&from)
    }

    /// How many steps the run has recorded (the dropped ones included).
    pub fn len(&self) -> usize {
        self.base + self.steps.len()
    }

    /// Whether nothing is recorded yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// `engine`'s state as a scenario's `start` member.
fn snapshot(engine: &Engine) -> Arc<str> {
    Start::of(engine).to_string().into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use sqs_engine::api::FromJson;
    use sqs_sim::World;

    fn create(name: &str) -> Request {
        Request::from_input("CreateQueue", json!({"QueueName": name})).unwrap()
    }

    #[test]
    fn compaction_keeps_what_a_world_needs_to_be_in_the_engines_state() {
        let mut engine = Engine::new(5);
        let mut journal = Journal::new(None);
        let client = Caller::Client("shop".into());
        for i in 0..COMPACT_EVERY + 3 {
            let request = create(&format!("q{i}"));
            engine.advance_to(i as Millis);
            engine.call(request.clone());
            journal.record(i as Millis, &client, (&Namespace::DEFAULT, request), true);
            if journal.compact_due() {
                assert_eq!(journal.len(), COMPACT_EVERY);
                journal.compact(&engine);
            }
        }
        assert_eq!(journal.len(), COMPACT_EVERY + 3);
        let (start, base) = journal.start();
        assert_eq!(base, COMPACT_EVERY);
        assert!(!journal.holds(base - 1) && journal.holds(base) && journal.holds(base + 3));
        assert!(journal.since(base - 1).is_empty());
        // The snapshot and the three steps after it give the engine's queues.
        let start: serde_json::Value = serde_json::from_str(start.unwrap()).unwrap();
        let start = Start::from_json(start).unwrap();
        let mut world = World::resume(5, start.engine().clone());
        for step in journal.since(base) {
            world.advance_to(step.at);
            world.apply(step.step.clone()).unwrap();
        }
        assert_eq!(world.engine().queue_names(), engine.queue_names());
        assert_eq!(world.engine().queue_names().len(), COMPACT_EVERY + 3);
        // A bigger snapshot is taken again after proportionally more steps.
        assert!(!journal.compact_due());
        let needed = journal.start().0.unwrap().len() / STEP_BYTES;
        assert!(needed > COMPACT_EVERY, "{needed} steps");
    }
}
