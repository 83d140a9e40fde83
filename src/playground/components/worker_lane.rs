//! A worker lane: the worker's state, the messages it holds with their countdown rings, its
//! controls (Kill, Restart, the faults the simulation offers (Hang among them), Remove), its
//! policy, and on a manual lane the DeleteMessage / ChangeMessageVisibility buttons you press as
//! the worker.

use super::counts::CountTiles;
use super::error;
use super::icons::{icon, Icon};
use super::lesson::proof_tag;
use super::message::CardList;
use super::worker_policy::{Editing, PolicyEditor};
use crate::playground::session::Slot;
use crate::playground::stage::{Card, Lane, Look, Worker};
use crate::playground::Action;
use sqs_engine::api::{
    AnyReceiptHandle, ChangeMessageVisibilityInput, DeleteMessageInput, QueueUrl,
};
use sqs_engine::Request;
use sqs_sim::command::SimAction;
use sqs_sim::worker::{ProcessingTime, WorkerMode};
use sqs_sim::{WorkerPolicy, WorkerStatus};
use yew::prelude::*;

/// A fault button: its words, its tooltip, the action it sends.
type Fault = (&'static str, &'static str, fn(String) -> SimAction);

/// The faults every lane offers.
const FAULTS: [Fault; 4] = [
    (
        "Hang",
        "The worker stays alive but stops: no progress, no heartbeat, no delete.",
        |worker| SimAction::Hang { worker },
    ),
    (
        "Crash after commit",
        "The job does its side effects, then the worker crashes before DeleteMessage.",
        |worker| SimAction::CrashAfterCommit { worker },
    ),
    (
        "Lose delete response",
        "DeleteMessage succeeds at SQS, but the worker sees it fail.",
        |worker| SimAction::LoseDeleteResponse { worker },
    ),
    (
        "Fail job",
        "The job fails: no delete; the message comes back after its timeout.",
        |worker| SimAction::FailJob { worker },
    ),
];

/// The fault only a Lambda worker with ReportBatchItemFailures offers: its function's response.
const BAD_ITEM_IDENTIFIER: Fault = (
    "Bad itemIdentifier",
    "The function's response names an itemIdentifier that is no MessageId of its batch: Lambda fails the whole batch.",
    |worker| SimAction::BadItemIdentifier { worker },
);

/// Seconds a manual "Extend" asks for (ChangeMessageVisibility's VisibilityTimeout).
const EXTEND_BY: i64 = 30;

/// Properties of [`WorkerLane`].
#[derive(Properties, PartialEq)]
pub struct LaneProps {
    /// The lane.
    pub lane: Lane,
    /// The queue's URL (for hand-made calls).
    pub queue_url: QueueUrl,
    /// A message is being dragged over this lane.
    pub over: bool,
    /// The messages that prove a lesson's answer (MessageIds).
    #[prop_or_default]
    pub proof: Vec<String>,
    /// The lane itself proves a lesson's answer.
    #[prop_or_default]
    pub proves: bool,
    /// The selected message, if any.
    pub selected: Option<String>,
    /// The last error of this worker's controls.
    pub error: Option<String>,
    /// The root's edit of this worker's policy, if any.
    pub editing: Option<Editing>,
    /// Whether the lane offers its controls (Kill, Restart, faults, policy, Remove, and the
    /// calls of a manual lane); a read-only player (`embed=1`, `controls=0`) only shows it.
    pub editable: bool,
    /// The name the user gave this client (a lane of the live view), if any.
    #[prop_or_default]
    pub shown_name: Option<String>,
    /// What the user does on the lane: select a message, a simulation action on this worker
    /// (its controls, its policy saved), the policy form as edited, an SQS call made by hand as
    /// this worker, a client renamed.
    pub onaction: Callback<Action>,
}

