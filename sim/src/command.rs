//! The command log: every step of a session as data. A scenario's steps plus the user's actions,
//! each with its virtual time, replayed with the same seed, rebuild the same world — which is
//! what rewind, share-by-link and fork stand on.

use crate::worker::WorkerPolicy;
use serde::de;
use serde::{Deserialize, Deserializer};
use serde_json::Value;
use sqs_engine::api::{split_tagged, FromJson, Input, Output, ToJson};
use sqs_engine::{Millis, Namespace, Request};

/// One action: an SQS call the user makes by hand (as a producer, say), or a simulation action.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// `{"call": "SendMessage", "input": {...}}`: exactly the `sqs-sim run` call step.
    Call(Request),
    /// `{"sim": "AddWorker", "input": {...}}`.
    Sim(SimAction),
}

/// What the simulation adds to SQS's own actions. Workers are named by their `name`.
#[derive(Clone, Debug, PartialEq)]
pub enum SimAction {
    /// A new worker lane.
    AddWorker {
        /// Unique name, e.g. "Worker 1" or "Worker A".
        name: String,
        /// How it polls, processes, heartbeats.
        policy: WorkerPolicy,
    },
    /// Removes a lane (what it holds simply times out).
    RemoveWorker {
        /// Which worker.
        worker: String,
    },
    /// Changes a worker's policy from its next job on.
    SetPolicy {
        /// Which worker.
        worker: String,
        /// The new policy.
        policy: WorkerPolicy,
    },
    /// Crash now: in-flight messages simply wait for their visibility timeout.
    Kill {
        /// Which worker.
        worker: String,
    },
    /// A killed or hung worker starts polling again (it has forgotten what it held).
    Restart {
        /// Which worker.
        worker: String,
    },
    /// Stops working and stops heartbeating, but stays "alive".
    Hang {
        /// Which worker.
        worker: String,
    },
    /// The current or next job crashes after its side effects are committed, before DeleteMessage.
    CrashAfterCommit {
        /// Which worker.
        worker: String,
    },
    /// The next DeleteMessage happens at SQS but the worker sees it fail.
    LoseDeleteResponse {
        /// Which worker.
        worker: String,
    },
    /// The current or next job fails: no delete; the message comes back after its timeout.
    FailJob {
        /// Which worker.
        worker: String,
    },
    /// The Lambda function's current or next response lists an itemIdentifier that is no
    /// MessageId of its batch (a typo, a receipt handle): Lambda counts the whole batch as
    /// failed (§12). Only for a Lambda worker with ReportBatchItemFailures.
    BadItemIdentifier {
        /// Which worker.
        worker: String,
    },
    /// Drag a message onto a worker lane: that worker receives that message now (FIFO rules
    /// apply: a message behind an in-flight one of its group cannot be taken).
    Deliver {
        /// Which worker.
        worker: String,
        /// The MessageId to hand over.
        message_id: String,
    },
    /// ReceiveMessage by hand (manual mode), with the worker's policy (batch size, wait,
    /// VisibilityTimeout); the messages wait in its lane for Delete or Extend.
    Receive {
        /// Which worker.
        worker: String,
    },
    /// DeleteMessage by hand with the receipt handle the worker holds (manual mode).
    Delete {
        /// Which worker.
        worker: String,
        /// The MessageId it holds.
        message_id: String,
    },
    /// ChangeMessageVisibility by hand with the receipt handle the worker holds (any mode).
    Extend {
        /// Which worker.
        worker: String,
        /// The MessageId it holds.
        message_id: String,
        /// The new VisibilityTimeout in seconds, counted from now (0: visible at once).
        visibility_timeout: u32,
    },
    /// An SQS call a client of its own makes: a process talking to `sqs-sim serve`, as its live
    /// view records it (`{"sim": "Call", "input": {"by": "billing-worker", "call":
    /// "DeleteMessage", "input": {...}}}`). With its first ReceiveMessage a client becomes a
    /// consumer: a lane of its name, on which what it receives waits until it deletes it, changes
    /// its visibility or lets the timeout run out. SQS's refusal is narrated, not an error.
    /// A call made in another account or region than the engine's default one says so
    /// (`"namespace": {"account": "123456789012", "region": "eu-west-1"}`).
    Call {
        /// The client, as the server names it (its access key id, or its address and
        /// User-Agent).
        by: String,
        /// Where the call was made: the account and region of its credentials.
        namespace: Namespace,
        /// The call.
        request: Request,
    },
    /// A steady producer.
    AddProducer(crate::worker::ProducerSpec),
    /// Stops a producer.
    RemoveProducer {
        /// Which producer.
        producer: String,
    },
}

