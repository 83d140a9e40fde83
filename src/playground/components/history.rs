//! One message's whole life as a timeline across actors: a row per actor (SQS, each worker, the
//! producer, you) with a mark at each event, and the events in words below.

use super::on_click;
use crate::playground::format::{duration, fixed, wall_clock};
use crate::playground::journal::Entry;
use crate::playground::Action;
use sqs_engine::Millis;
use yew::prelude::*;

/// Properties of [`history`].
pub struct HistoryProps {
    /// The message's body (or id, once it is gone).
    pub title: String,
    /// Its events, oldest first.
    pub entries: Vec<Entry>,
    /// The root's action callback.
    pub dispatch: Callback<Action>,
}

/// See the module documentation. A function, not a component: a component's lifecycle code is
/// repeated per component in the bundle (~1 KB), and this one is cheap to draw every frame.
pub fn history(props: &HistoryProps) -> Html {
    let close = on_click(&props.dispatch, Action::Select(None));
    let first = props.entries.first().map_or(0, |e| e.at);
    let last = props.entries.last().map_or(0, |e| e.at);
    let span = (last - first).max(1);
    let mut actors: Vec<&str> = Vec::new();
    for e in &props.entries {
        if !actors.contains(&e.actor.as_str()) {
            actors.push(&e.actor);
        }
    }
    let x = |at: Millis| {
        format!(
            "left: {}%",
            fixed((at - first) as f64 * 100.0 / span as f64, 1)
        )
    };
    html! {
        <section class="panel history" aria-label="Message history">
            <header class="panel-head">
                <h2>{ "History of " }<code>{ &props.title }</code></h2>
                <button class="quiet" onclick={close}>{ "Close" }</button>
            </header>
            <p class="panel-sub">{ format!("{} events over {}", props.entries.len(), duration(last - first)) }</p>
            <div class="swimlanes" aria-hidden="true">
                { for actors.iter().map(|actor| html! {
                    <div class="swimlane">
                        <span class="swimlane-name">{ *actor }</span>
                        <span class="swimlane-track">
                            { for props.entries.iter().filter(|e| e.actor == *actor).map(|e| html! {
                                <span class="mark" style={x(e.at)} title={e.text.clone()}></span>
                            }) }
                        </span>
                    </div>
                }) }
            </div>
            <ol class="log">
                { for props.entries.iter().map(|e| html! {
                    <li key={e.seq}>
                        <time>{ wall_clock(e.at) }</time>
                        <span class="who">{ &e.actor }</span>
                        <span>{ &e.text }</span>
                    </li>
                }) }
            </ol>
        </section>
    }
}
