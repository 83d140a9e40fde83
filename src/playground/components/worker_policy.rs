//! A worker's policy, editable: polling, batch size, processing time, heartbeat, idempotency.
//! Saving sends SetPolicy; the World judges the values (and SQS judges them again when the
//! worker calls it).

use super::el::{el, Attr, El};
use super::{error, markup};
use crate::playground::format::decimal;
use crate::playground::Action;
use sqs_sim::command::SimAction;
use sqs_sim::worker::{Heartbeat, ProcessingTime, WorkerMode};
use sqs_sim::WorkerPolicy;
use wasm_bindgen::JsCast;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// A policy being edited, kept by the root while the worker's policy is still the one the edit
/// started from: when that changes, the editor shows the new policy.
#[derive(Clone, Debug, PartialEq)]
pub struct Editing {
    /// The worker's name.
    pub worker: String,
    /// Its policy when the edit started.
    pub base: WorkerPolicy,
    /// The form as typed.
    pub draft: Draft,
    /// Why the last save was refused.
    pub problem: Option<String>,
}

/// The form's fields as typed.
#[derive(Clone, Debug, PartialEq)]
pub struct Draft {
    mode: String,
    wait: String,
    batch: String,
    processing: String,
    heartbeat: bool,
    every: String,
    extend_by: String,
    idempotent: bool,
}

impl Draft {
    fn of(p: &WorkerPolicy) -> Draft {
        let heartbeat = p.heartbeat.clone();
        Draft {
            mode: match p.mode {
                WorkerMode::Auto => "auto",
                WorkerMode::Manual => "manual",
                WorkerMode::Lambda { .. } => "lambda",
            }
            .to_string(),
            wait: p.wait_time_seconds.to_string(),
            batch: p.max_messages.to_string(),
            processing: match p.processing {
                ProcessingTime::Fixed { seconds } => decimal(seconds),
                _ => String::new(),
            },
            heartbeat: heartbeat.is_some(),
            every: heartbeat.as_ref().map_or("10".into(), |h| decimal(h.every)),
            extend_by: heartbeat.map_or("30".into(), |h| h.extend_by.to_string()),
            idempotent: !p.effects.is_empty() && p.effects.iter().all(|e| e.idempotent),
        }
    }

    /// The policy this draft describes, or which field is not a number.
    fn apply(&self, base: &WorkerPolicy) -> Result<WorkerPolicy, String> {
        let whole = |text: &str, what: &str| {
            text.trim()
                .parse::<u32>()
                .map_err(|_| format!("{what}: \"{text}\" is not a whole number."))
        };
        let seconds = |text: &str, what: &str| {
            sqs_engine::decimal::parse(text.trim())
                .ok_or_else(|| format!("{what}: \"{text}\" is not a number."))
        };
        let mut p = base.clone();
        p.mode = match self.mode.as_str() {
            "auto" => WorkerMode::Auto,
            "manual" => WorkerMode::Manual,
            _ => base.mode.clone(),
        };
        p.wait_time_seconds = whole(&self.wait, "Wait time")?;
        p.max_messages = whole(&self.batch, "Batch size")?;
        if !self.processing.trim().is_empty() {
            p.processing = ProcessingTime::Fixed {
                seconds: seconds(&self.processing, "Processing time")?,
            };
        }
        p.heartbeat = if self.heartbeat {
            Some(Heartbeat {
                every: seconds(&self.every, "Heartbeat every")?,
                extend_by: whole(&self.extend_by, "Extend by")?,
                max_extensions: base.heartbeat.as_ref().and_then(|h| h.max_extensions),
                max_total: base.heartbeat.as_ref().and_then(|h| h.max_total),
            })
        } else {
            None
        };
        for effect in &mut p.effects {
            effect.idempotent = self.idempotent;
        }
        Ok(p)
    }
}

/// A field's event: `editing` with its draft changed by `change`, sent to the root (the
/// problem shown is kept until the next save).
fn edit<E: AsRef<Event> + 'static>(
    editing: &Editing,
    dispatch: &Callback<Action>,
    change: impl Fn(&mut Draft, &Event) + 'static,
) -> Callback<E> {
    let (editing, dispatch) = (editing.clone(), dispatch.clone());
    Callback::from(move |e: E| {
        let mut next = editing.clone();
        change(&mut next.draft, e.as_ref());
        dispatch.emit(Action::EditPolicy(next));
    })
}

/// Properties of [`PolicyEditor`].
#[derive(Properties, PartialEq)]
pub struct PolicyProps {
    /// The worker's name.
    pub worker: String,
    /// Its current policy.
    pub policy: WorkerPolicy,
    /// The root's edit of it, if any.
    pub editing: Option<Editing>,
    /// The root's action callback.
    pub dispatch: Callback<Action>,
}

/// See the module documentation. A component without state (the root keeps the form as typed:
/// [`Editing`]) so that a lane, drawn again whenever its counts change, skips its unchanged form:
/// 50 lanes would draw 50 forms every frame.
#[component]
pub fn PolicyEditor(props: &PolicyProps) -> Html {
    form(
        &props.worker,
        &props.policy,
        props.editing.as_ref(),
        &props.dispatch,
    )
}

