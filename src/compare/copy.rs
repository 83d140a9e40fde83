//! One copy of a comparison: its settings (a line, with a form behind its Settings button
//! unless the player is read only), its compact stage (queue, worker lanes, dead-letter queue:
//! the playground's components, read only) and its latest duplicate side effects.

use crate::playground::components::dlq::DeadLetterQueue;
use crate::playground::components::queue::{Idle, Queue};
use crate::playground::components::worker_lane::WorkerLane;
use crate::playground::components::{error, input_checked, input_value};
use crate::playground::format::wall_clock;
use crate::playground::max_receives;
use crate::playground::stage::Stage;
use sqs_engine::api::QueueUrl;
use sqs_sim::Effect;
use std::rc::Rc;
use yew::prelude::*;

/// One setting's field.
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    /// The setting's name (SQS's for a queue attribute).
    pub name: String,
    /// As typed, or as the copy has it.
    pub value: String,
    /// Why it was refused (SQS's words for a queue attribute).
    pub refusal: Option<String>,
}

/// Properties of [`CopyView`].
#[derive(Properties, PartialEq)]
pub struct CopyProps {
    /// "A" or "B".
    pub name: &'static str,
    /// Its CSS class (its place in the layout).
    pub class: &'static str,
    /// Its stage now.
    pub stage: Rc<Stage>,
    /// What the queue is doing when it is empty.
    pub idle: Idle,
    /// Its queue's URL.
    pub queue_url: QueueUrl,
    /// Its settings in the text form ("" for the scenario as it is).
    pub settings: String,
    /// The settings' fields.
    pub fields: Vec<Field>,
    /// A refusal that belongs to no one field.
    pub problem: Option<String>,
    /// Its latest duplicate side effects.
    pub duplicates: Rc<Vec<Effect>>,
    /// What its live region says.
    pub announcement: String,
    /// Whether its settings can be changed (not in a read-only player).
    pub editable: bool,
    /// Whether its settings form is open.
    pub editing: bool,
    /// Open or close the settings form.
    pub onedit: Callback<()>,
    /// A field as typed: (setting, text).
    pub ontype: Callback<(String, String)>,
    /// Apply the fields as typed.
    pub onapply: Callback<()>,
}

/// See the module documentation.
#[component]
pub fn CopyView(props: &CopyProps) -> Html {
    let stage = &props.stage;
    // A copy's lanes column is narrow: two lanes stack, more go two by two.
    let cols = if stage.lanes.len() > 2 { 2 } else { 1 };
    let rows = stage.lanes.len().div_ceil(cols).max(1);
    let settings = match props.settings.as_str() {
        "" => "as in the scenario".to_string(),
        text => text.replace(':', " ").replace(';', ", "),
    };
    let onsubmit = props.onapply.reform(|e: SubmitEvent| e.prevent_default());
    let form_id = format!("copy-{}-settings", props.name.to_ascii_lowercase());
    html! {
        <section class={classes!("copy", props.class)} aria-label={format!("Copy {}", props.name)}>
            <header class="copy-head">
                <h2>{ props.name }</h2>
                <p class="copy-settings">{ settings }</p>
                if props.editable {
                    <button type="button" class="copy-edit" aria-expanded={props.editing.to_string()}
                        aria-controls={form_id.clone()} onclick={props.onedit.reform(|_| ())}>
                        { format!("Settings of {}", props.name) }
                    </button>
                }
            </header>
            if props.editable && props.editing {
                <form class="copy-form panel" id={form_id} {onsubmit}>
                    for field in &props.fields {
                        { field_view(props.name, field, &props.ontype) }
                    }
                    <p class="hint">{ format!("Apply replays copy {} from 12:00:00 with these settings, up to the clock.", props.name) }</p>
                    <button type="submit" class="primary">{ format!("Apply to {}", props.name) }</button>
                    { error(props.problem.as_deref()) }
                </form>
            }
            <div class={classes!("copy-stage", stage.dlq.is_some().then_some("with-dlq"))}>
                <Queue queue={stage.queue.clone()} place={stage.queued.clone()} crowd={stage.crowd}
                    leaving={stage.leaving.clone()} unheld={stage.unheld.clone()} idle={props.idle}
                    selected={None::<String>} pick={None} note={None::<String>} editable={false}
                    onaction={Callback::noop()} />
                <section class="panel workers" aria-label={format!("Workers of copy {}", props.name)}>
                    <div class="lanes" style={format!("--cols: {cols}; --rows: {rows}")}>
                        for lane in &stage.lanes {
                            <WorkerLane key={lane.worker.name.clone()} lane={lane.clone()}
                                queue_url={props.queue_url.clone()} over={false}
                                selected={None::<String>} error={None::<String>} editing={None}
                                editable={false} onaction={Callback::noop()} />
                        }
                    </div>
                </section>
                if stage.dlq.is_some() {
                    <DeadLetterQueue name={stage.dlq.clone()} place={stage.dead.clone()}
                        max_receives={max_receives(stage)} selected={None::<String>}
                        onaction={Callback::noop()} />
                }
            </div>
            <div class="duplicates">
                <h3>{ "Duplicate side effects" }</h3>
                if props.duplicates.is_empty() {
                    <p class="empty">{ "None." }</p>
                } else {
                    <ul>
                        for e in props.duplicates.iter() {
                            <li>
                                <time>{ wall_clock(e.at) }</time>{ " " }
                                <span class="who">{ &e.worker }</span>{ " " }
                                <span>{ e.key() }</span>{ " " }
                                <span class="tag bad">{ "DUPLICATE" }</span>
                            </li>
                        }
                    </ul>
                }
            </div>
            <div class="visually-hidden" role="status" aria-live="polite">
                if !props.announcement.is_empty() {
                    { format!("{}: {}", props.name, props.announcement) }
                }
            </div>
        </section>
    }
}

/// A setting's labelled field: a checkbox for `idempotent`, a text field for the others.
fn field_view(copy: &str, field: &Field, ontype: &Callback<(String, String)>) -> Html {
    let id = format!("copy-{}-{}", copy.to_ascii_lowercase(), field.name);
    let name = field.name.clone();
    let label = match field.name.as_str() {
        "processing" => "Processing time (seconds)".to_string(),
        "heartbeat" => "Heartbeat every (seconds, or none)".to_string(),
        "idempotent" => "Idempotent side effects".to_string(),
        "every" => "Producer sends every (seconds)".to_string(),
        seconds @ ("VisibilityTimeout"
        | "DelaySeconds"
        | "ReceiveMessageWaitTimeSeconds"
        | "MessageRetentionPeriod") => format!("{seconds} (seconds)"),
        attribute => attribute.to_string(),
    };
    if field.name == "idempotent" {
        let onchange = ontype.reform(move |e: Event| {
            let on = if input_checked(&e) { "1" } else { "0" };
            (name.clone(), on.to_string())
        });
        return html! {
            <div class="copy-field check">
                <input type="checkbox" id={id.clone()} checked={field.value == "1"} {onchange} />
                <label for={id}>{ label }</label>
                { error(field.refusal.as_deref()) }
            </div>
        };
    }
    let oninput = ontype.reform(move |e: InputEvent| (name.clone(), input_value(&e)));
    html! {
        <div class="copy-field">
            <label for={id.clone()}>{ label }</label>
            <input type="text" id={id} value={field.value.clone()} {oninput}
                aria-invalid={field.refusal.is_some().then_some("true")} />
            { error(field.refusal.as_deref()) }
        </div>
    }
}
