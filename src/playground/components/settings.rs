//! The queue's settings. Each field sends SetQueueAttributes with its one attribute when
//! submitted (Enter or its Set button); SQS's refusal appears next to the field and the queue
//! keeps its value. No range is checked here: the engine is SQS.

use super::select_value;
use crate::playground::scenarios::{SANDBOX, SANDBOX_FIFO};
use crate::playground::stage::QueueInfo;
use crate::playground::Action;
use serde_json::json;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// What the user typed into a field, kept (by the root) while the queue's value is still the
/// one it had then: when that changes, the field shows the queue's value again.
#[derive(Clone, Debug, PartialEq)]
pub struct Typed {
    /// The field's id.
    pub id: String,
    /// The queue's value when the user typed.
    pub over: Option<String>,
    /// The text.
    pub text: String,
}

/// Properties of [`Settings`].
#[derive(Properties, PartialEq)]
pub struct SettingsProps {
    /// The queue, once it exists.
    pub queue: Option<QueueInfo>,
    /// The dead-letter queue's ARN, when known (for a new RedrivePolicy).
    pub dlq_arn: Option<String>,
    /// SQS's refusals, by attribute name.
    pub errors: Vec<(String, String)>,
    /// What the user typed into the fields.
    pub typed: Vec<Typed>,
    /// A field submitted (SetQueueAttributes), what the user typed into a field, another queue
    /// type (the sandbox of that type opens).
    pub onaction: Callback<Action>,
}

/// One numeric attribute: label, attribute name, and the one-line explanation shown under it.
const NUMERIC: [(&str, &str, &str); 4] = [
    (
        "Visibility timeout (seconds)",
        "VisibilityTimeout",
        "How long a received message stays hidden from other consumers.",
    ),
    (
        "Delay (seconds)",
        "DelaySeconds",
        "DelaySeconds: how long every new message stays hidden before its first receive.",
    ),
    (
        "Receive wait time (seconds)",
        "ReceiveMessageWaitTimeSeconds",
        "ReceiveMessageWaitTimeSeconds: the default long-poll wait.",
    ),
    (
        "Retention period (seconds)",
        "MessageRetentionPeriod",
        "MessageRetentionPeriod: after this, SQS deletes a message nobody deleted.",
    ),
];

/// See the module documentation.
#[component]
pub fn Settings(props: &SettingsProps) -> Html {
    let Some(queue) = &props.queue else {
        return html! {
            <section class="panel settings" aria-label="Queue settings">
                <p class="empty">{ "No queue yet." }</p>
            </section>
        };
    };
    let error = |name: &str| {
        props
            .errors
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, e)| e.clone())
    };
    let set = |name: &'static str| {
        props.onaction.reform(move |value| Action::SetAttribute {
            name: name.to_string(),
            value,
        })
    };

    let redrive = queue
        .attribute("RedrivePolicy")
        .and_then(|p| serde_json::from_str::<serde_json::Value>(p).ok());
    let max_receives = redrive
        .as_ref()
        .and_then(|p| p.get("maxReceiveCount"))
        .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string));
    let target = redrive
        .as_ref()
        .and_then(|p| p.get("deadLetterTargetArn")?.as_str().map(str::to_string))
        .or_else(|| props.dlq_arn.clone());
    let on_max_receives = target.clone().map(|arn| {
        props.onaction.reform(move |value: String| {
            let count = value
                .trim()
                .parse::<i64>()
                .map_or_else(|_| json!(value), |n| json!(n));
            let policy = json!({ "deadLetterTargetArn": arn, "maxReceiveCount": count });
            Action::SetAttribute {
                name: "RedrivePolicy".to_string(),
                value: policy.to_string(),
            }
        })
    });
    let on_type = props
        .onaction
        .reform(|e: Event| Action::Open(select_value(&e)));
    let on_cbd = props.onaction.reform(|e: Event| {
        let on = e.target_unchecked_into::<HtmlInputElement>().checked();
        Action::SetAttribute {
            name: "ContentBasedDeduplication".to_string(),
            value: on.to_string(),
        }
    });
    let typed = |label: &str, current: &Option<String>| {
        let id = field_id(label);
        props
            .typed
            .iter()
            .find(|t| t.id == id && t.over == *current)
            .map(|t| t.text.clone())
    };
    let max_receives_typed = typed("Max receive count", &max_receives);
    let max_receives_help = if target.is_some() {
        "RedrivePolicy maxReceiveCount: receives allowed before SQS moves the message to the dead-letter queue."
    } else {
        "This queue has no dead-letter queue to name in a RedrivePolicy."
    };

    html! {
        <section class="panel settings" aria-label="Queue settings">
            <h2>{ "Queue settings" }</h2>
            <div class="field">
                <label class="field-label" for="queue-type">{ "Queue type" }</label>
                <select id="queue-type" onchange={on_type} aria-describedby="queue-type-help">
                    <option value={SANDBOX} selected={!queue.fifo}>{ "Standard" }</option>
                    <option value={SANDBOX_FIFO} selected={queue.fifo}>{ "FIFO" }</option>
                </select>
                <span class="help" id="queue-type-help">{ "SQS fixes a queue's type when it is created: changing it opens a fresh sandbox." }</span>
            </div>
            for (label, name, help) in NUMERIC {
                <Field {label} {help}
                    current={queue.attribute(name).map(str::to_string)}
                    typed={typed(label, &queue.attribute(name).map(str::to_string))}
                    error={error(name)}
                    onset={Some(set(name))}
                    onaction={props.onaction.clone()} />
            }
            <Field label="Max receive count" help={max_receives_help}
                typed={max_receives_typed}
                current={max_receives}
                error={error("RedrivePolicy")}
                onset={on_max_receives}
                onaction={props.onaction.clone()} />
            if queue.fifo {
                <div class="field check">
                    <input id="queue-cbd" type="checkbox"
                        checked={queue.attribute("ContentBasedDeduplication") == Some("true")}
                        onchange={on_cbd} aria-describedby="queue-cbd-help" />
                    <label class="field-label" for="queue-cbd">{ "Content-based deduplication" }</label>
                    <span class="help" id="queue-cbd-help">{ "ContentBasedDeduplication: the body's SHA-256 is the deduplication ID when a send gives none." }</span>
                    if let Some(e) = error("ContentBasedDeduplication") {
                        <span class="error" role="alert">{ e }</span>
                    }
                </div>
            }
        </section>
    }
}

