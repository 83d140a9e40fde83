//! What the live view replays: every call that reached the engine, with its virtual time and its
//! client, as the simulation's steps (`sqs_sim::LoggedStep`). The engine is deterministic, so a
//! World on the same seed that runs these steps at their times is in the same state as the
//! server's engine: the page's copy draws the messages where they are, and "Save as scenario"
//! writes the steps as a scenario file.

use sqs_engine::{Millis, Namespace, Request};
use sqs_sim::{LoggedStep, SimAction, Step};

/// The most steps one run records (about 300 bytes each): a server left running under a load
/// test stops recording there, and says so, rather than grow without end.
pub const MAX_STEPS: usize = 200_000;

/// Who made a call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Caller {
    /// The playground page's own controls (`POST /_sqs-sim/call`): "You" in its event log.
    Page,
    /// A client: its access key id, or its address and User-Agent ([`crate::identity`]).
    Client(String),
}

/// One run's record: a run begins when the server starts and again at each reset.
#[derive(Debug, Default)]
pub struct Journal {
    steps: Vec<LoggedStep>,
    /// Set once [`MAX_STEPS`] are recorded: later calls are not.
    full: bool,
}

impl Journal {
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
        if self.steps.len() >= MAX_STEPS {
            self.full = true;
            return;
        }
        self.steps.push(LoggedStep { at, step });
    }

    /// The steps recorded from `from` on.
    pub fn since(&self, from: usize) -> &[LoggedStep] {
        self.steps.get(from..).unwrap_or_default()
    }

    /// How many steps are recorded.
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    /// Whether nothing is recorded yet.
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// Whether recording stopped at [`MAX_STEPS`].
    pub fn full(&self) -> bool {
        self.full
    }
}