/// Declares the readers of the sim actions, each under its name, once: `SIM_ACTIONS` (the
/// names, for the error that names an unknown one) and [`SimAction::from_input`] come from the
/// one list (as engine/src/api.rs's `actions!` does for SQS's actions).
macro_rules! sim_actions {
    ($input:ident; $($name:ident => $read:expr,)*) => {
        /// The actions' names, for the error that names an unknown one.
        const SIM_ACTIONS: &[&str] = &[$(stringify!($name)),*];

        impl SimAction {
            /// Reads `input` as the input of the action named `action` (`"AddWorker"`).
            fn from_input(action: &str, input: Value) -> Result<SimAction, serde_json::Error> {
                let mut $input = Input(input);
                Ok(match action {
                    $(stringify!($name) => $read,)*
                    _ => return Err(de::Error::unknown_variant(action, SIM_ACTIONS)),
                })
            }
        }
    };
}

sim_actions!(input;
    AddWorker => SimAction::AddWorker {
        name: input.field("name")?,
        policy: input.field("policy")?,
    },
    RemoveWorker => SimAction::RemoveWorker {
        worker: input.field("worker")?,
    },
    SetPolicy => SimAction::SetPolicy {
        worker: input.field("worker")?,
        policy: input.field("policy")?,
    },
    Kill => SimAction::Kill {
        worker: input.field("worker")?,
    },
    Restart => SimAction::Restart {
        worker: input.field("worker")?,
    },
    Hang => SimAction::Hang {
        worker: input.field("worker")?,
    },
    CrashAfterCommit => SimAction::CrashAfterCommit {
        worker: input.field("worker")?,
    },
    LoseDeleteResponse => SimAction::LoseDeleteResponse {
        worker: input.field("worker")?,
    },
    FailJob => SimAction::FailJob {
        worker: input.field("worker")?,
    },
    BadItemIdentifier => SimAction::BadItemIdentifier {
        worker: input.field("worker")?,
    },
    Deliver => SimAction::Deliver {
        worker: input.field("worker")?,
        message_id: input.field("message_id")?,
    },
    Receive => SimAction::Receive {
        worker: input.field("worker")?,
    },
    Delete => SimAction::Delete {
        worker: input.field("worker")?,
        message_id: input.field("message_id")?,
    },
    Extend => SimAction::Extend {
        worker: input.field("worker")?,
        message_id: input.field("message_id")?,
        visibility_timeout: input.field("visibility_timeout")?,
    },
    Call => {
        let by = input.field("by")?;
        let namespace = match input.0.as_object_mut().and_then(|m| m.remove("namespace")) {
            Some(namespace) => serde_json::from_value(namespace)?,
            None => Namespace::DEFAULT,
        };
        let (action, request) = split_tagged(input.0, "call")?;
        SimAction::Call { by, namespace, request: Request::from_input(&action, request)? }
    },
    AddProducer => SimAction::AddProducer(FromJson::from_json(input.0)?),
    RemoveProducer => SimAction::RemoveProducer {
        producer: input.field("producer")?,
    },
);

impl SimAction {
    /// Reads a `{"sim": ..., "input": ...}` step.
    pub(crate) fn from_step(step: Value) -> Result<SimAction, serde_json::Error> {
        let (action, input) = split_tagged(step, "sim")?;
        SimAction::from_input(&action, input)
    }
}

/// `{"sim": "Kill", "input": {"worker": "Worker A"}}`.
impl ToJson for SimAction {
    fn to_json(&self) -> Value {
        let mut input = Output::default();
        let name = sqs_engine::variants_to_json!(self, SimAction, input;
            AddWorker { name, policy },
            RemoveWorker { worker },
            SetPolicy { worker, policy },
            Kill { worker },
            Restart { worker },
            Hang { worker },
            CrashAfterCommit { worker },
            LoseDeleteResponse { worker },
            FailJob { worker },
            BadItemIdentifier { worker },
            Deliver { worker, message_id },
            Receive { worker },
            Delete { worker, message_id },
            Extend { worker, message_id, visibility_timeout },
            RemoveProducer { producer };
            SimAction::AddProducer(spec) => return tagged("AddProducer", spec.to_json()),
            SimAction::Call { by, namespace, request } => {
                let mut call = request.to_json();
                call["by"] = by.as_str().into();
                if *namespace != Namespace::DEFAULT {
                    call["namespace"] = serde_json::to_value(namespace).expect("JSON");
                }
                return tagged("Call", call);
            },
        );
        tagged(name, input.into())
    }
}

/// `{"sim": name, "input": input}`.
fn tagged(name: &str, input: Value) -> Value {
    let mut out = Output::default();
    out.field("sim", name);
    out.value("input", input);
    out.into()
}

