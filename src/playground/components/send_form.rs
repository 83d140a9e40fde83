//! Sending by hand, as a producer would: SendMessage with a body, an optional message timer
//! (per-message DelaySeconds) and, on a FIFO queue, MessageGroupId and MessageDeduplicationId.
//! SQS's refusal shows under the form.

use super::el::{el, Attr, El};
use super::{error, markup};
use crate::playground::session::SendForm;
use crate::playground::Action;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// Properties of [`send_panel`].
pub struct SendProps<'a> {
    /// The body proposed when none is typed.
    pub next_body: String,
    /// Whether the queue is FIFO (group and deduplication ids are asked for).
    pub fifo: bool,
    /// The form as typed (the root keeps it).
    pub form: &'a SendForm,
    /// SQS's refusal of the last send.
    pub error: Option<&'a str>,
    /// The root's action callback.
    pub dispatch: &'a Callback<Action>,
}

/// See the module documentation. A function, not a component (a component's lifecycle code is
/// repeated per component in the bundle): the root keeps the form as typed.
pub fn send_panel(props: &SendProps) -> Html {
    let form = props.form;
    // The proposed body follows the send count unless the user typed one.
    let body = if form.body.is_empty() {
        props.next_body.clone()
    } else {
        form.body.clone()
    };
    let field = |set: fn(&mut SendForm, String)| {
        let (form, dispatch) = (form.clone(), props.dispatch.clone());
        Callback::from(move |e: InputEvent| {
            let mut next = form.clone();
            set(
                &mut next,
                e.target_unchecked_into::<HtmlInputElement>().value(),
            );
            dispatch.emit(Action::EditSend(next));
        })
    };
    let onsubmit = {
        let (typed, dispatch, body, fifo) = (
            form.clone(),
            props.dispatch.clone(),
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
            // The root sends it and clears the typed body.
            dispatch.emit(Action::Send(SendForm {
                body: body.clone(),
                delay: typed.delay.clone(),
                group_id,
                deduplication_id,
            }));
        })
    };
    // A field: its label, its input and its help (the label and the help as markup).
    let labelled = |label: &'static str, input: El, help: &'static str| {
        el("div")
            .class("field")
            .child(markup(label))
            .child(input)
            .child(markup(help))
    };
    let input =
        |id: &'static str, kind: &'static str, value: String, set: fn(&mut SendForm, String)| {
            el("input")
                .attr(Attr::Id, id)
                .attr(Attr::Type, kind)
                .value(value)
                .on_input(field(set))
        };
    let fifo_fields = props.fifo.then(|| {
        [
            labelled(
                r#"<label class="field-label" for="send-group">Message group ID</label>"#,
                input("send-group", "text", form.group_id.clone(), |f, v| f.group_id = v)
                    .attr(Attr::AriaDescribedby, "send-group-help"),
                r#"<span class="help" id="send-group-help">MessageGroupId: a FIFO queue delivers one group's messages in order, one batch at a time.</span>"#,
            ),
            labelled(
                r#"<label class="field-label" for="send-dedup">Deduplication ID</label>"#,
                input("send-dedup", "text", form.deduplication_id.clone(), |f, v| f.deduplication_id = v)
                    .attr(Attr::Placeholder, "content-based")
                    .attr(Attr::AriaDescribedby, "send-dedup-help"),
                r#"<span class="help" id="send-dedup-help">MessageDeduplicationId: a second send with the same ID within 5 minutes is accepted but not stored.</span>"#,
            ),
        ]
        .into_iter()
        .collect::<Html>()
    });
    el("form")
        .class("panel send")
        .attr(Attr::AriaLabel, "Producer")
        .on_submit(onsubmit)
        .child(markup(r#"<h2>Producer</h2>"#))
        .child(
            el("div")
                .class("field")
                .child(markup(r#"<label class="field-label" for="send-body">Message body</label>"#))
                .child(input("send-body", "text", body, |f, v| f.body = v)),
        )
        .child(labelled(
            r#"<label class="field-label" for="send-delay">Message timer (seconds)</label>"#,
            input("send-delay", "number", form.delay.clone(), |f, v| f.delay = v)
                .attr(Attr::Placeholder, "none")
                .attr(Attr::AriaDescribedby, "send-delay-help"),
            r#"<span class="help" id="send-delay-help">DelaySeconds on this one message: it stays hidden that long before its first receive.</span>"#,
        ))
        .children(fifo_fields)
        .child(
            el("button")
                .attr(Attr::Type, "submit")
                .class("primary")
                .text("Send message"),
        )
        .child(error(props.error))
        .into()
}
