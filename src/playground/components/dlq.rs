//! The dead-letter queue as its own place: where a message goes after more receives than the
//! RedrivePolicy's maxReceiveCount allows.

use super::counts::CountTiles;
use super::lesson::proof_tag;
use super::message::CardList;
use crate::playground::format::plural;
use crate::playground::stage::Place;
use crate::playground::Action;
use yew::prelude::*;

/// Properties of [`DeadLetterQueue`].
#[derive(Properties, PartialEq)]
pub struct DlqProps {
    /// The dead-letter queue's name, if the queue has one.
    pub name: Option<String>,
    /// Its messages.
    pub place: Place,
    /// The RedrivePolicy's maxReceiveCount, if known.
    #[prop_or_default]
    pub max_receives: Option<u32>,
    /// The selected message, if any.
    pub selected: Option<String>,
    /// The messages that prove a lesson's answer (MessageIds).
    #[prop_or_default]
    pub proof: Vec<String>,
    /// The dead-letter queue itself proves a lesson's answer.
    #[prop_or_default]
    pub proves: bool,
    /// A click on a message selects it.
    pub onaction: Callback<Action>,
}

/// See the module documentation.
#[component]
pub fn DeadLetterQueue(props: &DlqProps) -> Html {
    let place = &props.place;
    let body = match &props.name {
        None => html! {
            <p class="empty">{ "This queue has no RedrivePolicy, so no dead-letter queue: a failing message comes back forever." }</p>
        },
        Some(_) if place.aggregated() => html! {
            <CountTiles counts={place.counts.clone()} label="Dead-lettered messages" />
        },
        Some(_) if place.cards.is_empty() => html! {
            <p class="empty">
                { match props.max_receives {
                    Some(n) => format!("Empty. A message moves here after {n} receives (maxReceiveCount) without a delete."),
                    None => "Empty.".to_string(),
                } }
            </p>
        },
        Some(_) => html! {
            <CardList label="Dead-lettered messages" cards={place.cards.clone()}
                selected={props.selected.clone()} proof={props.proof.clone()}
                onaction={props.onaction.clone()} />
        },
    };
    html! {
        <section class={classes!("panel", "dlq", props.proves.then_some("proof"))} aria-label="Dead-letter queue" tabindex="0">
            <header class="panel-head">
                <h2>
                    <abbr title="A queue that receives messages which were received more than maxReceiveCount times without being deleted.">{ "Dead-letter queue" }</abbr>
                    if let Some(name) = &props.name {
                        { " " }<code>{ name }</code>
                    }
                </h2>
                { proof_tag(props.proves) }
                <p class="panel-sub">{ plural(place.total, "message") }</p>
            </header>
            { body }
        </section>
    }
}
