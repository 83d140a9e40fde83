//! The queue as a place: its waiting messages (visible, blocked, delayed), the bar that hands a
//! picked message to a worker by keyboard, and why a FIFO message cannot be taken.

use super::counts::CrowdView;
use super::lesson::proof_tag;
use super::message::CardList;
use crate::playground::format::group;
use crate::playground::stage::{Card, Crowd, Look, Place, QueueInfo};
use crate::playground::Action;
use yew::prelude::*;

/// Properties of [`Queue`].
#[derive(Properties, PartialEq)]
pub struct QueueProps {
    /// The queue, once it exists.
    pub queue: Option<QueueInfo>,
    /// Its waiting messages.
    pub place: Place,
    /// Every message per state, when there are too many to draw.
    pub crowd: Option<Crowd>,
    /// Messages deleted by hand from the queue, fading out.
    pub leaving: Vec<Card>,
    /// Messages in flight that no worker lane holds (their job failed, their lane was removed,
    /// a receive by hand): SQS keeps them here, hidden until their timeout.
    pub unheld: Place,
    /// What the page offers when the queue is empty (what its empty text points at).
    pub idle: Idle,
    /// The selected message, if any.
    pub selected: Option<String>,
    /// The messages that prove a lesson's answer (MessageIds).
    #[prop_or_default]
    pub proof: Vec<String>,
    /// The queue itself proves a lesson's answer.
    #[prop_or_default]
    pub proves: bool,
    /// The message picked for handing to a worker, and the workers to choose from.
    pub pick: Option<(Card, Vec<String>)>,
    /// A word about the last hand-over (why it failed, why a message cannot be taken).
    pub note: Option<String>,
    /// Whether its messages can be handed to a worker (drag or keyboard pick); not in a
    /// read-only player.
    pub editable: bool,
    /// A message selected or picked for the keyboard hand-over (or the bar closed), a press on
    /// a waiting message (it may become a drag), a hand-over from the bar.
    pub onaction: Callback<Action>,
}

/// The situation an empty queue's text speaks to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Idle {
    /// The sandbox: you send the messages (with the Producer beside the queue).
    Sandbox,
    /// A scenario still to run, paused at its start: it sends its own messages once its clock
    /// runs.
    Scenario,
    /// A scenario paused part-way.
    Paused,
    /// A scenario running.
    Playing,
    /// A scenario past its end.
    Over,
    /// Live mode: the server's clients send the messages.
    #[cfg(feature = "live")]
    Live,
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

/// See the module documentation; the root focuses the hand-over bar when it opens.
#[component]
pub fn Queue(props: &QueueProps) -> Html {
    let cards = if let Some(crowd) = &props.crowd {
        html! { <CrowdView crowd={*crowd} /> }
    } else if props.place.cards.is_empty() && props.leaving.is_empty() {
        // Messages held by no worker say enough by themselves (the line above counts none
        // visible or delayed).
        html! {
            if props.unheld.cards.is_empty() {
                <p class="empty">{ empty_text(props) }</p>
            }
        }
    } else {
        html! {
            <CardList label="Waiting messages" cards={props.place.cards.clone()}
                leaving={props.leaving.clone()} selected={props.selected.clone()} proof={props.proof.clone()}
                onaction={props.onaction.clone()} grab={props.editable} />
        }
    };
    html! {
        <section class={classes!("panel", "queue", props.proves.then_some("proof"))} aria-label="Queue" tabindex="0">
            <header class="panel-head">
                <h2>
                    { "Queue" }
                    if let Some(q) = &props.queue {
                        { " " }<code>{ &q.name }</code>
                        <span class="queue-kind">{ if q.fifo { "FIFO" } else { "standard" } }</span>
                    }
                </h2>
                { proof_tag(props.proves) }
                <p class="panel-sub">{ summary(&props.place) }</p>
            </header>
            if let Some((card, workers)) = &props.pick {
                <PickBar card={card.clone()} workers={workers.clone()} onaction={props.onaction.clone()} />
            }
            if let Some(note) = &props.note {
                <p class="note" role="alert">{ note }</p>
            }
            { cards }
            if props.editable && !props.place.cards.is_empty() && props.crowd.is_none() {
                <p class="hint">
                    { "Drag a message onto a worker (or focus it, Enter) to " }
                    <abbr title="The SQS call a consumer makes to get messages; each one it gets is hidden from others for the visibility timeout.">{ "ReceiveMessage" }</abbr>
                    { "." }
                </p>
            }
            if props.crowd.is_none() && !props.unheld.cards.is_empty() {
                <div class="unheld">
                    <h3>{ "In flight, held by no worker" }</h3>
                    <CardList label="In flight, held by no worker" cards={props.unheld.cards.clone()}
                        selected={props.selected.clone()} proof={props.proof.clone()}
                        onaction={props.onaction.clone()} />
                </div>
            }
        </section>
    }
}

