//! Scenario files: the `sqs-sim run` format plus the simulation's steps and a library entry's
//! metadata (title, narrative, what to watch, checked outcomes). The library lives in
//! `scenarios/<id>.json` at the repository root: compiled in with the `library` feature, fetched
//! by the browser bundle when picked.
//!
//! Step kinds (see `sqs_engine::script` for the first three):
//! * `{"call": Action, "input": {...}, "as"?: NAME, "async"?: bool}`: an SQS call by the user;
//! * `{"advance": SECONDS}`: later steps run that much later;
//! * `{"await": NAME}`: `sqs-sim run` waits for an async call (the playground ignores it);
//! * `{"sim": Action, "input": {...}, "as"?: NAME}`: a simulation action ([`SimAction`]):
//!   - `{"sim": "AddWorker", "input": {"name": "Worker A", "policy": {"queue": "orders", ...}}}`
//!     (policy fields: [`WorkerPolicy`](crate::WorkerPolicy); all but `queue` optional),
//!     `{"sim": "SetPolicy", "input": {"worker": "Worker A", "policy": {...}}}`,
//!     `{"sim": "RemoveWorker", "input": {"worker": "Worker A"}}`;
//!   - faults: `{"sim": "Kill" | "Hang" | "Restart" | "CrashAfterCommit" | "LoseDeleteResponse" |
//!     "FailJob", "input": {"worker": "Worker A"}}`;
//!   - hands: `{"sim": "Deliver", "input": {"worker": "Worker A", "message_id": "..."}}`,
//!     `{"sim": "Receive", "input": {"worker": "You"}}`,
//!     `{"sim": "Delete", "input": {"worker": "You", "message_id": "..."}}`,
//!     `{"sim": "Extend", "input": {"worker": "You", "message_id": "...", "visibility_timeout": 60}}`;
//!   - producers: `{"sim": "AddProducer", "input": {"name": "P", "queue": "orders", "every": 2,
//!     "count": 10, "body": "order-{n}", "group_id": "g-{n%3}"}}`,
//!     `{"sim": "RemoveProducer", "input": {"producer": "P"}}`.
//!
//! `expect` holds the checked outcomes, all optional, compared at the end of the run
//! ([`Scenario::check`]): `summary` (a subset of [`Summary`](crate::Summary)'s fields),
//! `performed` (times each named effect was performed), `queues` (a queue's messages per state)
//! and `workers` (a subset of a [`WorkerView`](crate::WorkerView)'s fields).
//!
//! `questions` (optional) asks the audience to predict, each at a virtual instant (the format:
//! [`crate::lesson`]): `{"at": 55, "reveal_at": 60, "prompt": "...", "choices": [{"text": "...",
//! "claim": {"kind": "Message", "message": "R-022", "state": "InFlight", "holder": "Worker 2"}},
//! ...], "correct": 1, "why": "...", "points_at": {"message": "R-022", "worker": "Worker 2"}}`,
//! times in seconds from the start as `advance` counts them. [`Scenario::parse`] refuses a bad
//! one, naming it.

use crate::command::SimAction;
use crate::lesson::Questions;
use crate::resume::Start;
use serde_json::{json, Value};
use sqs_engine::api::FromJson;
use sqs_engine::script::parse_request;
use sqs_engine::{Millis, Request};

/// A scenario file. Read through [`Input`](sqs_engine::api::Input); every member but `steps` is
/// optional.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    /// The file name without `.json` (e.g. `crash-before-delete`).
    pub id: String,
    /// Short title.
    pub title: String,
    /// A few sentences told to the audience.
    pub narrative: String,
    /// What to watch for, in order.
    pub watch: Vec<String>,
    /// The seed.
    pub seed: u64,
    /// Steps: `call`, `advance`, `await` (as `sqs-sim run`) and `sim` steps.
    pub steps: Vec<serde_json::Value>,
    /// Checked outcomes (summary fields and their expected values).
    pub expect: Option<serde_json::Value>,
    /// Questions asked as the clock plays ([`crate::lesson`]).
    pub questions: Questions,
    /// The engine's state the scenario starts from (none: an empty engine on `seed`), as a
    /// recording of a server saves it (the `resume` module).
    pub start: Option<Start>,
}

sqs_engine::members! {
    Scenario {
        id: field_or_default("id"),
        title: field_or_default("title"),
        narrative: field_or_default("narrative"),
        watch: field_or_default("watch"),
        seed: field_or_default("seed"),
        steps: field("steps"),
        expect: optional("expect"),
        questions: field_or_default("questions"),
        start: optional("start"),
    }
}

/// What kind of step a JSON step is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum StepKind {
    Call,
    Sim,
    Advance(Millis),
    Await,
}