/// The form: `editing` is the root's [`Editing`] of this worker's policy, if any.
fn form(
    worker: &str,
    policy: &WorkerPolicy,
    editing: Option<&Editing>,
    dispatch: &Callback<Action>,
) -> Html {
    let (draft, problem) = match editing {
        Some(e) if e.base == *policy => (e.draft.clone(), e.problem.clone()),
        _ => (Draft::of(policy), None),
    };
    let editing = Editing {
        worker: worker.to_string(),
        base: policy.clone(),
        draft: draft.clone(),
        problem: problem.clone(),
    };
    let text = |set: fn(&mut Draft, String)| {
        edit::<InputEvent>(&editing, dispatch, move |d, e| {
            set(d, e.target_unchecked_into::<HtmlInputElement>().value())
        })
    };
    let check = |set: fn(&mut Draft, bool)| {
        edit::<Event>(&editing, dispatch, move |d, e| {
            set(d, e.target_unchecked_into::<HtmlInputElement>().checked())
        })
    };
    let on_mode = edit::<Event>(&editing, dispatch, |d, e| {
        if let Some(select) = e
            .target()
            .and_then(|t| t.dyn_into::<HtmlSelectElement>().ok())
        {
            d.mode = select.value();
        }
    });
    let onsubmit = {
        let (draft, dispatch, worker, policy) = (
            draft.clone(),
            dispatch.clone(),
            worker.to_string(),
            policy.clone(),
        );
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let (problem, saved) = match draft.apply(&policy) {
                Ok(saved) => (None, Some(saved)),
                Err(e) => (Some(e), None),
            };
            dispatch.emit(Action::EditPolicy(Editing {
                worker: worker.clone(),
                base: policy.clone(),
                draft: draft.clone(),
                problem,
            }));
            if let Some(policy) = saved {
                dispatch.emit(Action::Worker {
                    worker: worker.clone(),
                    action: SimAction::SetPolicy {
                        worker: worker.clone(),
                        policy,
                    },
                });
            }
        })
    };
    let d = &draft;
    let lambda = d.mode == "lambda";
    // ASCII only, as the settings' ids (no Unicode tables in the bundle).
    let mode_id = format!(
        "policy-mode-{}",
        worker.replace(|c: char| !c.is_ascii_alphanumeric(), "-")
    );
    let option = |value: &'static str, label: &'static str| {
        el("option")
            .attr(Attr::Value, value)
            .flag(Attr::Selected, d.mode == value)
            .text(label)
    };
    let number = |value: &String, set: fn(&mut Draft, String)| {
        el("input")
            .attr(Attr::Type, "number")
            .value(value.clone())
            .on_input(text(set))
    };
    let labelled = |label: &'static str, input: El| el("label").text(label).child(input);
    // A checkbox and its label (markup).
    let checkbox = |on: bool, set: fn(&mut Draft, bool), label: &'static str| {
        el("label")
            .class("check")
            .child(
                el("input")
                    .attr(Attr::Type, "checkbox")
                    .checked(on)
                    .on_change(check(set)),
            )
            .child(markup(label))
    };
    let heartbeat = d.heartbeat.then(|| {
        [
            labelled(
                "Heartbeat every (seconds)",
                number(&d.every, |d, v| d.every = v).attr(Attr::Step, "any"),
            ),
            labelled(
                "Extend by (seconds)",
                number(&d.extend_by, |d, v| d.extend_by = v),
            ),
        ]
        .into_iter()
        .collect::<Html>()
    });
    el("form")
        .class("policy-form")
        .on_submit(onsubmit)
        .child(
            el("label")
                .attr(Attr::For, mode_id.clone())
                .text("Mode"),
        )
        .child(
            el("select")
                .attr(Attr::Id, mode_id)
                .on_change(on_mode)
                .child(option("auto", "Polls by itself"))
                .child(option("manual", "You are the worker"))
                .children(lambda.then(|| option("lambda", "Lambda (as configured)"))),
        )
        .child(
            el("label")
                .child(markup(r#"<abbr title="ReceiveMessage WaitTimeSeconds: 0 is a short poll; more is a long poll that waits for a message.">Wait time</abbr>"#))
                .text(" (seconds)")
                .child(number(&d.wait, |d, v| d.wait = v)),
        )
        .child(labelled("Batch size", number(&d.batch, |d, v| d.batch = v)))
        .child(labelled(
            "Processing time (seconds)",
            number(&d.processing, |d, v| d.processing = v)
                .attr(Attr::Step, "any")
                .attr(Attr::Placeholder, "as configured"),
        ))
        .child(checkbox(
            d.heartbeat,
            |d, v| d.heartbeat = v,
            r#"<abbr title="While the job runs, the worker calls ChangeMessageVisibility to keep the message hidden longer.">Heartbeat</abbr>"#,
        ))
        .children(heartbeat)
        .child(checkbox(
            d.idempotent,
            |d, v| d.idempotent = v,
            r#"<abbr title="Before each side effect the worker checks a durable ledger for its idempotency key, so a redelivery does not repeat it.">Idempotent side effects</abbr>"#,
        ))
        .child(
            el("button")
                .attr(Attr::Type, "submit")
                .text("Save policy"),
        )
        .child(error(problem.as_deref()))
        .into()
}