/// See the module documentation.
#[component]
pub fn WorkerLane(props: &LaneProps) -> Html {
    let worker = &props.lane.worker;
    let name = worker.name.clone();
    let sim = |make: fn(String) -> SimAction| {
        let name = name.clone();
        props.onaction.reform(move |_: MouseEvent| Action::Worker {
            worker: name.clone(),
            action: make(name.clone()),
        })
    };
    let dead = worker.status == WorkerStatus::Dead;
    let policy = if worker.client {
        "a client of sqs-sim serve: its own process, which receives, deletes and extends by itself"
            .to_string()
    } else {
        policy_summary(&worker.policy)
    };
    let place = &props.lane.place;
    let held = if place.aggregated() {
        html! { <CountTiles counts={place.counts.clone()} label={format!("Messages {name} holds")} /> }
    } else if place.cards.is_empty() && props.lane.leaving.is_empty() {
        html! {
            <p class="empty">{ if dead { "Dead: holds nothing." } else { "Holds no message." } }</p>
        }
    } else {
        html! {
            <CardList label={format!("Messages {name} holds")} cards={place.cards.clone()}
                leaving={props.lane.leaving.clone()} selected={props.selected.clone()}
                proof={props.proof.clone()}
                onaction={props.onaction.clone()} />
        }
    };
    let manual = matches!(worker.policy.mode, WorkerMode::Manual) && !dead && props.editable;
    // A client's own process (the live view's, or a recording of it) is nobody's to program or kill.
    let controls = props.editable && !worker.client;
    let faults = FAULTS.iter().chain(
        worker
            .policy
            .mode
            .reports_batch_item_failures()
            .then_some(&BAD_ITEM_IDENTIFIER),
    );

    let shown = props.shown_name.clone().unwrap_or_else(|| name.clone());
    let onrename = {
        let name = name.clone();
        props.onaction.reform(move |e: Event| Action::Rename {
            client: name.clone(),
            name: super::input_value(&e),
        })
    };

    html! {
        // A read-only lane has no button: it takes the focus itself, to be scrolled.
        <section class={classes!("lane", props.over.then_some("drop-over"), props.proves.then_some("proof"))}
            tabindex={(!props.editable).then_some("0")}
            aria-label={shown.clone()} data-worker={name.clone()} data-status={status_key(&worker.status)}>
            <header class="lane-head">
                <h3>{ &shown }</h3>
                if props.shown_name.is_some() {
                    <code class="client-id" title="Its access key id, as the server names it">{ &name }</code>
                }
                { proof_tag(props.proves) }
                <span class="status">
                    if dead { { icon(Icon::Warning) } }
                    { status_words(worker, place.count(Look::InFlight)) }
                </span>
            </header>
            <p class="lane-policy" title={policy.clone()}>{ policy }</p>
            if !worker.armed_faults.is_empty() {
                <p class="armed">{ format!("Armed: {}", worker.armed_faults.join(", ")) }</p>
            }
            { held }
            if manual {
                { hand_calls(props, &place.cards) }
            }
            if worker.client && props.editable {
                <details class="rename">
                    <summary>{ "Rename" }</summary>
                    <label>{ "Name shown" }
                        <input type="text" value={shown.clone()} onchange={onrename} />
                    </label>
                </details>
            }
            if controls {
                <div class="lane-actions">
                    <button class="danger" onclick={sim(|worker| SimAction::Kill { worker })}>{ "Kill" }</button>
                    <button onclick={sim(|worker| SimAction::Restart { worker })}>{ "Restart" }</button>
                    <details class="faults">
                        <summary>{ "Faults" }</summary>
                        <div class="fault-list">
                            for (label, title, make) in faults {
                                <button onclick={sim(*make)} title={*title}>{ *label }</button>
                            }
                        </div>
                    </details>
                    <details class="policy">
                        <summary>{ "Policy" }</summary>
                        <PolicyEditor worker={name.clone()} policy={worker.policy.clone()}
                            editing={props.editing.clone()} onaction={props.onaction.clone()} />
                    </details>
                    <button class="quiet" onclick={sim(|worker| SimAction::RemoveWorker { worker })}>{ "Remove" }</button>
                </div>
            }
            { error(props.error.as_deref()) }
        </section>
    }
}