/// The kind of a step, or why it is not one.
pub(crate) fn step_kind(step: &Value) -> Result<StepKind, String> {
    let Value::Object(map) = step else {
        return Err("a step is a JSON object".into());
    };
    if map.contains_key("call") {
        Ok(StepKind::Call)
    } else if map.contains_key("sim") {
        Ok(StepKind::Sim)
    } else if let Some(secs) = map.get("advance") {
        secs.as_f64()
            .filter(|s| s.is_finite() && *s >= 0.0)
            .map(|s| StepKind::Advance((s * 1000.0).round() as Millis))
            .ok_or_else(|| "\"advance\" must be a number of seconds >= 0".into())
    } else if map.contains_key("await") {
        Ok(StepKind::Await)
    } else {
        Err("unknown step kind (expected \"call\", \"sim\", \"advance\" or \"await\")".into())
    }
}

/// A `{"sim": ..., "input": ...}` step as a [`SimAction`].
pub(crate) fn sim_action(step: Value) -> Result<SimAction, String> {
    SimAction::from_step(step).map_err(|e| format!("sim step: {e}"))
}

/// A `{"call": ..., "input": ...}` step as its request (no `input`: `{}`).
pub(crate) fn call_request(step: &Value) -> Result<Request, String> {
    let action = step["call"].as_str().unwrap_or_default();
    let input = step.get("input").cloned().unwrap_or_else(|| json!({}));
    parse_request(action, input)
}

impl Scenario {
    /// Parses a scenario file, naming the step at fault in any error. `id` is the file name
    /// without `.json`.
    pub fn parse(id: &str, json: &str) -> Result<Scenario, String> {
        // Through a `Value`, like the page's imports and links.
        let mut scenario: Scenario = serde_json::from_str(json)
            .and_then(Scenario::from_json)
            .map_err(|e| format!("{id}: not a scenario file: {e}"))?;
        scenario.id = id.to_string();
        for (index, step) in scenario.steps.iter().enumerate() {
            let kind = step_kind(step).map_err(|e| format!("{id}: step {index}: {e}"))?;
            // Steps with `${...}` are checked when they run, once their values are known.
            if step.to_string().contains("${") {
                continue;
            }
            let checked = match kind {
                StepKind::Sim => sim_action(step.clone()).map(drop),
                StepKind::Call => call_request(step).map(drop),
                StepKind::Advance(_) | StepKind::Await => Ok(()),
            };
            checked.map_err(|e| format!("{id}: step {index}: {e}"))?;
        }
        scenario
            .questions
            .check(&scenario.steps, scenario.duration())
            .map_err(|e| format!("{id}: {e}"))?;
        Ok(scenario)
    }

    /// How long the scenario runs: the sum of its `advance` steps.
    pub fn duration(&self) -> Millis {
        self.steps
            .iter()
            .filter_map(|step| match step_kind(step) {
                Ok(StepKind::Advance(by)) => Some(by),
                _ => None,
            })
            .sum()
    }
}

/// Declares the library: each id is `scenarios/<id>.json`, its title read by `build.rs`.
macro_rules! library_files {
    ($($id:literal),* $(,)?) => {
        /// The ids and titles of the library's files, in presentation order.
        pub const LIBRARY: &[(&str, &str)] = &[
            $(($id, include_str!(concat!(env!("OUT_DIR"), "/", $id, ".title")))),*
        ];

        /// The ids and texts of the library's files, in presentation order.
        #[cfg(feature = "library")]
        pub const LIBRARY_FILES: &[(&str, &str)] = &[
            $(($id, include_str!(concat!("../../scenarios/", $id, ".json")))),*
        ];
    };
}

library_files![
    "crash-before-delete",
    "slow-worker",
    "lost-delete-response",
    "heartbeat",
    "r-021",
    "r-022",
    "r-022-ledger",
    "r-023",
    "r-023-ledger",
    "poison-to-dlq",
    "dlq-redrive",
    "fifo-group-blocking",
    "fifo-single-group",
    "delay-vs-visibility",
    "short-vs-long-polling",
    "lambda-6x",
    "lambda-batching-window",
];

/// The scenario library compiled in, in presentation order.
#[cfg(feature = "library")]
pub fn library() -> Vec<Scenario> {
    LIBRARY_FILES
        .iter()
        .map(|(id, text)| Scenario::parse(id, text).expect("library scenarios parse (tested)"))
        .collect()
}

/// One library scenario by id.
#[cfg(feature = "library")]
pub fn find(id: &str) -> Option<Scenario> {
    let (id, text) = LIBRARY_FILES.iter().find(|(name, _)| *name == id)?;
    Scenario::parse(id, text).ok()
}
