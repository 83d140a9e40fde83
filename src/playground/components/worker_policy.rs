//! A worker's policy, editable: polling, batch size, processing time, heartbeat, idempotency.
//! Saving sends SetPolicy; the World judges the values (and SQS judges them again when the
//! worker calls it).

use super::{error, input_checked, input_value, select_value};
use crate::playground::Action;
use sqs_sim::command::SimAction;
use sqs_sim::worker::{Heartbeat, ProcessingTime, WorkerMode};
use sqs_sim::WorkerPolicy;
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
                ProcessingTime::Fixed { seconds } => seconds.to_string(),
                _ => String::new(),
            },
            heartbeat: heartbeat.is_some(),
            every: heartbeat
                .as_ref()
                .map_or("10".into(), |h| h.every.to_string()),
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
            text.trim()
                .parse::<f64>()
                .ok()
                .filter(|s| s.is_finite())
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

/// Properties of [`PolicyEditor`].
#[derive(Properties, PartialEq)]
pub struct PolicyProps {
    /// The worker's name.
    pub worker: String,
    /// Its current policy.
    pub policy: WorkerPolicy,
    /// The root's edit of it, if any.
    pub editing: Option<Editing>,
    /// The form as edited (and, after a save, why it was refused); Save policy, with values
    /// the form could read: the worker's new policy.
    pub onaction: Callback<Action>,
}

/// See the module documentation. Without state of its own: the root keeps the form as typed
/// ([`Editing`]), so that it outlives the lane being drawn again.
#[component]
pub fn PolicyEditor(props: &PolicyProps) -> Html {
    let editing = match &props.editing {
        Some(e) if e.base == props.policy => e.clone(),
        _ => Editing {
            worker: props.worker.clone(),
            base: props.policy.clone(),
            draft: Draft::of(&props.policy),
            problem: None,
        },
    };
    let text = |set: fn(&mut Draft, String)| {
        edit::<InputEvent>(&editing, &props.onaction, move |d, e| {
            set(d, input_value(e))
        })
    };
    let check = |set: fn(&mut Draft, bool)| {
        edit::<Event>(&editing, &props.onaction, move |d, e| {
            set(d, input_checked(e))
        })
    };
    let on_mode = edit::<Event>(&editing, &props.onaction, |d, e| d.mode = select_value(e));
    let onsubmit = {
        let (editing, onaction) = (editing.clone(), props.onaction.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let saved = editing.draft.apply(&editing.base);
            onaction.emit(Action::EditPolicy(Editing {
                problem: saved.as_ref().err().cloned(),
                ..editing.clone()
            }));
            if let Ok(policy) = saved {
                let worker = editing.worker.clone();
                onaction.emit(Action::Worker {
                    worker: worker.clone(),
                    action: SimAction::SetPolicy { worker, policy },
                });
            }
        })
    };
    let d = &editing.draft;
    let mode_id = format!(
        "policy-mode-{}",
        props
            .worker
            .replace(|c: char| !c.is_ascii_alphanumeric(), "-")
    );
    html! {
        <form class="policy-form" {onsubmit}>
            <label for={mode_id.clone()}>{ "Mode" }</label>
            <select id={mode_id} onchange={on_mode}>
                <option value="auto" selected={d.mode == "auto"}>{ "Polls by itself" }</option>
                <option value="manual" selected={d.mode == "manual"}>{ "You are the worker" }</option>
                if d.mode == "lambda" {
                    <option value="lambda" selected=true>{ "Lambda (as configured)" }</option>
                }
            </select>
            <Number value={d.wait.clone()} oninput={text(|d, v| d.wait = v)}>
                <abbr title="ReceiveMessage WaitTimeSeconds: 0 is a short poll; more is a long poll that waits for a message.">{ "Wait time" }</abbr>
                { " (seconds)" }
            </Number>
            <Number value={d.batch.clone()} oninput={text(|d, v| d.batch = v)}>
                { "Batch size" }
            </Number>
            <Number value={d.processing.clone()} oninput={text(|d, v| d.processing = v)}
                step="any" placeholder="as configured">
                { "Processing time (seconds)" }
            </Number>
            <Checkbox checked={d.heartbeat} onchange={check(|d, on| d.heartbeat = on)}>
                <abbr title="While the job runs, the worker calls ChangeMessageVisibility to keep the message hidden longer.">{ "Heartbeat" }</abbr>
            </Checkbox>
            if d.heartbeat {
                <Number value={d.every.clone()} oninput={text(|d, v| d.every = v)} step="any">
                    { "Heartbeat every (seconds)" }
                </Number>
                <Number value={d.extend_by.clone()} oninput={text(|d, v| d.extend_by = v)}>
                    { "Extend by (seconds)" }
                </Number>
            }
            <Checkbox checked={d.idempotent} onchange={check(|d, on| d.idempotent = on)}>
                <abbr title="Before each side effect the worker checks a durable ledger for its idempotency key, so a redelivery does not repeat it.">{ "Idempotent side effects" }</abbr>
            </Checkbox>
            <button type="submit">{ "Save policy" }</button>
            { error(editing.problem.as_deref()) }
        </form>
    }
}

/// A field's event: `editing` with its draft changed by `change`, as [`Action::EditPolicy`]
/// (the problem shown is kept until the next save).
fn edit<E: AsRef<Event> + 'static>(
    editing: &Editing,
    onaction: &Callback<Action>,
    change: impl Fn(&mut Draft, &Event) + 'static,
) -> Callback<E> {
    let editing = editing.clone();
    onaction.reform(move |e: E| {
        let mut next = editing.clone();
        change(&mut next.draft, e.as_ref());
        Action::EditPolicy(next)
    })
}

/// Properties of [`Number`].
#[derive(Properties, PartialEq)]
struct NumberProps {
    /// The field as typed.
    value: String,
    /// What is typed.
    oninput: Callback<InputEvent>,
    /// `any` for seconds that may have decimals.
    #[prop_or_default]
    step: Option<AttrValue>,
    /// Shown while it is empty.
    #[prop_or_default]
    placeholder: Option<AttrValue>,
    /// The label.
    children: Html,
}

/// A labelled number field of the form.
#[component]
fn Number(props: &NumberProps) -> Html {
    html! {
        <label>
            { props.children.clone() }
            <input type="number" step={props.step.clone()} placeholder={props.placeholder.clone()}
                value={props.value.clone()} oninput={props.oninput.clone()} />
        </label>
    }
}

/// Properties of [`Checkbox`].
#[derive(Properties, PartialEq)]
struct CheckboxProps {
    /// Whether it is checked.
    checked: bool,
    /// Checked or unchecked.
    onchange: Callback<Event>,
    /// The label.
    children: Html,
}

/// A labelled checkbox of the form.
#[component]
fn Checkbox(props: &CheckboxProps) -> Html {
    html! {
        <label class="check">
            <input type="checkbox" checked={props.checked} onchange={props.onchange.clone()} />
            { props.children.clone() }
        </label>
    }
}