/// On a manual lane you are the worker: a DeleteMessage and an extend button per message. On a
/// live client's lane, one button per message makes it visible again, as a crash of the client
/// would once its timeout ran out.
fn hand_calls(props: &LaneProps, cards: &[Card]) -> Html {
    let worker = &props.lane.worker.name;
    let call = |request: Request| {
        let slot = Slot::Worker(worker.clone());
        props.onaction.reform(move |_: MouseEvent| Action::Call {
            slot: slot.clone(),
            request: request.clone(),
        })
    };
    let held = cards
        .iter()
        .filter(|c| c.look == Look::InFlight)
        .filter_map(|c| {
            let handle = AnyReceiptHandle::from(c.receipt_handle.clone()?);
            Some((c, handle))
        });
    let visibility = |receipt_handle: AnyReceiptHandle, visibility_timeout| {
        call(Request::ChangeMessageVisibility(
            ChangeMessageVisibilityInput {
                queue_url: props.queue_url.clone(),
                receipt_handle,
                visibility_timeout,
            },
        ))
    };
    html! {
        <>
            for (c, handle) in held {
                <div class="by-hand" key={c.id.clone()}>
                    <span>{ &c.body }</span>
                    if props.lane.worker.client {
                        <button onclick={visibility(handle, 0)}
                            title="ChangeMessageVisibility with VisibilityTimeout 0: the message is visible again at once, as if this client had crashed and its timeout had run out."
                            aria-label={format!("Make visible: {} (ChangeMessageVisibility 0)", c.body)}>
                            { "Make visible" }
                        </button>
                    } else {
                        <button
                            onclick={call(Request::DeleteMessage(DeleteMessageInput {
                                queue_url: props.queue_url.clone(),
                                receipt_handle: handle.clone(),
                            }))}
                            aria-label={format!("DeleteMessage {}", c.body)}>
                            { "DeleteMessage" }
                        </button>
                        <button onclick={visibility(handle, EXTEND_BY)}
                            aria-label={format!("ChangeMessageVisibility {}: {EXTEND_BY} s", c.body)}>
                            { format!("+{EXTEND_BY} s") }
                        </button>
                    }
                </div>
            }
        </>
    }
}

fn status_key(status: &WorkerStatus) -> &'static str {
    match status {
        WorkerStatus::Idle => "idle",
        WorkerStatus::Polling => "polling",
        WorkerStatus::Processing => "processing",
        WorkerStatus::Dead => "dead",
        WorkerStatus::Hung => "hung",
    }
}

/// What a lane is doing, in words; a client's own process tells only what it holds (`held`:
/// its leases still running) or that its ReceiveMessage waits.
fn status_words(worker: &Worker, held: usize) -> String {
    if worker.client && worker.status != WorkerStatus::Polling && held > 0 {
        return format!("holds {held}");
    }
    let words = match worker.status {
        WorkerStatus::Idle => "idle",
        WorkerStatus::Polling => "polling (ReceiveMessage waiting)",
        WorkerStatus::Processing => "processing",
        WorkerStatus::Dead => "dead (killed)",
        WorkerStatus::Hung => "hung (no progress, no heartbeat)",
    };
    words.to_string()
}

/// One line a teacher can read aloud: how this worker behaves.
pub fn policy_summary(policy: &WorkerPolicy) -> String {
    let mode = match &policy.mode {
        WorkerMode::Auto => "polls by itself".to_string(),
        WorkerMode::Manual => "you are this worker: drag messages here".to_string(),
        WorkerMode::Lambda {
            batch_size,
            function_timeout,
            maximum_batching_window_in_seconds: window,
            ..
        } => {
            let window = match window {
                0 => String::new(),
                w => format!(", batching window {w} s"),
            };
            format!("Lambda, batch {batch_size}{window}, timeout {function_timeout} s")
        }
    };
    let mut parts = vec![mode];
    if matches!(policy.mode, WorkerMode::Auto) {
        parts.push(format!("batch {}", policy.max_messages));
        parts.push(format!("job {}", processing_words(&policy.processing)));
    }
    if let Some(h) = &policy.heartbeat {
        parts.push(format!("heartbeat every {} s: +{} s", h.every, h.extend_by));
    }
    if !policy.effects.is_empty() {
        let idempotent = policy.effects.iter().all(|e| e.idempotent);
        parts.push(
            if idempotent {
                "idempotent"
            } else {
                "not idempotent"
            }
            .to_string(),
        );
    }
    parts.join(" · ")
}

fn processing_words(p: &ProcessingTime) -> String {
    match p {
        ProcessingTime::Fixed { seconds } => format!("{} s", seconds),
        ProcessingTime::Uniform { min, max } => format!("{}–{} s", min, max),
        ProcessingTime::LongTail { median, max } => {
            format!("~{} s (up to {} s)", median, max)
        }
    }
}
