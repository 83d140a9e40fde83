//! The queue as a place: its waiting messages (visible, blocked, delayed), the bar that hands a
//! picked message to a worker by keyboard, and why a FIFO message cannot be taken.

use super::counts::crowd_view;
use super::el::{el, Attr};
use super::message::card_list;
use super::on_click;
use super::{markup, markup_built, Escaped};
use crate::playground::format::group;
use crate::playground::stage::{Card, Crowd, Look, Place, QueueInfo};
use crate::playground::Action;
use yew::prelude::*;

/// Properties of [`queue_panel`].
pub struct QueueProps {
    /// The queue, once it exists.
    pub queue: Option<QueueInfo>,
    /// Its waiting messages.
    pub place: Place,
    /// Every message per state, when there are too many to draw.
    pub crowd: Option<Crowd>,
    /// Messages deleted by hand from the queue, fading out.
    pub leaving: Vec<Card>,
    /// The selected message, if any.
    pub selected: Option<String>,
    /// The message picked for handing to a worker, and the workers to choose from.
    pub pick: Option<(Card, Vec<String>)>,
    /// A word about the last hand-over (why it failed, why a message cannot be taken).
    pub note: Option<String>,
    /// Whether its messages can be handed to a worker (drag or keyboard pick); not in a
    /// read-only player.
    pub editable: bool,
    /// The root's action callback.
    pub dispatch: Callback<Action>,
}

/// Why a blocked FIFO message cannot be taken (the engine says it is blocked; this says why).
pub fn blocked_reason(card: &Card) -> String {
    let group = card.group_id.as_deref().unwrap_or("?");
    format!(
        "{} cannot be taken yet: group {group} has a message in flight, and a FIFO queue hands \
         out a group's messages one at a time, in order.",
        card.body
    )
}

/// See the module documentation. A function, not a component (a component's lifecycle code is
/// repeated per component in the bundle); the root focuses the hand-over bar when it opens.
pub fn queue_panel(props: &QueueProps) -> Html {
    // The header is written as markup ([`markup_built`]): text only.
    let title = match &props.queue {
        Some(q) => format!(
            r#"Queue <code>{}</code><span class="queue-kind">{}</span>"#,
            Escaped(&q.name),
            if q.fifo { "FIFO" } else { "standard" }
        ),
        None => "Queue".to_string(),
    };
    let head = format!(
        r#"<header class="panel-head"><h2>{title}</h2><p class="panel-sub">{}</p></header>"#,
        summary(&props.place)
    );
    let cards = if let Some(crowd) = &props.crowd {
        crowd_view(crowd)
    } else if props.place.cards.is_empty() && props.leaving.is_empty() {
        // A read-only player has no Send message button to point at.
        markup(if props.editable {
            r#"<p class="empty">No message waiting. Press <strong>Send message</strong> or play the scenario.</p>"#
        } else {
            r#"<p class="empty">No message waiting. Play the scenario.</p>"#
        })
    } else {
        card_list(
            "Waiting messages".into(),
            &props.place.cards,
            &props.leaving,
            props.selected.as_deref(),
            props.editable,
            &props.dispatch,
        )
    };

    let note = props.note.as_ref().map(|n| {
        el("p")
            .class("note")
            .attr(Attr::Role, "alert")
            .text(n.clone())
    });
    let hint = props.editable.then(|| {
        markup(r#"<p class="hint">Drag a message onto a worker, or focus it and press Enter, to make that worker call <abbr title="The SQS call a consumer makes to get messages; each one it gets is hidden from others for the visibility timeout.">ReceiveMessage</abbr>.</p>"#)
    });
    el("section")
        .class("panel queue")
        .attr(Attr::AriaLabel, "Queue")
        .child(markup_built(head))
        .child(pick_bar(props))
        .children(note)
        .child(cards)
        .children(hint)
        .into()
}

fn summary(place: &Place) -> String {
    let [visible, blocked, delayed] =
        [Look::Visible, Look::Blocked, Look::Delayed].map(|look| place.count(look));
    let mut parts = vec![format!("{} visible", group((visible + blocked) as u64))];
    if blocked > 0 {
        parts.push(format!("{blocked} blocked by their group"));
    }
    parts.push(format!("{} delayed", group(delayed as u64)));
    parts.join(" · ")
}

/// The keyboard hand-over: the picked message, a button per worker, Cancel.
fn pick_bar(props: &QueueProps) -> Html {
    let Some((card, workers)) = &props.pick else {
        return Html::default();
    };
    let cancel = on_click(&props.dispatch, Action::Pick(None));
    let onkeydown = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Escape" {
                dispatch.emit(Action::Pick(None));
            }
        })
    };
    let choices = if card.look == Look::Blocked {
        markup_built(format!(
            r#"<p class="why">{}</p>"#,
            Escaped(&blocked_reason(card))
        ))
    } else if workers.is_empty() {
        markup(r#"<p class="why">There is no worker lane: add a worker first.</p>"#)
    } else {
        workers
            .iter()
            .map(|w| {
                let onclick = on_click(
                    &props.dispatch,
                    Action::Deliver {
                        worker: w.clone(),
                        message_id: card.id.clone(),
                    },
                );
                el("button")
                    .class("primary")
                    .on_click(onclick)
                    .text(format!("Give to {w}"))
            })
            .collect::<Html>()
    };
    el("div")
        .class("pick-bar")
        .attr(Attr::Role, "group")
        .attr(Attr::AriaLabel, format!("Hand {} to a worker", card.body))
        .on_keydown(onkeydown)
        .child(markup_built(format!(
            r#"<span class="pick-what">{}:</span>"#,
            Escaped(&card.body)
        )))
        .child(choices)
        .child(el("button").on_click(cancel).text("Cancel"))
        .into()
}
