//! One message card. Its state shows three ways: colour, shape (filled, dashed with a clock,
//! ring, lock, DLQ badge, check) and words (the accessible name). Receipt handle and receive
//! count appear on hover and on focus.

use super::el::{el, Attr};
use super::icons::{icon_markup, Icon};
use super::{class, markup, markup_built, Escaped};
use crate::playground::drag::Press;
use crate::playground::format::{abbreviate, fixed, secs_left};
use crate::playground::stage::{Card, Look};
use crate::playground::Action;
use std::fmt::Write;
use yew::prelude::*;

/// The ring's radius in its 40×40 view box (its circles say `r="16"`).
const RING_R: f64 = 16.0;

/// See the module documentation: `card` keyed by `key` (it keeps its element while it changes),
/// `selected` if it is the selected message, `grabbable` if it can be dragged or picked onto a
/// worker (waiting in the queue). A function, not a component (a component's lifecycle code is
/// repeated per component in the bundle): at most [`crate::playground::stage::MAX_CARDS`] cards
/// are drawn, and the stage shows counts beyond.
fn message_card(
    key: String,
    card: &Card,
    selected: bool,
    grabbable: bool,
    dispatch: &Callback<Action>,
) -> Html {
    let select = {
        let (dispatch, id) = (dispatch.clone(), card.id.clone());
        move || {
            dispatch.emit(Action::Select(Some(id.clone())));
            if grabbable {
                dispatch.emit(Action::Pick(Some(id.clone())));
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
    let onpointerdown = grabbable.then(|| {
        let (dispatch, card) = (dispatch.clone(), card.clone());
        Callback::from(move |e: PointerEvent| {
            if e.button() == 0 && e.is_primary() {
                dispatch.emit(Action::Press(
                    Press {
                        id: card.id.clone(),
                        body: card.body.clone(),
                        from: (e.client_x() as f64, e.client_y() as f64),
                    },
                    card.look,
                ));
            }
        })
    });

    let tip_id = format!("tip-{}-{}", card.look.key(), card.id);
    let badge = match card.look {
        Look::InFlight => ring(card),
        look => markup(badge(look)),
    };
    // The body, the countdown, the receive count and the tip are written as markup
    // ([`markup_built`]): text only, changing at most once a second.
    let mut text = format!(r#"<span class="msg-body">{}</span>"#, Escaped(&card.body));
    if let Some(left) = card.left {
        let _ = write!(
            text,
            r#"<span class="msg-left">{} s</span>"#,
            secs_left(left)
        );
    }
    if card.receive_count > 0 {
        let _ = write!(
            text,
            r#"<span class="msg-count">×{}</span>"#,
            card.receive_count
        );
    }
    let tooltip = format!(
        r#"<span class="msg-tip" id="{}" role="tooltip">{}</span>"#,
        Escaped(&tip_id),
        Escaped(&tip(card))
    );
    let job = card.job.map(|done| {
        el("span")
            .class("msg-job")
            .attr(Attr::Title, "Job progress")
            .child(el("span").attr(Attr::Style, format!("width: {}%", fixed(done * 100.0, 1))))
    });
    let keyed_id = (card.look != Look::Stale).then(|| card.id.clone());

    let mut li = el("li")
        .key(key)
        .class(class(
            "msg",
            &[(selected, "selected"), (grabbable, "grabbable")],
        ))
        .attr(Attr::DataLook, card.look.key())
        .attr_some(Attr::DataMsgId, keyed_id)
        .attr(Attr::Tabindex, "0")
        .attr(Attr::AriaLabel, card.label())
        .attr(Attr::AriaDescribedby, tip_id)
        .on_click(onclick)
        .on_keydown(onkeydown);
    if let Some(onpointerdown) = onpointerdown {
        li = li.on_pointerdown(onpointerdown);
    }
    li.child(el("span").class("msg-badge").child(badge))
        .child(markup_built(text))
        .children(job)
        .child(markup_built(tooltip))
        .into()
}

/// A place's cards, then those `leaving` it (deleted, fading out). A card is keyed by its id, so
/// it keeps its element as its look changes, except that a lane may hold a stale copy of a
/// message beside a fresh lease of it.
pub fn card_list(
    label: String,
    cards: &[Card],
    leaving: &[Card],
    selected: Option<&str>,
    grabbable: bool,
    dispatch: &Callback<Action>,
) -> Html {
    let card = |key: String, card: &Card, selected: bool, grabbable: bool| {
        message_card(key, card, selected, grabbable, dispatch)
    };
    let cards = cards.iter().map(|c| {
        let key = match c.look {
            Look::Stale => format!("stale-{}", c.id),
            _ => c.id.clone(),
        };
        card(key, c, selected == Some(c.id.as_str()), grabbable)
    });
    let leaving = leaving
        .iter()
        .map(|c| card(format!("leaving-{}", c.id), c, false, false));
    el("ul")
        .class("cards")
        .attr(Attr::AriaLabel, label)
        .children(cards)
        .children(leaving)
        .into()
}

/// The shape that goes with a look, beside its colour and words (an in-flight card draws its
/// live countdown ring instead), as markup.
pub fn badge(look: Look) -> &'static str {
    match look {
        Look::Visible => icon_markup(Icon::Envelope),
        Look::Blocked => icon_markup(Icon::Lock),
        Look::Delayed => icon_markup(Icon::Clock),
        Look::InFlight => icon_markup(Icon::Ring),
        Look::Stale => icon_markup(Icon::Warning),
        Look::DeadLetter => r#"<span class="dlq-badge">DLQ</span>"#,
        Look::Leaving => icon_markup(Icon::Check),
    }
}

/// The visibility countdown: a ring that empties as the message's hidden time runs out.
fn ring(card: &Card) -> Html {
    let circumference = 2.0 * std::f64::consts::PI * RING_R;
    let offset = circumference * (1.0 - card.remaining().unwrap_or(1.0));
    el("svg")
        .class("ring")
        .attr(Attr::ViewBox, "0 0 40 40")
        .attr(Attr::AriaHidden, "true")
        .attr(Attr::Focusable, "false")
        .child(markup(
            r#"<circle class="ring-track" cx="20" cy="20" r="16" />"#,
        ))
        .child(
            el("circle")
                .class("ring-left")
                .attr(Attr::Cx, "20")
                .attr(Attr::Cy, "20")
                .attr(Attr::R, "16")
                .attr(Attr::StrokeDasharray, fixed(circumference, 2))
                .attr(Attr::StrokeDashoffset, fixed(offset, 2)),
        )
        .into()
}

/// The hover/focus details, in SQS's words.
fn tip(card: &Card) -> String {
    // Written into one string (not parts joined): less code in the bundle.
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
