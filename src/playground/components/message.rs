//! One message card. Its state shows three ways: colour, shape (filled, dashed with a clock,
//! ring, lock, DLQ badge, check) and words (the accessible name). Receipt handle and receive
//! count appear on hover and on focus.

use super::icons::{icon, Icon};
use crate::playground::drag::Press;
use crate::playground::format::{abbreviate, secs_left};
use crate::playground::stage::{Card, Look};
use crate::playground::Action;
use std::fmt::Write;
use yew::prelude::*;

/// The ring's radius in its 40×40 view box.
const RING_R: f64 = 16.0;

/// Properties of [`MessageCard`].
#[derive(Properties, PartialEq)]
pub struct CardProps {
    /// The message as drawn.
    pub card: Card,
    /// It is the selected message.
    #[prop_or_default]
    pub selected: bool,
    /// It proves a lesson's answer: marked with a star.
    #[prop_or_default]
    pub proof: bool,
    /// A click or Enter on it selects it.
    pub onaction: Callback<Action>,
    /// It can be handed to a worker (it waits in the queue): selected, it is also picked for
    /// the keyboard hand-over; pressed, it may be dragged.
    #[prop_or_default]
    pub grab: bool,
}

/// See the module documentation.
#[component]
pub fn MessageCard(props: &CardProps) -> Html {
    let card = &props.card;
    let select = {
        let (onaction, grab, id) = (props.onaction.clone(), props.grab, card.id.clone());
        move || {
            onaction.emit(Action::Select(Some(id.clone())));
            if grab {
                onaction.emit(Action::Pick(Some(id.clone())));
            }
        }
    };
    let onclick = {
        let select = select.clone();
        Callback::from(move |_: MouseEvent| select())
    };
    let onkeydown = Callback::from(move |e: KeyboardEvent| {
        if matches!(e.key().as_str(), "Enter" | " ") {
            e.prevent_default();
            select();
        }
    });
    let onpointerdown = props.grab.then(|| {
        let (onaction, card) = (props.onaction.clone(), card.clone());
        Callback::from(move |e: PointerEvent| {
            if e.button() == 0 && e.is_primary() {
                onaction.emit(Action::Press(Press {
                    id: card.id.clone(),
                    body: card.body.clone(),
                    from: (e.client_x() as f64, e.client_y() as f64),
                }));
            }
        })
    });
    let grabbable = props.grab;
    let tip_id = format!("tip-{}-{}", card.look.key(), card.id);
    // A stale copy beside a fresh lease of the same message does not take part in the glide.
    let msg_id = (card.look != Look::Stale).then(|| card.id.clone());

    html! {
        <li class={classes!("msg", props.selected.then_some("selected"), grabbable.then_some("grabbable"), props.proof.then_some("proof"))}
            data-look={card.look.key()}
            data-msg-id={msg_id}
            tabindex="0"
            aria-label={card.accessible_name()}
            aria-describedby={tip_id.clone()}
            {onclick}
            {onkeydown}
            {onpointerdown}
        >
            <span class="msg-badge">
                if card.look == Look::InFlight {
                    <Ring remaining={card.remaining().unwrap_or(1.0)} />
                } else {
                    { badge(card.look) }
                }
            </span>
            <span class="msg-body">{ &card.body }</span>
            if let Some(left) = card.left {
                <span class="msg-left">{ format!("{} s", secs_left(left)) }</span>
            }
            if card.receive_count > 0 {
                <span class="msg-count">{ format!("×{}", card.receive_count) }</span>
            }
            if let Some(why) = &card.why {
                <span class="msg-why">{ why.words() }</span>
            }
            if let Some(done) = card.job {
                <span class="msg-job" title="Job progress">
                    <span style={format!("width: {:.1}%", done * 100.0)}></span>
                </span>
            }
            if props.proof {
                <span class="proof-star" aria-hidden="true">{ "★" }</span>
            }
            <span class="msg-tip" id={tip_id} role="tooltip">{ tip(card) }</span>
        </li>
    }
}

