//! Where sessions start: the built-in sandboxes (an empty standard or FIFO queue with its
//! dead-letter queue and two lanes where you are the worker) and the scenario library.
//!
//! The library's files are not in the bundle: they sit beside the page in `scenarios/<id>.json`
//! (index.html copies them into `dist/`), listed by their titles ([`sqs_sim::scenario::LIBRARY`]).
//! [`fetch`] reads one the first time it is wanted, as Import reads a file, and keeps it for the
//! page's lifetime; [`find`] then finds it.

use serde_json::json;
use sqs_engine::api::{SetQueueAttributesInput, ToJson};
use sqs_engine::Request;
use sqs_sim::command::SimAction;
use sqs_sim::worker::{EffectStep, ProcessingTime, WorkerMode};
use sqs_sim::{Scenario, Step, WorkerPolicy, World};
use std::cell::RefCell;
use yew::Callback;

use super::link::Link;
use crate::share::session::ScenarioSource;

/// The id of the standard-queue sandbox (the page's default).
pub const SANDBOX: &str = "sandbox";
/// The id of the FIFO sandbox.
pub const SANDBOX_FIFO: &str = "sandbox-fifo";
/// The sandbox's maxReceiveCount.
const SANDBOX_MAX_RECEIVES: u32 = 3;

/// One entry of the scenario picker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The id (`?scenario=<id>`).
    pub id: String,
    /// The title.
    pub title: String,
}

thread_local! {
    /// The library's files fetched so far, read.
    static FETCHED: RefCell<Vec<Scenario>> = const { RefCell::new(Vec::new()) };
}

/// Every scenario the picker offers: the sandboxes first, then the library.
pub fn catalogue() -> Vec<Entry> {
    let sandboxes = [SANDBOX, SANDBOX_FIFO].map(|id| sandbox(id == SANDBOX_FIFO));
    let sandboxes = sandboxes.into_iter().map(|s| (s.id, s.title));
    let library = sqs_sim::scenario::LIBRARY
        .iter()
        .map(|(id, title)| (id.to_string(), title.to_string()));
    sandboxes
        .chain(library)
        .map(|(id, title)| Entry { id, title })
        .collect()
}

/// Whether `id` names a library scenario (fetched or not).
pub fn in_library(id: &str) -> bool {
    sqs_sim::scenario::LIBRARY
        .iter()
        .any(|(name, _)| *name == id)
}

/// The scenario with this id, if there is one at hand: a sandbox, or a library file already
/// fetched ([`fetch`]).
pub fn find(id: &str) -> Option<Scenario> {
    match id {
        SANDBOX => Some(sandbox(false)),
        SANDBOX_FIFO => Some(sandbox(true)),
        // Native tests have the library compiled in (sqs-sim's `library` feature).
        #[cfg(test)]
        _ => sqs_sim::scenario::find(id),
        #[cfg(not(test))]
        _ => FETCHED.with_borrow(|fetched| fetched.iter().find(|s| s.id == id).cloned()),
    }
}

/// The library scenario `id`: at hand, or fetched from `scenarios/<id>.json` beside the page
/// and read as Import reads a file. An error names the file and what is wrong with it.
pub async fn fetch(id: &str) -> Result<Scenario, String> {
    if let Some(found) = find(id) {
        return Ok(found);
    }
    if !in_library(id) {
        return Err(format!("There is no scenario \"{id}\" in the library."));
    }
    let url = format!("scenarios/{id}.json");
    let text = crate::share::browser::fetch_text(&url).await?;
    let mut scenario = crate::share::export::import(&text)
        .and_then(|file| file.resolve(|_| None))
        .map_err(|e| format!("The scenario file {url} cannot be opened: {e}"))?;
    scenario.id = id.to_string();
    remember(scenario.clone());
    Ok(scenario)
}

/// Keeps a library scenario at hand for [`find`]: one fetched, or (in browser tests) one from
/// sqs-sim's compiled-in library.
pub fn remember(scenario: Scenario) {
    FETCHED.with_borrow_mut(|fetched| fetched.push(scenario));
}

/// Opens library scenario `id` with `open` once it is at hand, fetching it first if need be; a
/// failed fetch says why to `failed` instead.
pub fn open_when_fetched(id: String, open: Callback<String>, failed: Callback<String>) {
    if find(&id).is_some() {
        return open.emit(id);
    }
    wasm_bindgen_futures::spawn_local(async move {
        match fetch(&id).await {
            Ok(_) => open.emit(id),
            Err(error) => failed.emit(error),
        }
    });
}

