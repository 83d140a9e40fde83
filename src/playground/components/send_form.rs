//! Sending by hand, as a producer would: SendMessage with a body, an optional message timer
//! (per-message DelaySeconds) and, on a FIFO queue, MessageGroupId and MessageDeduplicationId.
//! SQS's refusal shows under the form.

use super::{error, input_value};
use crate::playground::session::SendForm;
use crate::playground::Action;
use yew::prelude::*;

/// Properties of [`Producer`].
#[derive(Properties, PartialEq)]
pub struct ProducerProps {
    /// The body proposed when none is typed.
    pub next_body: String,
    /// Whether the queue is FIFO (group and deduplication ids are asked for).
    pub fifo: bool,
    /// The form as typed (the root keeps it).
    pub form: SendForm,
    /// SQS's refusal of the last send.
    pub error: Option<String>,
    /// The form as typed so far; Send message: what to send.
    pub onaction: Callback<Action>,
}

/// See the module documentation.
#[component]
pub fn Producer(props: &ProducerProps) -> Html {
    let form = &props.form;
    // The proposed body follows the send count unless the user typed one.
    let body = if form.body.is_empty() {
        props.next_body.clone()
    } else {
        form.body.clone()
    };
    let edit = |set: fn(&mut SendForm, String)| {
        let form = form.clone();
        props.onaction.reform(move |e: InputEvent| {
            let mut next = form.clone();
            set(&mut next, input_value(&e));
            Action::EditSend(next)
        })
    };
    let onsubmit = {
        let (typed, onsend, body, fifo) = (
            form.clone(),
            props.onaction.clone(),
            body.clone(),
            props.fifo,
        );
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            // Group and deduplication ids are only asked for (and sent) on a FIFO queue.
            let (group_id, deduplication_id) = if fifo {
                (typed.group_id.clone(), typed.deduplication_id.clone())
            } else {
                Default::default()
            };
            onsend.emit(Action::Send(SendForm {
                body: body.clone(),
                delay: typed.delay.clone(),
                group_id,
                deduplication_id,
            }));
        })
    };
    html! {
        <form class="panel send" aria-label="Producer" {onsubmit}>
            <h2>{ "Producer" }</h2>
            <Field id="send-body" label="Message body" kind="text" value={body}
                oninput={edit(|f, v| f.body = v)} />
            <Field id="send-delay" label="Message timer (seconds)" kind="number"
                value={form.delay.clone()} oninput={edit(|f, v| f.delay = v)} placeholder="none"
                help="DelaySeconds on this one message: it stays hidden that long before its first receive." />
            if props.fifo {
                <Field id="send-group" label="Message group ID" kind="text"
                    value={form.group_id.clone()} oninput={edit(|f, v| f.group_id = v)}
                    help="MessageGroupId: a FIFO queue delivers one group's messages in order, one batch at a time." />
                <Field id="send-dedup" label="Deduplication ID" kind="text"
                    value={form.deduplication_id.clone()} oninput={edit(|f, v| f.deduplication_id = v)}
                    placeholder="content-based"
                    help="MessageDeduplicationId: a second send with the same ID within 5 minutes is accepted but not stored." />
            }
            <button type="submit" class="primary">{ "Send message" }</button>
            { error(props.error.as_deref()) }
        </form>
    }
}

/// Properties of [`Field`].
#[derive(Properties, PartialEq)]
struct FieldProps {
    /// The input's id.
    id: &'static str,
    /// Its label.
    label: &'static str,
    /// Its type.
    kind: &'static str,
    /// As typed.
    value: String,
    /// What is typed.
    oninput: Callback<InputEvent>,
    /// Shown while it is empty.
    #[prop_or_default]
    placeholder: Option<&'static str>,
    /// One line of explanation under it (the input's description).
    #[prop_or_default]
    help: Option<&'static str>,
}

/// One field of the form: its label, its input and its help.
#[component]
fn Field(props: &FieldProps) -> Html {
    let help_id = props.help.map(|_| format!("{}-help", props.id));
    html! {
        <div class="field">
            <label class="field-label" for={props.id}>{ props.label }</label>
            <input id={props.id} type={props.kind} value={props.value.clone()}
                oninput={props.oninput.clone()} placeholder={props.placeholder}
                aria-describedby={help_id.clone()} />
            if let Some(help) = props.help {
                <span class="help" id={help_id}>{ help }</span>
            }
        </div>
    }
}
