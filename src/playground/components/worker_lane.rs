//! A worker lane: the worker's state, the messages it holds with their countdown rings, its
//! controls (Kill, Restart, the faults the simulation offers (Hang among them), Remove), its policy, and on
//! a manual lane the DeleteMessage / ChangeMessageVisibility buttons you press as the worker.

use super::counts::count_tiles;
use super::el::{el, Attr};
use super::icons::{icon_markup, Icon};
use super::message::card_list;
use super::worker_policy::{Editing, PolicyEditor};
use super::{class, error, markup, markup_built, on_click, Escaped};
use crate::playground::format::decimal;
use crate::playground::session::Slot;
use crate::playground::stage::{Card, Lane, Look};
use crate::playground::Action;
use sqs_engine::api::{
    AnyReceiptHandle, ChangeMessageVisibilityInput, DeleteMessageInput, QueueUrl,
};
use sqs_engine::Request;
use sqs_sim::command::SimAction;
use sqs_sim::worker::{ProcessingTime, WorkerMode};
use sqs_sim::{WorkerPolicy, WorkerStatus};
use std::fmt::Write;
use yew::prelude::*;

/// A fault button: its words, its tooltip, the action it sends.
type Fault = (&'static str, &'static str, fn(String) -> SimAction);

/// The faults a lane offers: button, what it does, the action. One button drawn four times: each
/// button written out in markup is its own code in the bundle.
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
    /// The selected message, if any.
    pub selected: Option<String>,
    /// The last error of this worker's controls.
    pub error: Option<String>,
    /// The root's edit of this worker's policy, if any.
    pub editing: Option<Editing>,
    /// Whether the lane offers its controls (Kill, Restart, faults, policy, Remove, and the
    /// calls of a manual lane); a read-only player (`embed=1`, `controls=0`) only shows it.
    pub editable: bool,
    /// The root's action callback.
    pub dispatch: Callback<Action>,
}