/// What an empty queue says: what to do next, given what the page offers.
fn empty_text(props: &QueueProps) -> &'static str {
    match (props.idle, props.editable) {
        (Idle::Sandbox, true) => {
            "No message waiting. Press Send message (above), then drag the message onto a worker."
        }
        (Idle::Sandbox, false) => "No message waiting.",
        (Idle::Scenario, _) => "No message waiting. Press Play, or Step, to run the scenario.",
        (Idle::Paused, _) => "No message waiting right now. Press Play, or Step, to go on.",
        (Idle::Playing, _) => "No message waiting.",
        (Idle::Over, true) => {
            "No message waiting: the scenario is over. Drag the timeline back, or send one from \
             the Producer tab below."
        }
        (Idle::Over, false) => "No message waiting: the scenario is over.",
        #[cfg(feature = "live")]
        (Idle::Live, _) if props.queue.is_some() => "No message waiting.",
        #[cfg(feature = "live")]
        (Idle::Live, _) => {
            "No queue yet. Point your application at this server (AWS_ENDPOINT_URL_SQS): its \
             queues, messages and consumers show here as its calls arrive. Give each worker its \
             own AWS_ACCESS_KEY_ID (any name) to tell them apart."
        }
    }
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

/// Properties of [`PickBar`].
#[derive(Properties, PartialEq)]
struct PickBarProps {
    /// The picked message.
    card: Card,
    /// The workers it can go to.
    workers: Vec<String>,
    /// Cancel or Escape closes the bar; a worker's button hands the message over.
    onaction: Callback<Action>,
}

/// The keyboard hand-over: the picked message, a button per worker, Cancel.
#[component]
fn PickBar(props: &PickBarProps) -> Html {
    let card = &props.card;
    let onkeydown = {
        let onaction = props.onaction.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Escape" {
                onaction.emit(Action::Pick(None));
            }
        })
    };
    let cancel = props.onaction.reform(|_: MouseEvent| Action::Pick(None));
    let give = |worker: &String| {
        let (worker, message_id) = (worker.clone(), card.id.clone());
        props.onaction.reform(move |_: MouseEvent| Action::Deliver {
            worker: worker.clone(),
            message_id: message_id.clone(),
        })
    };
    html! {
        <div class="pick-bar" role="group" aria-label={format!("Hand {} to a worker", card.body)} {onkeydown}>
            <span class="pick-what">{ format!("{}:", card.body) }</span>
            if card.look == Look::Blocked {
                <p class="why">{ blocked_reason(card) }</p>
            } else if props.workers.is_empty() {
                <p class="why">{ "There is no worker lane: add a worker first." }</p>
            } else {
                for w in &props.workers {
                    <button class="primary" onclick={give(w)}>{ format!("Give to {w}") }</button>
                }
            }
            <button onclick={cancel}>{ "Cancel" }</button>
        </div>
    }
}
