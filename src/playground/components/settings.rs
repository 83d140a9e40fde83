//! The queue's settings. Each field sends SetQueueAttributes with its one attribute when
//! submitted (Enter or its Set button); SQS's refusal appears next to the field and the queue
//! keeps its value. No range is checked here: the engine is SQS.

use super::el::{el, Attr, El};
use super::{class, markup, markup_built, Escaped};
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

/// Properties of [`settings`].
pub struct SettingsProps<'a> {
    /// The queue, once it exists.
    pub queue: Option<QueueInfo>,
    /// The dead-letter queue's ARN, when known (for a new RedrivePolicy).
    pub dlq_arn: Option<String>,
    /// Errors by attribute name.
    pub errors: Vec<(String, String)>,
    /// What the user typed into the fields.
    pub typed: &'a [Typed],
    /// The root's action callback.
    pub dispatch: Callback<Action>,
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

/// See the module documentation. A function, not a component: a component's lifecycle code is
/// repeated per component in the bundle (~1 KB), and this one is cheap to draw every frame.
pub fn settings(props: &SettingsProps) -> Html {
    let Some(queue) = &props.queue else {
        return section()
            .child(markup(r#"<p class="empty">No queue yet.</p>"#))
            .into();
    };
    let error = |name: &str| {
        props
            .errors
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, e)| e.clone())
    };
    let set = |name: &'static str| {
        let dispatch = props.dispatch.clone();
        Callback::from(move |value: String| {
            dispatch.emit(Action::SetAttribute {
                name: name.to_string(),
                value,
            })
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
        let dispatch = props.dispatch.clone();
        Callback::from(move |value: String| {
            let mut policy = json!({ "deadLetterTargetArn": arn });
            // By index, not through `json!` (see `embed::event_message`).
            policy["maxReceiveCount"] = value
                .trim()
                .parse::<i64>()
                .map_or_else(|_| json!(value), |n| json!(n));
            dispatch.emit(Action::SetAttribute {
                name: "RedrivePolicy".into(),
                value: policy.to_string(),
            })
        })
    });

    let on_type = super::scenario_picker::open_selected(props.dispatch.clone());
    let on_cbd = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |e: Event| {
            let on = e.target_unchecked_into::<HtmlInputElement>().checked();
            dispatch.emit(Action::SetAttribute {
                name: "ContentBasedDeduplication".into(),
                value: on.to_string(),
            })
        })
    };

    let numeric = NUMERIC.iter().map(|(label, name, help)| {
        field(
            &FieldProps {
                label,
                current: queue.attribute(name).map(str::to_string),
                help,
                error: error(name),
                on_set: Some(set(name)),
            },
            props,
        )
    });
    let max_receives = field(
        &FieldProps {
            label: "Max receive count",
            current: max_receives,
            help: if target.is_some() {
                "RedrivePolicy maxReceiveCount: receives allowed before SQS moves the message to the dead-letter queue."
            } else {
                "This queue has no dead-letter queue to name in a RedrivePolicy."
            },
            error: error("RedrivePolicy"),
            on_set: on_max_receives,
        },
        props,
    );
    let deduplication = queue.fifo.then(|| {
        let refused = error("ContentBasedDeduplication").map(|e| {
            el("span")
                .class("error")
                .attr(Attr::Role, "alert")
                .text(e)
        });
        el("div")
            .class("field check")
            .child(
                el("input")
                    .attr(Attr::Id, "queue-cbd")
                    .attr(Attr::Type, "checkbox")
                    .checked(queue.attribute("ContentBasedDeduplication") == Some("true"))
                    .on_change(on_cbd)
                    .attr(Attr::AriaDescribedby, "queue-cbd-help"),
            )
            .child(markup(r#"<label class="field-label" for="queue-cbd">Content-based deduplication</label>"#))
            .child(markup(r#"<span class="help" id="queue-cbd-help">ContentBasedDeduplication: the body's SHA-256 is the deduplication ID when a send gives none.</span>"#))
            .children(refused)
    });
    let option = |value: &'static str, on: bool, label: &'static str| {
        el("option")
            .attr(Attr::Value, value)
            .flag(Attr::Selected, on)
            .text(label)
    };
    section()
        .child(markup(r#"<h2>Queue settings</h2>"#))
        .child(
            el("div")
                .class("field")
                .child(markup(r#"<label class="field-label" for="queue-type">Queue type</label>"#))
                .child(
                    el("select")
                        .attr(Attr::Id, "queue-type")
                        .on_change(on_type)
                        .attr(Attr::AriaDescribedby, "queue-type-help")
                        .child(option(SANDBOX, !queue.fifo, "Standard"))
                        .child(option(SANDBOX_FIFO, queue.fifo, "FIFO")),
                )
                .child(markup(r#"<span class="help" id="queue-type-help">SQS fixes a queue's type when it is created: changing it opens a fresh sandbox.</span>"#)),
        )
        .children(numeric)
        .child(max_receives)
        .children(deduplication)
        .into()
}

/// The panel around the settings.
fn section() -> El {
    el("section")
        .class("panel settings")
        .attr(Attr::AriaLabel, "Queue settings")
}

/// Properties of [`field`].
struct FieldProps {
    /// The label (the input's accessible name).
    label: &'static str,
    /// The queue's current value.
    current: Option<String>,
    /// One line of explanation.
    help: &'static str,
    /// SQS's refusal of the last value sent.
    error: Option<String>,
    /// Sends a value (None: the field is disabled).
    on_set: Option<Callback<String>>,
}

/// One setting: the input, a Set button, the current value, the help and SQS's error. A
/// function, not a component (a component's lifecycle code is repeated per component in the
/// bundle): the root keeps what the user typed ([`Typed`]).
fn field(props: &FieldProps, settings: &SettingsProps) -> Html {
    // ASCII only: the Unicode case and alphanumeric tables would add ~9 KB gzip to the bundle.
    let id = format!(
        "setting-{}",
        props
            .label
            .to_ascii_lowercase()
            .replace(|c: char| !c.is_ascii_alphanumeric(), "-")
    );
    // What the user typed, until the queue's value changes (then the field shows it again).
    let value = settings
        .typed
        .iter()
        .find(|t| t.id == id && t.over == props.current)
        .map(|t| t.text.clone())
        .or_else(|| props.current.clone())
        .unwrap_or_default();
    let oninput = {
        let (dispatch, id, over) = (settings.dispatch.clone(), id.clone(), props.current.clone());
        Callback::from(move |e: InputEvent| {
            dispatch.emit(Action::Type(Typed {
                id: id.clone(),
                over: over.clone(),
                text: e.target_unchecked_into::<HtmlInputElement>().value(),
            }))
        })
    };
    let onsubmit = {
        let (on_set, value) = (props.on_set.clone(), value.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            if let Some(on_set) = &on_set {
                on_set.emit(value.clone());
            }
        })
    };
    let help_id = format!("{id}-help");
    let error_id = format!("{id}-error");
    let described = format!("{help_id} {error_id}");
    // The label, the current value and the help are written as markup ([`markup_built`]).
    let now = format!(
        r#"<span class="field-now">now {}</span>"#,
        Escaped(props.current.as_deref().unwrap_or("–"))
    );
    el("form")
        .class(class("field", &[(props.error.is_some(), "refused")]))
        .on_submit(onsubmit)
        .child(markup_built(format!(
            r#"<label class="field-label" for="{id}">{}</label>"#,
            props.label
        )))
        .child(
            el("div")
                .class("field-row")
                .child(
                    el("input")
                        .attr(Attr::Id, id)
                        .attr(Attr::Type, "number")
                        .value(value)
                        .on_input(oninput)
                        .flag(Attr::Disabled, props.on_set.is_none())
                        .attr(Attr::AriaInvalid, props.error.is_some().to_string())
                        .attr(Attr::AriaDescribedby, described),
                )
                .child(
                    el("button")
                        .attr(Attr::Type, "submit")
                        .flag(Attr::Disabled, props.on_set.is_none())
                        .text("Set"),
                )
                .child(markup_built(now)),
        )
        .child(markup_built(format!(
            r#"<span class="help" id="{help_id}">{}</span>"#,
            props.help
        )))
        // Always present (and hidden while empty), so that the refusal is announced and the
        // field before it keeps its focus.
        .child(
            el("span")
                .class("error")
                .attr(Attr::Id, error_id)
                .attr(Attr::Role, "alert")
                .text(props.error.clone().unwrap_or_default()),
        )
        .into()
}
