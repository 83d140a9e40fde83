//! Where sessions start: the built-in sandboxes (an empty standard or FIFO queue with its
//! dead-letter queue and two lanes where you are the worker) and the scenario library.

use serde_json::json;
use sqs_engine::api::{SetQueueAttributesInput, ToJson};
use sqs_engine::Request;
use sqs_sim::command::SimAction;
use sqs_sim::worker::{EffectStep, ProcessingTime, WorkerMode};
use sqs_sim::{Scenario, Step, WorkerPolicy, World};

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

/// Every scenario the picker offers: the sandboxes first, then the library.
pub fn catalogue() -> Vec<Entry> {
    let sandboxes = [SANDBOX, SANDBOX_FIFO].map(|id| sandbox(id == SANDBOX_FIFO));
    sandboxes
        .iter()
        .chain(sqs_sim::scenario::library().iter())
        .map(|s| Entry {
            id: s.id.clone(),
            title: s.title.clone(),
        })
        .collect()
}

/// The scenario with this id, if there is one.
pub fn find(id: &str) -> Option<Scenario> {
    match id {
        SANDBOX => Some(sandbox(false)),
        SANDBOX_FIFO => Some(sandbox(true)),
        _ => sqs_sim::scenario::find(id),
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