/// Properties of [`CardList`].
#[derive(Properties, PartialEq)]
pub struct CardListProps {
    /// The list's accessible name.
    pub label: AttrValue,
    /// The place's cards.
    pub cards: Vec<Card>,
    /// Cards deleted from it, fading out.
    #[prop_or_default]
    pub leaving: Vec<Card>,
    /// The selected message, if any.
    #[prop_or_default]
    pub selected: Option<String>,
    /// The messages that prove a lesson's answer (MessageIds).
    #[prop_or_default]
    pub proof: Vec<String>,
    /// A click or Enter on a card selects it.
    pub onaction: Callback<Action>,
    /// Its messages can be handed to a worker (see [`CardProps::grab`]).
    #[prop_or_default]
    pub grab: bool,
}

/// A place's cards, then those leaving it. A card is keyed by its id, so it keeps its element as
/// its look changes, except that a lane may hold a stale copy of a message beside a fresh lease
/// of it.
#[component]
pub fn CardList(props: &CardListProps) -> Html {
    let key = |c: &Card| match c.look {
        Look::Stale => format!("stale-{}", c.id),
        _ => c.id.clone(),
    };
    html! {
        <ul class="cards" aria-label={props.label.clone()}>
            for c in &props.cards {
                <MessageCard
                    key={key(c)}
                    card={c.clone()}
                    selected={props.selected.as_deref() == Some(c.id.as_str())}
                    proof={props.proof.contains(&c.id)}
                    onaction={props.onaction.clone()}
                    grab={props.grab}
                />
            }
            for c in &props.leaving {
                <MessageCard
                    key={format!("leaving-{}", c.id)}
                    card={c.clone()}
                    onaction={props.onaction.clone()}
                />
            }
        </ul>
    }
}

/// The shape that goes with a look, beside its colour and words (an in-flight card draws its
/// live countdown `Ring` instead).
pub fn badge(look: Look) -> Html {
    match look {
        Look::Visible => icon(Icon::Envelope),
        Look::Blocked => icon(Icon::Lock),
        Look::Delayed => icon(Icon::Clock),
        Look::InFlight => icon(Icon::Ring),
        Look::Stale => icon(Icon::Warning),
        Look::DeadLetter => html! { <span class="dlq-badge">{ "DLQ" }</span> },
        Look::Leaving => icon(Icon::Check),
    }
}

/// Properties of `Ring`.
#[derive(Properties, PartialEq)]
pub struct RingProps {
    /// The fraction of the countdown still to run, 0..=1.
    pub remaining: f64,
}

/// The visibility countdown: a ring that empties as the message's hidden time runs out.
#[component]
fn Ring(props: &RingProps) -> Html {
    let circumference = 2.0 * std::f64::consts::PI * RING_R;
    let offset = circumference * (1.0 - props.remaining);
    html! {
        <svg class="ring" viewBox="0 0 40 40" aria-hidden="true" focusable="false">
            <circle class="ring-track" cx="20" cy="20" r="16" />
            <circle class="ring-left" cx="20" cy="20" r="16"
                stroke-dasharray={format!("{circumference:.2}")}
                stroke-dashoffset={format!("{offset:.2}")} />
        </svg>
    }
}

/// The hover/focus details, in SQS's words.
fn tip(card: &Card) -> String {
    let mut tip = format!("MessageId {}", abbreviate(&card.id, 6));
    if let Some(handle) = &card.receipt_handle {
        let _ = write!(tip, " · receipt handle {}", abbreviate(handle, 6));
    }
    let _ = write!(tip, " · ApproximateReceiveCount {}", card.receive_count);
    if let Some(group) = &card.group_id {
        let _ = write!(tip, " · MessageGroupId {group}");
    }
    if card.look == Look::Stale {
        tip.push_str(
            " · the worker is still on it, but its lease is gone: the visibility timeout ran \
             out, or another receive deleted it",
        );
    }
    tip
}
