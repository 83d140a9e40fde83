//! Sending by hand, as a producer would: SendMessage with a body, an optional message timer
//! (per-message DelaySeconds) and, on a FIFO queue, MessageGroupId and MessageDeduplicationId.
//! SQS's refusal shows under the form.

use super::{error, markup};
use crate::playground::session::SendForm;
use crate::playground::Action;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// Properties of [`SendPanel`].
#[derive(Properties, PartialEq)]
pub struct SendProps {
    /// The body proposed for the next message (`order-3`).
    pub next_body: String,
    /// Whether the queue is FIFO (group and deduplication ids are asked for).
    pub fifo: bool,
    /// SQS's refusal of the last send.
    pub error: Option<String>,
    /// The root's action callback.
    pub dispatch: Callback<Action>,
}

/// See the module documentation.
#[component]
pub fn SendPanel(props: &SendProps) -> Html {
    let form = use_state(|| SendForm {
        group_id: "g1".into(),
        ..SendForm::default()
    });
    // The proposed body follows the send count unless the user typed one.
    let body = if form.body.is_empty() {
        props.next_body.clone()
    } else {
        form.body.clone()
    };
    let field = |set: fn(&mut SendForm, String)| {
        let form = form.clone();
        Callback::from(move |e: InputEvent| {
            let mut next = (*form).clone();
            set(
                &mut next,
                e.target_unchecked_into::<HtmlInputElement>().value(),
            );
            form.set(next);
        })
    };
    let onsubmit = {
        let (form, dispatch, body, fifo) = (
            form.clone(),
            props.dispatch.clone(),
            body.clone(),
            props.fifo,
        );
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let typed = (*form).clone();
            // Group and deduplication ids are only asked for (and sent) on a FIFO queue.
            let (group_id, deduplication_id) = if fifo {
                (typed.group_id.clone(), typed.deduplication_id.clone())
            } else {
                Default::default()
            };
            dispatch.emit(Action::Send(SendForm {
                body: body.clone(),
                delay: typed.delay.clone(),
                group_id,
                deduplication_id,
            }));
            form.set(SendForm {
                body: String::new(),
                ..(*form).clone()
            });
        })
    };
    html! {
        <form class="panel send" aria-label="Producer" {onsubmit}>
            { markup(r#"<h2>Producer</h2>"#) }
            <div class="field">
                { markup(r#"<label class="field-label" for="send-body">Message body</label>"#) }
                <input id="send-body" type="text" value={body} oninput={field(|f, v| f.body = v)} />
            </div>
            <div class="field">
                { markup(r#"<label class="field-label" for="send-delay">Message timer (seconds)</label>"#) }
                <input id="send-delay" type="number" value={form.delay.clone()} placeholder="none"
                    aria-describedby="send-delay-help" oninput={field(|f, v| f.delay = v)} />
                { markup(r#"<span class="help" id="send-delay-help">DelaySeconds on this one message: it stays hidden that long before its first receive.</span>"#) }
            </div>
            if props.fifo {
                <div class="field">
                    { markup(r#"<label class="field-label" for="send-group">Message group ID</label>"#) }
                    <input id="send-group" type="text" value={form.group_id.clone()} aria-describedby="send-group-help"
                        oninput={field(|f, v| f.group_id = v)} />
                    { markup(r#"<span class="help" id="send-group-help">MessageGroupId: a FIFO queue delivers one group's messages in order, one batch at a time.</span>"#) }
                </div>
                <div class="field">
                    { markup(r#"<label class="field-label" for="send-dedup">Deduplication ID</label>"#) }
                    <input id="send-dedup" type="text" value={form.deduplication_id.clone()} placeholder="content-based"
                        aria-describedby="send-dedup-help" oninput={field(|f, v| f.deduplication_id = v)} />
                    { markup(r#"<span class="help" id="send-dedup-help">MessageDeduplicationId: a second send with the same ID within 5 minutes is accepted but not stored.</span>"#) }
                </div>
            }
            <button type="submit" class="primary">{ "Send message" }</button>
            { error(props.error.as_deref()) }
        </form>
    }
}