/// Fetches the library scenarios `link` names (its `scenario=`, or a permalink's), before the
/// page opens on it; a failure joins the link's warnings, which the page shows.
pub async fn fetch_for(link: &mut Link) {
    let named = match &link.session {
        Some(Ok(shared)) => match &shared.scenario {
            ScenarioSource::Library(id) => Some(id.clone()),
            ScenarioSource::Inline(_) => None,
        },
        _ => link.options.scenario.clone(),
    };
    if let Some(id) = named.filter(|id| in_library(id)) {
        if let Err(error) = fetch(&id).await {
            link.warnings.push(error);
        }
    }
}

/// A queue `orders` (or `orders.fifo`), its dead-letter queue, and two manual lanes.
pub fn sandbox(fifo: bool) -> Scenario {
    let (queue, dlq) = names(fifo);
    let (attributes, dlq_attributes) = if fifo {
        (
            json!({
                "VisibilityTimeout": "30",
                "FifoQueue": "true",
                "ContentBasedDeduplication": "true",
            }),
            json!({ "FifoQueue": "true" }),
        )
    } else {
        (json!({ "VisibilityTimeout": "30" }), json!({}))
    };
    let mut steps = Vec::new();
    for (name, attributes) in [(dlq, dlq_attributes), (queue, attributes)] {
        steps.push(json!({
            "call": "CreateQueue",
            "input": { "QueueName": name, "Attributes": attributes },
        }));
    }
    for name in ["Worker 1", "Worker 2"] {
        let add = Step::Sim(SimAction::AddWorker {
            name: name.to_string(),
            policy: manual_policy(queue),
        });
        steps.push(add.to_json());
    }
    let kind = if fifo { "FIFO" } else { "standard" };
    Scenario {
        id: if fifo { SANDBOX_FIFO } else { SANDBOX }.to_string(),
        title: format!("Sandbox: a {kind} queue and you"),
        narrative: format!(
            "An empty {kind} queue \"{queue}\" with a dead-letter queue after \
             {SANDBOX_MAX_RECEIVES} receives. Send messages, then drag them onto a worker: \
             you are the worker, so delete them or let their visibility timeout run out."
        ),
        watch: vec![
            "A received message hides on its worker's lane while its ring counts down.".into(),
            "Kill the worker: the message comes back when the ring runs out.".into(),
            format!(
                "After {SANDBOX_MAX_RECEIVES} receives without a delete it moves to the \
                 dead-letter queue."
            ),
        ],
        seed: 1,
        steps,
        expect: None,
        questions: Default::default(),
        start: None,
    }
}

/// Steps a scenario needs once its queues exist: the sandbox's RedrivePolicy names its
/// dead-letter queue by ARN, which only the engine knows.
pub fn setup(scenario: &Scenario, world: &World) -> Vec<Step> {
    let fifo = match scenario.id.as_str() {
        SANDBOX => false,
        SANDBOX_FIFO => true,
        _ => return Vec::new(),
    };
    let (queue, dlq) = names(fifo);
    let engine = world.engine();
    let (Some(queue_url), Some(arn)) = (engine.queue_url(queue), engine.queue_arn(dlq)) else {
        return Vec::new();
    };
    let policy = json!({
        "deadLetterTargetArn": arn,
        "maxReceiveCount": SANDBOX_MAX_RECEIVES,
    })
    .to_string();
    let attributes = [("RedrivePolicy".to_string(), policy)].into();
    vec![Step::Call(Request::SetQueueAttributes(
        SetQueueAttributesInput {
            queue_url,
            attributes,
        },
    ))]
}

fn names(fifo: bool) -> (&'static str, &'static str) {
    if fifo {
        ("orders.fifo", "orders-dlq.fifo")
    } else {
        ("orders", "orders-dlq")
    }
}

/// A lane where the user is the worker: it takes only what is dragged onto it.
pub fn manual_policy(queue: &str) -> WorkerPolicy {
    WorkerPolicy {
        queue: queue.to_string(),
        mode: WorkerMode::Manual,
        wait_time_seconds: 20,
        max_messages: 1,
        visibility_timeout: None,
        idle_pause: 1.0,
        processing: ProcessingTime::Fixed { seconds: 10.0 },
        heartbeat: None,
        effects: vec![EffectStep {
            name: "charge card".to_string(),
            idempotent: false,
        }],
        poison_marker: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sandboxes_are_found_and_listed_first() {
        let list = catalogue();
        assert_eq!(list[0].id, SANDBOX);
        assert_eq!(list[1].id, SANDBOX_FIFO);
        assert!(find(SANDBOX_FIFO).is_some());
        assert!(find("no-such-scenario").is_none());
    }

    #[test]
    fn sandbox_steps_are_valid_step_json() {
        for fifo in [false, true] {
            for step in sandbox(fifo).steps {
                let parsed: Result<Step, _> = serde_json::from_value(step.clone());
                assert!(parsed.is_ok(), "{step}");
            }
        }
    }
}