/// As the step of a scenario file: the request's or the simulation action's JSON.
impl ToJson for Step {
    fn to_json(&self) -> Value {
        match self {
            Step::Call(request) => request.to_json(),
            Step::Sim(action) => action.to_json(),
        }
    }
}

sqs_engine::write_by_hand!(Step, SimAction);

sqs_engine::writers! {
    LoggedStep { at: field("at"), step: field("step") }
}

impl Step {
    /// Reads a `{"call": ..., "input": ...}` or a `{"sim": ..., "input": ...}` step.
    pub fn from_value(step: Value) -> Result<Step, serde_json::Error> {
        if step.get("call").is_some() {
            let (action, input) = split_tagged(step, "call")?;
            Request::from_input(&action, input).map(Step::Call)
        } else {
            SimAction::from_step(step).map(Step::Sim)
        }
    }
}

/// Read through [`Step::from_value`], whose errors name the step's form.
impl<'de> Deserialize<'de> for Step {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Step::from_value(Value::deserialize(deserializer)?).map_err(de::Error::custom)
    }
}

/// A step with the virtual time at which it ran.
#[derive(Clone, Debug, PartialEq)]
pub struct LoggedStep {
    /// When (virtual milliseconds).
    pub at: Millis,
    /// What.
    pub step: Step,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn worker() -> String {
        "Worker A".to_string()
    }

    #[test]
    fn every_sim_action_reads_back_what_it_writes() {
        let actions = [
            SimAction::AddWorker {
                name: worker(),
                policy: WorkerPolicy::default(),
            },
            SimAction::RemoveWorker { worker: worker() },
            SimAction::SetPolicy {
                worker: worker(),
                policy: WorkerPolicy::default(),
            },
            SimAction::Kill { worker: worker() },
            SimAction::Restart { worker: worker() },
            SimAction::Hang { worker: worker() },
            SimAction::CrashAfterCommit { worker: worker() },
            SimAction::LoseDeleteResponse { worker: worker() },
            SimAction::FailJob { worker: worker() },
            SimAction::BadItemIdentifier { worker: worker() },
            SimAction::Deliver {
                worker: worker(),
                message_id: "m-1".into(),
            },
            SimAction::Receive { worker: worker() },
            SimAction::Delete {
                worker: worker(),
                message_id: "m-1".into(),
            },
            SimAction::Extend {
                worker: worker(),
                message_id: "m-1".into(),
                visibility_timeout: 60,
            },
            SimAction::AddProducer(crate::worker::ProducerSpec {
                name: "P".into(),
                queue: "orders".into(),
                every: 2.0,
                count: Some(10),
                body: "order-{n}".into(),
                delay_seconds: None,
                group_id: Some("g-{n%3}".into()),
                deduplication_id: None,
            }),
            SimAction::RemoveProducer {
                producer: "P".into(),
            },
            SimAction::Call {
                by: "billing-worker".into(),
                namespace: Namespace::new("123456789012", "eu-west-1"),
                request: Request::from_input(
                    "ReceiveMessage",
                    json!({"QueueUrl": "https://sqs.us-east-1.amazonaws.com/000000000000/orders", "WaitTimeSeconds": 20}),
                )
                .unwrap(),
            },
        ];
        assert_eq!(actions.len(), SIM_ACTIONS.len());
        for action in actions {
            let step = Step::Sim(action);
            let json = serde_json::to_value(&step).unwrap();
            assert_eq!(Step::from_value(json.clone()).unwrap(), step, "{json}");
            assert_eq!(serde_json::from_value::<Step>(json).unwrap(), step);
        }
    }

    #[test]
    fn a_call_step_reads_as_its_request() {
        let step = json!({"call": "ListQueues", "input": {"QueueNamePrefix": "a"}});
        let Step::Call(request) = Step::from_value(step).unwrap() else {
            panic!("not a call");
        };
        assert_eq!(request.action(), "ListQueues");
    }

    #[test]
    fn errors_name_what_is_wrong() {
        let error = |step: Value| Step::from_value(step).unwrap_err().to_string();
        assert!(error(json!({"sim": "Explode", "input": {}}))
            .starts_with("unknown variant `Explode`, expected one of `AddWorker`"));
        assert_eq!(
            error(json!({"sim": "Kill", "input": {}})),
            "missing field `worker`"
        );
        assert_eq!(error(json!({"sim": "Kill"})), "missing field `input`");
        assert_eq!(error(json!({"input": {}})), "missing field `sim`");
        assert_eq!(
            error(json!({"sim": "Kill", "input": {"worker": 3}})),
            "invalid type: integer `3`, expected a string"
        );
        assert_eq!(
            error(json!({"sim": "Kill", "input": null})),
            "expected a JSON object"
        );
        assert!(error(json!({"call": "Nope", "input": {}})).starts_with("unknown variant `Nope`"));
    }
}