/// A field's id, from its label (`setting-visibility-timeout-seconds-`): the labels are ASCII.
fn field_id(label: &str) -> String {
    let words = label
        .to_ascii_lowercase()
        .replace(|c: char| !c.is_ascii_alphanumeric(), "-");
    format!("setting-{words}")
}

/// Properties of [`Field`].
#[derive(Properties, PartialEq)]
struct FieldProps {
    /// The label (the input's accessible name).
    label: &'static str,
    /// The queue's current value.
    current: Option<String>,
    /// What the user typed over it, if anything.
    typed: Option<String>,
    /// One line of explanation.
    help: &'static str,
    /// SQS's refusal of the last value sent.
    error: Option<String>,
    /// Sends a value (None: the field is disabled).
    onset: Option<Callback<String>>,
    /// What the user typed.
    onaction: Callback<Action>,
}

/// One setting: the input, a Set button, the current value, the help and SQS's error.
#[component]
fn Field(props: &FieldProps) -> Html {
    let id = field_id(props.label);
    // What the user typed, until the queue's value changes (then the field shows it again).
    let value = props
        .typed
        .clone()
        .or_else(|| props.current.clone())
        .unwrap_or_default();
    let oninput = {
        let (id, over) = (id.clone(), props.current.clone());
        props.onaction.reform(move |e: InputEvent| {
            Action::Type(Typed {
                id: id.clone(),
                over: over.clone(),
                text: e.target_unchecked_into::<HtmlInputElement>().value(),
            })
        })
    };
    let onsubmit = {
        let (onset, value) = (props.onset.clone(), value.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            if let Some(onset) = &onset {
                onset.emit(value.clone());
            }
        })
    };
    let (help_id, error_id) = (format!("{id}-help"), format!("{id}-error"));
    let disabled = props.onset.is_none();
    html! {
        <form class={classes!("field", props.error.is_some().then_some("refused"))} {onsubmit}>
            <label class="field-label" for={id.clone()}>{ props.label }</label>
            <div class="field-row">
                <input {id} type="number" {value} {oninput} {disabled}
                    aria-invalid={props.error.is_some().to_string()}
                    aria-describedby={format!("{help_id} {error_id}")} />
                <button type="submit" {disabled}>{ "Set" }</button>
                <span class="field-now">{ format!("now {}", props.current.as_deref().unwrap_or("–")) }</span>
            </div>
            <span class="help" id={help_id}>{ props.help }</span>
            // Always present (and hidden while empty), so that the refusal is announced and the
            // field before it keeps its focus.
            <span class="error" id={error_id} role="alert">{ props.error.clone().unwrap_or_default() }</span>
        </form>
    }
}