/// See the module documentation.
#[component]
pub fn WorkerLane(props: &LaneProps) -> Html {
    let worker = &props.lane.worker;
    let name = worker.name.clone();
    let sim = |make: fn(String) -> SimAction| {
        let action = Action::Worker {
            worker: name.clone(),
            action: make(name.clone()),
        };
        on_click(&props.dispatch, action)
    };
    let dead = worker.status == WorkerStatus::Dead;
    let place = &props.lane.place;
    let held = if place.aggregated() {
        count_tiles(&place.counts, &format!("Messages {name} holds"))
    } else if place.cards.is_empty() && props.lane.leaving.is_empty() {
        markup(if dead {
            r#"<p class="empty">Dead: holds nothing.</p>"#
        } else {
            r#"<p class="empty">Holds no message.</p>"#
        })
    } else {
        card_list(
            format!("Messages {name} holds"),
            &place.cards,
            &props.lane.leaving,
            props.selected.as_deref(),
            false,
            &props.dispatch,
        )
    };
    let manual = matches!(worker.policy.mode, WorkerMode::Manual) && !dead && props.editable;
    let by_hand = manual.then(|| hand_calls(props, &place.cards));
    let remove = sim(|worker| SimAction::RemoveWorker { worker });
    // The lane's header, policy and armed faults are written as markup ([`markup_built`]): text
    // only.
    let mut head = format!(
        r#"<header class="lane-head"><h3>{}</h3><span class="status">{}{}</span></header><p class="lane-policy">{}</p>"#,
        Escaped(&name),
        if dead { icon_markup(Icon::Warning) } else { "" },
        status_words(&worker.status),
        Escaped(&policy_summary(&worker.policy))
    );
    if !worker.armed_faults.is_empty() {
        let armed = worker.armed_faults.join(", ");
        let _ = write!(head, r#"<p class="armed">Armed: {}</p>"#, Escaped(&armed));
    }

    let actions = props.editable.then(|| {
        let faults = FAULTS
            .iter()
            .chain(
                worker
                    .policy
                    .mode
                    .reports_batch_item_failures()
                    .then_some(&BAD_ITEM_IDENTIFIER),
            )
            .map(|(label, title, make)| {
                el("button")
                    .on_click(sim(*make))
                    .attr(Attr::Title, *title)
                    .text(*label)
            });
        let policy = html! {
            <PolicyEditor worker={name.clone()} policy={worker.policy.clone()}
                editing={props.editing.clone()} dispatch={props.dispatch.clone()} />
        };
        el("div")
            .class("lane-actions")
            .child(
                el("button")
                    .class("danger")
                    .on_click(sim(|worker| SimAction::Kill { worker }))
                    .text("Kill"),
            )
            .child(
                el("button")
                    .on_click(sim(|worker| SimAction::Restart { worker }))
                    .text("Restart"),
            )
            .child(
                el("details")
                    .class("faults")
                    .child(el("summary").text("Faults"))
                    .child(el("div").class("fault-list").children(faults)),
            )
            .child(
                el("details")
                    .class("policy")
                    .child(el("summary").text("Policy"))
                    .child(policy),
            )
            .child(el("button").class("quiet").on_click(remove).text("Remove"))
    });

    el("section")
        .class(class("lane", &[(props.over, "drop-over")]))
        .attr(Attr::AriaLabel, name.clone())
        .attr(Attr::DataWorker, name.clone())
        .attr(Attr::DataStatus, status_key(&worker.status))
        .child(markup_built(head))
        .child(held)
        .children(by_hand)
        .children(actions)
        .child(error(props.error.as_deref()))
        .into()
}

/// On a manual lane you are the worker: a DeleteMessage and an extend button per message.
fn hand_calls(props: &LaneProps, cards: &[Card]) -> Html {
    let worker = props.lane.worker.name.clone();
    let call = |request: Request| {
        let slot = Slot::Worker(worker.clone());
        on_click(&props.dispatch, Action::Call { slot, request })
    };
    cards
        .iter()
        .filter(|c| c.look == Look::InFlight)
        .filter_map(|c| {
            let handle = AnyReceiptHandle::from(c.receipt_handle.clone()?);
            let delete = call(Request::DeleteMessage(DeleteMessageInput {
                queue_url: props.queue_url.clone(),
                receipt_handle: handle.clone(),
            }));
            let extend = call(Request::ChangeMessageVisibility(
                ChangeMessageVisibilityInput {
                    queue_url: props.queue_url.clone(),
                    receipt_handle: handle,
                    visibility_timeout: EXTEND_BY,
                },
            ));
            let body = &c.body;
            Some(
                el("div")
                    .class("by-hand")
                    .key(c.id.clone())
                    .child(markup_built(format!("<span>{}</span>", Escaped(body))))
                    .child(
                        el("button")
                            .on_click(delete)
                            .attr(Attr::AriaLabel, format!("DeleteMessage {body}"))
                            .text("DeleteMessage"),
                    )
                    .child(
                        el("button")
                            .on_click(extend)
                            .attr(
                                Attr::AriaLabel,
                                format!("ChangeMessageVisibility {body}: {EXTEND_BY} s"),
                            )
                            .text(format!("+{EXTEND_BY} s")),
                    ),
            )
        })
        .collect()
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

fn status_words(status: &WorkerStatus) -> &'static str {
    match status {
        WorkerStatus::Idle => "idle",
        WorkerStatus::Polling => "polling (ReceiveMessage waiting)",
        WorkerStatus::Processing => "processing",
        WorkerStatus::Dead => "dead (killed)",
        WorkerStatus::Hung => "hung (no progress, no heartbeat)",
    }
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
        parts.push(format!(
            "heartbeat every {} s: +{} s",
            decimal(h.every),
            h.extend_by
        ));
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
        ProcessingTime::Fixed { seconds } => format!("{} s", decimal(*seconds)),
        ProcessingTime::Uniform { min, max } => format!("{}–{} s", decimal(*min), decimal(*max)),
        ProcessingTime::LongTail { median, max } => {
            format!("~{} s (up to {} s)", decimal(*median), decimal(*max))
        }
    }
}
